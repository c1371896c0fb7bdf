"""Stage 7, cap per document: keep at most ``max_per_doc`` items of each document.

The best-ranked items of a document stay; the rest are dropped as ``"capped"``. O(n).
"""

from __future__ import annotations

from collections.abc import Hashable

from .context import Context, Item, doc_key

__all__ = ["run"]


def run(items: list[Item], ctx: Context) -> list[Item]:
    """Drop the items of a document past its first ``max_per_doc``."""
    cap = ctx.options.max_per_doc
    if cap is None:
        return items
    per_doc: dict[Hashable, int] = {}
    kept = []
    for it in items:
        doc = doc_key(it.chunk)
        per_doc[doc] = per_doc.get(doc, 0) + 1
        if per_doc[doc] > cap:  # a chunk without a doc is one item, never capped
            ctx.drop(it, "capped", {"doc": str(it.chunk.doc), "max_per_doc": cap})
        else:
            kept.append(it)
    return kept
