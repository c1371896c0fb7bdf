"""Small result types shared by both backends' kernels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["DedupeResult", "PackResult", "PricedPack", "SentenceSpans"]


class DedupeResult(NamedTuple):
    """What a dedupe kernel decided, as columns over the input (rank) order.

    Attributes:
        kept: indices of the kept items, in rank (input) order.
        duplicate_of: one entry per input: the index of the earliest-ranked kept item it
            duplicates, or ``None`` for a kept item.
        similarity: one entry per input: the similarity to ``duplicate_of`` (1.0 for exact
            copies), or ``None`` for a kept item.
        near_of: one entry per input (empty from kernels without the difference guard): for a
            kept item the guard saved, the earliest kept item it met the threshold with; else
            ``None``.
        near_similarity: the similarity to ``near_of``, or ``None``.
        kept_because: why the guard kept the pair (``"differs in 'insort_left' /
            'insort_right'"``, see ``docs/dedupe_guard.md``), or ``None``.

    >>> DedupeResult([0], [None, 0], [None, 1.0]).kept
    [0]
    """

    kept: list[int]
    duplicate_of: list[int | None]
    similarity: list[float | None]
    near_of: Sequence[int | None] = ()
    near_similarity: Sequence[float | None] = ()
    kept_because: Sequence[str | None] = ()


class PackResult(NamedTuple):
    """What ``pack`` placed: indices in rank order, and the sum of their costs.

    >>> PackResult([0, 1], 30).used
    30
    """

    kept: list[int]
    used: int


class PricedPack(NamedTuple):
    """What ``price_pack`` decided, over the sources in rank order.

    Attributes:
        kept: the placed indices, ascending.
        costs: each placed source's cost (block under the widest label, separator, and its
            ``tokens`` in place of its text's count).
        blocks: each placed source's block under the widest label, with its text.
        misfits: the indices that did not fit when tried, ascending; with
            ``overflow="stop"`` at most one, and every index after it was not tried.
        remaining: for each misfit, what was left of the budget when it was tried.

    >>> PricedPack([0], [12], ["[1] a"], [1], [3]).misfits
    [1]
    """

    kept: list[int]
    costs: list[int]
    blocks: list[str]
    misfits: list[int]
    remaining: list[int]


class SentenceSpans(NamedTuple):
    """Sentence spans of a batch of texts, flat: columns over every sentence, grouped by text.

    Sentence ``j`` of text ``i`` (for ``offsets[i] <= j < offsets[i + 1]``) is
    ``texts[i][starts[j]:ends[j]]``; ``starts`` and ``ends`` are character (code point) offsets.

    >>> SentenceSpans([0, 3], [2, 5], [0, 2]).offsets
    [0, 2]
    """

    starts: list[int]
    ends: list[int]
    offsets: list[int]
