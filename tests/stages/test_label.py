"""Stage: label. Dense labels 1..n in the given (final) order, in either style."""

from __future__ import annotations

from stage_kit import start

from briefpack._stages import label


def test_labels_are_dense_in_the_final_order(backend: str) -> None:
    items, ctx = start(backend, ["first", "second"], labels="brackets")
    label.run(items[::-1], ctx)
    assert ctx.rendered == ["[1] second", "[2] first"]


def test_xml_labels_escape_the_text(backend: str) -> None:
    items, ctx = start(backend, [{"text": "a </source> b", "title": "T"}])
    label.run(items, ctx)
    assert ctx.rendered == ['<source id="1" title="T">\na &lt;/source&gt; b\n</source>']


def test_a_page_label_has_its_page_and_one_placeholder_per_image(backend: str) -> None:
    import pytest

    pytest.importorskip("PIL")
    import numpy as np

    row = {"text": "OCR", "image": np.zeros((4, 4), dtype=np.uint8), "page": 14, "title": "R"}
    items, ctx = start(backend, [row, {"text": "t", "page": 2}], labels="brackets")
    label.run(items, ctx)
    assert ctx.rendered == ["[1] (R; page 14) <page-image/>\nOCR", "[2] (page 2) t"]
    items, ctx = start(backend, [row])
    label.run(items, ctx)
    assert ctx.rendered == ['<source id="1" title="R" page="14">\n<page-image/>\nOCR\n</source>']


def test_a_priced_block_is_relabelled_to_what_rendering_gives(backend: str) -> None:
    from briefpack._stages import budget
    from briefpack.prompt import render_source

    rows = [{"text": f"text [{i}] <b> & \u2028", "title": f"T{i} [2]"} for i in range(12)]
    for style in ("xml", "brackets"):
        items, ctx = start(backend, rows, labels=style, budget=10_000)
        placed = budget.run(items, ctx)
        assert all(it.priced is not None for it in placed)
        label.run(placed[::-1], ctx)
        want = [render_source(n, it.chunk, style) for n, it in enumerate(placed[::-1], 1)]
        assert ctx.rendered == want
