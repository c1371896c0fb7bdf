"""What the stages need to know about page images: their token cost, their hashes, their dedupe.

Not a stage of its own: a page is a source like any other, so dedupe, budget and account call
these helpers for the items that carry images (``Chunk.images``), and a text-only request never
reaches them.

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

from typing import Any

from ..pages import image_tokens
from .context import Context, Item

__all__ = ["cost", "dedupe_groups", "pack", "page_dupes"]


def cost(item: Item, ctx: Context) -> int:
    """The tokens of ``item``'s images under the request's ``image_tokens`` rule."""
    rule = ctx.options.image_tokens
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


def _hashes(items: list[Item], ctx: Context) -> list[bytes]:
    """The page hash of each item's one image, each image hashed once per request."""
    todo = [it.chunk.images[0] for it in items if id(it.chunk.images[0]) not in ctx.page_hashes]
    if todo:
        offsets = [0]
        for p in todo:
            offsets.append(offsets[-1] + len(p.pixels))
        got = ctx.kernels.page_hashes(
            b"".join(p.pixels for p in todo),
            offsets,
            [p.width for p in todo],
            [p.height for p in todo],
            [p.channels for p in todo],
        )
        for p, h in zip(todo, got):
            ctx.page_hashes[id(p)] = h
    return [ctx.page_hashes[id(it.chunk.images[0])] for it in items]


def by_page_hash(ctx: Context) -> bool:
    """Whether this request compares single pages by their hash (``dedupe="auto"``)."""
    return ctx.pages and ctx.options.dedupe == "auto" and ctx.method != "cosine"


def dedupe_groups(sub: list[Item], ctx: Context) -> tuple[list[int], list[int]]:
    """Positions in ``sub`` compared by page hash, and those compared by the text method."""
    if not by_page_hash(ctx):
        if ctx.method == "cosine":
            return [], list(range(len(sub)))
        return [], [j for j, it in enumerate(sub) if not it.chunk.images or it.chunk.text.strip()]
    pages = [j for j, it in enumerate(sub) if len(it.chunk.images) == 1]
    text = [j for j, it in enumerate(sub) if not it.chunk.images]
    return pages, text


def page_dupes(sub: list[Item], ctx: Context) -> Any:
    """The ``dedupe_pages`` result for ``sub`` (items with one image each)."""
    return ctx.kernels.dedupe(
        "dedupe_pages", _hashes(sub, ctx), max_distance=ctx.options.page_max_distance
    )
