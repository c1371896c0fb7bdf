"""The scale-following fine look (``src/pages/scale.rs``; ``briefpack.reference.scale``, run on
two previews by ``briefpack.reference.pages.scale_look``).

Both backends must give the same boxes, residuals and decision bit for bit (generated pages of
tests/pagegen.py and their copies and edits); golden cases: an identical pair aligns every
block at its centre (every residual 0), a one-row edit is kept apart, a 2% crop and a 1-degree
rotation are alike.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytest.importorskip("PIL")

from PIL import Image, ImageDraw

import pagegen
from briefpack import InputError, pages
from briefpack.reference import pages as ref_pages
from briefpack.reference import scale
from conftest import HAS_RUST

if HAS_RUST:
    from briefpack import _core

rust = pytest.mark.skipif(not HAS_RUST, reason="the Rust extension is not built")

Preview = tuple[int, int, bytes]


def preview(im: Image.Image) -> Preview:
    p = pages.decode_page(pagegen.png(im)).preview
    return p.width, p.height, p.pixels


@functools.cache
def original() -> Image.Image:
    return pagegen.text_page(3, layout=1)


def row_edit(page: Image.Image) -> Image.Image:
    """The page with one text row in the middle rewritten in other words."""
    a = np.asarray(page)
    ink = (a < 160).any(1)
    rows = np.flatnonzero(ink)
    top = bottom = int(rows[rows.size // 2])
    while ink[top - 1]:
        top -= 1
    while ink[bottom + 1]:
        bottom += 1
    left = int(np.flatnonzero((a[top : bottom + 1] < 160).any(0))[0])
    out = page.copy()
    draw = ImageDraw.Draw(out)
    draw.rectangle((0, top, page.width, bottom), fill=255)
    words = "the quick brown fox jumps over the lazy dog"
    draw.text((left, top), words, font=pagegen._FONT, fill=0)
    return out


def crop(page: Image.Image) -> Image.Image:
    w, h = page.size
    return page.crop((w * 2 // 100, h * 2 // 100, w - w * 2 // 100, h - h * 2 // 100))


def rotate(page: Image.Image) -> Image.Image:
    return page.rotate(1, resample=Image.Resampling.BILINEAR, fillcolor=255)


def look(a: Preview, b: Preview, backend: str) -> tuple[object, ...]:
    if backend == "rust":
        return tuple(_core.page_scale_look([a, b]))
    return tuple(ref_pages.scale_look([a, b]))


BACKENDS = ["python", pytest.param("rust", marks=rust)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_identical_pair_has_every_residual_zero(backend: str) -> None:
    """Centre-first ties: two identical grids align every block at its centre."""
    p = preview(original())
    different, worst, ref, fitted, refined, box_a, box_b, residuals, ink = look(p, p, backend)
    assert (different, worst, ref) == (False, 0, 0)
    assert residuals == [0] * 1024
    assert refined == box_a == box_b
    assert fitted >= scale.MIN_FIT
    assert any(ink)


@rust
@pytest.mark.parametrize(
    ("make", "different"),
    [(row_edit, True), (crop, False), (rotate, False), (lambda p: pagegen.jpeg(p, 50), False)],
    ids=["row-edit", "crop-2%", "rotate-1deg", "jpeg50"],
)
def test_golden_cases(make: object, different: bool) -> None:
    page = original()
    got = _core.page_scale_look([preview(page), preview(make(page))])  # type: ignore[operator]
    worst, ref = got[1], got[2]
    assert got[0] is different
    assert (100 * worst > scale.SCALE_RATIO * (ref + scale.SCALE_BIAS)) is different


@rust
@pytest.mark.parametrize("seed", [5, 6])
def test_both_backends_give_the_same_boxes_residuals_and_decisions(seed: int) -> None:
    """Generated pages against a copy that moves the content box (rescaled and shifted, JPEG),
    a rotation and a one-row edit: every column of the look is equal."""
    page = pagegen.text_page(seed, layout=seed % 2)
    copy = pagegen.near_copies(page, seed)["mixed"]
    pairs = [(page, copy), (page, row_edit(page))] if seed == 5 else [(rotate(page), page)]
    for a, b in pairs:
        pa, pb = preview(a), preview(b)
        assert look(pa, pb, "rust") == look(pa, pb, "python")


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_look_needs_two_previews(backend: str) -> None:
    p = (2, 1, b"\x00\xff")
    with pytest.raises(InputError, match="two previews"):
        look(p, None, backend)  # type: ignore[arg-type]
    kernel = _core.page_scale_look if backend == "rust" else ref_pages.scale_look
    with pytest.raises(InputError, match="previews has 1 entries"):
        kernel([p])


def test_the_look_shares_the_page_kernels_constants() -> None:
    assert (scale.FINE, scale.PEAK) == (ref_pages.FINE, ref_pages.PEAK)
    assert scale.SCALE_RATIO == ref_pages.DEFAULT_FINE_RATIO == pages.DEFAULT_FINE_RATIO
