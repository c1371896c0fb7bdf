"""The page hooks: what the stages do differently for items that carry page images.

Not a stage of its own: a page is a source like any other. Whether a request's items carry
pages is declared once (``Request.has_pages``: a candidate with an image, or an expansion that
brought one), and the stages that treat pages differently call their hook whether or not
there are pages, and the hook decides: dedupe (``dedupe_parts``), the budget's greedy loop
(``fit``), evict (``total``) and the account (``with_images``, ``account``). A text-only
request never reaches the rest of this module (and the budget's one-pass path needs none).

* Cost: each image costs ``image_tokens(width, height, options.image_tokens)`` tokens on top of
  its item's rendered text (``briefpack.pages.image_tokens``).
* Cap: ``Budget(images=N)`` is a second budget next to the tokens: packing keeps an item only if
  its images still fit under the cap; under ``overflow="stop"`` the first item that does not
  fit (by tokens or by images) stops the packing, as every misfit does. Items are packed by a
  greedy loop in Python for such requests (both backends run the same loop).
* Dedupe: under ``dedupe="auto"`` (and no cosine), items with exactly one image are compared by
  page hash (``dedupe_pages``, greedy, first copy wins, ``page_max_distance`` bits) and the
  others by the text method; a merged span (several images) is compared with nothing. Under an
  explicit text method, an item with images and blank text is left out of the comparison (blank
  pages are not exact duplicates of each other).

O(total pixels) for the hashes (each image hashed once per request), O(n) otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..pages import (
    DEFAULT_FACTOR,
    DEFAULT_FINE_RATIO,
    DEFAULT_LEVEL,
    DEFAULT_MARGIN,
    PageDedupeResult,
    PageImage,
    image_tokens,
    kernel_batch,
    previews,
)
from .context import Item, Request

__all__ = [
    "PAGE_CHECK",
    "account",
    "cost",
    "dedupe_parts",
    "fit",
    "pack",
    "total",
    "with_images",
]


def cost(item: Item, req: Request) -> int:
    """The tokens of ``item``'s images under the request's ``image_tokens`` rule (a caller's
    callable is called as ``call_back`` calls every callback: what it raises, or an answer
    that is not an int in range, is an ``InputError`` naming the candidate)."""
    rule = req.options.image_tokens
    if callable(rule):
        where = req.name(item)
        return sum(image_tokens(p.width, p.height, rule, where=where) for p in item.chunk.images)
    return sum(image_tokens(p.width, p.height, rule) for p in item.chunk.images)


def pack(
    costs: list[int], counts: list[int], left: int, images_left: int | None, overflow: str
) -> tuple[list[int], set[int]]:
    """Greedy in rank order over tokens and image counts: the kept positions, and those of
    the kept-out items that failed on the image cap (not on tokens).

    >>> pack([5, 5, 5], [1, 1, 0], 100, 1, "skip")
    ([0, 2], {1})
    >>> pack([5, 5, 5], [1, 1, 0], 100, 1, "stop")
    ([0], {1})
    """
    kept: list[int] = []
    by_images: set[int] = set()
    for j, (c, n) in enumerate(zip(costs, counts)):
        fits_tokens = c <= left
        fits_images = images_left is None or n <= images_left
        if fits_tokens and fits_images:
            kept.append(j)
            left -= c
            if images_left is not None:
                images_left -= n
            continue
        if fits_tokens:
            by_images.add(j)
        if overflow == "stop":
            break
    return kept, by_images


def fit(
    batch: list[Item], costs: list[int], req: Request, left: int, placed_images: int
) -> tuple[list[int], set[int], set[int]]:
    """The page hook of the budget's greedy loop: ``batch``'s costs with their images' tokens,
    the positions kept (``pack``, under the cap less the ``placed_images`` already placed),
    and those kept out by the image cap alone. Without pages: the costs as they are, and the
    ``pack`` kernel's choice by tokens alone."""
    if not req.has_pages:
        return costs, set(req.kernels.pack(costs, left, req.options.overflow).kept), set()
    costs = [c + cost(it, req) for c, it in zip(costs, batch)]
    cap = req.options.the_budget.images
    cap_left = None if cap is None else cap - placed_images
    counts = [len(it.chunk.images) for it in batch]
    kept, by_images = pack(costs, counts, left, cap_left, req.options.overflow)
    return costs, set(kept), by_images


def total(items: list[Item], req: Request) -> int:
    """The page hook of evict: the tokens of the images of ``items`` (0 without pages)."""
    return sum([cost(it, req) for it in items]) if req.has_pages else 0


def with_images(per_source: list[int], items: list[Item], req: Request) -> list[int]:
    """The page hooks of the account: each source's tokens with its images' (a page's tokens
    include its images'); ``per_source`` itself without pages."""
    if not req.has_pages:
        return per_source
    return [n + cost(it, req) for n, it in zip(per_source, items)]


def account(tokens: dict[str, int], n_images: int, req: Request) -> None:
    """The images' tokens in the accounting: part of ``sources`` and ``total``, and
    ``images`` of their own (nothing without pages: a text-only request's ``tokens`` are as
    they were before pages existed)."""
    if req.has_pages:
        tokens["sources"] += n_images
        tokens["total"] += n_images
        tokens["images"] = n_images


def _hashes(items: list[Item], req: Request) -> list[bytes]:
    """The page hash of each item's one image, each image hashed once per request, from its
    preview (``PageImage.preview``, made when the candidate was checked): the full pixels are
    never decoded here, so a request holds one preview a page, not its pages."""
    seen = req.scratch.page_hashes
    todo: dict[int, PageImage] = {}
    for it in items:
        page = it.chunk.images[0]
        if id(page) not in seen:
            todo[id(page)] = page
    if todo:
        pages = list(todo.values())
        for page, h in zip(pages, req.kernels.page_hashes(*kernel_batch(pages))):
            seen[id(page)] = h
    return [seen[id(it.chunk.images[0])] for it in items]


def by_page_hash(req: Request) -> bool:
    """Whether this request compares single pages by their hash (``dedupe="auto"``)."""
    return req.has_pages and req.options.dedupe == "auto" and req.method != "cosine"


def _dedupe_groups(sub: list[Item], req: Request) -> tuple[list[int], list[int]]:
    """Positions in ``sub`` compared by page hash, and those compared by the text method."""
    if not by_page_hash(req):
        if req.method == "cosine":
            return [], list(range(len(sub)))
        return [], [j for j, it in enumerate(sub) if not it.chunk.images or it.chunk.text.strip()]
    pages = [j for j, it in enumerate(sub) if len(it.chunk.images) == 1]
    text = [j for j, it in enumerate(sub) if not it.chunk.images]
    return pages, text


def dedupe_parts(
    sub: list[Item], req: Request, text: Callable[[Request, list[Item]], Any]
) -> list[tuple[Sequence[int], Any, str]]:
    """The page hook of dedupe: each kernel result with the positions in ``sub`` it covers and
    its method's name; the page-hash result and the text one (``text``, the dedupe stage's
    kernel call), or without pages the text one over all of ``sub``."""
    if not req.has_pages:
        return [(range(len(sub)), text(req, sub), str(req.method))]
    out: list[tuple[Sequence[int], Any, str]] = []
    pages, texts = _dedupe_groups(sub, req)
    if len(pages) > 1:
        out.append((pages, _page_dupes([sub[j] for j in pages], req), "page_hash"))
    if len(texts) > 1:
        out.append((texts, text(req, [sub[j] for j in texts]), str(req.method)))
    return out


PAGE_CHECK = "second_look"
"""What decided a page-hash drop (its detail's ``check``): every pair within
``page_max_distance`` bits is dropped only once the second look finds the pages alike, so the
hash alone never drops a page."""


def _page_dupes(sub: list[Item], req: Request) -> PageDedupeResult:
    """The ``dedupe_pages`` result for ``sub`` (items with one image each, their OCR text as the
    text check's texts); each page the text check or the second look kept apart from a kept
    page is noted for the record (``second_look``, with the ``check`` that decided)."""
    texts = [it.chunk.text if it.chunk.text.strip() else "" for it in sub]
    res = PageDedupeResult(
        *req.kernels.dedupe_pages_details(
            _hashes(sub, req),
            req.options.page_max_distance,
            factor=DEFAULT_FACTOR,
            margin=DEFAULT_MARGIN,
            level=DEFAULT_LEVEL,
            texts=texts if any(texts) else None,
            previews=previews([it.chunk.images[0] for it in sub]),
            fine_ratio=DEFAULT_FINE_RATIO,
        )
    )
    notes = req.scratch.second_look
    for j, (near, look, dup) in enumerate(zip(res.near_of, res.near_look, res.duplicate_of)):
        if near is None or look is None or dup is not None:
            continue
        note: dict[str, Any] = {"near": sub[near].chunk.id, "distance": look[0]}
        if res.near_check[j] == "text":
            note.update(check="text", kept_because=res.near_reason[j])
        elif res.near_check[j] == "fine":
            note.update(peak=look[1], reference=look[2], check="fine")
        else:
            note.update(worst=look[1], typical=look[2], check="grid")
        for m in sub[j].members:
            notes.setdefault(m, note)  # the first look that kept it (dedupe runs twice)
    return res
