"""Where the frameworks' documents keep each ``Chunk`` field in their metadata: the adapters'
``DEFAULT_KEYS`` (``briefpack.integrations.haystack`` / ``.llamaindex``) and the page keys, in
one leaf, so ``assemble`` reads a Haystack ``Document`` or a LlamaIndex node passed to it
directly exactly as the adapter's converter does.

>>> HAYSTACK_KEYS["doc"], LLAMAINDEX_KEYS["title"], PAGE_KEYS
(('doc', 'source_id', 'file_path'), ('title', 'file_name'), ('page_number', 'page_label'))
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["HAYSTACK_KEYS", "LLAMAINDEX_KEYS", "PAGE_KEYS"]

PAGE_KEYS: tuple[str, ...] = ("page_number", "page_label")
"""Where a loader's metadata holds a page when an adapter names no keys of its own for it:
Haystack's converters and splitters set ``page_number`` (counted from 1), LlamaIndex's PDF
reader ``page_label`` (the printed label)."""

HAYSTACK_KEYS: Mapping[str, tuple[str, ...]] = {
    "doc": ("doc", "source_id", "file_path"),
    "position": ("position", "split_id"),
    "parent": ("parent", "__parent_id"),
    "title": ("title",),
    "url": ("url",),
    "updated": ("updated",),
    "tokens": ("tokens",),
}
"""Where a Haystack ``Document``'s ``meta`` holds each ``Chunk`` field, tried in turn (the page
from ``PAGE_KEYS``)."""

LLAMAINDEX_KEYS: Mapping[str, tuple[str, ...]] = {
    "doc": ("doc",),
    "position": ("position",),
    "title": ("title", "file_name"),
    "url": ("url",),
    "updated": ("updated", "last_modified_date"),
    "tokens": ("tokens",),
    "page": ("page_label", "page_number"),
}
"""Where a LlamaIndex node's metadata holds each ``Chunk`` field, tried in turn."""
