"""Stage 1, supersede: among candidates sharing a ``url`` (or ``doc``), keep the newest.

Items whose ``updated`` is older than the newest of their group are dropped as
``"superseded"`` with the newest item's id (the first of the newest, in rank order). Ties keep
all; an empty key is never grouped. O(n).
"""

from __future__ import annotations

from ..types import SupersededDetail
from .context import Context, Item

__all__ = ["run"]


def run(items: list[Item], ctx: Context) -> list[Item]:
    """Drop older versions of the same url / doc."""
    by_url = ctx.options.supersede == "url"
    groups: dict[str, list[Item]] = {}
    for it in items:
        key = it.chunk.url if by_url else str(it.chunk.doc)
        if key:
            groups.setdefault(key, []).append(it)
    newest = {key: max(it.chunk.updated for it in g) for key, g in groups.items()}
    kept = []
    for it in items:
        key = it.chunk.url if by_url else str(it.chunk.doc)
        if key and it.chunk.updated < newest[key]:
            by = next(x for x in groups[key] if x.chunk.updated == newest[key])
            detail: SupersededDetail = {"by": by.chunk.id, "updated": newest[key]}
            if by_url:
                detail["url"] = key
            else:
                detail["doc"] = key
            ctx.drop(it, "superseded", detail)
        else:
            kept.append(it)
    return kept
