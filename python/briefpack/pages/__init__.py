"""Page images as sources: decoding, perceptual hashes, dedupe and image token costs.

A page image (a PNG or JPEG file, its bytes, or a decoded numpy ``uint8`` array) is decoded once,
with Pillow (``pip install 'briefpack[pages]'``), into a :class:`PageImage`: its size, its
pixels in a canonical form (8-bit gray, or RGB; transparency flattened onto white) that both
backends hash, and the encoded bytes a chat request carries. ``docs/pages.md`` specifies the
hash, the dedupe and the token rules. Everything is imported from here; it is written in
``_decode`` (pages, previews, limits), ``_dedupe`` (signatures, dedupe) and ``_tokens``.

>>> import numpy as np
>>> page = decode_page(np.full((40, 30), 255, dtype=np.uint8))
>>> page.width, page.height, page.channels, page.media_type
(30, 40, 1, 'image/png')
>>> image_tokens(page.width, page.height, "anthropic")
2
"""

from __future__ import annotations

from .._backend import get_kernels as get_kernels  # named here as when pages was one module
from .._option_rules import DEFAULT_MAX_DISTANCE, IMAGE_TOKEN_RULES, ImageTokenRule
from ._decode import (
    MAX_DECODED_BYTES,
    MAX_PAGE_PIXELS,
    PREVIEW_LONG,
    DecodeBudget,
    ImageInput,
    PageImage,
    PagePreview,
    decode_page,
)
from ._decode import (
    _pil as _pil,  # the Pillow loader, for the demo's page renderer
)
from ._dedupe import (
    DEFAULT_FACTOR,
    DEFAULT_FINE_RATIO,
    DEFAULT_LEVEL,
    DEFAULT_MARGIN,
    HASH_BITS,
    PageDedupeResult,
    dedupe_pages,
    hash_pages,
    kernel_batch,
    previews,
)
from ._tokens import MAX_IMAGE_TOKENS, image_tokens

__all__ = [
    "DEFAULT_FACTOR",
    "DEFAULT_FINE_RATIO",
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
    "previews",
]

# The classes keep the path they had as one module: a pickled page names briefpack.pages.PageImage
# (and doctest collects their examples here).
for _cls in (PagePreview, PageImage, DecodeBudget, PageDedupeResult):
    _cls.__module__ = __name__
del _cls
