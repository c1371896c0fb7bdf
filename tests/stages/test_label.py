"""Stage: label. Dense labels 1..n in the given (final) order, in either style."""

from __future__ import annotations

from stage_kit import start

import briefpack as bp
from briefpack._backend import get_kernels
from briefpack._stages import label
from briefpack._stages.context import Item
from briefpack.prompt import render_source


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


# Texts whose first and last characters, and the characters around the label, vary: digits,
# brackets, quotes, spaces, line breaks, non-ASCII, nothing.
_TEXTS = ["12 apples", "]] [3] x", '"quoted"', " lead", "\n\nbreaks\n", "中文 7", "", "x" * 300]
_LABELS = (1, 9, 10, 99, 100, 999, 1000, 99_999, 999_999, 1_000_000)


def test_a_relabelled_count_is_the_count_of_the_relabelled_block(backend: str) -> None:
    """``relabel``'s count (the priced count, less the widest label's digit pieces, plus the
    label's) equals counting the relabelled block, across the places where a label gains a
    piece of digits (9 -> 10, 999 -> 1000, 999999 -> 1000000), in both styles and both
    encodings the budget stage gives counts for."""
    kernels = get_kernels(backend)
    for encoding in ("o200k_base", "cl100k_base"):
        for style in ("xml", "brackets"):
            for text in _TEXTS:
                chunk = bp.Chunk(text, title="T [1]", url="https://x/y?a=1")
                for widest in ("9", "10", "999", "1000", "1000000"):
                    priced = render_source(widest, chunk, style)
                    (count,) = kernels.count_tokens([priced], encoding)
                    for n in (n for n in _LABELS if n <= int(widest)):
                        block, got = label.relabel(str(n), (chunk, widest, priced, count), style)
                        assert block == render_source(n, chunk, style)
                        want = kernels.count_tokens([block], encoding)[0]
                        assert got == want, (encoding, style, text, widest, n)


def test_the_stage_passes_on_the_relabelled_counts(backend: str) -> None:
    """A request's placed blocks carry their counts from the budget to the account: each
    equals counting the block as rendered (and an unpriced block has None)."""
    from briefpack._stages import budget

    rows = [{"text": t, "title": f"T{i}"} for i, t in enumerate(_TEXTS * 2)]
    for encoding in ("o200k_base", "cl100k_base"):
        items, ctx = start(backend, rows, tokenizer=encoding, budget=100_000)
        placed = budget.run(items, ctx)
        label.run([*placed[::-1], Item(bp.Chunk("not priced"), [0])], ctx)
        counts = ctx.relabelled_counts
        assert counts[-1] is None
        assert counts[:-1] == ctx.kernels.count_tokens(ctx.rendered[:-1], encoding)
