"""Stage 6's compression (``compress="overflow"`` or ``"all"``): a source cut to its relevant
sentences, as a stage of its own (``run``) and as the budget stage's declared cut hook (``fit``).

Each item's text is split into sentences (``split_sentences``) and every sentence is scored
against the question, in one call per request: the built-in scorer (BM25 over the request's
sentences, with the abbreviations the candidates define read as one term: ``score_sentences``)
or the caller's ``sentence_scorer(question, sentences)``. A sentence is *relevant* when its
score is above 0 and, with the built-in scorer, at least ``compress_cut`` (default
``DEFAULT_CUT``; 0: no cut) times the best score of the sentences scored in that call (the
request's best); a text with no relevant sentence keeps its best one (its first, on ties), so
a compressed source is never empty. A *cut* of an item keeps the ``j``
best sentences (score descending, ties in text order) plus the neighbours that continue them
(``select_sentences``: "It needs the add-on." keeps its antecedent), for ``j`` from 1 to the
number of relevant sentences. The cut text is the kept sentences in their original order;
adjacent ones keep the text between them as it was, non-adjacent ones are joined by
``ELISION``. The item keeps its chunk's id, title, url, date and score, and carries a
``Compression`` (kept indices, every removed sentence's text).

* ``run``, the stage (``"all"``, just before the budget): every item becomes its cut with every
  relevant sentence (an item whose sentences are all relevant stays whole).
* ``fit``, the budget stage's cut hook (``budget.Cut``; the plan passes it in both modes): an
  item that does not fit in what is left is placed as its largest cut (largest ``j``) that
  fits, if any; no sentence is cut. The kept set grows with ``j`` (a continuation of a kept
  sentence is kept), so the cut is found by bisection on ``j``: first the largest ``j`` whose
  cut still removes a sentence, then the largest ``j`` up to it whose cut fits, each step one
  cut made, rendered and counted only up to what is left (``count_limited``).
* ``spread``, global ranking (``fit`` calls it when the first misfit is the best source,
  ``GLOBAL_TOP``): segments chosen across the best ``GLOBAL_WINDOW`` items by score, each
  item's kept sentences in text order, priced exactly as the budget stage prices blocks;
  under ``overflow="stop"`` the items placed are a prefix of the ranking. The budget stage
  places its ``Spread`` instead of what it had placed.
  Invariants, cost and rejected designs: docs/semantics.md ("Compression").
"""

from __future__ import annotations

import bisect
import contextlib
import heapq
import itertools
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .._checks import call_back, real, shown, type_name
from .._fold import fold
from ..errors import InputError
from ..prompt import render_source
from ..types import Compression
from .budget import Spread
from .context import Item, Request

__all__ = ["DEFAULT_CUT", "ELISION", "GLOBAL_TOP", "fit", "run", "score", "spread"]

DEFAULT_CUT = 0.2
"""``compress_cut`` when it is not given (built-in scorer): a sentence is relevant when it
scores at least this share of the best sentence scored with it (its request's best, as one
scorer call sees them). Chosen on the dev splits of docs/compression.md; ``compress_cut=0``
is the rule before it (every sentence scoring above 0)."""

GLOBAL_TOP = 1
"""Global ranking applies when the packing's first misfit is one of the ``GLOBAL_TOP`` best
sources (every source above it placed whole): the budget holds fewer than this many whole
sources. Chosen on the dev splits of docs/compression.md ("Global ranking")."""

GLOBAL_WINDOW = 32
"""The sources global ranking chooses among: the best ``GLOBAL_WINDOW`` (a bound on time)."""

GLOBAL_TRIES = 256
"""At most this many segments are tried (one count each) by one global choice."""

ELISION = " \u2026 "
"""What stands between two kept sentences that were not adjacent: `` … `` (U+2026 with a
space either side; never a label look-alike such as ``[…]``)."""


@dataclass(slots=True)
class Sentences:
    """One item's uncompressed text, its sentences and their scores."""

    text: str
    spans: list[tuple[int, int]]
    scores: list[float]
    ranking: list[int]  # sentence indices, best score first, ties in text order
    relevant: int  # how many of ``ranking`` may be kept (>= 1 when there are sentences)
    bridges: tuple[int, ...] = ()  # relevant as bridges (``_bridges``), ascending
    segments: Segments | None = None  # made by the first cut (``_segments``)


def _key(item: Item) -> int:
    return item.members[0]


def score(items: Sequence[Item], req: Request) -> None:
    """Split and score the sentences of every item of ``items`` not yet scored, in one call."""
    todo = [it for it in items if _key(it) not in req.scratch.sentences]
    if not todo:
        return
    texts = [it.chunk.text for it in todo]  # uncut: an item is scored before any cut
    starts, ends, offsets = req.kernels.split_sentences(texts)
    flat = [texts[i][starts[j] : ends[j]] for i in range(len(todo)) for j in _range(offsets, i)]
    scores = _scores(flat, req, todo, offsets) if flat else []
    cut = req.options.compress_cut
    if req.options.sentence_scorer is not None:
        floor = 0.0  # a caller's scorer decides relevance itself: a score above 0
    else:
        floor = (DEFAULT_CUT if cut is None else cut) * max(scores, default=0.0)
    firsts = [
        [s > 0.0 and s >= floor for s in scores[offsets[i] : offsets[i + 1]]]
        for i in range(len(todo))
    ]
    bridged = (
        _bridges(flat, scores, firsts, offsets, [it.chunk.title for it in todo], req.question)
        if req.options.compress_bridge and len(todo) > 1
        else [set() for _ in todo]
    )
    for i, it in enumerate(todo):
        spans = [(starts[j], ends[j]) for j in _range(offsets, i)]
        mine = scores[offsets[i] : offsets[i + 1]]
        mark, extra = firsts[i], bridged[i]
        # the relevant sentences by score, then the bridges by score, then the rest
        ranking = sorted(
            range(len(mine)), key=lambda k: (0 if mark[k] else 1 if k in extra else 2, -mine[k], k)
        )
        relevant = _relevant(mine, floor) + len(extra) if mine else 0
        if extra and not any(mark):
            relevant -= 1  # no relevant sentence: the bridges stand in for the best one
        req.scratch.sentences[_key(it)] = Sentences(
            texts[i], spans, mine, ranking, relevant, tuple(sorted(extra))
        )


def _relevant(scores: Sequence[float], floor: float) -> int:
    """How many sentences of one text are relevant (>= 1): those scoring above 0 and at least
    ``floor`` (the request's cut: ``compress_cut`` times the best score of the sentences
    scored with these).

    >>> _relevant([0.0, 2.0, 0.9, 1.0], 0.0), _relevant([0.0, 2.0, 0.9, 1.0], 1.0)
    (3, 2)
    >>> _relevant([0.0, 0.0], 0.5), _relevant([3.0, 3.0], 3.0), _relevant([1.0, 0.5], 4.0)
    (1, 2, 1)
    """
    return max(sum(1 for s in scores if s > 0.0 and s >= floor), 1)


BRIDGE_ENTITIES = 64
"""At most this many entities (``compress_bridge``) are taken from a request's relevant
sentences, best sentence first; the rest are ignored."""

BRIDGE_SENTENCES = 256
"""``compress_bridge`` takes entities from at most this many of a request's relevant
sentences, the best first."""

BRIDGE_CHARS = 1_000_000
"""``compress_bridge`` reads at most this many characters of a request's sentences (the
relevant ones for entities, then the others for mentions, in order); past it, no bridge."""

_BRIDGE_WORDS = 8  # an entity longer than this many words is not one
_BRIDGE_TITLE = 200  # a longer title is not looked for
_TOKEN = re.compile(r"\w+(?:['\u2019\-]\w+)*")
_QUOTED = re.compile(r"[\"\u201c]([^\"\u201c\u201d]{2,80})[\"\u201d]")
_NUMBER = re.compile(r"\d[\d,.]*")
_PAREN = re.compile(r"\s*\([^()]*\)\s*$")
_LINKS = frozenset(
    ["of", "the", "and", "de", "da", "del", "der", "di", "du", "la", "le", "van", "von", "y"]
)
_LEADS = frozenset(
    [
        "the",
        "a",
        "an",
        "in",
        "on",
        "at",
        "of",
        "for",
        "by",
        "from",
        "with",
        "to",
        "as",
        "and",
        "but",
        "or",
    ]
)
_UNITS = frozenset(
    [
        "km",
        "mi",
        "m",
        "cm",
        "mm",
        "kg",
        "g",
        "lb",
        "lbs",
        "ft",
        "mph",
        "kmh",
        "kw",
        "mw",
        "hp",
        "acres",
        "hectares",
        "ha",
        "metres",
        "meters",
        "miles",
        "kilometres",
        "kilometers",
        "feet",
        "pounds",
        "tonnes",
        "tons",
        "percent",
        "million",
        "billion",
    ]
)


def _words(text: str) -> list[str]:
    """``text``'s words for matching entities: lowercased and folded for accents (``fold``),
    split at anything but a letter or digit ("Hork-Bajir" is two words)."""
    return [w if w.isascii() else fold(w) for w in re.findall(r"[^\W_]+", text.lower())]


def _entities(sentence: str) -> list[str]:
    """The names ``sentence`` introduces: runs of two or more capitalised words (with "of",
    "de", "van", ... between them; a leading "The" or "In" dropped), quoted titles, and
    numbers with a unit.

    >>> _entities('In 1998 Shirley Temple Black starred in "Kiss and Tell", 12 km away.')
    ['Shirley Temple Black', 'Kiss and Tell', '12 km']
    """
    out: list[str] = []
    run: list[str] = []  # the current run of capitalised words (links kept inside)
    tokens = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(sentence)]
    prev_end = -1
    for i, (tok, start, end) in enumerate(tokens):
        gap = sentence[prev_end:start] if prev_end >= 0 else " "
        joined = gap.strip() == ""
        if (tok[0].isupper() and (joined or not run)) or (
            run and joined and tok.lower() in _LINKS and i + 1 < len(tokens)
        ):
            run.append(tok)
        else:
            _close(run, out)
            run = [tok] if tok[0].isupper() else []
        if _NUMBER.fullmatch(tok) and i + 1 < len(tokens):
            unit = tokens[i + 1][0]
            if unit.lower() in _UNITS and sentence[end : tokens[i + 1][1]].strip() == "":
                out.append(f"{tok} {unit}")
        prev_end = end
    _close(run, out)
    out.extend(m.group(1).strip() for m in _QUOTED.finditer(sentence) if m.group(1)[:1].isupper())
    return list(dict.fromkeys(out))


def _close(run: list[str], out: list[str]) -> None:
    while run and run[-1].lower() in _LINKS:
        run.pop()
    while run and run[0].lower() in _LEADS:
        run.pop(0)
    if len(run) >= 2:
        out.append(" ".join(run))
    run.clear()


def _bridges(
    sentences: Sequence[str],
    scores: Sequence[float],
    relevant: Sequence[Sequence[bool]],
    offsets: Sequence[int],
    titles: Sequence[str],
    question: str,
) -> list[set[int]]:
    """``compress_bridge``: per text (``offsets`` apart), the indices in it of the sentences
    kept as *bridges*. A relevant sentence's entities (``_entities``) that the question does
    not name are looked up in the other texts' sentences that are not relevant; an entity that
    exactly one other text names makes that text's best such sentence (first, on ties) a
    bridge (one per text: an entity named all over the request, such as a country, is no
    link). A relevant sentence naming another text's title (without a trailing
    parenthesis, "Kiss and Tell (1945 film)" -> "Kiss and Tell") makes that text's first
    sentence a bridge. Words are compared lowercased and folded for accents (``_words``),
    so the question's words and the sentences' are folded the same way.

    Bounded: at most ``BRIDGE_ENTITIES`` entities, from at most ``BRIDGE_SENTENCES`` relevant
    sentences (the best first), and ``BRIDGE_CHARS`` characters read; each sentence is
    matched in time linear in its words (an entity is looked up by its first word, and has
    at most ``_BRIDGE_WORDS``).
    """
    n = len(offsets) - 1
    out: list[set[int]] = [set() for _ in range(n)]
    owner = [i for i in range(n) for _ in range(offsets[i + 1] - offsets[i])]
    asked = set(_words(question))
    budget = BRIDGE_CHARS
    kept = [j for j in range(len(sentences)) if relevant[owner[j]][j - offsets[owner[j]]]]
    kept.sort(key=lambda j: (-scores[j], j))
    found: dict[tuple[str, ...], set[int]] = {}  # entity words -> the texts introducing it
    said: list[tuple[int, list[str]]] = []  # the relevant sentences read, as words
    for j in kept[:BRIDGE_SENTENCES]:
        if len(found) >= BRIDGE_ENTITIES or budget < len(sentences[j]):
            break
        budget -= len(sentences[j])
        said.append((j, _words(sentences[j])))
        for name in _entities(sentences[j]):
            key = tuple(_words(name))
            fresh = 0 < len(key) <= _BRIDGE_WORDS and not asked.issuperset(key)
            if fresh and (key in found or len(found) < BRIDGE_ENTITIES):
                found.setdefault(key, set()).add(owner[j])
    titled: dict[tuple[str, ...], int] = {}
    for i, title in enumerate(titles):
        if len(title) > _BRIDGE_TITLE:
            continue
        key = tuple(_words(_PAREN.sub("", title)))
        if 0 < len(key) <= _BRIDGE_WORDS and not asked.issuperset(key):
            titled.setdefault(key, i)
    if titled:
        for j, ws in said:
            for key in _named(ws, _by_first(titled)):
                i = titled[key]
                if i != owner[j] and offsets[i + 1] > offsets[i] and not relevant[i][0]:
                    out[i].add(0)
    if not found:
        return out
    firsts = _by_first(found)
    named: dict[tuple[str, ...], list[int]] = {}  # entity -> the sentences naming it
    for j, sentence in enumerate(sentences):
        i = owner[j]
        if relevant[i][j - offsets[i]]:
            continue
        if budget < len(sentence):
            break
        budget -= len(sentence)
        for key in _named(_words(sentence), firsts):
            if found[key] - {i}:
                named.setdefault(key, []).append(j)
    best: dict[int, int] = {}  # text -> its best bridge
    for js in named.values():
        if len({owner[j] for j in js}) != 1:
            continue
        for j in js:
            i = owner[j]
            if i not in best or (-scores[j], j) < (-scores[best[i]], best[i]):
                best[i] = j
    for i, j in best.items():
        out[i].add(j - offsets[i])
    return out


def _by_first(keys: Iterable[tuple[str, ...]]) -> dict[str, list[tuple[str, ...]]]:
    index: dict[str, list[tuple[str, ...]]] = {}
    for key in keys:
        index.setdefault(key[0], []).append(key)
    return index


def _named(
    words: Sequence[str], by_first: dict[str, list[tuple[str, ...]]]
) -> list[tuple[str, ...]]:
    """The entities of ``by_first`` (by their first word) that ``words`` names, in order."""
    hits: list[tuple[str, ...]] = []
    for p, w in enumerate(words):
        for key in by_first.get(w, ()):
            if tuple(words[p : p + len(key)]) == key:
                hits.append(key)
    return hits


def _range(offsets: Sequence[int], i: int) -> range:
    return range(offsets[i], offsets[i + 1])


def _scores(
    sentences: list[str], req: Request, items: Sequence[Item], offsets: Sequence[int]
) -> list[float]:
    """The scores of ``sentences`` (those of ``items``, ``offsets`` apart): the built-in
    scorer's, or the caller's checked (one finite number per sentence); a caller's scorer
    that raises, or answers otherwise, is an ``InputError`` naming the candidates scored."""
    scorer = req.options.sentence_scorer
    if scorer is None:
        aliases = [c.text for c in req.chunks]
        return req.kernels.score_sentences(req.question, sentences, aliases)

    def of(i: int) -> str:  # the candidate sentence i belongs to
        return req.name(items[bisect.bisect_right(offsets, i) - 1])

    where = f"scoring the sentences of {_names(items, req)}"
    got = call_back("sentence_scorer", where, scorer, req.question, list(sentences))
    if not isinstance(got, Sequence) and not isinstance(got, (str, bytes)):
        with contextlib.suppress(TypeError):
            got = list(got)  # a numpy array (of numpy floats: numbers.Real), a generator
    if isinstance(got, (str, bytes)) or not isinstance(got, Sequence):
        raise InputError(
            f"{where}: sentence_scorer must return a list of numbers, got {type_name(got)}",
            option="sentence_scorer",
        )
    if len(got) != len(sentences):
        raise InputError(
            f"{where}: sentence_scorer returned {len(got)} scores for {len(sentences)} "
            "sentences; "
            "return one score per sentence, in the order given",
            option="sentence_scorer",
        )
    out: list[float] = []
    for i, s in enumerate(got):
        x = real(s)  # a huge int is inf here, not an OverflowError
        if x is None or not math.isfinite(x):
            raise InputError(
                f"sentence_scorer returned {shown(s)} for sentence {i} of {len(sentences)} "
                f"({sentences[i][:40]!r}, of {of(i)}); scores must be finite numbers",
                option="sentence_scorer",
            )
        out.append(x)
    return out


def _names(items: Sequence[Item], req: Request) -> str:
    """The candidates of ``items`` as messages name them (the first three, then a count)."""
    names = [req.name(it) for it in items[:3]]
    more = len(items) - len(names)
    return ", ".join(names) + (f" and {more} more" if more else "")


def _segments(data: Sentences, req: Request) -> Segments:
    """``data``'s sentences as segments, by the cut that first keeps them (made once).

    A segment is a sentence that does not continue its predecessor and the run of sentences
    after it that each do (``select_sentences``'s rule keeps the whole segment of a kept
    sentence: the continuations forward, the antecedents back). So cut ``j`` is the union of
    the segments holding one of the ``j`` best sentences, and a segment enters at the rank
    of its best sentence. Which sentences continue their predecessor is one
    ``select_sentences`` call over the pairs ``(k - 1, k)``, the first of each marked; the
    rest is O(n log n).
    """
    if data.segments is not None:
        return data.segments
    n, text = len(data.spans), data.text
    sentences = [text[a:b] for a, b in data.spans]
    flat: list[str] = [""] * (2 * n - 2)  # the pairs (k - 1, k), k >= 1
    flat[0::2], flat[1::2] = sentences[:-1], sentences[1:]
    marks = [1.0, 0.0] * (n - 1)
    picked = req.kernels.select_sentences(flat, marks, 1.0, range(0, len(flat) + 1, 2))
    del flat, marks, sentences
    head = bytearray(b"\x01") * (n + 1)  # head[k]: sentence k starts a segment (and n)
    for p in picked:
        if p & 1:  # the second of pair k - 1: sentence k continues sentence k - 1
            head[(p + 1) >> 1] = 0
    del picked
    rank = [0] * n  # 1 for the best sentence
    for pos, k in enumerate(data.ranking, 1):
        rank[k] = pos
    firsts = [k for k in range(n + 1) if head[k]]
    by_entry: list[tuple[int, int] | None] = [None] * (n + 1)  # ranks are distinct
    for a, b in itertools.pairwise(firsts):
        by_entry[min(rank[a:b])] = (a, b - 1)
    entries = [e for e in range(n + 1) if by_entry[e] is not None]
    ranges = [r for r in by_entry if r is not None]
    sizes = [0] * (len(ranges) + 1)
    for m, (a, b) in enumerate(ranges, 1):
        sizes[m] = sizes[m - 1] + b - a + 1
    data.segments = Segments(entries, ranges, sizes)
    return data.segments


@dataclass(slots=True)
class Segments:
    """An item's segments in the order cuts take them in (see ``_segments``)."""

    entries: list[int]  # the smallest ``j`` whose cut keeps each segment, ascending
    ranges: list[tuple[int, int]]  # each segment's first and last sentence
    sizes: list[int]  # sizes[m]: sentences in the first m segments

    def count(self, j: int) -> int:
        """How many sentences cut ``j`` keeps. O(log n)."""
        return self.sizes[bisect.bisect_right(self.entries, j)]

    def keep(self, j: int) -> list[int]:
        """Cut ``j``'s sentences, ascending. O(kept + segments kept * log)."""
        m = bisect.bisect_right(self.entries, j)
        return [k for a, b in sorted(self.ranges[:m]) for k in range(a, b + 1)]


def _keep(data: Sentences, j: int, req: Request) -> list[int]:
    """Cut ``j``: the ``j`` best sentences and the neighbours that continue them, ascending."""
    return _segments(data, req).keep(j)


def _text(data: Sentences, keep: list[int]) -> str:
    """The cut text of ``keep`` (ascending): runs of adjacent sentences as they were, joined
    by ``ELISION``."""
    pieces: list[str] = []
    run_start = prev = keep[0]
    for k in [*keep[1:], -1]:
        if k == prev + 1:
            prev = k
            continue
        pieces.append(data.text[data.spans[run_start][0] : data.spans[prev][1]])
        run_start = prev = k
    return ELISION.join(pieces)


def _cut(item: Item, data: Sentences, keep: list[int]) -> Item:
    """``item`` with its text cut to the sentences ``keep`` (ascending)."""
    kept = set(keep)
    removed = tuple(data.text[a:b] for i, (a, b) in enumerate(data.spans) if i not in kept)
    chunk = item.chunk.replace(text=_text(data, keep), tokens=None)
    return Item(
        chunk,
        item.members,
        item.vector,
        item.expanded,
        item.vector_checked,
        Compression(
            len(data.spans), tuple(keep), removed, tuple(k for k in data.bridges if k in kept)
        ),
    )


def run(items: list[Item], req: Request) -> list[Item]:
    """``compress="all"``: every item cut to its relevant sentences (and their continuations)."""
    score(items, req)
    out: list[Item] = []
    for it in items:
        data = req.scratch.sentences[_key(it)]
        keep = _keep(data, data.relevant, req) if data.spans else []
        out.append(_cut(it, data, keep) if 0 < len(keep) < len(data.spans) else it)
    return out


def fit(
    items: list[Item], k: int, req: Request, widest: str, left: int, n_sep: int,
    *, whole: int | None = None,
) -> tuple[Item, int] | Spread | None:  # fmt: skip
    """The budget stage's hook: ``items[k]``, which does not fit in ``left`` tokens, cut to
    its largest cut that does, with that cut's cost; ``None`` when no cut fits.

    Scores ``items[k:]`` first if they are not scored yet (the one scorer call of a request
    under ``compress="overflow"``: the item that does not fit and every item below it).
    ``whole`` (the context budget; the budget stage passes it at the first misfit, every item
    above it placed whole): when ``k < GLOBAL_TOP``, the global choice (``spread``) instead,
    if it places anything.
    """
    if whole is not None and k < GLOBAL_TOP and not req.has_pages:
        got = spread(items, req, widest, whole, n_sep)
        if got is not None:
            return got
    score(items[k:], req)
    item = items[k]
    data = req.scratch.sentences[_key(item)]
    n = len(data.spans)
    if not n:
        return None
    labels, limit = req.options.labels, max(0, left - n_sep)

    def cost(keep: list[int]) -> int:  # exact up to ``limit``, some number past it beyond
        block = render_source(
            widest, item.chunk.replace(text=_text(data, keep), tokens=None), labels
        )
        return req.count_limited([block], [limit], lambda _: req.name(item))[0] + n_sep

    # the largest j whose cut removes a sentence (kept sets grow with j), then the largest
    # j <= that whose cut fits (counts grow with the kept set), galloping up from j = 1 so
    # that the cuts made are about as large as what fits
    segments = _segments(data, req)
    top = _largest(1, data.relevant, lambda j: segments.count(j) < n)
    if top is None:
        return None
    best = _largest(1, top, lambda j: cost(segments.keep(j)) <= left, gallop=True)
    if best is None:
        return None
    keep = segments.keep(best)
    return _cut(item, data, keep), cost(keep)


def _largest(lo: int, hi: int, ok: Callable[[int], bool], *, gallop: bool = False) -> int | None:
    """The largest ``j`` in ``[lo, hi]`` with ``ok(j)``, for an ``ok`` true up to some ``j``
    and false after it (None if ``ok(lo)`` is false): O(log(hi - lo)) calls of ``ok``.
    ``gallop``: try ``lo``, ``lo + 1``, ``lo + 3``, ``lo + 7``, ... before bisecting, so that
    no ``j`` much past the answer is tried (for an ``ok`` whose cost grows with ``j``);
    else ``hi`` first.

    >>> _largest(1, 100, lambda j: j <= 37), _largest(1, 9, lambda j: False)
    (37, None)
    >>> _largest(1, 100, lambda j: j <= 37, gallop=True), _largest(1, 5, bool, gallop=True)
    (37, 5)
    """
    if gallop:
        if not ok(lo):
            return None
        step = 1
        while True:  # ok(lo)
            nxt = min(lo + step, hi)
            if nxt == lo:
                return lo
            if not ok(nxt):
                hi = nxt
                break
            lo, step = nxt, step * 2
    else:
        if ok(hi):
            return hi
        if not ok(lo):
            return None
    while hi - lo > 1:  # ok(lo), not ok(hi)
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo


def _choose(
    waiting: list[tuple[float, int, int, int]],
    width: int | None,
    budget: int,
    n_sep: int,
    taken: dict[int, list[int]],
    costs: dict[int, int],
    price: Callable[[int, list[int], int], int],
    shorter: Callable[[int, int, int], int | None] | None = None,
) -> None:
    """Take the ``waiting`` units (score, item, tie, unit) best first while they fit: an item's
    block with the unit added costs ``price(item, units, limit)``; ``taken`` and ``costs`` are
    filled in place. With ``width`` None an item opens only once every item above it holds a
    unit (``overflow="stop"``); otherwise the first ``width`` items may open. ``shorter``: while
    nothing is taken, a unit that does not fit is replaced by ``shorter(item, unit, room)``
    (a part of it that fits, or None)."""
    used = 0
    while waiting:
        opens = len(taken) if width is None else width  # taken is a prefix under "stop"
        at = next((u for u, unit in enumerate(waiting) if unit[1] <= opens), None)
        if at is None:
            break
        _, i, _, m = waiting.pop(at)
        room = budget - used + costs.get(i, 0)  # what this item's block may cost
        if room <= n_sep:
            continue
        ms = [*taken.get(i, []), m]
        c = price(i, ms, room - n_sep)
        if c > room and not taken and shorter is not None:
            part = shorter(i, m, room)
            if part is not None:
                ms = [part]
                c = price(i, ms, room - n_sep)
        if c <= room:
            taken[i], used = ms, used - costs.get(i, 0) + c
            costs[i] = c


def spread(items: list[Item], req: Request, widest: str, budget: int, n_sep: int) -> Spread | None:
    """Global ranking: sentences chosen across the best ``GLOBAL_WINDOW`` items by score
    to fill ``budget``; None when not one segment of any of them fits.

    Every item is scored (one scorer call, if none is scored yet). The units are segments
    (``_segments``: a sentence with its continuations, kept whole), each scored by its best
    sentence: every segment (those scoring nothing fill what is left last), or under
    ``"all"`` those of its relevant cut only (the cut made before the budget stands); tried
    best first (ties: the item ranked higher, then
    the segment earlier in its text), at most ``GLOBAL_TRIES`` of them: a segment is taken
    when its item's block with every segment taken so far, rendered with the ``widest``
    label and counted with its separator, still fits with the others' blocks in ``budget``
    (exact: the sum of the blocks' counts and separators, as the budget stage counts them).
    Under ``overflow="stop"`` an item may take its first segment only once every item above
    it holds one (the items placed are a prefix of the ranking: rank fidelity); its units
    wait until then. Under ``"overflow"``, while nothing is taken, a segment that does not fit
    is tried as its best sentence with the most of the segment's sentences after it that fit
    (``shorter``; O(log n) counts), before the next unit. A taken item keeps its taken
    sentences in text order; one that keeps
    all of them (or, under ``"all"``, exactly its cut) is placed as it is. When not one
    segment is taken (the best open item's segments are all too long), the choice is made
    once more with single sentences as the units (a continuation without its antecedent),
    so that a tight budget places the best sentence that fits rather than nothing.
    O(tries²) steps of bookkeeping, at most ``2 * GLOBAL_TRIES`` counts (and ``shorter``'s).
    """
    window = items[:GLOBAL_WINDOW]
    if len(window) < 2:  # nothing to rank across: the source's own cut stands
        return None
    score(items, req)
    only_relevant = req.options.compress == "all"  # its cut, made before the budget, stands
    datas = [req.scratch.sentences[_key(it)] for it in window]

    split = False  # the units are single sentences (when not one segment fits)

    def units_of(i: int) -> Iterator[tuple[float, int, int, int]]:
        data = datas[i]
        if not data.spans:
            return
        if split:
            for pos, k in enumerate(data.ranking, 1):
                if pos > data.relevant and only_relevant:
                    return
                yield -data.scores[k], i, k, k
            return
        segments = _segments(data, req)
        for m, entry in enumerate(segments.entries):
            if entry > data.relevant and only_relevant:
                return
            yield -data.scores[data.ranking[entry - 1]], i, segments.ranges[m][0], m

    # (-score, rank, first sentence, segment), best first; O(sentences) time, O(tries) memory
    every = itertools.chain.from_iterable(map(units_of, range(len(window))))
    units = heapq.nsmallest(GLOBAL_TRIES, every)
    labels = req.options.labels
    taken: dict[int, list[int]] = {}  # item -> its taken segments
    costs: dict[int, int] = {}

    runs: list[tuple[int, int]] = []  # unit -1 - r: the sentences runs[r] (``shorter``)

    def sentences(i: int, ms: list[int]) -> list[int]:
        if split:
            return sorted(ms)
        ranges = _segments(datas[i], req).ranges
        spans = sorted(ranges[m] if m >= 0 else runs[-1 - m] for m in ms)
        return sorted({k for a, b in spans for k in range(a, b + 1)})

    def shorter(i: int, m: int, room: int) -> int | None:
        """Under ``"overflow"``, the first segment tried that does not fit whole is tried as
        its best sentence with as many of the sentences after it in the segment as fit."""
        segments = _segments(datas[i], req)
        a, b = segments.ranges[m]
        k = datas[i].ranking[segments.entries[m] - 1]  # the segment's best sentence
        if a == b:
            return None

        def fits(e: int) -> bool:
            return cost(i, list(range(k, e + 1)), room - n_sep) <= room

        e = _largest(k, b, fits)
        if e is None:
            return None
        runs.append((k, e))
        return -len(runs)

    def as_is(i: int, keep: list[int]) -> bool:  # placed uncut (or as ``"all"`` cut it)
        done = window[i].compression
        return len(keep) == len(datas[i].spans) or (done is not None and tuple(keep) == done.kept)

    def cost(i: int, keep: list[int], limit: int) -> int:  # exact up to ``limit``
        item, extra = window[i], 0
        if not as_is(i, keep):
            chunk = item.chunk.replace(text=_text(datas[i], keep), tokens=None)
        elif item.chunk.tokens is None:
            chunk = item.chunk
        else:  # a caller's ``tokens`` stands in for the text, as the budget stage counts it
            chunk, extra = item.chunk.replace(text=""), item.chunk.tokens
        block = render_source(widest, chunk, labels)
        limits = [max(0, limit - extra)]
        return req.count_limited([block], limits, lambda _: req.name(item))[0] + extra + n_sep

    # under "stop" the items taken are a prefix of the ranking (rank fidelity): an item opens
    # only once every item above it holds a unit; a unit waits until its item may open
    stop = req.options.overflow == "stop"

    def price(i: int, ms: list[int], limit: int) -> int:
        return cost(i, sentences(i, ms), limit)

    width = None if stop else len(window)  # under "stop" taken is a prefix of the ranking
    cut_first = shorter if req.options.compress == "overflow" else None
    _choose(list(units), width, budget, n_sep, taken, costs, price, cut_first)
    if not taken:  # not one segment fits: single sentences, without their continuations
        split = True
        every = itertools.chain.from_iterable(map(units_of, range(len(window))))
        _choose(heapq.nsmallest(GLOBAL_TRIES, every), width, budget, n_sep, taken, costs, price)
    if not taken:
        return None
    placed: list[tuple[int, Item, int]] = []
    for i in sorted(taken):
        item, keep = window[i], sentences(i, taken[i])
        placed.append((i, item if as_is(i, keep) else _cut(item, datas[i], keep), costs[i]))
    return Spread(placed, len(window))
