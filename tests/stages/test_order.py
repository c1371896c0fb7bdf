"""Stage: order, with briefpack.order's rules; input order is the best candidate's index."""

from __future__ import annotations

import pytest
from stage_kit import ids, start

from briefpack._stages import order

ROWS = [{"text": t, "id": t, "doc": d} for t, d in zip("abcd", "xyxz")]


@pytest.mark.parametrize(
    ("how", "expected"),
    [
        ("relevance", ["a", "b", "c", "d"]),
        ("edges", ["a", "c", "d", "b"]),
        ("round_robin", ["a", "b", "d", "c"]),
        ("document", ["a", "c", "b", "d"]),
    ],
)
def test_each_order(backend: str, how: str, expected: list[str]) -> None:
    items, ctx = start(backend, ROWS, order=how)
    assert ids(order.run(items, ctx)) == expected


def test_document_order_without_positions_is_input_order_even_after_a_rerank(
    backend: str,
) -> None:
    items, ctx = start(backend, ROWS, order="document")
    reranked = [items[2], items[0], items[1], items[3]]  # c now ranks above a
    assert ids(order.run(reranked, ctx)) == ["a", "c", "b", "d"]


def test_a_doc_less_candidate_is_its_own_document_whatever_its_id(backend: str) -> None:
    rows = [{"text": "a", "id": "x"}, {"text": "b", "id": "c", "doc": "y"},
            {"text": "c", "id": "d", "doc": "x"}]  # fmt: skip
    items, ctx = start(backend, rows, order="document")
    assert ids(order.run(items, ctx)) == ["x", "c", "d"]  # "d" is not in "x"'s document
    items, ctx = start(backend, rows, order="round_robin")
    assert ids(order.run(items, ctx)) == ["x", "c", "d"]
