"""What an image costs a vision model in tokens: ``image_tokens`` and its rules.

``briefpack.pages`` re-exports it.
"""

from __future__ import annotations

from fractions import Fraction

from .._checks import call_back, integer, shown
from .._option_rules import ImageTokenRule
from ..errors import InputError

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
            raise InputError(f"{name} must be an int >= 1, got {shown(value)}")
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
        f"(width, height) -> int, got {shown(rule)}"
    )


def _ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)
