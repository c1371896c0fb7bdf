"""Generated document pages for the page tests: text pages and their near-copies, with Pillow.

A page is drawn with Pillow's default bitmap font (6x11 pixels a glyph) on a half-size canvas and
scaled up 2x with nearest-neighbour, so the text reads like a 10-point font scanned at 200 dpi on
a 1700x2200 page (US letter). Every page is built from a seeded ``random.Random``: the same seed
gives the same pixels.

* ``text_page(seed)``: a heading, several paragraphs, sometimes a table and a second heading.
  Pages of one ``layout`` share their skeleton (margins, heading and table places) and differ in
  their words: the hardest pairs for a perceptual hash, like two pages of one report.
* ``near_copies(page, seed)``: the page re-encoded as JPEG (quality 95, 75, 50), shifted by 1-3
  px, scaled by 0.97-1.03, made slightly brighter or darker, and one combination of these.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable

from PIL import Image, ImageDraw, ImageFont, ImageOps

WIDTH, HEIGHT = 1700, 2200
_HALF = (WIDTH // 2, HEIGHT // 2)
_FONT = ImageFont.load_default_imagefont()
_LINE = 13  # half-size pixels per text line
_CHAR = 6  # half-size pixels per character

_WORDS = (  # noqa: SIM905 - a paragraph of words reads better than a list
    "the of and to in is for on that by with as at from this are be or an it not which have "
    "report budget table figure section page total revenue cost staff policy annex quarter "
    "region result method data sample average growth rate value share market contract notice "
    "period review audit energy transport health school water public private annual monthly "
    "analysis increase decrease compared previous following chapter summary appendix source "
    "estimate committee council member provision article paragraph clause schedule payment"
).split()


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(6, 18))]
    words[0] = words[0].capitalize()
    if rng.random() < 0.3:
        words.insert(rng.randint(1, len(words) - 1), str(rng.randint(2, 99999)))
    return " ".join(words) + "."


def _wrap(text: str, width_chars: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width_chars:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def text_page(seed: int, layout: int | None = None) -> Image.Image:
    """A 1700x2200 grayscale page of text drawn from ``seed``; ``layout`` fixes its skeleton."""
    rng = random.Random(seed)
    shape = random.Random(f"layout-{seed if layout is None else layout}")
    im = Image.new("L", _HALF, 255)
    draw = ImageDraw.Draw(im)
    left = shape.randint(50, 90)
    right = _HALF[0] - shape.randint(50, 90)
    cols = (right - left) // _CHAR
    y = shape.randint(50, 90)
    table_at = shape.choice([None, 1, 2, 3])
    heading2_at = shape.choice([None, 2, 3])
    n_paras = shape.randint(4, 7)
    para_lens = [shape.randint(3, 8) for _ in range(n_paras)]

    heading = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 7))).upper()
    # A heading: the bitmap font drawn twice, one pixel apart, reads as bold.
    for dx in (0, 1):
        draw.text((left + dx, y), heading, font=_FONT, fill=0)
    y += 2 * _LINE
    for p in range(n_paras):
        if y > _HALF[1] - 80:
            break
        if p == heading2_at:
            sub = f"{p}. " + " ".join(rng.choice(_WORDS) for _ in range(rng.randint(2, 5)))
            for dx in (0, 1):
                draw.text((left + dx, y), sub.title(), font=_FONT, fill=0)
            y += int(1.5 * _LINE)
        if p == table_at:
            y = _table(draw, rng, shape, left, right, y)
        text = " ".join(_sentence(rng) for _ in range(para_lens[p]))
        for line in _wrap(text, cols):
            if y > _HALF[1] - 60:
                break
            draw.text((left, y), line, font=_FONT, fill=0)
            y += _LINE
        y += _LINE
    footer = f"- {rng.randint(1, 400)} -"
    draw.text(((_HALF[0] - _CHAR * len(footer)) // 2, _HALF[1] - 40), footer, font=_FONT, fill=0)
    return im.resize((WIDTH, HEIGHT), Image.Resampling.NEAREST)


def _table(
    draw: ImageDraw.ImageDraw,
    rng: random.Random,
    shape: random.Random,
    left: int,
    right: int,
    y: int,
) -> int:
    ncols = shape.randint(3, 6)
    nrows = shape.randint(4, 12)
    colw = (right - left) // ncols
    top = y
    for r in range(nrows + 1):
        draw.line([(left, y), (left + ncols * colw, y)], fill=0)
        if r == nrows:
            break
        for c in range(ncols):
            cell = rng.choice(_WORDS).title() if r == 0 or c == 0 else f"{rng.uniform(0, 1e4):.1f}"
            draw.text((left + c * colw + 4, y + 3), cell[: colw // _CHAR - 1], font=_FONT, fill=0)
        y += _LINE + 4
    for c in range(ncols + 1):
        draw.line([(left + c * colw, top), (left + c * colw, y)], fill=0)
    return y + _LINE


def jpeg(im: Image.Image, quality: int) -> Image.Image:
    """``im`` after a round trip through JPEG at ``quality``."""
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=quality)
    out = Image.open(io.BytesIO(buf.getvalue()))
    out.load()
    return out


def shift(im: Image.Image, dx: int, dy: int) -> Image.Image:
    """``im`` moved by (dx, dy) pixels on a canvas of the same size, the gap filled white."""
    out = Image.new(im.mode, im.size, 255)
    out.paste(im, (dx, dy))
    return out


def scale(im: Image.Image, factor: float) -> Image.Image:
    """``im`` resized by ``factor`` (both sides, bilinear): the page rendered at another dpi."""
    size = (round(im.width * factor), round(im.height * factor))
    return im.resize(size, Image.Resampling.BILINEAR)


def brightness(im: Image.Image, delta: int) -> Image.Image:
    """``im`` with ``delta`` added to every pixel (clamped to 0..255)."""
    return im.point(lambda v: min(255, max(0, v + delta)))


def near_copies(im: Image.Image, seed: int) -> dict[str, Image.Image]:
    """The near-copies of a page: what re-encoding, re-scanning or re-rendering makes of it."""
    rng = random.Random(seed)
    sign = rng.choice((-1, 1))
    out: dict[str, Callable[[], Image.Image]] = {
        "jpeg95": lambda: jpeg(im, 95),
        "jpeg75": lambda: jpeg(im, 75),
        "jpeg50": lambda: jpeg(im, 50),
        "shift": lambda: shift(
            im, rng.randint(1, 3) * sign, rng.randint(1, 3) * rng.choice((-1, 1))
        ),
        "scale": lambda: scale(im, rng.choice((0.97, 0.98, 0.99, 1.01, 1.02, 1.03))),
        "brightness": lambda: brightness(im, rng.choice((-12, -6, 6, 12))),
        "mixed": lambda: jpeg(shift(scale(im, 0.98), 2, -1), 75),
    }
    return {name: make() for name, make in out.items()}


def png(im: Image.Image) -> bytes:
    """``im`` encoded as PNG."""
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def rgb(im: Image.Image) -> Image.Image:
    """A colour version of a grayscale page (a faint paper tint), for RGB inputs."""
    return ImageOps.colorize(im, black=(20, 20, 60), white=(255, 250, 240))
