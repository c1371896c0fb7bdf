"""Decoding a page image once, with Pillow, to a preview within the pixel and byte limits.

``PageImage`` (a page as both backends see it), its ``PagePreview``, the request's
``DecodeBudget`` and ``decode_page``; ``briefpack.pages`` re-exports them all.
"""

from __future__ import annotations

import base64
import io
import os
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Union

from .._checks import check_count, type_name
from .._option_rules import MAX_DECODED_BYTES as _MAX_DECODED_BYTES
from .._option_rules import MAX_PAGE_PIXELS as _MAX_PAGE_PIXELS
from ..errors import InputError

if TYPE_CHECKING:
    from PIL import Image

MAX_IMAGE_FILE_BYTES = 256 << 20
"""The largest image file ``decode_page`` reads from a path: 256 MiB (a page is a few MB)."""

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
    """The bytes of an image file: a regular file (never a device or a FIFO, which could hang
    or never end) of at most ``MAX_IMAGE_FILE_BYTES``; anything else is an ``InputError``."""
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise InputError(f"{where}: image file {str(p)!r} does not exist") from None
    except IsADirectoryError:
        raise InputError(f"{where}: image path {str(p)!r} is a directory, not a file") from None
    except OSError as exc:
        raise InputError(f"{where}: cannot read image file {str(p)!r}: {exc.strerror}") from None
    except ValueError:  # a NUL byte or a lone surrogate in the path
        raise InputError(f"{where}: image path {str(p)!r} is not a valid path") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        what = "a directory, not a file" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise InputError(f"{where}: image path {str(p)!r} is {what}")
    with os.fdopen(fd, "rb") as f:
        if info.st_size > MAX_IMAGE_FILE_BYTES:
            raise InputError(
                f"{where}: image file {str(p)!r} has {info.st_size} bytes, more than "
                f"MAX_IMAGE_FILE_BYTES ({MAX_IMAGE_FILE_BYTES}); pass a smaller file"
            )
        try:
            return f.read(MAX_IMAGE_FILE_BYTES + 1)
        except OSError as exc:
            raise InputError(
                f"{where}: cannot read image file {str(p)!r}: {exc.strerror}"
            ) from None


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
