"""Stage 6's compression (``compress="overflow"`` or ``"all"``): a source cut to its relevant
sentences, as a stage of its own (``run``) and as the budget stage's declared cut hook (``fit``).

Each item's text is split into sentences (``split_sentences``) and every sentence is scored
against the question, in one call per request: the built-in scorer (BM25 over the request's
sentences, with the abbreviations the candidates define read as one term: ``score_sentences``)
or the caller's ``sentence_scorer(question, sentences)``. A sentence is *relevant* when its
score is above 0; a text with no relevant sentence keeps its best one (its first, on ties),
so a compressed source is never empty. A *cut* of an item keeps the ``j`` best sentences
(score descending, ties in text order) plus the neighbours that continue them
(``select_sentences``: "It needs the add-on." keeps its antecedent), for ``j`` from 1 to the
number of relevant sentences. The cut text is the kept sentences in their original order;
adjacent ones keep the text between them as it was, non-adjacent ones are joined by
``ELISION``. The item keeps its chunk's id, title, url, date and score, and carries a
``Compression`` (kept indices, every removed sentence's text).

* ``run``, the stage (``"all"``, just before the budget): every item becomes its cut with every
  relevant sentence (an item whose sentences are all relevant stays whole).
* ``fit``, the budget stage's cut hook (``budget.Cut``; the plan passes it in both modes): an
  item that does not fit in what is left is placed as its largest cut (largest ``j``) that
  fits, if any: the score threshold rises one sentence at a time, no sentence is cut.

Invariants: a cut text is made only of the item's own sentences, in order, and ``ELISION``;
rank fidelity and evict's guarantee hold (a cut item is an item like any other). Scoring is
O(total sentence text) once per request; ``fit`` counts a misfit's cuts in one batch.

Rejected: cutting tokens inside sentences (not faithful, nothing to log but a diff); dropping
a source with no relevant sentence (a new ledger reason; the ranker's source stays visible).
"""

from __future__ import annotations

import bisect
import contextlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

from .._checks import call_back, real, shown, type_name
from ..errors import InputError
from ..prompt import render_source
from ..types import Compression
from .context import Item, Request

__all__ = ["ELISION", "fit", "run", "score"]

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
    for i, it in enumerate(todo):
        spans = [(starts[j], ends[j]) for j in _range(offsets, i)]
        mine = scores[offsets[i] : offsets[i + 1]]
        ranking = sorted(range(len(mine)), key=lambda k: (-mine[k], k))
        relevant = max(sum(1 for s in mine if s > 0.0), 1) if mine else 0
        req.scratch.sentences[_key(it)] = Sentences(texts[i], spans, mine, ranking, relevant)


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


def _cuts(data: Sentences, sizes: Sequence[int], req: Request) -> list[list[int]]:
    """For each ``j`` of ``sizes``: the ``j`` best sentences and their continuations, ascending."""
    n = len(data.spans)
    sentences = [data.text[a:b] for a, b in data.spans]
    flat: list[str] = []
    marks: list[float] = []
    offsets = [0]
    for j in sizes:
        chosen = set(data.ranking[:j])
        flat.extend(sentences)
        marks.extend(1.0 if k in chosen else 0.0 for k in range(n))
        offsets.append(len(flat))
    picked = req.kernels.select_sentences(flat, marks, 1.0, offsets)
    out: list[list[int]] = [[] for _ in sizes]
    for p in picked:
        out[p // n].append(p % n)
    return out


def _cut(item: Item, data: Sentences, keep: list[int]) -> Item:
    """``item`` with its text cut to the sentences ``keep`` (ascending)."""
    pieces: list[str] = []
    run_start = prev = keep[0]
    for k in [*keep[1:], -1]:
        if k == prev + 1:
            prev = k
            continue
        pieces.append(data.text[data.spans[run_start][0] : data.spans[prev][1]])
        run_start = prev = k
    kept = set(keep)
    removed = tuple(data.text[a:b] for i, (a, b) in enumerate(data.spans) if i not in kept)
    chunk = item.chunk.replace(text=ELISION.join(pieces), tokens=None)
    return Item(
        chunk,
        item.members,
        item.vector,
        item.expanded,
        item.vector_checked,
        Compression(len(data.spans), tuple(keep), removed),
    )


def run(items: list[Item], req: Request) -> list[Item]:
    """``compress="all"``: every item cut to its relevant sentences (and their continuations)."""
    score(items, req)
    out: list[Item] = []
    for it in items:
        data = req.scratch.sentences[_key(it)]
        keep = _cuts(data, [data.relevant], req)[0] if data.spans else []
        out.append(_cut(it, data, keep) if 0 < len(keep) < len(data.spans) else it)
    return out


def fit(
    items: list[Item], k: int, req: Request, widest: str, left: int, n_sep: int
) -> tuple[Item, int] | None:
    """The budget stage's hook: ``items[k]``, which does not fit in ``left`` tokens, cut to
    its largest cut that does, with that cut's cost; ``None`` when no cut fits.

    Scores ``items[k:]`` first if they are not scored yet (the one scorer call of a request
    under ``compress="overflow"``: the item that does not fit and every item below it).
    """
    score(items[k:], req)
    item = items[k]
    data = req.scratch.sentences[_key(item)]
    if not data.spans:
        return None
    sizes = list(range(data.relevant, 0, -1))
    cuts = [c for c in _cuts(data, sizes, req) if len(c) < len(data.spans)]
    if not cuts:
        return None
    cut_items = [_cut(item, data, c) for c in cuts]
    labels = req.options.labels
    texts = [render_source(widest, it.chunk, labels) for it in cut_items]
    limit = max(0, left - n_sep)
    counted = req.count_limited(texts, [limit] * len(texts), lambda _: req.name(item))
    for it, n in zip(cut_items, counted, strict=True):
        if n + n_sep <= left:
            return it, n + n_sep
    return None
