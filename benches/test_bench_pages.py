"""Page dedupe per 1700x2200 page, Rust core: the signature, the second look, the fine look.

A plain ``pytest`` run executes each case once (``--benchmark-disable`` is in addopts) as a
smoke test. Time it with:

    python -m pytest benches/test_bench_pages.py --benchmark-enable \
        --benchmark-columns=median,min,rounds

A generated 1700x2200 text page (tests/pagegen.py) decoded to its 850x1100 preview, and its
JPEG (q50) copy: ``signature`` is ``page_hashes`` on the preview; ``second_look`` is
``dedupe_pages`` of the pair without previews (the hash and the second look); ``fine_look`` the
same pair with its previews (both fine grids made from the previews, then the fine look: what a
near pair without text costs). ``python benches/pages_throughput.py`` has the same figures
with decoding and the reference.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import pagegen
from briefpack import pages

try:
    from briefpack import _core

    HAS_RUST = hasattr(_core, "dedupe_pages")
except ImportError:
    HAS_RUST = False

pytestmark = pytest.mark.skipif(not HAS_RUST, reason="the Rust extension is not built")


@pytest.fixture(scope="module")
def pair() -> tuple[list[pages.PageImage], list[bytes]]:
    page = pagegen.text_page(0)
    decoded = [pages.decode_page(pagegen.png(im)) for im in (page, pagegen.jpeg(page, 50))]
    return decoded, pages.hash_pages(decoded, backend="rust")


def test_signature(benchmark, pair) -> None:  # type: ignore[no-untyped-def]
    batch = pages.kernel_batch(pair[0][:1])
    out = benchmark(_core.page_hashes, *batch)
    assert out == pair[1][:1]


def test_second_look(benchmark, pair) -> None:  # type: ignore[no-untyped-def]
    out = benchmark(_core.dedupe_pages, pair[1])
    assert out[1] == [None, 0]


def test_fine_look(benchmark, pair) -> None:  # type: ignore[no-untyped-def]
    previews = pages.previews(pair[0])
    out = benchmark(_core.dedupe_pages, pair[1], previews=previews)
    assert out[1] == [None, 0]  # the copy passes the fine look too
