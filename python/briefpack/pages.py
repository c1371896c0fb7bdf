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
from typing import TYPE_CHECKING, Any, Literal, Union

from ._backend import get_kernels
from ._checks import type_name
from ._option_rules import DEFAULT_MAX_DISTANCE, IMAGE_TOKEN_RULES, ImageTokenRule
from ._types import DedupeResult
from .errors import InputError
from .reference.pages import HASH_BITS

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "DEFAULT_MAX_DISTANCE",
    "HASH_BITS",
    "IMAGE_TOKEN_RULES",
    "MAX_PAGE_PIXELS",
    "ImageInput",
    "ImageTokenRule",
    "PageImage",
    "decode_page",
    "dedupe_pages",
    "hash_pages",
    "image_tokens",
]

MAX_PAGE_PIXELS = 50_000_000
"""The most pixels (width * height) a page may have: 50 megapixels, e.g. 5000x10000. An A4
page scanned at 600 dpi is 4960x7016 (35 MP); the limit keeps a decompression bomb (a small
file that decodes to gigabytes) from exhausting memory. ``decode_page(max_pixels=...)`` changes
it per call."""

MediaType = Literal["image/png", "image/jpeg"]
ImageInput = Union[bytes, str, "os.PathLike[str]", "PageImage", Any]
"""What ``decode_page`` accepts: PNG or JPEG bytes, a file path, a numpy ``uint8`` array of
shape (H, W), (H, W, 3) or (H, W, 4), or a ``PageImage`` (returned as it is)."""

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_JPEG_MAGIC = b"\xff\xd8\xff"
_GRAY_MODES = frozenset({"1", "L", "LA", "La", "I", "I;16", "I;16B", "I;16L", "I;16N"})


@dataclass(frozen=True, repr=False)
class PageImage:
    """A decoded page image, as both backends see it.

    Attributes:
        width: pixels per row.
        height: rows.
        channels: 1 (8-bit gray) or 3 (8-bit RGB).
        pixels: ``width * height * channels`` bytes, row-major, channels interleaved; an
            image with transparency is composited onto white first.
        data: the encoded image a chat request carries: the PNG or JPEG bytes as given, or a
            PNG encoding of an array.
        media_type: ``"image/png"`` or ``"image/jpeg"``, the format of ``data``.

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
    pixels: bytes
    data: bytes
    media_type: MediaType

    def __repr__(self) -> str:
        kind = "gray" if self.channels == 1 else "RGB"
        return (
            f"PageImage({self.width}x{self.height}, {kind}, {self.media_type}, "
            f"{len(self.data)} bytes)"
        )

    def base64(self) -> str:
        """``data`` in standard base64 (an Anthropic ``image`` block's ``source.data``)."""
        return base64.b64encode(self.data).decode("ascii")

    def data_url(self) -> str:
        """``data`` as a ``data:`` URL (an OpenAI ``image_url`` content part's ``url``)."""
        return f"data:{self.media_type};base64,{self.base64()}"


def _pil() -> Any:
    try:
        from PIL import Image
    except ImportError:
        raise ModuleNotFoundError(
            "page images need Pillow to decode them; install it with pip install 'briefpack[pages]'"
        ) from None
    return Image


def decode_page(
    image: ImageInput, *, where: str = "image", max_pixels: int = MAX_PAGE_PIXELS
) -> PageImage:
    """Decode a page image once into a :class:`PageImage`.

    Args:
        image: PNG or JPEG bytes, a path to such a file (``str`` or ``os.PathLike``), a numpy
            ``uint8`` array of shape (H, W) gray, (H, W, 3) RGB or (H, W, 4) RGBA, or a
            ``PageImage`` (returned unchanged).
        where: how messages name the input, e.g. ``"candidate 3 (id='p14')"``.
        max_pixels: the most pixels (width * height) accepted; see ``MAX_PAGE_PIXELS``.

    Raises:
        InputError: another type or format, a file that is missing or cannot be read, a
            corrupt or truncated image, an array of the wrong dtype or shape, or an image
            larger than ``max_pixels``.

    EXIF orientation is not applied: the pixels are as stored.

    >>> decode_page(b"GIF89a...")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    briefpack.errors.InputError: image: not a PNG or JPEG image (it starts with b'GIF89a..'); ...
    """
    if isinstance(image, PageImage):
        return image
    if isinstance(image, (bytes, bytearray, memoryview)):
        return _decode_bytes(bytes(image), where, max_pixels)
    if isinstance(image, (str, os.PathLike)):
        return _decode_bytes(_read(image, where), where, max_pixels)
    if hasattr(image, "__array_interface__") and hasattr(image, "dtype"):
        return _decode_array(image, where, max_pixels)
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


def _decode_bytes(data: bytes, where: str, max_pixels: int) -> PageImage:
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
        _check_size(im.width, im.height, where, max_pixels)
        im.load()
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
    channels, pixels = _canonical(im)
    return PageImage(im.width, im.height, channels, pixels, data, media_type)


def _check_size(width: int, height: int, where: str, max_pixels: int) -> None:
    if width * height > max_pixels:
        raise InputError(
            f"{where}: the image is {width}x{height} = {width * height} pixels, more than "
            f"max_pixels={max_pixels}; downscale the page (200 dpi is plenty for a model) or "
            "raise max_pixels"
        )


def _canonical(im: Image.Image) -> tuple[Literal[1, 3], bytes]:
    """8-bit gray or RGB pixels of a Pillow image, transparency composited onto white."""
    pil = _pil()
    if im.mode == "I" or im.mode.startswith("I;16"):  # 16-bit gray to 8 bits
        im = im.point(lambda v: v * (1 / 257))
    gray = im.mode in _GRAY_MODES
    if "A" in im.mode or "a" in im.mode or "transparency" in im.info:
        white = pil.new("RGBA", im.size, (255, 255, 255, 255))
        im = pil.alpha_composite(white, im.convert("RGBA"))
    if gray:
        return 1, im.convert("L").tobytes()
    return 3, im.convert("RGB").tobytes()


def _decode_array(array: Any, where: str, max_pixels: int) -> PageImage:
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
    channels, pixels = _canonical(im)
    return PageImage(width, height, channels, pixels, buf.getvalue(), "image/png")


def hash_pages(images: Sequence[ImageInput], *, backend: str = "auto") -> list[bytes]:
    """The perceptual hash of each page: 1024 bits (128 bytes), ``docs/pages.md`` has the spec.

    Images that are not yet a ``PageImage`` are decoded first (``decode_page``). All pages go to
    the kernel in one call; the Rust core hashes them without holding the GIL.

    >>> import numpy as np
    >>> page = np.full((64, 66), 255, dtype=np.uint8)
    >>> page[:, :32] = 0  # dark left half: no cell is brighter than its right neighbour
    >>> [h == bytes(128) for h in hash_pages([page, 255 - page])]
    [True, False]
    """
    pages = [decode_page(im, where=f"images[{i}]") for i, im in enumerate(images)]
    offsets = [0]
    for p in pages:
        offsets.append(offsets[-1] + len(p.pixels))
    return get_kernels(backend).page_hashes(
        b"".join(p.pixels for p in pages),
        offsets,
        [p.width for p in pages],
        [p.height for p in pages],
        [p.channels for p in pages],
    )


def dedupe_pages(
    hashes: Sequence[bytes], max_distance: int = DEFAULT_MAX_DISTANCE, *, backend: str = "auto"
) -> DedupeResult:
    """Near-identical pages by Hamming distance of their hashes (``<= max_distance`` bits).

    Greedy in rank order, the first copy wins; ``similarity`` is ``1 - distance / 1024``.

    >>> dedupe_pages([bytes(128), bytes([1]) + bytes(127), bytes([255] * 128)])
    DedupeResult(kept=[0, 2], duplicate_of=[None, 0, None], similarity=[None, 0.9990234375, None])
    """
    return get_kernels(backend).dedupe("dedupe_pages", hashes, max_distance=max_distance)


_OPENAI_FIT, _OPENAI_SHORT, _OPENAI_TILE = 2048, 768, 512
_OPENAI_PER_TILE, _OPENAI_BASE = 170, 85
_ANTHROPIC_LONG, _ANTHROPIC_PER_TOKEN, _ANTHROPIC_MAX = 1568, 750, 1600


def image_tokens(width: int, height: int, rule: ImageTokenRule = "openai") -> int:
    """The tokens an image of ``width`` x ``height`` pixels costs a vision model.

    Rules (``docs/pages.md`` cites where each is published):

    * ``"openai"`` (detail "high"): scale to fit in 2048x2048, then so the shortest side is
      768 (images are scaled down, never up); count the 512 px tiles that cover it; 170 tokens
      a tile plus 85. Sizes are scaled exactly (no rounding), so a side a fraction of a pixel
      past a tile boundary takes another tile.
    * ``"openai-low"`` (detail "low"): 85, whatever the size.
    * ``"anthropic"``: scale down so the long edge is at most 1568; then ``ceil(width * height
      / 750)``, at most 1600 (a larger image is scaled down to about 1600 tokens).
    * a callable ``(width, height) -> int``: its answer (an int >= 0).

    >>> image_tokens(1024, 1024), image_tokens(2048, 4096), image_tokens(4096, 8192, "openai-low")
    (765, 1105, 85)
    >>> image_tokens(200, 200, "anthropic"), image_tokens(1000, 1000, "anthropic")
    (54, 1334)
    >>> image_tokens(1700, 2200), image_tokens(1700, 2200, "anthropic")
    (765, 1600)
    """
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InputError(f"{name} must be an int >= 1, got {value!r}")
    if callable(rule):
        out = rule(width, height)
        if isinstance(out, bool) or not isinstance(out, int) or out < 0:
            raise InputError(
                f"the image_tokens callable returned {out!r} for a {width}x{height} image; it "
                "must return an int >= 0"
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
