"""The ledger: where every dropped candidate is written, with its reason and typed detail.

Kept as columns: a drop appends the item (or a run of items), its reason and its detail(s),
and ``fate`` builds the ``Dropped`` objects only when the result's ``dropped``, ``fates`` or
``record()`` are read (most candidates of a large request are dropped, and most callers read
only the prompt). A stage that drops many items at once writes one entry for all of them
(``drop_all`` with one shared detail, ``drop_each`` with one detail per item), so its cost is
one call, not one per item.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, cast

from ..types import Chunk, DropDetail, Dropped, Reason

if TYPE_CHECKING:
    from .context import Item

__all__ = ["Ledger"]

_ONE, _SHARED, _EACH = 0, 1, 2  # an entry's shape: one item, a run sharing a detail, a run


class Ledger:
    """The drops of one call, in the order they were made (see the module doc).

    >>> from briefpack._stages.context import items_of
    >>> ledger = Ledger([Chunk("a", id="a"), Chunk("b", id="b")])
    >>> a, b = items_of(ledger.chunks)
    >>> ledger.drop_each([b], "duplicate", [{"of": "a", "similarity": 1.0, "method": "exact"}])
    >>> [(d.chunk.id, d.reason) for d in ledger.dropped()]
    [('b', 'duplicate')]
    """

    __slots__ = ("_built", "_details", "_items", "_reasons", "_shapes", "chunks", "near")

    def __init__(self, chunks: list[Chunk]) -> None:
        self.chunks = chunks
        self._items: list[Item | Sequence[Item]] = []
        self._reasons: list[Reason] = []
        self._details: list[DropDetail | Sequence[DropDetail]] = []
        self._shapes: list[int] = []
        self._built: dict[int, Dropped] | None = None
        # Per input index: why dedupe kept it although it met the threshold with a kept item
        # (the difference guard): ``{"of", "similarity", "method", "kept_because"}``.
        self.near: dict[int, dict[str, object]] = {}

    def keep_near(self, item: Item, detail: dict[str, object]) -> None:
        """Note that the difference guard kept ``item`` although it was near a kept item."""
        for m in item.members:
            self.near[m] = detail

    def drop(self, item: Item, reason: Reason, detail: DropDetail) -> None:
        """Drop every candidate ``item`` stands for (``via`` names the parent or span)."""
        self._items.append(item)
        self._reasons.append(reason)
        self._details.append(detail)
        self._shapes.append(_ONE)
        self._built = None

    def drop_all(self, items: Sequence[Item], reason: Reason, detail: DropDetail) -> None:
        """Drop each of ``items`` as ``drop`` does, each with its own copy of ``detail``."""
        if items:
            self._items.append(items)
            self._reasons.append(reason)
            self._details.append(detail)
            self._shapes.append(_SHARED)
            self._built = None

    def drop_each(
        self, items: Sequence[Item], reason: Reason, details: Sequence[DropDetail]
    ) -> None:
        """Drop each of ``items`` as ``drop`` does, ``items[j]`` with ``details[j]``."""
        if items:
            self._items.append(items)
            self._reasons.append(reason)
            self._details.append(details)
            self._shapes.append(_EACH)
            self._built = None

    def mark(self) -> int:
        """Where the ledger is now, for ``rollback`` (the budget packs again from there)."""
        return len(self._items)

    def rollback(self, mark: int) -> None:
        """Forget every drop made since ``mark``."""
        for column in (self._items, self._reasons, self._details, self._shapes):
            del column[mark:]
        self._built = None

    @property
    def fate(self) -> dict[int, Dropped]:
        """Each dropped candidate's ``Dropped``, by input index (built on first read)."""
        if self._built is None:
            self._built = self._build()
        return self._built

    def _build(self) -> dict[int, Dropped]:
        chunks = self.chunks
        out: dict[int, Dropped] = {}
        for entry, reason, details, shape in zip(
            self._items, self._reasons, self._details, self._shapes
        ):
            run: Sequence[Item]
            each: Iterable[DropDetail]
            if shape == _ONE:
                run, each = (cast("Item", entry),), (cast("DropDetail", details),)
            elif shape == _SHARED:
                run, each = cast("Sequence[Item]", entry), repeat(cast("DropDetail", details))
            else:
                run, each = cast("Sequence[Item]", entry), cast("Sequence[DropDetail]", details)
            copy = shape == _SHARED
            for item, detail in zip(run, each):
                if not item.expanded and len(item.members) == 1:  # ~all of a large set
                    m = item.members[0]
                    out[m] = Dropped(
                        chunks[m], reason, cast("DropDetail", dict(detail)) if copy else detail
                    )
                    continue
                for m in item.members:
                    d = dict(detail)
                    if item.expanded and chunks[m].id != item.chunk.id:
                        d["via"] = item.chunk.id
                    out[m] = Dropped(chunks[m], reason, cast("DropDetail", d))
        return out

    def dropped(self) -> list[Dropped]:
        """The drops in input order."""
        fate = self.fate
        return [fate[i] for i in sorted(fate)]
