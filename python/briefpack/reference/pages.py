"""Page signatures and greedy page dedupe with a second look (reference kernels).

Integer arithmetic only, so the Rust core computes the same bytes and decisions
(``docs/pages.md`` gives the why and the measurements):

1. Gray: one channel is its own gray value; RGB is ``(19595 R + 38470 G + 7471 B + 32768) >>
   16`` (ITU-R 601 luma in 16-bit fixed point; the same as Pillow's ``convert("L")``).
2. Content box: a pixel is ink when its gray is below ``INK_BELOW``; a row (column) is content
   when it has at least ``MIN_INK`` ink pixels; the box spans the first to the last content row
   and column (the whole page when there is none).
3. Detail grid: the box averaged to ``DETAIL`` x ``DETAIL`` cells (cell ``i`` covers
   ``i*h//D`` up to ``max(i*h//D + 1, (i+1)*h//D)`` of the box, floor of the mean).
4. Hash: the grid averaged 4x4 to 32x32; a DCT-II with the fixed table ``COS`` (exact integer
   sums, row pass then column pass); the 16x16 lowest frequencies; bit ``16 v + u`` set when
   coefficient ``(v, u)`` exceeds the median (128th smallest) of the 255 non-DC ones.
5. Signature: the 32 hash bytes, then the grid's bytes.

Dedupe walks the pages in rank order; a pair within ``max_distance`` bits gets a second look:
each 4x4 block of one grid is matched against the other at the best shift within 2 cells (both
ways); the pair is different when the worst block exceeds ``factor`` times the 90th-percentile
block plus ``margin`` per cell, or the 90th-percentile block exceeds ``level`` per cell (the
pages differ everywhere). A page duplicates the earliest kept page that passes both; the
first copy wins. With ``previews``, a pair the second look finds alike whose pages do not both
carry text gets the fine look (``reference.scale.scale_look``): every block of ``FINE`` x
``FINE`` area-weighted grids of the previews' content boxes aligned on its own, on a box that
follows the other page's scale.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from operator import sub

from .._checks import check_count, check_texts, type_name
from .._option_rules import DEFAULT_MAX_DISTANCE
from .._types import DedupeResult
from ..errors import InputError
from . import scale
from .guard import NEGATIONS, quote
from .text import words as text_words

__all__ = [
    "COS",
    "DEFAULT_FACTOR",
    "DEFAULT_FINE_RATIO",
    "DEFAULT_LEVEL",
    "DEFAULT_MARGIN",
    "DEFAULT_MAX_DISTANCE",
    "DETAIL",
    "FINE",
    "HASH_BITS",
    "HASH_BYTES",
    "SIGNATURE_BYTES",
    "content_box",
    "dct_hash",
    "dedupe_pages",
    "detail",
    "fine_grid",
    "hamming",
    "luma",
    "order_differs",
    "page_hash",
    "page_hashes",
    "scale_look",
    "second_look",
    "text_differs",
]

INK_BELOW = 160
MIN_INK = 2
DETAIL = 128
HASH_GRID = 32
LOW = 16
HASH_BITS = LOW * LOW
HASH_BYTES = HASH_BITS // 8
SIGNATURE_BYTES = HASH_BYTES + DETAIL * DETAIL
BLOCK = 4
SHIFT = 2
DEFAULT_FACTOR = 4
DEFAULT_MARGIN = 4
DEFAULT_LEVEL = 22
# The fine look (a near pair the second look finds alike): every block of the FINE x FINE grids
# of the content boxes aligned on its own, on a box that follows the other page's scale
# (``reference.scale``); a block's residual is its largest PEAK x PEAK window of absolute
# differences; DEFAULT_FINE_RATIO is that look's SCALE_RATIO.
FINE = 512
PEAK = 4
DEFAULT_FINE_RATIO = 650
# Fine grids kept per call (256 KB each); past that a kept page's grid is made again for each
# pair that needs it, and a dropped page's is freed at once: memory stays bounded (the
# decisions do not depend on it).
FINE_CACHE = 256
Box = tuple[int, int, int, int]
# The order check: two texts with the same words are different when more than ORDER_TOLERANCE
# of their adjacent word pairs (bigrams) are not in the other text. Moving one block of words
# elsewhere (a caption or a side note read at another place) changes at most 3 pairs, so such a
# copy is still a copy. Texts of more than ORDER_MAX_WORDS words are left to the pixels.
ORDER_TOLERANCE = 3
ORDER_MAX_WORDS = 100_000
# The text check reads OCR text: two readings of copies of one page differ in a few
# characters ("latin1" / "latin1i", "4.58" / "4.5s", a dropped "f"), and a figure or screenshot
# reads as different garbage each time, so a word present on one side only is not evidence.
# Texts that share fewer than TEXT_SHARE_NUM / TEXT_SHARE_DEN of the distinct adjacent word
# pairs of the one with fewer (at least TEXT_MIN_PAIRS of them) are different pages; a number
# changed digit for digit is a difference ("49" / "59"), and so is a negation word.
TEXT_MIN_PAIRS = 20
# A reading that differs from the other in more than TEXT_NOISE words (counted with repeats,
# both sides) is noisy: its numbers and negations are not evidence, the pixels decide.
TEXT_NOISE = 8
TEXT_SHARE_NUM = 1
TEXT_SHARE_DEN = 5

# fmt: off
COS = (
    (
        4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096,
        4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096,
        4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096,
    ),
    (
        4091, 4052, 3973, 3857, 3703, 3513, 3290, 3035, 2751, 2440, 2106, 1751,
        1380, 995, 601, 201, -201, -601, -995, -1380, -1751, -2106, -2440, -2751,
        -3035, -3290, -3513, -3703, -3857, -3973, -4052, -4091,
    ),
    (
        4076, 3920, 3612, 3166, 2598, 1931, 1189, 401, -401, -1189, -1931, -2598,
        -3166, -3612, -3920, -4076, -4076, -3920, -3612, -3166, -2598, -1931, -1189, -401,
        401, 1189, 1931, 2598, 3166, 3612, 3920, 4076,
    ),
    (
        4052, 3703, 3035, 2106, 995, -201, -1380, -2440, -3290, -3857, -4091, -3973,
        -3513, -2751, -1751, -601, 601, 1751, 2751, 3513, 3973, 4091, 3857, 3290,
        2440, 1380, 201, -995, -2106, -3035, -3703, -4052,
    ),
    (
        4017, 3406, 2276, 799, -799, -2276, -3406, -4017, -4017, -3406, -2276, -799,
        799, 2276, 3406, 4017, 4017, 3406, 2276, 799, -799, -2276, -3406, -4017,
        -4017, -3406, -2276, -799, 799, 2276, 3406, 4017,
    ),
    (
        3973, 3035, 1380, -601, -2440, -3703, -4091, -3513, -2106, -201, 1751, 3290,
        4052, 3857, 2751, 995, -995, -2751, -3857, -4052, -3290, -1751, 201, 2106,
        3513, 4091, 3703, 2440, 601, -1380, -3035, -3973,
    ),
    (
        3920, 2598, 401, -1931, -3612, -4076, -3166, -1189, 1189, 3166, 4076, 3612,
        1931, -401, -2598, -3920, -3920, -2598, -401, 1931, 3612, 4076, 3166, 1189,
        -1189, -3166, -4076, -3612, -1931, 401, 2598, 3920,
    ),
    (
        3857, 2106, -601, -3035, -4091, -3290, -995, 1751, 3703, 3973, 2440, -201,
        -2751, -4052, -3513, -1380, 1380, 3513, 4052, 2751, 201, -2440, -3973, -3703,
        -1751, 995, 3290, 4091, 3035, 601, -2106, -3857,
    ),
    (
        3784, 1567, -1567, -3784, -3784, -1567, 1567, 3784, 3784, 1567, -1567, -3784,
        -3784, -1567, 1567, 3784, 3784, 1567, -1567, -3784, -3784, -1567, 1567, 3784,
        3784, 1567, -1567, -3784, -3784, -1567, 1567, 3784,
    ),
    (
        3703, 995, -2440, -4091, -2751, 601, 3513, 3857, 1380, -2106, -4052, -3035,
        201, 3290, 3973, 1751, -1751, -3973, -3290, -201, 3035, 4052, 2106, -1380,
        -3857, -3513, -601, 2751, 4091, 2440, -995, -3703,
    ),
    (
        3612, 401, -3166, -3920, -1189, 2598, 4076, 1931, -1931, -4076, -2598, 1189,
        3920, 3166, -401, -3612, -3612, -401, 3166, 3920, 1189, -2598, -4076, -1931,
        1931, 4076, 2598, -1189, -3920, -3166, 401, 3612,
    ),
    (
        3513, -201, -3703, -3290, 601, 3857, 3035, -995, -3973, -2751, 1380, 4052,
        2440, -1751, -4091, -2106, 2106, 4091, 1751, -2440, -4052, -1380, 2751, 3973,
        995, -3035, -3857, -601, 3290, 3703, 201, -3513,
    ),
    (
        3406, -799, -4017, -2276, 2276, 4017, 799, -3406, -3406, 799, 4017, 2276,
        -2276, -4017, -799, 3406, 3406, -799, -4017, -2276, 2276, 4017, 799, -3406,
        -3406, 799, 4017, 2276, -2276, -4017, -799, 3406,
    ),
    (
        3290, -1380, -4091, -995, 3513, 3035, -1751, -4052, -601, 3703, 2751, -2106,
        -3973, -201, 3857, 2440, -2440, -3857, 201, 3973, 2106, -2751, -3703, 601,
        4052, 1751, -3035, -3513, 995, 4091, 1380, -3290,
    ),
    (
        3166, -1931, -3920, 401, 4076, 1189, -3612, -2598, 2598, 3612, -1189, -4076,
        -401, 3920, 1931, -3166, -3166, 1931, 3920, -401, -4076, -1189, 3612, 2598,
        -2598, -3612, 1189, 4076, 401, -3920, -1931, 3166,
    ),
    (
        3035, -2440, -3513, 1751, 3857, -995, -4052, 201, 4091, 601, -3973, -1380,
        3703, 2106, -3290, -2751, 2751, 3290, -2106, -3703, 1380, 3973, -601, -4091,
        -201, 4052, 995, -3857, -1751, 3513, 2440, -3035,
    ),
)
# fmt: on
"""``round(4096 cos((2x + 1) u pi / 64))`` for ``u`` in 0..16, ``x`` in 0..32."""

_INK = bytes(int(v < INK_BELOW) for v in range(256))


def luma(r: int, g: int, b: int) -> int:
    """ITU-R 601 luma of an RGB pixel in 16-bit fixed point, rounded to nearest.

    >>> luma(255, 255, 255), luma(255, 0, 0), luma(0, 255, 0), luma(0, 0, 255)
    (255, 76, 150, 29)
    """
    return (19595 * r + 38470 * g + 7471 * b + 32768) >> 16


def _span(k: int, cells: int, length: int) -> range:
    lo = k * length // cells
    return range(lo, max(lo + 1, (k + 1) * length // cells))


def _gray(pixels: bytes, channels: int) -> bytes:
    if channels == 1:
        return pixels
    return bytes(luma(pixels[p], pixels[p + 1], pixels[p + 2]) for p in range(0, len(pixels), 3))


def content_box(gray: bytes, width: int, height: int) -> tuple[int, int, int, int]:
    """``(top, bottom, left, right)``, half-open, of a gray page's content.

    >>> content_box(bytes([255, 0, 0, 255, 0, 0, 255, 255, 255]), 3, 3)
    (0, 2, 1, 3)
    """
    ink = gray.translate(_INK)
    rows = [y for y in range(height) if sum(ink[y * width : (y + 1) * width]) >= MIN_INK]
    cols = [x for x in range(width) if sum(ink[x::width]) >= MIN_INK]
    if not rows or not cols:
        return 0, height, 0, width
    return rows[0], rows[-1] + 1, cols[0], cols[-1] + 1


def _box_grid(pixels: bytes, width: int, height: int, channels: int, cells: int) -> bytes:
    gray = _gray(pixels, channels)
    top, bottom, left, right = content_box(gray, width, height)
    h, w = bottom - top, right - left
    cols = [_span(j, cells, w) for j in range(cells)]
    out = bytearray()
    for i in range(cells):
        rows = _span(i, cells, h)
        starts = [(top + y) * width + left for y in rows]
        if len(starts) == 1:
            s0 = starts[0]
            line = gray[s0 : s0 + w]
            for c in cols:
                out.append(sum(line[c.start : c.stop]) // len(c))
            continue
        for c in cols:
            total = sum(sum(gray[s + c.start : s + c.stop]) for s in starts)
            out.append(total // (len(rows) * len(c)))
    return bytes(out)


def detail(pixels: bytes, width: int, height: int, channels: int) -> bytes:
    """The ``DETAIL`` x ``DETAIL`` box-averaged gray grid of a page's content box.

    >>> detail(bytes([0, 255]), 2, 1, 1)[:3], detail(bytes([0, 255]), 2, 1, 1)[-1]
    (b'\\x00\\x00\\x00', 255)
    """
    return _box_grid(pixels, width, height, channels, DETAIL)


def _overlaps(k: int, length: int) -> list[tuple[int, int]]:
    """The pixels (of a side of ``length``) that fine cell ``k`` overlaps, with the overlap in
    units of ``1 / FINE`` pixel: the cell is ``[k length, (k + 1) length)``, pixel ``p`` is
    ``[p FINE, (p + 1) FINE)``."""
    lo, hi = k * length, (k + 1) * length
    return [
        (p, min(hi, (p + 1) * FINE) - max(lo, p * FINE)) for p in range(lo // FINE, -(-hi // FINE))
    ]


def fine_grid(pixels: bytes, width: int, height: int, channels: int) -> bytes:
    """The ``FINE`` x ``FINE`` grid of a page's content box, area-weighted: each pixel weighs
    its overlap with the cell (in ``1 / FINE`` pixel units), the value is the floor of the
    weighted sum over the box's ``h * w``.

    >>> g = fine_grid(bytes([0, 255]), 2, 1, 1)
    >>> len(g), g[0], g[255], g[256], g[-1]
    (262144, 0, 0, 255, 255)
    """
    gray = _gray(pixels, channels)
    top, bottom, left, right = content_box(gray, width, height)
    h, w = bottom - top, right - left
    cols = [_overlaps(j, w) for j in range(FINE)]
    area = h * w
    out = bytearray()
    for i in range(FINE):
        colsum = [0] * w
        for y, wy in _overlaps(i, h):
            row = gray[(top + y) * width + left : (top + y) * width + right]
            colsum = [c + wy * p for c, p in zip(colsum, row)]
        out += bytes(sum(wx * colsum[x] for x, wx in col) // area for col in cols)
    return bytes(out)


def dct_hash(grid: bytes) -> bytes:
    """The 256-bit (32-byte) DCT hash of a detail grid.

    >>> dct_hash(bytes(DETAIL * DETAIL)) == bytes(32)
    True
    """
    f = DETAIL // HASH_GRID
    small = [
        [
            sum(
                sum(grid[y * DETAIL + j * f : y * DETAIL + (j + 1) * f])
                for y in range(i * f, (i + 1) * f)
            )
            // (f * f)
            for j in range(HASH_GRID)
        ]
        for i in range(HASH_GRID)
    ]
    r = [[sum(c * v for c, v in zip(COS[u], row)) for u in range(LOW)] for row in small]
    coef = [
        sum(COS[v][y] * r[y][u] for y in range(HASH_GRID)) for v in range(LOW) for u in range(LOW)
    ]
    median = sorted(coef[1:])[(HASH_BITS - 1) // 2]
    value = 0
    for c in coef:
        value = (value << 1) | (c > median)
    return value.to_bytes(HASH_BYTES, "big")


def page_hash(pixels: bytes, width: int, height: int, channels: int) -> bytes:
    """The signature of one page: 32 hash bytes, then the ``DETAIL * DETAIL`` grid.

    >>> s = page_hash(bytes(64 * 66), 66, 64, 1)
    >>> len(s), s[:32] == bytes(32)
    (16416, True)
    """
    grid = detail(pixels, width, height, channels)
    return dct_hash(grid) + grid


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

    >>> [h[32:34] for h in page_hashes(bytes(4) + bytes([255, 0] * 2), [0, 4, 8], [2, 2],
    ...                                [2, 2], [1, 1])]
    [b'\\x00\\x00', b'\\xff\\xff']
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


def _block_scores(a: bytes, b: bytes) -> list[int]:
    """Per block of ``a``: the least sum of absolute differences against ``b`` over the shifts
    within ``SHIFT`` cells that keep the shifted block inside the grid."""
    out = []
    for y0 in range(0, DETAIL, BLOCK):
        for x0 in range(0, DETAIL, BLOCK):
            rows = [
                a[(y0 + y) * DETAIL + x0 : (y0 + y) * DETAIL + x0 + BLOCK] for y in range(BLOCK)
            ]
            best = None
            for sy in range(y0 - SHIFT, y0 + SHIFT + 1):
                if sy < 0 or sy + BLOCK > DETAIL:
                    continue
                for sx in range(x0 - SHIFT, x0 + SHIFT + 1):
                    if sx < 0 or sx + BLOCK > DETAIL:
                        continue
                    sad = 0
                    for y, ra in enumerate(rows):
                        o = (sy + y) * DETAIL + sx
                        sad += sum(map(abs, map(sub, ra, b[o : o + BLOCK])))
                    if best is None or sad < best:
                        best = sad
            out.append(best or 0)
    return out


def _look_scores(a: bytes, b: bytes) -> list[int]:
    return list(map(max, _block_scores(a, b), _block_scores(b, a)))


def _judge(scores: list[int], factor: int, margin: int, level: int) -> tuple[bool, int, int]:
    ranked = sorted(scores)
    worst, typical = ranked[-1], ranked[len(ranked) * 9 // 10]
    cells = BLOCK * BLOCK
    return worst > factor * typical + margin * cells or typical > level * cells, worst, typical


def second_look(a: bytes, b: bytes, factor: int, margin: int, level: int) -> tuple[bool, int, int]:
    """``(different, worst, typical)`` of two detail grids: the largest block score (both ways)
    and the 90th-percentile one; different when ``worst > factor * typical + margin * 16`` or
    ``typical > level * 16``.

    >>> second_look(bytes(DETAIL * DETAIL), bytes(DETAIL * DETAIL), 4, 4, 22)
    (False, 0, 0)
    """
    return _judge(_look_scores(a, b), factor, margin, level)


def _check_signatures(hashes: Sequence[bytes]) -> None:
    """``dedupe_pages``' signatures: a list of ``SIGNATURE_BYTES``-byte ``bytes``."""
    if isinstance(hashes, (str, bytes)) or not isinstance(hashes, Sequence):
        raise InputError(f"hashes must be a list of bytes, got {type_name(hashes)}")
    for i, h in enumerate(hashes):
        if not isinstance(h, bytes):
            raise InputError(f"hashes[{i}] must be bytes, got {type_name(h)}")
        if len(h) != SIGNATURE_BYTES:
            raise InputError(
                f"hashes[{i}] has {len(h)} bytes, a page signature has {SIGNATURE_BYTES}; pass "
                "the hashes page_hashes returned"
            )


def _page_texts(texts: Sequence[str] | None, pages: int) -> list[str] | None:
    """``dedupe_pages``' ``texts`` checked (one per page), or None."""
    if texts is None:
        return None
    words = check_texts(texts, "texts")
    if len(words) != pages:
        raise InputError(
            f"texts has {len(words)} entries but hashes has {pages}; pass one text "
            "per page ('' for a page without text)"
        )
    return words


def _previews(
    previews: Sequence[tuple[int, int, bytes] | None] | None, pages: int
) -> list[tuple[int, int, bytes] | None] | None:
    """``dedupe_pages``' ``previews`` checked (one ``(width, height, pixels)`` or ``None`` per
    page), or None."""
    if previews is None:
        return None
    if isinstance(previews, (str, bytes)) or not isinstance(previews, Sequence):
        raise InputError(
            f"previews must be a list of (width, height, pixels) or None, got {type_name(previews)}"
        )
    out: list[tuple[int, int, bytes] | None] = []
    for i, p in enumerate(previews):
        if p is None:
            out.append(None)
            continue
        if not isinstance(p, tuple) or len(p) != 3:
            raise InputError(
                f"previews[{i}] must be (width, height, pixels) or None, got {type_name(p)}"
            )
        w = check_count(f"previews[{i}] width", p[0], minimum=1)
        h = check_count(f"previews[{i}] height", p[1], minimum=1)
        if not isinstance(p[2], bytes):
            raise InputError(
                f"previews[{i}] must be (width, height, pixels) or None, got {type_name(p)}"
            )
        if w * h != len(p[2]):
            raise InputError(
                f"previews[{i}]: width * height is not the {len(p[2])} bytes of its pixels"
            )
        out.append((w, h, p[2]))
    if len(out) != pages:
        raise InputError(
            f"previews has {len(out)} entries but hashes has {pages}; pass one preview per page "
            "(None for a page without)"
        )
    return out


def scale_look(
    previews: Sequence[tuple[int, int, bytes] | None],
) -> tuple[bool, int, int, int, Box, Box, Box, list[int], list[bool]]:
    """The scale-following fine look (``reference.scale``) at two gray previews (``[(width,
    height, pixels), (width, height, pixels)]``, the kept page first): ``(different, worst,
    reference, fitted, refined, box_a, box_b, residuals, ink)``.

    >>> page = (4, 4, bytes([255] * 5 + [0, 0] + [255] * 2 + [0, 0] + [255] * 5))
    >>> scale_look([page, page])[:4]
    (False, 0, 0, 0)
    """
    views = _previews(previews, 2)
    assert views is not None
    a, b = views
    if a is None or b is None:
        raise InputError("page_scale_look needs two previews, got None")
    boxes = [content_box(v[2], v[0], v[1]) for v in (a, b)]
    grids = [fine_grid(v[2], v[0], v[1], 1) for v in (a, b)]
    return scale.look(a, boxes[0], grids[0], b, boxes[1], grids[1])


def order_differs(a: str, b: str) -> str | None:
    """Why texts ``a`` and ``b``, with the same words (``reference.text.words``, as a
    multiset), are different pages: more than ``ORDER_TOLERANCE`` of one text's adjacent word
    pairs are not among the other's (counted with repeats). ``None`` when the words differ
    (``text_differs`` weighs those), the order is the same or within the tolerance, or a text
    has more than ``ORDER_MAX_WORDS`` words. O(n log n) in the number of words.

    >>> order_differs("Sales rose in May, then fell.", "Then sales fell in May, rose.")
    'the same words in another order (4 of 5 word pairs differ)'
    >>> order_differs("one two three four five six", "four five six one two three") is None
    True
    """
    if a == b:
        return None
    wa, wb = text_words(a), text_words(b)
    if len(wa) > ORDER_MAX_WORDS or len(wb) > ORDER_MAX_WORDS or wa == wb:
        return None
    if sorted(wa) != sorted(wb):
        return None
    pa = sorted(pairwise(wa))
    pb = sorted(pairwise(wb))
    moved = i = j = 0
    while i < len(pa):  # pairs of a not in b, a merge of the two sorted lists
        if j == len(pb) or pa[i] < pb[j]:
            moved += 1
            i += 1
        elif pa[i] == pb[j]:
            i += 1
            j += 1
        else:
            j += 1
    if moved <= ORDER_TOLERANCE:
        return None
    return f"the same words in another order ({moved} of {len(pa)} word pairs differ)"


def _shape(word: str) -> str | None:
    """A word holding an ASCII digit with its digits as ``#`` (``None`` without a digit)."""
    if not any("0" <= c <= "9" for c in word):
        return None
    return "".join("#" if "0" <= c <= "9" else c for c in word)


def _excess(x: Counter[str], y: Counter[str]) -> list[str]:
    """The words ``x`` has more often than ``y``, sorted."""
    return sorted(w for w, c in x.items() if y.get(w, 0) < c)


def _at(w: list[str], i: int) -> str:
    """Word ``i`` of ``w``, ``""`` before the first and after the last."""
    return w[i] if 0 <= i < len(w) else ""


def _places(w: list[str], i: int, word: str) -> list[tuple[str, int, str]]:
    """Where word ``i`` of ``w`` (``word``, holding a digit) stands: ``(shape, 0, the word
    before)`` and ``(shape, 1, the word after)``, each only when that neighbour holds no digit
    (``""`` at either end of the text counts: a table of numbers anchors nothing)."""
    shape = str(_shape(word))
    out = []
    for side, n in ((0, _at(w, i - 1)), (1, _at(w, i + 1))):
        if _shape(n) is None:
            out.append((shape, side, n))
    return out


def text_differs(a: str, b: str) -> str | None:
    """Why pages whose texts (OCR or extracted) are ``a`` and ``b`` are different, or ``None``
    (the pixels decide). The words are ``reference.text.words`` (NFKC, lowercased, split at
    punctuation), and the checks, in order:

    * the same words in the same order: ``None``;
    * the text with fewer distinct adjacent word pairs has at least ``TEXT_MIN_PAIRS`` and
      shares fewer than a fifth of them with the other (``5 * shared < n``): ``"the texts
      share k of n word pairs"``;
    * then, only when the two differ in at most ``TEXT_NOISE`` words (counted with repeats,
      both sides; a noisier reading's numbers are not evidence):

      * a number changed digit for digit, in place: a word ``x`` holding a digit that ``a``
        has more often than ``b``, and a word ``y`` that ``b`` has more often than ``a``, of
        the same shape (the same length, the digits at the same places, the other characters
        equal), after the same word or before the same word, that word holding no digit
        (``""`` at either end of a text): ``"differs in 'x' / 'y'"``, the smallest such
        ``(x, y)``; or, anywhere, when every word the two differ in holds a digit and the
        two sides' differing words have the same shapes (numbers for numbers, nothing else):
        ``x`` the first of ``a``'s, ``y`` the first of ``b``'s of its shape;
      * a negation word (``reference.guard.NEGATIONS``) more often on one side:
        ``"differs in 'not'"``, the first such word (sorted);
    * ``order_differs``.

    Any other difference (a word on one side only, a number that gained or lost a digit) is
    what OCR makes of copies, and is left to the pixels, as is a pair with a text of more than
    ``ORDER_MAX_WORDS`` words. O(n log n) in the words.

    >>> text_differs("Pro plan: $49 per month.", "Pro plan: $59 per month.")
    "differs in '49' / '59'"
    >>> text_differs("Encoding latin1, 4.58 s.", "Encoding latin1i, 4.5s s.") is None
    True
    >>> text_differs("The cache is shared.", "The cache is not shared.")
    "differs in 'not'"
    """
    if a == b:
        return None
    wa, wb = text_words(a), text_words(b)
    if len(wa) > ORDER_MAX_WORDS or len(wb) > ORDER_MAX_WORDS or wa == wb:
        return None  # too long to weigh per pair: the pixels decide
    pa, pb = set(pairwise(wa)), set(pairwise(wb))
    fewer = min(len(pa), len(pb))
    if fewer >= TEXT_MIN_PAIRS:
        shared = len(pa & pb)
        if shared * TEXT_SHARE_DEN < fewer * TEXT_SHARE_NUM:
            return f"the texts share {shared} of {fewer} word pairs"
    ca, cb = Counter(wa), Counter(wb)
    if (ca - cb).total() + (cb - ca).total() > TEXT_NOISE:
        return None  # a noisy reading (so other words too): the pixels decide
    xa, xb = _excess(ca, cb), _excess(cb, ca)
    shapes_a = Counter(_shape(w) for w in (ca - cb).elements())
    shapes_b = Counter(_shape(w) for w in (cb - ca).elements())
    if shapes_a and None not in shapes_a and shapes_a == shapes_b:  # numbers for numbers only
        x = xa[0]
        y = min(w for w in xb if _shape(w) == _shape(x))
        return f"differs in {quote(x)} / {quote(y)}"
    # (shape, side, neighbour) -> the smallest word of b there: side 0 the word before, 1 after
    in_b: dict[tuple[str, int, str], str] = {}
    digits_b = {w for w in xb if _shape(w) is not None}
    for j, w in enumerate(wb):
        if w in digits_b:
            for key in _places(wb, j, w):
                if key not in in_b or w < in_b[key]:
                    in_b[key] = w
    found: list[tuple[str, str]] = []
    digits_a = {w for w in xa if _shape(w) is not None}
    for i, w in enumerate(wa):
        if w in digits_a:
            for key in _places(wa, i, w):
                other = in_b.get(key)
                if other is not None:
                    found.append((w, other))
    if found:
        x, y = min(found)
        return f"differs in {quote(x)} / {quote(y)}"
    for w in sorted(set(xa) | set(xb)):
        if w in NEGATIONS:
            return f"differs in {quote(w)}"
    return order_differs(a, b)


def _fine_of(
    j: int, views: Sequence[tuple[int, int, bytes] | None], fine: dict[int, bytes]
) -> bytes:
    """Page ``j``'s fine grid, from ``fine`` or made from its preview (kept in ``fine`` while
    it holds fewer than ``FINE_CACHE`` grids)."""
    grid = fine.get(j)
    if grid is None:
        w, ht, px = views[j]  # type: ignore[misc]
        grid = fine_grid(px, w, ht, 1)
        if len(fine) < FINE_CACHE:
            fine[j] = grid
    return grid


def dedupe_pages(
    hashes: Sequence[bytes],
    max_distance: int = DEFAULT_MAX_DISTANCE,
    *,
    factor: int = DEFAULT_FACTOR,
    margin: int = DEFAULT_MARGIN,
    level: int = DEFAULT_LEVEL,
    details: bool = False,
    texts: Sequence[str] | None = None,
    previews: Sequence[tuple[int, int, bytes] | None] | None = None,
    fine_ratio: int = DEFAULT_FINE_RATIO,
) -> (
    DedupeResult
    | tuple[
        list[int],
        list[int | None],
        list[float | None],
        list[int | None],
        list[tuple[int, int, int] | None],
        list[str | None],
        list[str | None],
    ]
):
    """Drop each page within ``max_distance`` bits of an earlier kept page's hash, unless the
    text check or the second look finds the two different. With ``texts`` (one per page, ``""``
    for a page without text) a near pair whose pages both have text goes first through the
    text check (``text_differs``): texts that share under half their words, or differ in a
    number changed digit for digit, a negation or the order of the same words, keep the pair
    apart whatever the pixels say; other differences are left to the pixels.

    With ``previews`` (one ``(width, height, gray pixels)`` or ``None`` per page) a near pair the
    second look finds alike gets the fine look
    (``reference.scale.scale_look``, ``fine_ratio``) on the two pages' previews.

    With ``details=True`` the columns also hold, per page, the earliest kept page it was kept
    apart from (``near_of``), that pair's ``(distance, worst, typical)`` (``worst`` and
    ``typical`` 0 when the text decided; the fine look's ``(distance, worst, reference)``), the
    check that decided (``"text"``, ``"grid"`` or ``"fine"``) and the text check's reason.

    >>> a = bytes(SIGNATURE_BYTES)
    >>> dedupe_pages([a, bytes([1]) + a[1:]])
    DedupeResult(kept=[0], duplicate_of=[None, 0], similarity=[None, 0.99609375])
    >>> cols = dedupe_pages([a, a], texts=["Total: 49.", "Total: 59."], details=True)
    >>> cols[1], cols[5], cols[6]
    ([None, None], [None, 'text'], [None, "differs in '49' / '59'"])
    """
    _check_signatures(hashes)
    limit = check_count("max_distance", max_distance, minimum=0)
    fac = check_count("factor", factor, minimum=0)
    mar = check_count("margin", margin, minimum=0)
    lev = check_count("level", level, minimum=0)
    ratio = check_count("fine_ratio", fine_ratio, minimum=0)
    words = _page_texts(texts, len(hashes))
    views = _previews(previews, len(hashes))
    fine: dict[int, bytes] = {}
    kept: list[int] = []
    n = len(hashes)
    dup: list[int | None] = [None] * n
    sim: list[float | None] = [None] * n
    near: list[int | None] = [None] * n
    look: list[tuple[int, int, int] | None] = [None] * n
    check: list[str | None] = [None] * n
    because: list[str | None] = [None] * n
    for i, h in enumerate(hashes):
        for k in kept:
            d = hamming(h[:HASH_BYTES], hashes[k][:HASH_BYTES])
            if d > limit:
                continue
            both_text = words is not None and bool(words[i]) and bool(words[k])
            if words is not None and both_text:
                why = text_differs(words[k], words[i])
                if why is not None:
                    if near[i] is None:
                        near[i], look[i], check[i], because[i] = k, (d, 0, 0), "text", why
                    continue
            scores = _look_scores(hashes[k][HASH_BYTES:], h[HASH_BYTES:])
            different, worst, typical = _judge(scores, fac, mar, lev)
            if different:
                if near[i] is None:
                    near[i], look[i], check[i] = k, (d, worst, typical), "grid"
                continue
            if views is not None and (vk := views[k]) is not None and (vi := views[i]) is not None:
                grids = [_fine_of(j, views, fine) for j in (k, i)]
                boxes = [content_box(v[2], v[0], v[1]) for v in (vk, vi)]
                got = scale.look(vk, boxes[0], grids[0], vi, boxes[1], grids[1], ratio)
                if got[0]:
                    if near[i] is None:
                        near[i], look[i], check[i] = k, (d, got[1], got[2]), "fine"
                    continue
            dup[i], sim[i] = k, 1.0 - d / HASH_BITS
            break
        if dup[i] is None:
            kept.append(i)
        else:
            fine.pop(i, None)  # a dropped page is never compared again
    if details:
        return kept, dup, sim, near, look, check, because
    return DedupeResult(kept, dup, sim)
