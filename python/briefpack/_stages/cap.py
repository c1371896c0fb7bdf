"""Stage 5, cap per document: keep at most ``max_per_doc`` items of each document.

The best-ranked items of a document stay; the rest are dropped as ``"capped"``. O(n): one
count at C speed, then a Python step only for the items of a document that has more than
``max_per_doc`` (none at all when no document has).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from operator import attrgetter

from .context import Item, Request

__all__ = ["run"]

_chunk_doc = attrgetter("chunk.doc")


def run(items: list[Item], req: Request) -> list[Item]:
    """Drop the items of a document past its first ``max_per_doc``."""
    cap = req.options.max_per_doc
    if cap is None:
        return items
    docs = list(map(_chunk_doc, items))
    per_doc_name = Counter(docs)
    if None not in per_doc_name and max(per_doc_name.values(), default=0) <= cap:
        return items
    # only the items of a document with more than ``cap`` can be dropped: count just those (a
    # chunk without a doc is a document of its own, ``doc_key``, which can pass ``cap`` only
    # when more than ``cap`` chunks have no doc)
    over = {d for d, n in per_doc_name.items() if n > cap}
    per_doc: dict[Hashable, int] = {}
    kept = []
    for it, doc in zip(items, docs):
        if doc in over:
            key = doc if doc is not None else (None, it.chunk.id)  # doc_key
            n = per_doc[key] = per_doc.get(key, 0) + 1
            if n > cap:
                req.ledger.drop(it, "capped", {"doc": str(doc), "max_per_doc": cap})
                continue
        kept.append(it)
    return kept
