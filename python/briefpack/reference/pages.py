"""Perceptual hashes of page images and greedy dedupe by Hamming distance (reference kernels).

The hash is a difference hash over a fixed box downscale, integer arithmetic only
(``docs/pages.md`` gives the why and the tuning):

1. Gray: one channel is its own gray value; RGB is ``(19595 R + 38470 G + 7471 B + 32768) >>
   16`` (ITU-R 601 luma in 16-bit fixed point; the same as Pillow's ``convert("L")``).
2. Box downscale to 33 columns x 32 rows: cell ``(i, j)`` covers rows ``y0 = i*H//32`` up to
   ``max(y0 + 1, (i+1)*H//32)`` and columns ``x0 = j*W//33`` up to ``max(x0 + 1,
   (j+1)*W//33)`` (half-open); its value is the floor of the mean gray of those pixels.
3. Bit ``k = 32*i + j`` is set when cell ``(i, j)`` is brighter than cell ``(i, j+1)``; the 1024
   bits are packed most significant bit first into 128 bytes.

Dedupe walks the pages in rank order and compares each with the pages already kept; a page
within ``max_distance`` bits of a kept page duplicates the earliest such page, with similarity
``1 - distance / bits``. The first copy wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._checks import check_count, type_name
from .._option_rules import DEFAULT_MAX_DISTANCE
from .._types import DedupeResult
from ..errors import InputError

__all__ = [
    "DEFAULT_MAX_DISTANCE",
    "GRID_COLS",
    "GRID_ROWS",
    "HASH_BITS",
    "dedupe_pages",
    "gray_grid",
    "hamming",
    "luma",
    "page_hash",
    "page_hashes",
]

GRID_COLS = 33
GRID_ROWS = 32
HASH_BITS = GRID_ROWS * (GRID_COLS - 1)


def luma(r: int, g: int, b: int) -> int:
    """ITU-R 601 luma of an RGB pixel in 16-bit fixed point, rounded to nearest.

    >>> luma(255, 255, 255), luma(255, 0, 0), luma(0, 255, 0), luma(0, 0, 255)
    (255, 76, 150, 29)
    """
    return (19595 * r + 38470 * g + 7471 * b + 32768) >> 16


def _span(k: int, cells: int, length: int) -> range:
    lo = k * length // cells
    return range(lo, max(lo + 1, (k + 1) * length // cells))


def gray_grid(pixels: bytes, width: int, height: int, channels: int) -> list[list[int]]:
    """The 32 x 33 box-downscaled gray grid of one page (``channels`` is 1 or 3).

    >>> gray_grid(bytes([0, 255]), 2, 1, 1)[0][:3], gray_grid(bytes([0, 255]), 2, 1, 1)[0][-1]
    ([0, 0, 0], 255)
    """
    if channels == 1:
        gray = pixels
    else:
        gray = bytes(
            luma(pixels[p], pixels[p + 1], pixels[p + 2]) for p in range(0, len(pixels), 3)
        )
    grid = []
    for i in range(GRID_ROWS):
        rows = _span(i, GRID_ROWS, height)
        cells = []
        for j in range(GRID_COLS):
            cols = _span(j, GRID_COLS, width)
            total = sum(sum(gray[y * width + cols.start : y * width + cols.stop]) for y in rows)
            cells.append(total // (len(rows) * len(cols)))
        grid.append(cells)
    return grid


def page_hash(pixels: bytes, width: int, height: int, channels: int) -> bytes:
    """The 1024-bit (128-byte) difference hash of one page.

    >>> page_hash(bytes(64 * 66), 66, 64, 1) == bytes(128)
    True
    """
    grid = gray_grid(pixels, width, height, channels)
    value = 0
    for row in grid:
        for j in range(GRID_COLS - 1):
            value = (value << 1) | (row[j] > row[j + 1])
    return value.to_bytes(HASH_BITS // 8, "big")


def _ints(name: str, value: object) -> list[int]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InputError(f"{name} must be a list of ints >= 0, got {type_name(value)}")
    return [check_count(f"{name}[{i}]", v, minimum=0) for i, v in enumerate(value)]


def _check_batch(
    size: int, offsets: list[int], widths: list[int], heights: list[int], channels: list[int]
) -> None:
    n = len(widths)
    if len(heights) != n or len(channels) != n or len(offsets) != n + 1:
        raise InputError(
            "offsets must have one entry more than widths, heights and channels "
            f"({n} pages), got {len(offsets)}"
        )
    for row in range(n):
        if widths[row] == 0 or heights[row] == 0:
            raise InputError(f"page {row}: width and height must be >= 1")
        if channels[row] not in (1, 3):
            raise InputError(
                f"page {row}: channels must be 1 (gray) or 3 (RGB), got {channels[row]}"
            )
        lo, hi = offsets[row], offsets[row + 1]
        if lo > hi or hi > size:
            raise InputError(
                f"page {row}: offsets[{row}]..offsets[{row + 1}] is not a range inside pixels"
            )
        expected = widths[row] * heights[row] * channels[row]
        if expected != hi - lo:
            shown = expected if expected < 2**64 else "too many"
            raise InputError(
                f"page {row}: width * height * channels is {shown} bytes, but its range of "
                f"pixels holds {hi - lo}"
            )


def page_hashes(
    pixels: bytes,
    offsets: Sequence[int],
    widths: Sequence[int],
    heights: Sequence[int],
    channels: Sequence[int],
) -> list[bytes]:
    """The hashes of pages laid end to end: page ``i`` is ``pixels[offsets[i]:offsets[i+1]]``.

    ``widths``, ``heights`` and ``channels`` (1 gray, 3 RGB) have one entry per page,
    ``offsets`` one more.

    >>> [h.hex()[:8] for h in page_hashes(bytes(4) + bytes([255, 0] * 2), [0, 4, 8], [2, 2],
    ...                                   [2, 2], [1, 1])]
    ['00000000', '00008000']
    """
    if not isinstance(pixels, bytes):
        raise InputError(f"pixels must be bytes, got {type_name(pixels)}")
    offs = _ints("offsets", offsets)
    ws = _ints("widths", widths)
    hs = _ints("heights", heights)
    cs = _ints("channels", channels)
    _check_batch(len(pixels), offs, ws, hs, cs)
    return [page_hash(pixels[offs[i] : offs[i + 1]], ws[i], hs[i], cs[i]) for i in range(len(ws))]


def hamming(a: bytes, b: bytes) -> int:
    """Bits in which two equally long hashes differ.

    >>> hamming(bytes([0b1011]), bytes([0b0001]))
    2
    """
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).bit_count()


def dedupe_pages(hashes: Sequence[bytes], max_distance: int = DEFAULT_MAX_DISTANCE) -> DedupeResult:
    """Drop each page whose hash is within ``max_distance`` bits of an earlier kept page's.

    >>> dedupe_pages([bytes(2), bytes([1, 0]), bytes([255, 0])], max_distance=1)
    DedupeResult(kept=[0, 2], duplicate_of=[None, 0, None], similarity=[None, 0.9375, None])
    """
    if isinstance(hashes, (str, bytes)) or not isinstance(hashes, Sequence):
        raise InputError(f"hashes must be a list of bytes, got {type_name(hashes)}")
    for i, h in enumerate(hashes):
        if not isinstance(h, bytes):
            raise InputError(f"hashes[{i}] must be bytes, got {type_name(h)}")
        if not h:
            raise InputError(f"hashes[{i}] is empty; pass the hashes page_hashes returned")
        if len(h) != len(hashes[0]):
            raise InputError(
                f"hashes[{i}] has {len(h)} bytes but hashes[0] has {len(hashes[0])}; hash "
                "every page with page_hashes"
            )
    limit = check_count("max_distance", max_distance, minimum=0)
    kept: list[int] = []
    dup: list[int | None] = [None] * len(hashes)
    sim: list[float | None] = [None] * len(hashes)
    for i, h in enumerate(hashes):
        for k in kept:
            d = hamming(h, hashes[k])
            if d <= limit:
                dup[i], sim[i] = k, 1.0 - d / (8 * len(h))
                break
        if dup[i] is None:
            kept.append(i)
    return DedupeResult(kept, dup, sim)
