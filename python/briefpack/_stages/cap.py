"""Stage 7, cap per document: keep at most ``max_per_doc`` items of each document.

The best-ranked items of a document stay; the rest are dropped as ``"capped"``. O(n); when no
document has more than ``max_per_doc`` items (and every chunk names its
document), one count at C speed and no Python loop.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from operator import attrgetter

from .context import Context, Item, doc_key

__all__ = ["run"]

_chunk_doc = attrgetter("chunk.doc")


def run(items: list[Item], ctx: Context) -> list[Item]:
    """Drop the items of a document past its first ``max_per_doc``."""
    cap = ctx.options.max_per_doc
    if cap is None:
        return items
    per_doc_name = Counter(map(_chunk_doc, items))
    if None not in per_doc_name and max(per_doc_name.values(), default=0) <= cap:
        return items  # (chunks without a doc are counted by their id below)
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
