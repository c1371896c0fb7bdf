"""Sentences: ``split_sentences`` and ``sentence_spans``, public, on the fast kernels, and
``embedding_scorer``, a ``sentence_scorer`` made from the caller's embedding function.

The rule (abbreviations, decimals, URLs, ellipses, closing quotes, CJK and other full stops,
line-based text, list markers) is written out in ``docs/semantics.md`` ("Sentences"); both
backends implement it and the parity tests hold them equal.
"""

from __future__ import annotations

import itertools
import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from ._backend import get_kernels
from ._checks import call_back, check_count, real, shown, type_name
from .errors import InputError

__all__ = ["embedding_scorer", "sentence_spans", "split_sentences"]

Embed = Callable[[list[str]], Sequence[Any]]
"""``embed(texts) -> one vector (a sequence of numbers) per text``, in order."""


def sentence_spans(texts: Sequence[str]) -> list[list[tuple[int, int]]]:
    """Each text's sentences as ``(start, end)`` character offsets, in order.

    ``text[start:end]`` is the sentence; the spans of a text do not overlap and together hold
    every non-whitespace character of it (the whitespace between sentences is in none).

    Raises:
        InputError: ``texts`` is not a list of str, or a text holds a lone surrogate.

    >>> sentence_spans(["Dr. Lee said so. It works.", ""])
    [[(0, 16), (17, 26)], []]
    """
    starts, ends, offsets = get_kernels("auto").split_sentences(texts)
    return [list(zip(starts[a:b], ends[a:b], strict=True)) for a, b in itertools.pairwise(offsets)]


def split_sentences(texts: Sequence[str]) -> list[list[str]]:
    """Split each text into sentences (whitespace between them dropped).

    Abbreviations ("e.g.", "Dr.", "U.S."), decimals and versions ("14.5%", "v2.0"), URLs and
    emails do not end a sentence; closing quotes and brackets after a stop belong to it;
    "。", "！", "？", "।", "؟" end one without a space; a line break always ends one, and a
    list marker ("1.", "2)") opening a sentence stays in it.

    Raises:
        InputError: ``texts`` is not a list of str, or a text holds a lone surrogate.

    >>> split_sentences(["SSO costs 14.5% more, e.g. on v2.0. It is new!", "1. Open it.\\n2. Go"])
    [['SSO costs 14.5% more, e.g. on v2.0.', 'It is new!'], ['1. Open it.', '2. Go']]
    """
    starts, ends, offsets = get_kernels("auto").split_sentences(texts)
    texts = list(texts)
    return [
        [texts[i][starts[j] : ends[j]] for j in range(offsets[i], offsets[i + 1])]
        for i in range(len(texts))
    ]


EMBEDDING_CUT = 0.5
"""``embedding_scorer``'s ``cut`` when it is not given: a sentence is relevant when its cosine
is above this share of the best cosine of the call (the request's best sentence). Chosen on
development data (docs/compression.md, "Embedding scorer")."""


def embedding_scorer(
    embed: Embed, *, cut: float = EMBEDDING_CUT, cache_size: int = 10_000
) -> Callable[[str, list[str]], list[float]]:
    """A ``sentence_scorer`` that scores each sentence by the cosine of its embedding with the
    question's, relevant (above 0) only when it is above ``cut`` times the best cosine.

    Cosines of a real model are above 0 for almost every pair of texts, and a caller's score
    above 0 is relevant, so the raw cosine would make every sentence relevant and
    ``compress="all"`` would cut nothing. So the scorer applies a request-relative cut, as the
    built-in scorer does with ``compress_cut``: with ``best`` the highest cosine of the call
    (the one call of a request: every sentence it scores), ``floor = cut * best`` when
    ``best > 0`` (else 0), a sentence whose cosine is above ``floor`` scores its cosine, and
    any other scores its cosine minus ``floor`` (at most 0: not relevant, still ranked, so a
    source with no relevant sentence keeps its best). ``cut`` is in [0, 1], default
    ``EMBEDDING_CUT`` (0.5); ``cut=0`` scores the plain cosine.

    Each request makes ONE ``embed`` call: the question and every sentence whose vector is not
    cached, batched (the question first). Sentence vectors are cached by text, the
    ``cache_size`` most recently used kept. A vector of norm 0 has cosine 0.0. ``embed``
    raising is an ``InputError`` naming it (chained); a batch of the wrong length, a vector
    that is not a sequence of finite numbers, or vectors of different lengths are
    ``InputError``s too.

    Raises:
        InputError: ``embed`` is not callable, ``cut`` is not a number in [0, 1] or
            ``cache_size`` is not an int >= 0 (here); the call or its answer is bad (when
            scoring).

    >>> def embed(texts):  # a toy: counts of "a" and "b"
    ...     return [[t.count("a"), t.count("b")] for t in texts]
    >>> [round(x, 3) for x in embedding_scorer(embed, cut=0)("aa", ["a b", "bbb", "a"])]
    [0.707, 0.0, 1.0]
    >>> [round(x, 3) for x in embedding_scorer(embed, cut=0.8)("aa", ["a b", "bbb", "a"])]
    [-0.093, -0.8, 1.0]
    """
    if not callable(embed):
        raise InputError(
            f"embedding_scorer needs a callable embed(texts) -> vectors, got {type_name(embed)}",
            option="sentence_scorer",
        )
    share = real(cut)
    if share is None or not 0.0 <= share <= 1.0:
        raise InputError(
            f"embedding_scorer: cut must be a number in [0, 1], got {shown(cut)}",
            option="sentence_scorer",
        )
    limit = check_count("cache_size", cache_size)
    cache: OrderedDict[str, tuple[list[float], float]] = OrderedDict()

    def score(question: str, sentences: list[str]) -> list[float]:
        missing = list(dict.fromkeys(s for s in sentences if s not in cache))
        batch = [question, *missing]
        got = call_back("sentence_scorer", "embedding_scorer", embed, batch)
        vectors = _vectors(got, batch)
        q, q_norm = vectors[0]
        fresh = dict(zip(missing, vectors[1:], strict=True))
        cache.update(fresh)
        out: list[float] = []
        for s in sentences:
            v, norm = fresh[s] if s in fresh else cache[s]
            if s in cache:
                cache.move_to_end(s)
            if len(v) != len(q):
                raise InputError(
                    f"embedding_scorer: embed returned a vector of {len(v)} numbers for "
                    f"{s[:40]!r} but {len(q)} for the question; every vector must have the "
                    "same length",
                    option="sentence_scorer",
                )
            dot = math.fsum(a * b for a, b in zip(q, v, strict=True))
            out.append(dot / (q_norm * norm) if q_norm > 0.0 and norm > 0.0 else 0.0)
        while len(cache) > limit:
            cache.popitem(last=False)
        return _cut(out, share)

    return score


def _cut(cosines: list[float], share: float) -> list[float]:
    """``cosines`` with the request-relative cut: at or below ``share`` times the best (when it
    is above 0), a cosine less that floor (<= 0), else the cosine.

    >>> _cut([0.9, 0.5, 0.2, -0.1], 0.5), _cut([0.3, 0.2], 0.0), _cut([-0.2, 0.0], 0.5)
    ([0.9, 0.5, -0.25, -0.55], [0.3, 0.2], [-0.2, 0.0])
    """
    best = max(cosines, default=0.0)
    floor = share * best if best > 0.0 else 0.0
    return [c if c > floor else c - floor for c in cosines]


def _vectors(got: Any, batch: list[str]) -> list[tuple[list[float], float]]:
    """``embed``'s answer for ``batch`` checked: one vector of finite numbers per text, each
    with its norm."""
    if isinstance(got, (str, bytes)) or not hasattr(got, "__len__") or not hasattr(got, "__iter__"):
        raise InputError(
            f"embedding_scorer: embed must return a list of vectors, got {type_name(got)}",
            option="sentence_scorer",
        )
    if len(got) != len(batch):
        raise InputError(
            f"embedding_scorer: embed returned {len(got)} vectors for {len(batch)} texts; "
            "return one vector per text, in the order given",
            option="sentence_scorer",
        )
    out: list[tuple[list[float], float]] = []
    for text, vector in zip(batch, got, strict=True):
        try:
            values = [real(x) for x in vector]
        except TypeError:
            values = [None]
        if not values or any(x is None or not math.isfinite(x) for x in values):
            raise InputError(
                f"embedding_scorer: embed returned {shown(vector)} for {text[:40]!r}; a "
                "vector must be a non-empty sequence of finite numbers",
                option="sentence_scorer",
            )
        floats = [float(x) for x in values if x is not None]
        out.append((floats, math.sqrt(math.fsum(x * x for x in floats))))
    return out
