"""Stage 1, repeated ids: the same chunk retrieved twice (by two retrievers, say).

A later candidate with an id seen before is dropped as a ``"duplicate"`` of it (method
``"id"``); with a different text it is an ``InputError``, since an id must identify one text.
O(n) with one dict; when no id repeats (almost always), one set built at C speed and no
Python loop.
"""

from __future__ import annotations

from operator import attrgetter

from ..candidates import describe
from ..errors import InputError
from .context import Item, Request

__all__ = ["run"]

_chunk_id = attrgetter("chunk.id")


def run(items: list[Item], req: Request) -> list[Item]:
    """Drop repeats of an id seen earlier; the first copy stays."""
    if len(set(map(_chunk_id, items))) == len(items):  # ids are strs (intake resolved them)
        return items
    kept: list[Item] = []
    seen: dict[str, Item] = {}
    for item in items:
        cid = str(item.chunk.id)
        first = seen.get(cid)
        if first is None:
            seen[cid] = item
            kept.append(item)
            continue
        if first.chunk.text != item.chunk.text:
            i = item.members[0]
            raise InputError(
                f"{describe(i, cid)}: id repeats candidate {first.members[0]} with different "
                "text; ids must identify one text (a repeat with the same text is dropped as a "
                "duplicate)",
                index=i,
                id=cid,
                field="id",
            )
        req.ledger.drop(item, "duplicate", {"of": cid, "similarity": 1.0, "method": "id"})
    return kept
