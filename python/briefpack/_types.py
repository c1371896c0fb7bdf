"""Small result types shared by both backends' kernels."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["DedupeResult", "GuardedResult", "PackResult", "PricedPack", "SentenceSpans"]


class DedupeResult(NamedTuple):
    """What a dedupe kernel decided, as columns over the input (rank) order.

    Attributes:
        kept: indices of the kept items, in rank (input) order.
        duplicate_of: one entry per input: the index of the earliest-ranked kept item it
            duplicates, or ``None`` for a kept item.
        similarity: one entry per input: the similarity to ``duplicate_of`` (1.0 for exact
            copies), or ``None`` for a kept item.
        near_of: one entry per input: for a kept item the difference guard saved, the earliest
            kept item it met the threshold with; else ``None`` (all ``None`` without the guard;
            ``docs/dedupe_guard.md``).
        near_similarity: per input, the similarity to ``near_of``, or ``None``.
        kept_because: per input, why the guard kept it (``"differs in 'insort_left' /
            'insort_right'"``), or ``None``.

    The guard's columns are attributes, not tuple items: the tuple (and equality, unpacking)
    stays ``(kept, duplicate_of, similarity)``; :class:`GuardedResult` carries them.

    >>> DedupeResult([0], [None, 0], [None, 1.0]).kept
    [0]
    """

    kept: list[int]
    duplicate_of: list[int | None]
    similarity: list[float | None]

    @property
    def near_of(self) -> list[int | None]:
        """Per input: the kept item the guard saved it from (``None``: not saved)."""
        return [None] * len(self.duplicate_of)

    @property
    def near_similarity(self) -> list[float | None]:
        """Per input: the similarity to ``near_of``."""
        return [None] * len(self.duplicate_of)

    @property
    def kept_because(self) -> list[str | None]:
        """Per input: why the difference guard kept it."""
        return [None] * len(self.duplicate_of)


class GuardedResult(DedupeResult):
    """A ``DedupeResult`` in which the difference guard saved some item: its three columns.

    >>> r = GuardedResult([0, 1], [None, None], [None, None], [None, 0], [None, 0.9],
    ...                   [None, "differs in 'not'"])
    >>> r.kept_because, tuple(r) == ([0, 1], [None, None], [None, None])
    ([None, "differs in 'not'"], True)
    """

    _guard: tuple[list[int | None], list[float | None], list[str | None]]

    def __new__(
        cls,
        kept: list[int],
        duplicate_of: list[int | None],
        similarity: list[float | None],
        near_of: list[int | None],
        near_similarity: list[float | None],
        kept_because: list[str | None],
    ) -> GuardedResult:
        out = super().__new__(cls, kept, duplicate_of, similarity)
        out._guard = (near_of, near_similarity, kept_because)
        return out

    @property
    def near_of(self) -> list[int | None]:
        """Per input: the kept item the guard saved it from (``None``: not saved)."""
        return self._guard[0]

    @property
    def near_similarity(self) -> list[float | None]:
        """Per input: the similarity to ``near_of``."""
        return self._guard[1]

    @property
    def kept_because(self) -> list[str | None]:
        """Per input: why the difference guard kept it."""
        return self._guard[2]


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
