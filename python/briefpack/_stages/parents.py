"""Stage 4, expand to parents: each child is replaced by its parent section.

Children of one parent collapse into that parent once, at the position of its best child,
and the parent stands for all of them (``members``); its score is the best child's. A parent
comes from a mapping (by the child's ``parent`` id) or a callable ``Chunk -> parent | None``.
A parent that points back at a child is an error (it would replace what it expands), and so is
one parent id returned with two different texts. O(n).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._checks import call_back, shown, type_name
from ..candidates import describe, to_chunk
from ..errors import InputError
from ..types import Chunk
from .context import Item, Request

__all__ = ["parent_of", "run"]


def parent_of(
    parents: Any, item: Item, where: str, child_ids: set[str], decode: dict[str, Any]
) -> Chunk | None:
    """The checked parent of ``item`` (id and doc resolved), or None if it has none; a page
    image it carries is decoded under the request's limits (``decode``)."""
    child = item.chunk
    if callable(parents):
        got = call_back("parents", where, parents, child)
        if got is None:
            return None
    else:
        if child.parent is None:
            return None
        try:  # a caller's mapping: its look-up is caller code, like a callable's
            present = child.parent in parents
            got = parents[child.parent] if present else None
        except Exception as exc:
            raise InputError(
                f"{where}: looking up parent {child.parent!r} in parents raised "
                f"{type_name(exc)}: {shown(str(exc), 200)}",
                index=item.members[0],
                id=child.id,
                field="parent",
                option="parents",
            ) from exc
        if not present:
            raise InputError(
                f"{where}: parent {child.parent!r} is not in parents",
                index=item.members[0],
                id=child.id,
                field="parent",
            )
    key = child.parent
    if not isinstance(got, (Chunk, Mapping)) and not hasattr(got, "page_content"):
        raise InputError(f"{where}: its parent must be a Chunk, got {type_name(got)}")
    name = f"{where}: its parent" + ("" if key is None else f" {key!r}")
    parent = to_chunk(got, 0, name, resolve=False, **decode)
    pid = parent.id if parent.id is not None else key
    if pid is None:
        raise InputError(f"{where}: the parent returned by parents has no id")
    if pid in child_ids or parent.parent == child.id:
        raise InputError(
            f"{where}: parent {pid!r} points back at a child (a parent cannot be one of the "
            "candidates it replaces)"
        )
    doc = parent.doc if parent.doc is not None else child.doc
    return parent.replace(id=pid, doc=doc, parent=None)


def run(items: list[Item], req: Request) -> list[Item]:
    """Replace children by their parents; one item per parent, where its best child was."""
    child_ids = {str(it.chunk.id) for it in items}
    out: list[Item] = []
    by_parent: dict[str, Item] = {}
    for item in items:
        where = describe(item.members[0], item.chunk.id)
        parent = parent_of(req.options.parents, item, where, child_ids, req.scratch.decode)
        if parent is None:
            out.append(item)
            continue
        pid = str(parent.id)
        if pid in by_parent:
            first = by_parent[pid]
            if first.chunk.text != parent.text:
                raise InputError(
                    f"{where}: parent {pid!r} has a different text than the parent of "
                    f"{req.name(first)} with that id; ids must identify one text",
                    index=item.members[0],
                    id=item.chunk.id,
                    field="parent",
                    option="parents",
                )
            first.members.extend(item.members)
            continue
        if parent.images:  # the parent carries pages: the page hooks apply from here on
            req.scratch.expanded_pages = True
        merged = Item(
            parent.replace(score=item.chunk.score),
            list(item.members),
            parent.vector if parent.vector is not None else item.vector,
            expanded=True,
            vector_checked=parent.vector is None and item.vector_checked,
        )
        by_parent[pid] = merged
        out.append(merged)
    return out
