"""Where the frameworks' documents keep each ``Chunk`` field in their metadata: the adapters'
``DEFAULT_KEYS`` (``briefpack.integrations.langchain`` / ``.haystack`` / ``.llamaindex``), the
page keys, and the two fields a loader implies rather than names (a 0-based page, a title from
a file path), in one leaf, so ``assemble`` reads a LangChain or Haystack ``Document`` or a
LlamaIndex node passed to it directly exactly as the adapter's converter does.

>>> HAYSTACK_KEYS["doc"], LLAMAINDEX_KEYS["title"], PAGE_KEYS
(('doc', 'source_id', 'file_path'), ('title', 'file_name'), ('page_number', 'page_label'))
>>> implied_fields({"source": "/data/report.pdf", "page": 13}, {}, LANGCHAIN_IMPLIED)
{'page': 14, 'title': 'report.pdf'}
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from pathlib import PurePath
from typing import Any, NamedTuple

__all__ = [
    "HAYSTACK_IMPLIED",
    "HAYSTACK_KEYS",
    "LANGCHAIN_IMPLIED",
    "LANGCHAIN_KEYS",
    "LLAMAINDEX_KEYS",
    "PAGE_KEYS",
    "Implied",
    "file_title",
    "implied_fields",
]

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

LANGCHAIN_KEYS: Mapping[str, tuple[str, ...]] = {
    "id": ("id",),
    "score": ("score", "relevance_score"),
    "doc": ("doc", "source"),
    "position": ("position", "start_index"),
    "parent": ("parent",),
    "title": ("title",),
    "url": ("url",),
    "updated": ("updated",),
    "tokens": ("tokens",),
    "page": ("page_label", "page_number"),
}
"""Where a LangChain ``Document``'s metadata holds each ``Chunk`` field, tried in turn
(``Document.id`` wins over ``metadata["id"]``)."""


class Implied(NamedTuple):
    """The fields a framework's loaders imply: ``page_from_zero`` keys hold a page counted
    from 0 (shown plus one), ``title_paths`` keys a file path whose name is the title."""

    page_from_zero: tuple[str, ...] = ()
    title_paths: tuple[str, ...] = ()


LANGCHAIN_IMPLIED = Implied(page_from_zero=("page",), title_paths=("source",))
"""``PyPDFLoader``, ``PyMuPDFLoader`` and ``PDFPlumberLoader`` count ``page`` from 0; every
file loader sets ``source`` to the file's path."""
HAYSTACK_IMPLIED = Implied(title_paths=("file_path", "file_name"))
"""Haystack's converters set ``file_path`` (the file's name, or its path with
``store_full_path=True``)."""


def file_title(value: object) -> str | None:
    """The file name of a path held in metadata; None for a URL, an empty name or a non-str.

    >>> file_title("/data/report.pdf"), file_title("https://x.org/a.pdf"), file_title(3)
    ('report.pdf', None, None)
    """
    if not isinstance(value, str) or "://" in value:
        return None
    return PurePath(value).name or None


def implied_fields(
    meta: Mapping[str, Any], found: Container[str], implied: Implied
) -> dict[str, Any]:
    """The page and title ``implied`` gives ``meta``, for the fields not in ``found`` (those
    the metadata keys already set): the first 0-based page (an int >= 0) plus one, the name
    of the first file path."""
    out: dict[str, Any] = {}
    if "page" not in found:
        for key in implied.page_from_zero:
            page = meta.get(key)
            if isinstance(page, int) and not isinstance(page, bool) and page >= 0:
                out["page"] = page + 1
                break
    if "title" not in found:
        for key in implied.title_paths:
            title = file_title(meta.get(key))
            if title is not None:
                out["title"] = title
                break
    return out
