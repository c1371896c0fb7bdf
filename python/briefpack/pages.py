"""Page images as sources: decoding, perceptual hashes, dedupe and image token costs.

A page image (a PNG or JPEG file, its bytes, or a decoded numpy ``uint8`` array) is decoded once,
here, with Pillow (``pip install 'briefpack[pages]'``), into a :class:`PageImage`: its size, its
pixels in a canonical form (8-bit gray, or RGB; transparency flattened onto white) that both
backends hash, and the encoded bytes a chat request carries. ``docs/pages.md`` specifies the
hash, the dedupe and the token rules.

>>> import numpy as np
>>> page = decode_page(np.full((40, 30), 255, dtype=np.uint8))
>>> page.width, page.height, page.channels, page.media_type
(30, 40, 1, 'image/png')
>>> image_tokens(page.width, page.height, "anthropic")
2
"""

from __future__ import annotations

import base64
import io
import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Union

from ._backend import get_kernels
from ._checks import call_back, check_count, integer, shown, type_name
from ._option_rules import DEFAULT_MAX_DISTANCE, IMAGE_TOKEN_RULES, ImageTokenRule
from ._option_rules import MAX_DECODED_BYTES as _MAX_DECODED_BYTES
from ._option_rules import MAX_PAGE_PIXELS as _MAX_PAGE_PIXELS
from .errors import InputError

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "DEFAULT_FACTOR",
    "DEFAULT_LEVEL",
    "DEFAULT_MARGIN",
    "DEFAULT_MAX_DISTANCE",
    "HASH_BITS",
    "IMAGE_TOKEN_RULES",
    "MAX_DECODED_BYTES",
    "MAX_IMAGE_TOKENS",
    "MAX_PAGE_PIXELS",
    "PREVIEW_LONG",
    "DecodeBudget",
    "ImageInput",
    "ImageTokenRule",
    "PageDedupeResult",
    "PageImage",
    "PagePreview",
    "decode_page",
    "dedupe_pages",
    "hash_pages",
    "image_tokens",
    "kernel_batch",
]

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

MAX_PAGE_PIXELS = _MAX_PAGE_PIXELS
"""The most pixels (width * height) a page may have: 50 megapixels, e.g. 5000x10000. An A4
page scanned at 600 dpi is 4960x7016 (35 MP); the limit keeps a decompression bomb (a small
file that decodes to gigabytes) from exhausting memory. ``decode_page(max_pixels=...)`` changes
it per call; the option ``max_page_pixels`` of ``assemble`` per request."""

MAX_DECODED_BYTES = _MAX_DECODED_BYTES
"""The most bytes of pixels one request (one ``DecodeBudget``) may decode: 2 GiB. A page is
decoded only to its preview (``PREVIEW_LONG``; a JPEG at a reduced scale, a PNG in full and
then reduced), one page at a time, so this bounds the work a request can ask for, not what it
holds. ``DecodeBudget(max_decoded_bytes=...)`` changes it; the option ``max_decoded_bytes`` of
``assemble`` per request."""

PREVIEW_LONG = 1024
"""The long side a page's preview is reduced towards: by the integer factor
``max(1, long_side // PREVIEW_LONG)`` (a JPEG by decoding at 1/2, 1/4 or 1/8 scale first,
``Image.draft``), so a 1700x2200 page has an 850x1100 preview."""

MediaType = Literal["image/png", "image/jpeg"]
ImageInput = Union[bytes, str, "os.PathLike[str]", "PageImage", Any]
"""What ``decode_page`` accepts: PNG or JPEG bytes, a file path, a numpy ``uint8`` array of
shape (H, W), (H, W, 3) or (H, W, 4), or a ``PageImage`` (returned as it is)."""

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_JPEG_MAGIC = b"\xff\xd8\xff"
_GRAY_MODES = frozenset({"1", "L", "LA", "La", "I", "I;16", "I;16B", "I;16L", "I;16N"})


@dataclass(frozen=True)
class PagePreview:
    """A page reduced for hashing: 8-bit gray, ``width * height`` bytes, row-major.

    >>> decode_page(bytes.fromhex(
    ...     "89504e470d0a1a0a0000000d4948445200000001000000010800000000"
    ...     "3a7e9b550000000a49444154789c63f80f00010101001bb6ee560000000049454e44ae426082"
    ... )).preview
    PagePreview(width=1, height=1, pixels=b'\\xff')
    """

    width: int
    height: int
    pixels: bytes


@dataclass(frozen=True, repr=False)
class PageImage:
    """A page image, as both backends see it: decoded to a preview, its encoded bytes kept.

    Attributes:
        width: pixels per row.
        height: rows.
        channels: 1 (8-bit gray) or 3 (8-bit RGB): what ``pixels`` holds.
        data: the encoded image a chat request carries: the PNG or JPEG bytes as given, or a
            PNG encoding of an array.
        media_type: ``"image/png"`` or ``"image/jpeg"``, the format of ``data``.
        preview: the gray page reduced by ``max(1, long_side // PREVIEW_LONG)``: what the page
            signature is computed from.

    ``pixels`` (``width * height * channels`` bytes, row-major, channels interleaved, an image
    with transparency composited onto white) is decoded from ``data`` when asked for, each
    time: ``assemble`` never needs it, so a request holds previews, not pages.

    >>> page = decode_page(bytes.fromhex(
    ...     "89504e470d0a1a0a0000000d4948445200000001000000010800000000"
    ...     "3a7e9b550000000a49444154789c63f80f00010101001bb6ee560000000049454e44ae426082"))
    >>> page.width, page.height, page.channels, page.pixels
    (1, 1, 1, b'\\xff')
    >>> page.data_url()[:30]
    'data:image/png;base64,iVBORw0K'
    """

    width: int
    height: int
    channels: Literal[1, 3]
    data: bytes
    media_type: MediaType
    preview: PagePreview

    def __repr__(self) -> str:
        kind = "gray" if self.channels == 1 else "RGB"
        return (
            f"PageImage({self.width}x{self.height}, {kind}, {self.media_type}, "
            f"{len(self.data)} bytes)"
        )

    @property
    def pixels(self) -> bytes:
        """The full-size pixels, decoded from ``data`` now (not kept)."""
        pil = _pil()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pil.DecompressionBombWarning)
            im = pil.open(io.BytesIO(self.data))
            im.load()
        return _canonical(im)[1]

    def base64(self) -> str:
        """``data`` in standard base64 (an Anthropic ``image`` block's ``source.data``)."""
        return base64.b64encode(self.data).decode("ascii")

    def data_url(self) -> str:
        """``data`` as a ``data:`` URL (an OpenAI ``image_url`` content part's ``url``)."""
        return f"data:{self.media_type};base64,{self.base64()}"


class DecodeBudget:
    """The bytes of pixels one request may decode (``MAX_DECODED_BYTES`` by default): pass one
    budget to every ``decode_page`` call of a request.

    >>> budget = DecodeBudget(max_decoded_bytes=100)
    >>> import numpy as np
    >>> decode_page(np.zeros((8, 8), dtype=np.uint8), budget=budget).width, budget.used
    (8, 64)
    >>> decode_page(np.zeros((8, 8), dtype=np.uint8), where="candidate 1", budget=budget)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    briefpack.errors.InputError: candidate 1: decoding this image (64 bytes of pixels) would ...
    """

    def __init__(self, max_decoded_bytes: int = MAX_DECODED_BYTES) -> None:
        self.limit = check_count("max_decoded_bytes", max_decoded_bytes, minimum=1)
        self.used = 0

    def charge(self, nbytes: int, where: str) -> None:
        """Count ``nbytes`` more, or raise ``InputError`` naming ``where`` past the limit."""
        if self.used + nbytes > self.limit:
            raise InputError(
                f"{where}: decoding this image ({nbytes} bytes of pixels) would take the request "
                f"past max_decoded_bytes={self.limit} ({self.used} used); send fewer or smaller "
                "pages, or raise max_decoded_bytes (an option of assemble)"
            )
        self.used += nbytes


def _pil() -> Any:
    try:
        from PIL import Image
    except ImportError:
        raise ModuleNotFoundError(
            "page images need Pillow to decode them; install it with pip install 'briefpack[pages]'"
        ) from None
    return Image


def decode_page(
    image: ImageInput,
    *,
    where: str = "image",
    max_pixels: int = MAX_PAGE_PIXELS,
    budget: DecodeBudget | None = None,
) -> PageImage:
    """Decode a page image once, to its preview, into a :class:`PageImage`.

    Args:
        image: PNG or JPEG bytes, a path to such a file (``str`` or ``os.PathLike``), a numpy
            ``uint8`` array of shape (H, W) gray, (H, W, 3) RGB or (H, W, 4) RGBA, or a
            ``PageImage`` (returned unchanged).
        where: how messages name the input, e.g. ``"candidate 3 (id='p14')"``.
        max_pixels: the most pixels (width * height) accepted; see ``MAX_PAGE_PIXELS``.
        budget: the request's ``DecodeBudget``, charged with the bytes of pixels this decode
            makes (a fresh one of ``MAX_DECODED_BYTES`` when omitted).

    Raises:
        InputError: another type or format, a file that is missing or cannot be read, a
            corrupt or truncated image, an array of the wrong dtype or shape, an image larger
            than ``max_pixels``, or one that would take ``budget`` past its limit; each names
            ``where``. Both limits are checked from the header, before any pixel is decoded.

    EXIF orientation is not applied: the pixels are as stored.

    >>> decode_page(b"GIF89a...")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    briefpack.errors.InputError: image: not a PNG or JPEG image (it starts with b'GIF89a..'); ...
    """
    if isinstance(image, PageImage):
        return image
    check_count("max_pixels", max_pixels, minimum=1)
    spend = budget if budget is not None else DecodeBudget()
    if isinstance(image, (bytes, bytearray, memoryview)):
        return _decode_bytes(bytes(image), where, max_pixels, spend)
    if isinstance(image, (str, os.PathLike)):
        return _decode_bytes(_read(image, where), where, max_pixels, spend)
    if hasattr(image, "__array_interface__") and hasattr(image, "dtype"):
        return _decode_array(image, where, max_pixels, spend)
    raise InputError(
        f"{where}: image must be PNG or JPEG bytes, a file path or a numpy uint8 array, "
        f"got {type_name(image)}"
    )


def _read(path: str | os.PathLike[str], where: str) -> bytes:
    p = Path(path)
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{where}: image file {str(p)!r} does not exist") from None
    except IsADirectoryError:
        raise InputError(f"{where}: image path {str(p)!r} is a directory, not a file") from None
    except OSError as exc:
        raise InputError(f"{where}: cannot read image file {str(p)!r}: {exc.strerror}") from None


def _decode_bytes(data: bytes, where: str, max_pixels: int, budget: DecodeBudget) -> PageImage:
    media_type: MediaType
    if data.startswith(_PNG_MAGIC):
        media_type, fmt = "image/png", "PNG"
    elif data.startswith(_JPEG_MAGIC):
        media_type, fmt = "image/jpeg", "JPEG"
    else:
        raise InputError(
            f"{where}: not a PNG or JPEG image (it starts with {data[:8]!r}); convert it to "
            "PNG or JPEG first"
        )
    pil = _pil()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pil.DecompressionBombWarning)
            im = pil.open(io.BytesIO(data), formats=[fmt])
        width, height = im.width, im.height
        _check_size(width, height, where, max_pixels)
        channels: Literal[1, 3] = 1 if im.mode in _GRAY_MODES else 3
        preview = _preview(im, fmt, where, budget)
    except pil.DecompressionBombError:
        raise InputError(
            f"{where}: the {fmt} image is too large for Pillow to decode safely"
        ) from None
    except InputError:
        raise
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise InputError(
            f"{where}: the {fmt} image is corrupt or truncated ({exc}); re-export the page"
        ) from None
    return PageImage(width, height, channels, data, media_type, preview)


def _preview(im: Image.Image, fmt: str, where: str, budget: DecodeBudget) -> PagePreview:
    """Decode ``im`` (opened, not loaded) to its gray preview, charging ``budget`` first."""
    factor = max(1, max(im.size) // PREVIEW_LONG)
    if fmt == "JPEG" and factor > 1:
        im.draft("L", (-(-im.width // factor), -(-im.height // factor)))
    budget.charge(im.width * im.height * len(im.getbands()), where)
    im.load()
    gray = _flatten(im).convert("L")
    factor = max(1, max(gray.size) // PREVIEW_LONG)
    if factor > 1:
        gray = gray.reduce(factor)
    return PagePreview(gray.width, gray.height, gray.tobytes())


def _check_size(width: int, height: int, where: str, max_pixels: int) -> None:
    if width * height > max_pixels:
        raise InputError(
            f"{where}: the image is {width}x{height} = {width * height} pixels, more than "
            f"max_pixels={max_pixels}; downscale the page (200 dpi is plenty for a model) or "
            "raise the limit (assemble's max_page_pixels, decode_page's max_pixels)"
        )


def _flatten(im: Image.Image) -> Image.Image:
    """``im`` with 16-bit gray scaled to 8 bits and transparency composited onto white."""
    pil = _pil()
    if im.mode == "I" or im.mode.startswith("I;16"):  # 16-bit gray to 8 bits
        im = im.point(lambda v: v * (1 / 257))
    if "A" in im.mode or "a" in im.mode or "transparency" in im.info:
        white = pil.new("RGBA", im.size, (255, 255, 255, 255))
        im = pil.alpha_composite(white, im.convert("RGBA"))
    return im


def _canonical(im: Image.Image) -> tuple[Literal[1, 3], bytes]:
    """8-bit gray or RGB pixels of a Pillow image, transparency composited onto white."""
    gray = im.mode in _GRAY_MODES
    im = _flatten(im)
    if gray:
        return 1, im.convert("L").tobytes()
    return 3, im.convert("RGB").tobytes()


def _decode_array(array: Any, where: str, max_pixels: int, budget: DecodeBudget) -> PageImage:
    import numpy as np

    a = np.asarray(array)
    if a.dtype != np.uint8:
        raise InputError(
            f"{where}: a pixel array must have dtype uint8, got {a.dtype}; convert it with "
            "array.astype(numpy.uint8) after scaling to 0..255"
        )
    if not (a.ndim == 2 or (a.ndim == 3 and a.shape[2] in (3, 4))):
        raise InputError(
            f"{where}: a pixel array must have shape (H, W), (H, W, 3) or (H, W, 4), "
            f"got {tuple(a.shape)}"
        )
    height, width = int(a.shape[0]), int(a.shape[1])
    if width == 0 or height == 0:
        raise InputError(f"{where}: a pixel array must be at least 1x1, got {tuple(a.shape)}")
    _check_size(width, height, where, max_pixels)
    mode = "L" if a.ndim == 2 else ("RGB" if a.shape[2] == 3 else "RGBA")
    pil = _pil()
    im = pil.frombytes(mode, (width, height), np.ascontiguousarray(a).tobytes())
    buf = io.BytesIO()
    im.save(buf, "PNG")
    channels: Literal[1, 3] = 1 if mode == "L" else 3
    return PageImage(
        width, height, channels, buf.getvalue(), "image/png", _preview(im, "PNG", where, budget)
    )


def kernel_batch(
    pages: Sequence[PageImage],
) -> tuple[bytes, list[int], list[int], list[int], list[int]]:
    """The ``page_hashes`` kernel's arguments for these pages' previews: ``(pixels, offsets,
    widths, heights, channels)``.

    >>> import numpy as np
    >>> kernel_batch([decode_page(np.zeros((2, 3), dtype=np.uint8))])
    (b'\\x00\\x00\\x00\\x00\\x00\\x00', [0, 6], [3], [2], [1])
    """
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
            which the second look found different (``None`` when none was).
        near_look: per page, ``(distance, worst, typical)`` of that second look: hash bits,
            the worst block's and the 90th-percentile block's sums of absolute differences
            (16 cells a block).

    >>> r = PageDedupeResult([0, 1], [None, None], [None, None], [None, 0], [None, (3, 900, 20)])
    >>> r.near_of
    [None, 0]
    """

    kept: list[int]
    duplicate_of: list[int | None]
    similarity: list[float | None]
    near_of: list[int | None]
    near_look: list[tuple[int, int, int] | None]


def dedupe_pages(
    hashes: Sequence[bytes],
    max_distance: int = DEFAULT_MAX_DISTANCE,
    *,
    factor: int = DEFAULT_FACTOR,
    margin: int = DEFAULT_MARGIN,
    level: int = DEFAULT_LEVEL,
    backend: str = "auto",
) -> PageDedupeResult:
    """Copies among page signatures: within ``max_distance`` hash bits and alike at a second look.

    Greedy in rank order, the first copy wins; ``similarity`` is ``1 - distance / 256``. A pair
    within ``max_distance`` is compared block by block on the detail grids (``factor``,
    ``margin``, ``level``: ``docs/pages.md``); ``near_of`` and ``near_look`` say which kept
    page each page was kept apart from by that second look, with ``(distance, worst,
    typical)``.

    >>> import numpy as np
    >>> page = np.full((200, 160), 255, dtype=np.uint8)
    >>> page[20:180:4, 20:140] = 0
    >>> edit = page.copy()
    >>> edit[100:110, 60:80] = 0
    >>> r = dedupe_pages(hash_pages([page, page.copy(), edit]), max_distance=256)
    >>> r.duplicate_of, r.near_of
    ([None, 0, None], [None, None, 0])
    """
    kernels = get_kernels(backend)
    cols = kernels.dedupe_pages_details(
        hashes, max_distance, factor=factor, margin=margin, level=level
    )
    return PageDedupeResult(*cols)


_OPENAI_FIT, _OPENAI_SHORT, _OPENAI_TILE = 2048, 768, 512
_OPENAI_PER_TILE, _OPENAI_BASE = 170, 85
_ANTHROPIC_LONG, _ANTHROPIC_PER_TOKEN, _ANTHROPIC_MAX = 1568, 750, 1600


MAX_IMAGE_TOKENS = 2**31 - 1
"""The most tokens an ``image_tokens`` callable may say one image costs (no model's window
holds more; sums of such counts stay far inside the packing's 64-bit arithmetic)."""


def image_tokens(
    width: int, height: int, rule: ImageTokenRule = "openai", *, where: str = "image"
) -> int:
    """The tokens an image of ``width`` x ``height`` pixels costs a vision model.

    Rules (``docs/pages.md`` cites where each is published):

    * ``"openai"`` (detail "high"): scale to fit in 2048x2048, then so the shortest side is
      768 (images are scaled down, never up); count the 512 px tiles that cover it; 170 tokens
      a tile plus 85. Sizes are scaled exactly (no rounding), so a side a fraction of a pixel
      past a tile boundary takes another tile.
    * ``"openai-low"`` (detail "low"): 85, whatever the size.
    * ``"anthropic"``: scale down so the long edge is at most 1568; then ``ceil(width * height
      / 750)``, at most 1600 (a larger image is scaled down to about 1600 tokens).
    * a callable ``(width, height) -> int``: its answer, an int in ``[0, MAX_IMAGE_TOKENS]``;
      an exception it raises, or another answer, is an ``InputError`` naming ``where`` (e.g.
      the candidate) and ``option="image_tokens"``.

    >>> image_tokens(1024, 1024), image_tokens(2048, 4096), image_tokens(4096, 8192, "openai-low")
    (765, 1105, 85)
    >>> image_tokens(200, 200, "anthropic"), image_tokens(1000, 1000, "anthropic")
    (54, 1334)
    >>> image_tokens(1700, 2200), image_tokens(1700, 2200, "anthropic")
    (765, 1600)
    >>> image_tokens(10, 10, lambda w, h: -1, where="candidate 2 (id='p')")
    Traceback (most recent call last):
    ...
    briefpack.errors.InputError: candidate 2 (id='p'): the image_tokens callable returned -1 \
for a 10x10 image; it must return an int in [0, 2147483647]
    """
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InputError(f"{name} must be an int >= 1, got {value!r}")
    if callable(rule):
        got = call_back("image_tokens", where, rule, width, height)
        out = integer(got)
        if out is None or not 0 <= out <= MAX_IMAGE_TOKENS:
            raise InputError(
                f"{where}: the image_tokens callable returned {shown(got)} for a {width}x{height} "
                f"image; it must return an int in [0, {MAX_IMAGE_TOKENS}]",
                option="image_tokens",
            )
        return out
    if rule == "openai":
        w, h = Fraction(width), Fraction(height)
        if max(w, h) > _OPENAI_FIT:
            s = _OPENAI_FIT / max(w, h)
            w, h = w * s, h * s
        if min(w, h) > _OPENAI_SHORT:
            s = _OPENAI_SHORT / min(w, h)
            w, h = w * s, h * s
        tiles = _ceil(w / _OPENAI_TILE) * _ceil(h / _OPENAI_TILE)
        return _OPENAI_PER_TILE * tiles + _OPENAI_BASE
    if rule == "openai-low":
        return _OPENAI_BASE
    if rule == "anthropic":
        area = Fraction(width * height)
        long_edge = max(width, height)
        if long_edge > _ANTHROPIC_LONG:
            area *= Fraction(_ANTHROPIC_LONG, long_edge) ** 2
        return min(_ceil(area / _ANTHROPIC_PER_TOKEN), _ANTHROPIC_MAX)
    raise InputError(
        "image_tokens must be 'openai', 'openai-low', 'anthropic' or a callable "
        f"(width, height) -> int, got {rule!r}"
    )


def _ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)
