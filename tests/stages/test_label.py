"""Stage 8: label. Dense labels 1..n in the given (final) order, in either style."""

from __future__ import annotations

from stage_kit import packed_of, start

import briefpack as bp
from briefpack._backend import get_kernels
from briefpack._stages import label
from briefpack._stages.context import Item
from briefpack._stages.phases import Packed
from briefpack.prompt import render_source


def test_labels_are_dense_in_the_final_order(backend: str) -> None:
    items, req = start(backend, ["first", "second"], labels="brackets")
    ordered, blocks, counts = label.run(req, packed_of(items, req), [1, 0])
    assert blocks == ["[1] second", "[2] first"]
    assert ordered == items[::-1]
    assert counts == [None, None]


def test_xml_labels_escape_the_text(backend: str) -> None:
    items, req = start(backend, [{"text": "a </source> b", "title": "T"}])
    assert label.run(req, packed_of(items, req), [0])[1] == [
        '<source id="1" title="T">\na &lt;/source&gt; b\n</source>'
    ]


def test_a_page_label_has_its_page_and_one_placeholder_per_image(backend: str) -> None:
    import pytest

    pytest.importorskip("PIL")
    import numpy as np

    row = {"text": "OCR", "image": np.zeros((4, 4), dtype=np.uint8), "page": 14, "title": "R"}
    items, req = start(backend, [row, {"text": "t", "page": 2}], labels="brackets")
    blocks = label.run(req, packed_of(items, req), [0, 1])[1]
    assert blocks == ["[1] (R; page 14) <page-image/>\nOCR", "[2] (page 2) t"]
    items, req = start(backend, [row])
    assert label.run(req, packed_of(items, req), [0])[1] == [
        '<source id="1" title="R" page="14">\n<page-image/>\nOCR\n</source>'
    ]


def test_a_priced_block_is_relabelled_to_what_rendering_gives(backend: str) -> None:
    from briefpack._stages import budget
    from briefpack.prompt import render_source

    rows = [{"text": f"text [{i}] <b> & \u2028", "title": f"T{i} [2]"} for i in range(12)]
    for style in ("xml", "brackets"):
        items, req = start(backend, rows, labels=style, budget=10_000)
        packed = budget.run(items, req)
        assert all(block is not None for block in packed.blocks)
        assert packed.widest == "12"
        order = list(range(len(packed.placed)))[::-1]
        ordered, blocks, _ = label.run(req, packed, order)
        want = [render_source(n, it.chunk, style) for n, it in enumerate(ordered, 1)]
        assert blocks == want


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
                        blocks, counts = label.relabel(widest, [priced], [count], style, n)
                        block, got = blocks[0], counts[0]
                        assert block == render_source(n, chunk, style)
                        want = kernels.count_tokens([block], encoding)[0]
                        assert got == want, (encoding, style, text, widest, n)


def test_the_stage_passes_on_the_relabelled_counts(backend: str) -> None:
    """A request's placed blocks carry their counts from the budget to the account: each
    equals counting the block as rendered (and an unpriced block has None)."""
    from briefpack._stages import budget

    rows = [{"text": t, "title": f"T{i}"} for i, t in enumerate(_TEXTS * 2)]
    for encoding in ("o200k_base", "cl100k_base"):
        items, req = start(backend, rows, tokenizer=encoding, budget=100_000)
        packed = budget.run(items, req)
        n = len(packed.placed)
        extra = Packed(
            packed.framing, [*packed.placed, Item(bp.Chunk("not priced"), [0])],
            [*packed.blocks, None], [*packed.counts, None], packed.widest,
        )  # fmt: skip
        _, blocks, counts = label.run(req, extra, [*range(n - 1, -1, -1), n])
        assert counts[-1] is None
        assert None not in counts[:-1]
        assert counts[:-1] == req.kernels.count_tokens(blocks[:-1], encoding)
