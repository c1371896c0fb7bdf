"""Page signatures (hashes of the previews) and the dedupe of pages by them, in the kernels.

``kernel_batch``, ``hash_pages``, ``PageDedupeResult`` and ``dedupe_pages``; ``briefpack.pages``
re-exports them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .._backend import get_kernels
from .._checks import type_name
from .._option_rules import DEFAULT_MAX_DISTANCE
from ..errors import InputError
from ._decode import (
    MAX_DECODED_BYTES,
    MAX_PAGE_PIXELS,
    DecodeBudget,
    ImageInput,
    PageImage,
    decode_page,
)

# The kernels' constants (the same numbers as briefpack.reference.pages and the Rust core;
# a test holds them equal). Written here so the production path never imports the oracle.
HASH_BITS = 256
"""Bits of the hash at the head of a page signature."""
DEFAULT_FACTOR = 4
"""Second look: the worst block must exceed this many times the 90th-percentile block ..."""
DEFAULT_MARGIN = 4
"""... plus this many gray levels per cell for two pages to be different; ..."""
DEFAULT_LEVEL = 22
"""... or their 90th-percentile block more than this many gray levels per cell."""
DEFAULT_FINE_RATIO = 650
"""Fine look: the block that differs most must exceed this many hundredths of the pair's
reference (the 75th percentile of its blocks with ink, plus 16) for two pages to be
different."""


def kernel_batch(
    pages: Sequence[PageImage],
) -> tuple[bytes, list[int], list[int], list[int], list[int]]:
    """The ``page_hashes`` kernel's arguments for these pages' previews: ``(pixels, offsets,
    widths, heights, channels)``.

    >>> import numpy as np
    >>> kernel_batch([decode_page(np.zeros((2, 3), dtype=np.uint8))])
    (b'\\x00\\x00\\x00\\x00\\x00\\x00', [0, 6], [3], [2], [1])
    """
    if isinstance(pages, (str, bytes)) or not isinstance(pages, Sequence):
        raise InputError(f"pages must be a list of PageImage, got {type_name(pages)}")
    for i, p in enumerate(pages):
        if not isinstance(p, PageImage):
            raise InputError(
                f"pages[{i}] must be a PageImage (what decode_page returns), got {type_name(p)}"
            )
    offsets = [0]
    for p in pages:
        offsets.append(offsets[-1] + len(p.preview.pixels))
    return (
        b"".join(p.preview.pixels for p in pages),
        offsets,
        [p.preview.width for p in pages],
        [p.preview.height for p in pages],
        [1] * len(pages),
    )


def hash_pages(
    images: Sequence[ImageInput],
    *,
    backend: str = "auto",
    max_pixels: int = MAX_PAGE_PIXELS,
    max_decoded_bytes: int = MAX_DECODED_BYTES,
) -> list[bytes]:
    """The signature of each page: a 256-bit DCT hash (32 bytes) then a 128x128 detail grid of
    its content box (16,384 bytes); ``docs/pages.md`` has the spec.

    Images that are not yet a ``PageImage`` are decoded first, one at a time, to their preview
    (``decode_page``, with ``max_pixels`` each and ``max_decoded_bytes`` for all of them); the
    previews go to the kernel, which in the Rust core runs without the GIL.

    >>> import numpy as np
    >>> page = np.full((64, 66), 255, dtype=np.uint8)
    >>> page[20:40, 10:50] = 0
    >>> [len(h) for h in hash_pages([page, 255 - page])]
    [16416, 16416]
    """
    budget = DecodeBudget(max_decoded_bytes)
    kernels = get_kernels(backend)
    out: list[bytes] = []
    batch: list[PageImage] = []
    size = 0
    for i, im in enumerate(images):
        page = decode_page(im, where=f"images[{i}]", max_pixels=max_pixels, budget=budget)
        batch.append(page)
        size += len(page.preview.pixels)
        if size >= _BATCH_BYTES:
            out += kernels.page_hashes(*kernel_batch(batch))
            batch, size = [], 0
    if batch:
        out += kernels.page_hashes(*kernel_batch(batch))
    return out


_BATCH_BYTES = 32 << 20  # previews joined per kernel call


class PageDedupeResult(NamedTuple):
    """What ``dedupe_pages`` decided: ``DedupeResult``'s columns and the second look's.

    Attributes:
        kept: indices of the kept pages, in rank (input) order.
        duplicate_of: per page, the earliest kept page it copies, or ``None``.
        similarity: per page, ``1 - distance / 256`` to ``duplicate_of``, or ``None``.
        near_of: per page, the earliest kept page whose hash was within ``max_distance`` but
            which the text check or the second look found different (``None`` when none was).
        near_look: per page, ``(distance, worst, typical)`` of that pair: hash bits, the
            second look's worst block's and 90th-percentile block's sums of absolute
            differences (16 cells a block; both 0 when the text check decided, the look did
            not run).
        near_check: per page, the check that kept that pair apart: ``"text"``, ``"grid"`` or
            ``"fine"`` (then ``near_look`` is ``(distance, worst, reference)``: the fine look's
            largest block residual and the pair's reference).
        near_reason: per page, the text check's reason (``"differs in '49' / '59'"``) when it
            decided.

    >>> r = PageDedupeResult(
    ...     [0, 1], [None, None], [None, None], [None, 0], [None, (3, 900, 20)], [None, "grid"],
    ...     [None, None],
    ... )
    >>> r.near_of, r.near_check
    ([None, 0], [None, 'grid'])
    """

    kept: list[int]
    duplicate_of: list[int | None]
    similarity: list[float | None]
    near_of: list[int | None]
    near_look: list[tuple[int, int, int] | None]
    near_check: list[str | None]
    near_reason: list[str | None]


def previews(pages: Sequence[PageImage | None]) -> list[tuple[int, int, bytes] | None]:
    """The ``previews`` argument of the ``dedupe_pages`` kernels: each page's preview as
    ``(width, height, pixels)`` (8-bit gray), ``None`` for ``None``. Nothing is copied.

    >>> import numpy as np
    >>> previews([decode_page(np.zeros((2, 3), dtype=np.uint8)), None])
    [(3, 2, b'\\x00\\x00\\x00\\x00\\x00\\x00'), None]
    """
    if isinstance(pages, (str, bytes)) or not isinstance(pages, Sequence):
        raise InputError(f"pages must be a list of PageImage or None, got {type_name(pages)}")
    out: list[tuple[int, int, bytes] | None] = []
    for i, p in enumerate(pages):
        if p is None:
            out.append(None)
        elif isinstance(p, PageImage):
            out.append((p.preview.width, p.preview.height, p.preview.pixels))
        else:
            raise InputError(
                f"pages[{i}] must be a PageImage (what decode_page returns) or None, got "
                f"{type_name(p)}"
            )
    return out


def dedupe_pages(
    hashes: Sequence[bytes],
    max_distance: int = DEFAULT_MAX_DISTANCE,
    *,
    factor: int = DEFAULT_FACTOR,
    margin: int = DEFAULT_MARGIN,
    level: int = DEFAULT_LEVEL,
    texts: Sequence[str | None] | None = None,
    pages: Sequence[PageImage | None] | None = None,
    fine_ratio: int = DEFAULT_FINE_RATIO,
    backend: str = "auto",
) -> PageDedupeResult:
    """Copies among page signatures: within ``max_distance`` hash bits, alike at a second look,
    and (when both carry text) with texts that do not differ in a number.

    Greedy in rank order, the first copy wins; ``similarity`` is ``1 - distance / 256``. A pair
    within ``max_distance`` is compared block by block on the detail grids (``factor``,
    ``margin``, ``level``: ``docs/pages.md``). ``texts`` (one per page: its OCR or extracted
    text, ``None`` or ``""`` for none): a near pair whose pages both have text goes first
    through the text check, made for OCR text (``briefpack.reference.pages.text_differs``):
    texts that share under a fifth of their adjacent word pairs, or that agree but for a few
    words and differ in a number changed digit for digit or in a negation, or that have the same
    words in another order (more than 3 adjacent word pairs differ), keep the two apart whatever
    the pixels say; any other difference is left to the pixels.
    ``pages`` (one ``PageImage`` or ``None`` per signature, the pages hashed): a near pair the
    second look finds alike gets a **fine look** at every block of 512 x 512 grids made from
    the two previews (only for pages in such a pair), each block aligned on its own, on a box
    that follows the other page's scale; one block that stands out from the pair's own
    differences (``fine_ratio`` hundredths of its 75th-percentile ink block) keeps the two
    apart. ``near_of``, ``near_look`` and ``near_check`` say
    which kept page each page was kept apart from, with ``(distance, worst, typical)`` (the
    fine look's ``(distance, worst, reference)``) and the check that decided (``"text"``,
    ``"grid"`` or ``"fine"``); ``near_reason`` the text check's reason.

    >>> import numpy as np
    >>> page = np.full((200, 160), 255, dtype=np.uint8)
    >>> page[20:180:4, 20:140] = 0
    >>> edit = page.copy()
    >>> edit[100:110, 60:80] = 0
    >>> r = dedupe_pages(hash_pages([page, page.copy(), edit]), max_distance=256)
    >>> r.duplicate_of, r.near_of, r.near_check
    ([None, 0, None], [None, None, 0], [None, None, 'grid'])
    >>> same = hash_pages([page, page])
    >>> r = dedupe_pages(same, texts=["Total: 49 units.", "Total: 59 units."])
    >>> r.duplicate_of, r.near_check, r.near_reason
    ([None, None], [None, 'text'], [None, "differs in '49' / '59'"])
    """
    kernels = get_kernels(backend)
    words = None
    if texts is not None:
        if isinstance(texts, (str, bytes)) or not isinstance(texts, Sequence):
            raise InputError(f"texts must be a list of str or None, got {type_name(texts)}")
        words = ["" if t is None else t for t in texts]
    cols = kernels.dedupe_pages_details(
        hashes,
        max_distance,
        factor=factor,
        margin=margin,
        level=level,
        texts=words,
        previews=None if pages is None else previews(pages),
        fine_ratio=fine_ratio,
    )
    return PageDedupeResult(*cols)
