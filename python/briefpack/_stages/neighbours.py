"""Stage 4, expand to neighbours: grow each hit by ``neighbors`` chunks either side.

A hit is found in its document's chunk list (``chunks_of``, by id); its window
``[pos - n, pos + n]`` is clipped to the list, and windows that touch or overlap merge into one
span that stands for all their hits, at the position of the best one. Consecutive chunks are
joined writing a shared suffix/prefix of at least ``MIN_OVERLAP`` characters once; a span of
pages carries every image of its chunks in (list) order and shows its first and last page. Items
already expanded to a parent, hits without a ``doc`` and hits not in their list stay as they
are; a hit whose id is in its list with a different text is an ``InputError`` (an id identifies
one text). O(n + total span text) per document: each hit's position is a look-up in a table
of the list's ids (built once per document), the overlap of two chunks is found in time linear
in the second one's length, and a span's text is joined once from its parts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._checks import call_back, type_name
from ..candidates import to_chunk
from ..errors import InputError
from ..types import Chunk
from .context import Item, Request

__all__ = ["MIN_OVERLAP", "merge_overlap", "run"]

MIN_OVERLAP = 8
"""Shortest suffix/prefix overlap (characters) merged away when joining neighbouring chunks."""


def merge_overlap(a: str, b: str) -> str:
    """Join neighbouring chunks, writing once the longest suffix of ``a`` that prefixes ``b``.

    The overlap is found by Knuth-Morris-Pratt: the prefix function of ``b``'s first
    ``m = min(len(a), len(b))`` characters, then one pass over ``a``'s last ``m``; O(m) time.

    >>> merge_overlap("the cap is 4000 EUR", "is 4000 EUR for Berlin")
    'the cap is 4000 EUR for Berlin'
    """
    k = _overlap(a, b)
    return a + b[k:] if k >= MIN_OVERLAP else a + "\n" + b


def _join(texts: list[str]) -> str:
    """``merge_overlap`` folded over ``texts`` (the text of a span), in time linear in their
    total length.

    Folding by concatenation copies the text so far at every step (quadratic in a long span);
    this keeps the parts in a list, and the overlap with the next chunk only ever needs the
    last ``len(next)`` characters, which the (non-empty) parts at the end hold.

    >>> _join(["the cap is 4000 EUR", "is 4000 EUR for", "Leave is 14 weeks."]).splitlines()
    ['the cap is 4000 EUR for', 'Leave is 14 weeks.']
    """
    parts = [texts[0]] if texts[0] else []
    for b in texts[1:]:
        k = _overlap(_tail(parts, len(b)), b)
        tail = b[k:] if k >= MIN_OVERLAP else "\n" + b
        if tail:
            parts.append(tail)
    return "".join(parts)


def _tail(parts: list[str], m: int) -> str:
    """The last ``m`` characters of ``"".join(parts)``; ``parts`` holds no empty str, so at
    most ``m`` of them are read."""
    got: list[str] = []
    need = m
    for part in reversed(parts):
        if need <= 0:
            break
        got.append(part[-need:] if len(part) > need else part)
        need -= len(part)
    return "".join(reversed(got))


def _overlap(a: str, b: str) -> int:
    """The length of the longest suffix of ``a`` that is a prefix of ``b``."""
    m = min(len(a), len(b))
    if m < MIN_OVERLAP:
        return 0
    p = b[:m]
    fail = [0] * m  # fail[i]: the longest proper border of p[: i + 1]
    k = 0
    for i in range(1, m):
        c = p[i]
        while k and p[k] != c:
            k = fail[k - 1]
        if p[k] == c:
            k += 1
        fail[i] = k
    k = 0
    for c in a[len(a) - m :]:
        while k and (k == m or p[k] != c):
            k = fail[k - 1]
        if p[k] == c:
            k += 1
    return k


def _chunks_of(chunks_of: Any, doc: str, decode: dict[str, Any]) -> list[Chunk]:
    if callable(chunks_of):
        got = call_back("chunks_of", f"chunks_of({doc!r})", chunks_of, doc)
    else:
        got = call_back("chunks_of", f"chunks_of[{doc!r}]", chunks_of.get, doc, [])
    if got is None:
        return []
    if isinstance(got, (str, bytes)) or not isinstance(got, Sequence):
        raise InputError(f"chunks_of({doc!r}) must be a list of chunks, got {type_name(got)}")
    return [to_chunk(c, i, f"chunks_of({doc!r})[{i}]", **decode) for i, c in enumerate(got)]


def _span_pages(span: list[Chunk]) -> dict[str, Any]:
    """A merged span's images (every image of its chunks, in order) and its page (the first
    page, or ``"first-last"``); nothing when no chunk of the span is a page.

    >>> _span_pages([Chunk("a", page=3), Chunk("b", page=4)])
    {'image': None, 'page': '3-4'}
    """
    pages = [c.page for c in span if c.page is not None]
    images = tuple(p for c in span for p in c.images)
    if not pages and not images:
        return {}
    page: int | str | None = None
    if pages:
        page = pages[0] if pages[0] == pages[-1] else f"{pages[0]}-{pages[-1]}"
    return {"image": images or None, "page": page}


def _conflict(req: Request, item: Item, doc: str, pos: int) -> InputError:
    i = item.members[0]
    return InputError(
        f"{req.name(item)}: chunks_of({doc!r})[{pos}] has its id with different text; ids must "
        "identify one text (give the hit and its chunk list the same text, or different ids)",
        index=i,
        id=item.chunk.id,
        field="id",
        option="chunks_of",
    )


Window = tuple[int, int, list[int]]  # (lo, hi, indices of the items it grew from)


def _windows(items: list[Item], req: Request) -> tuple[dict[str, list[Window]], dict[str, Any]]:
    """Each hit's window, by document, and each document's chunk list."""
    n = req.options.neighbors
    lists: dict[str, list[Chunk]] = {}
    places: dict[str, dict[str | None, int]] = {}  # doc -> id -> its first position in the list
    where_of: dict[int, tuple[str, int]] = {}
    for idx, item in enumerate(items):
        if item.expanded or item.chunk.doc is None:  # no document, no chunk list
            continue
        doc = item.chunk.doc
        if doc not in lists:
            lists[doc] = _chunks_of(req.options.chunks_of, doc, req.scratch.decode)
            places[doc] = {}
            for j, c in enumerate(lists[doc]):
                places[doc].setdefault(c.id, j)
        pos = places[doc].get(item.chunk.id)
        if pos is not None:
            if lists[doc][pos].text != item.chunk.text:
                raise _conflict(req, item, doc, pos)
            where_of[idx] = (doc, pos)
    spans: dict[str, list[Window]] = {}
    for idx, (doc, pos) in where_of.items():
        last = len(lists[doc]) - 1
        spans.setdefault(doc, []).append((max(0, pos - n), min(last, pos + n), [idx]))
    return spans, lists


def _merged(windows: list[Window]) -> list[Window]:
    windows.sort()
    merged: list[Window] = []
    for lo, hi, idxs in windows:
        if merged and lo <= merged[-1][1] + 1:
            plo, phi, pidx = merged[-1]
            merged[-1] = (plo, max(phi, hi), pidx + idxs)
        else:
            merged.append((lo, hi, list(idxs)))
    return merged


def run(items: list[Item], req: Request) -> list[Item]:
    """Grow each hit into its span; hits whose windows touch merge into one item."""
    spans, lists = _windows(items, req)
    leader: dict[int, Item] = {}
    absorbed: set[int] = set()
    for doc, windows in spans.items():
        for lo, hi, idxs in _merged(windows):
            idxs.sort()
            best = items[idxs[0]]
            text = _join([c.text for c in lists[doc][lo : hi + 1]])
            if text == best.chunk.text and len(idxs) == 1:
                continue
            members = [m for i in idxs for m in items[i].members]
            chunk = best.chunk.replace(
                text=text, tokens=None, position=lists[doc][lo].position,
                **_span_pages(lists[doc][lo : hi + 1]),
            )  # fmt: skip
            if chunk.images:  # the span carries pages: the page hooks apply from here on
                req.scratch.expanded_pages = True
            leader[idxs[0]] = Item(
                chunk, members, best.vector, expanded=True, vector_checked=best.vector_checked
            )
            absorbed.update(idxs[1:])
    return [leader.get(idx, item) for idx, item in enumerate(items) if idx not in absorbed]
