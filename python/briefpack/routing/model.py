"""The learned fallback of ``route``: hashed n-grams and a multinomial logistic regression.

It runs only when no rule fired. Features of the normalised question (the same form rules see):
every word, every pair of adjacent words, the first five characters of every word longer than
five (a stem, for inflected languages) and every 4-byte window of the UTF-8 text padded with one
space at each end. Each feature is hashed with ``zlib.crc32`` (word, pair and stem features
start the checksum from 1, 2 and 3, windows from 0) into ``buckets`` buckets. Features are
binary: a bucket counts once however often its features occur (so "word " x 200 weighs what
"word" weighs), and a question's vector has ``1 / sqrt(n)`` in each of its ``n`` distinct
buckets. (A file written before that, header without ``"binary": true``, is read with the
counted features it was trained on.)

Weights are stored quantised to int8, one scale per kind, so inference is a sum of small
integers per kind, a multiplication, a softmax: plain Python, no numpy. The weights file is one
line of JSON (format, kinds, buckets, scales, biases, threshold, how it was trained) followed by
``len(kinds) * buckets`` signed bytes, kind by kind.

Training (:func:`train`) is stochastic gradient descent on the cross-entropy with an L2 penalty,
rows visited in an order drawn from ``random.Random(seed)``; only IEEE double arithmetic in a
fixed order and ``math.exp``, so the same rows and options give the same weights byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import zlib
from array import array
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from itertools import pairwise
from operator import itemgetter
from pathlib import Path
from typing import Any

from .._route import KINDS
from ..errors import InputError
from .text import normalize

FORMAT = "briefpack-route-model"
VERSION = 1
MODEL_KINDS: tuple[str, ...] = tuple(k for k in KINDS if k != "whole_corpus")
"""The kinds a model chooses between (``whole_corpus`` is decided by the corpus)."""
DEFAULT_BUCKETS = 1 << 15
DEFAULT_THRESHOLD = 0.6

_crc = zlib.crc32


def _word_features(word: bytes, mask: int) -> list[int]:
    """The buckets of one word: the word, its stem, the 4-byte windows of " word "."""
    out = [_crc(word, 1) & mask]
    if len(word) > 5:
        out.append(_crc(word[:5], 3) & mask)
    padded = b" " + word + b" "
    out += [_crc(padded[i : i + 4]) & mask for i in range(len(padded) - 3)]
    return out


_WORD_CACHE: dict[int, dict[bytes, list[int]]] = {}
"""Per bucket mask, each word's buckets (``_word_features``); bounded in :func:`_words`."""


def _words(words: list[bytes], mask: int) -> list[list[int]]:
    """Each word's buckets, through the cache (at most 50,000 words are kept)."""
    cache = _WORD_CACHE.get(mask)
    if cache is None:
        cache = _WORD_CACHE[mask] = {}
    out = []
    for w in words:
        got = cache.get(w)
        if got is None:
            got = _word_features(w, mask)
            if sum(map(len, _WORD_CACHE.values())) >= 50_000:  # hostile input: bounded
                for c in _WORD_CACHE.values():
                    c.clear()
            cache[w] = got
        out.append(got)
    return out


def _parts(text: str, buckets: int) -> tuple[list[int], list[list[int]]]:
    """A normalised question's word-pair buckets, and each word's buckets (``_words``)."""
    mask = buckets - 1
    data = text.encode("utf-8")
    if not data:
        return [], []
    words = data.split(b" ")
    return [_crc(a + b" " + b, 2) & mask for a, b in pairwise(words)], _words(words, mask)


def features(text: str, buckets: int) -> list[int]:
    """The hashed feature buckets of a normalised question, with repeats (see the module doc;
    models use ``set`` of them: :func:`binary_features`).

    >>> len(features("how many recipes", 1 << 15))  # 3 words, 2 pairs, 1 stem, 11 windows
    17
    """
    pairs, words = _parts(text, buckets)
    for got in words:
        pairs += got
    return pairs


def _distinct(text: str, buckets: int) -> set[int]:
    """``set(features(text, buckets))``, built without the list of repeats."""
    pairs, words = _parts(text, buckets)
    out = set(pairs)
    out.update(*words)
    return out


def binary_features(text: str, buckets: int) -> list[int]:
    """The distinct buckets of a normalised question, in first-seen order: what a model sums.

    >>> many = binary_features(" ".join(["word"] * 200), 1 << 15)
    >>> two = binary_features("word word", 1 << 15)
    >>> len(many) == len(two) < len(features(" ".join(["word"] * 200), 1 << 15))
    True
    """
    return list(dict.fromkeys(features(text, buckets)))


_LANE = 32
"""Bits per kind in a packed weight: the sum of n int8 weights (offset by 128) fits while
n < 2**24, far more features than ``MAX_CHARS`` characters give."""


_UNSIGNED = bytes((x - 256 if x > 127 else x) + 128 for x in range(256))
"""``bytes.translate`` table: a two's-complement int8 to that value + 128."""


def _pack(weights: tuple[array, ...]) -> list[int]:  # type: ignore[type-arg]
    """One int per bucket with every kind's weight + 128 in its own 32-bit lane, so one sum
    over a question's buckets adds all kinds at once."""
    step = 4 * len(weights)
    buf = bytearray(step * len(weights[0]))
    for c, w in enumerate(weights):
        buf[4 * c :: step] = w.tobytes().translate(_UNSIGNED)
    view = bytes(buf)
    return [int.from_bytes(view[i : i + step], "little") for i in range(0, len(view), step)]


@dataclass(frozen=True)
class Model:
    """A trained fallback: int8 weights per kind, a scale and a bias per kind, a threshold.

    ``predict(text)`` gives the most probable kind of a normalised question and its
    probability; ``route`` uses it only when that kind is not ``retrieve`` and the probability
    is at least ``threshold``.

    >>> m = train([("aggregate", "how many recipes use nuts"), ("retrieve", "how do i bake")])
    >>> m.predict("how many recipes use anchovies")[0]
    'aggregate'
    """

    kinds: tuple[str, ...]
    buckets: int
    scales: tuple[float, ...]
    biases: tuple[float, ...]
    weights: tuple[array, ...]  # type: ignore[type-arg]
    threshold: float = DEFAULT_THRESHOLD
    meta: dict[str, Any] = field(default_factory=dict, compare=False)
    binary: bool = True
    _packed_cache: list[list[int]] = field(default_factory=list, compare=False, repr=False)

    def predict(self, text: str) -> tuple[str, float]:
        """The most probable kind of the normalised question ``text`` and its probability.

        >>> default_model().predict("how many recipes use anchovies")[0]
        'aggregate'
        """
        feats: Collection[int] = (  # integer sums: the order does not matter
            _distinct(text, self.buckets) if self.binary else features(text, self.buckets)
        )
        n = len(feats)
        if not n:
            return self.kinds[0], 1.0
        packed = self._packed()
        total = packed[next(iter(feats))] if n == 1 else sum(itemgetter(*feats)(packed))
        norm = 1.0 / math.sqrt(n)
        lane = (1 << _LANE) - 1
        offset = 128 * n
        scores = [
            bias + scale * norm * (((total >> (_LANE * c)) & lane) - offset)
            for c, (bias, scale) in enumerate(zip(self.biases, self.scales))
        ]
        top = max(scores)
        best = scores.index(top)
        return self.kinds[best], 1.0 / sum(math.exp(x - top) for x in scores)

    def _packed(self) -> list[int]:
        if not self._packed_cache:
            self._packed_cache.append(_pack(self.weights))
        return self._packed_cache[0]

    def to_bytes(self) -> bytes:
        """The weights file: one JSON line, then the int8 weights kind by kind."""
        header = {
            "format": FORMAT,
            "version": VERSION,
            "kinds": list(self.kinds),
            "buckets": self.buckets,
            "scales": [float(s) for s in self.scales],
            "biases": [float(b) for b in self.biases],
            "threshold": self.threshold,
            "meta": self.meta,
        }
        if self.binary:
            header["binary"] = True
        head = json.dumps(header, sort_keys=True, separators=(",", ":")).encode("utf-8")
        return head + b"\n" + b"".join(w.tobytes() for w in self.weights)

    def save(self, path: str | Path) -> None:
        """Write the weights file (see :meth:`to_bytes`) to ``path``."""
        Path(path).write_bytes(self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes, where: str = "model") -> Model:
        """Read a weights file written by :meth:`to_bytes`; InputError if it is not one."""
        head, sep, body = data.partition(b"\n")
        try:
            header = json.loads(head.decode("utf-8")) if sep else None
        except (UnicodeDecodeError, ValueError):
            header = None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise InputError(f"{where}: not a briefpack routing model (no {FORMAT} header)")
        if header.get("version") != VERSION:
            raise InputError(f"{where}: model version {header.get('version')!r}, want {VERSION}")
        kinds = tuple(header["kinds"])
        buckets = int(header["buckets"])
        if len(body) != len(kinds) * buckets or buckets & (buckets - 1):
            raise InputError(
                f"{where}: {len(body)} weight bytes for {len(kinds)} kinds x {buckets} buckets"
            )
        weights = tuple(
            array("b", body[i * buckets : (i + 1) * buckets]) for i in range(len(kinds))
        )
        return cls(
            kinds,
            buckets,
            tuple(float(s) for s in header["scales"]),
            tuple(float(b) for b in header["biases"]),
            weights,
            float(header["threshold"]),
            dict(header.get("meta") or {}),
            header.get("binary") is True,
        )

    @classmethod
    def load(cls, path: str | Path) -> Model:
        """Read a weights file; InputError naming the path if it cannot be read or parsed.

        >>> import tempfile, os
        >>> path = os.path.join(tempfile.mkdtemp(), "m.bin")
        >>> train([("aggregate", "how many x"), ("retrieve", "why y")]).save(path)
        >>> Model.load(path).kinds[:2]
        ('retrieve', 'aggregate')
        """
        try:
            data = Path(path).read_bytes()
        except (OSError, ValueError) as exc:  # ValueError: a NUL byte or a lone surrogate
            why = exc.strerror if isinstance(exc, OSError) else "not a valid path"
            raise InputError(f"cannot read the routing model {path!r}: {why}") from None
        return cls.from_bytes(data, str(path))


def load_rows(path: str | Path) -> list[tuple[str, str]]:
    """Labelled questions from a TSV file for :func:`train`: ``kind<TAB>question`` or
    ``kind<TAB>split<TAB>corpus<TAB>question`` per line (the repository's format; rows with a
    corpus other than ``-`` and ``whole_corpus`` rows are skipped: a corpus decides those).
    Blank lines, lines starting with ``#`` and a header line starting with ``kind`` are
    ignored. InputError names the file and line of a malformed row.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "rows.tsv"
    >>> _ = path.write_text("kind\\tquestion\\naggregate\\tHow many orders?\\n")
    >>> load_rows(path)
    [('aggregate', 'How many orders?')]
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:  # UnicodeDecodeError, a NUL byte, a lone surrogate
        if isinstance(exc, OSError):
            why = exc.strerror
        else:
            why = "not UTF-8" if isinstance(exc, UnicodeDecodeError) else "not a valid path"
        raise InputError(f"cannot read {path}: {why}") from None
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if cells[0] == "kind":
            continue
        if len(cells) == 2:
            cells = [cells[0], "all", "-", cells[1]]
        if len(cells) != 4 or cells[0] not in (*MODEL_KINDS, "whole_corpus"):
            raise InputError(
                f"{path}:{number}: expected kind<TAB>question (kind one of "
                f"{', '.join(MODEL_KINDS)}), got {line[:80]!r}"
            )
        kind, _, corpus, question = cells
        if kind != "whole_corpus" and corpus == "-":
            rows.append((kind, question))
    return rows


_DEFAULT: list[Model] = []


def default_model() -> Model:
    """The shipped model (``briefpack/data/routing_model.bin``), read on first use.

    >>> default_model().kinds == MODEL_KINDS
    True
    """
    if not _DEFAULT:
        data = resources.files("briefpack").joinpath("data/routing_model.bin").read_bytes()
        _DEFAULT.append(Model.from_bytes(data, "briefpack/data/routing_model.bin"))
    return _DEFAULT[0]


def _check_rows(rows: object) -> list[tuple[str, str]]:
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable):
        raise InputError("rows must be a list of (kind, question) pairs")
    out = []
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != 2:
            raise InputError(f"rows[{i}] must be a (kind, question) pair, got {row!r}")
        kind, question = row
        if kind not in MODEL_KINDS:
            legal = ", ".join(repr(k) for k in MODEL_KINDS)
            raise InputError(f"rows[{i}]: kind must be one of {legal}, got {kind!r}")
        if not isinstance(question, str):
            raise InputError(f"rows[{i}]: question must be a str, got {question!r}")
        out.append((kind, question))
    if not any(k == "retrieve" for k, _ in out) or len({k for k, _ in out}) < 2:
        raise InputError(
            "rows need ordinary questions (kind 'retrieve') and at least one other kind; "
            "a model that never saw an ordinary question would send everything away"
        )
    return out


def train(
    rows: Iterable[tuple[str, str]],
    *,
    buckets: int = DEFAULT_BUCKETS,
    epochs: int = 30,
    rate: float = 0.5,
    l2: float = 1e-4,
    seed: int = 0,
    threshold: float = DEFAULT_THRESHOLD,
) -> Model:
    """Train a fallback model on labelled ``(kind, question)`` rows; deterministic.

    Questions are normalised as ``route`` normalises them. ``kind`` is one of
    ``MODEL_KINDS``; the rows must include ordinary questions (``"retrieve"``).

    >>> rows = [("recency", "what was added this week"), ("retrieve", "what is sso")] * 3
    >>> train(rows).predict("what was added today")[0]
    'recency'
    >>> train(rows).to_bytes() == train(rows).to_bytes()
    True
    """
    if not isinstance(buckets, int) or buckets < 2 or buckets & (buckets - 1):
        raise InputError(f"buckets must be a power of two >= 2, got {buckets!r}")
    checked = _check_rows(rows)
    kinds = MODEL_KINDS
    k = len(kinds)
    data = []
    for kind, question in checked:
        feats = binary_features(normalize(question)[:MAX_CHARS], buckets)
        data.append((kinds.index(kind), feats, 1.0 / math.sqrt(len(feats)) if feats else 0.0))
    w = [[0.0] * buckets for _ in range(k)]
    bias = [0.0] * k
    order = list(range(len(data)))
    rng = random.Random(seed)
    step = 0
    for epoch in range(epochs):
        rng.shuffle(order)
        lr = rate / (1.0 + epoch)
        for i in order:
            y, feats, x = data[i]
            step += 1
            scores = [bias[c] + x * sum(w[c][f] for f in feats) for c in range(k)]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            for c in range(k):
                g = exps[c] / total - (1.0 if c == y else 0.0)
                bias[c] -= lr * g * 0.1
                wc = w[c]
                gx = lr * g * x
                for f in feats:
                    wc[f] -= gx + lr * l2 * wc[f]
    scales = []
    quantised = []
    for c in range(k):
        peak = max(abs(v) for v in w[c]) or 1.0
        scale = peak / 127.0
        scales.append(scale)
        quantised.append(array("b", (max(-127, min(127, round(v / scale))) for v in w[c])))
    digest = hashlib.sha256(
        "\n".join(f"{kind}\t{q}" for kind, q in checked).encode("utf-8")
    ).hexdigest()
    meta = {
        "rows": len(checked),
        "rows_sha256": digest,
        "epochs": epochs,
        "rate": rate,
        "l2": l2,
        "seed": seed,
    }
    return Model(kinds, buckets, tuple(scales), tuple(bias), tuple(quantised), threshold, meta)


MAX_CHARS = 1000
"""Rules and the model read at most this many characters of the normalised question."""
