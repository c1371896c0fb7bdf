"""Stage: order, with briefpack.order's rules; input order is the best candidate's index."""

from __future__ import annotations

import pytest
from stage_kit import ids, packed_of, start

from briefpack._stages import order
from briefpack._stages.context import Item, Request

ROWS = [{"text": t, "id": t, "doc": d} for t, d in zip("abcd", "xyxz")]


def _ordered(items: list[Item], req: Request) -> list[Item]:
    """The items in the order the stage gives (it orders positions in the packing)."""
    return [items[j] for j in order.run(req, packed_of(items, req))]


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
    items, req = start(backend, ROWS, order=how)
    assert ids(_ordered(items, req)) == expected


def test_document_order_without_positions_is_input_order_even_after_a_rerank(
    backend: str,
) -> None:
    items, req = start(backend, ROWS, order="document")
    reranked = [items[2], items[0], items[1], items[3]]  # c now ranks above a
    assert ids(_ordered(reranked, req)) == ["a", "c", "b", "d"]


def test_a_doc_less_candidate_is_its_own_document_whatever_its_id(backend: str) -> None:
    rows = [{"text": "a", "id": "x"}, {"text": "b", "id": "c", "doc": "y"},
            {"text": "c", "id": "d", "doc": "x"}]  # fmt: skip
    items, req = start(backend, rows, order="document")
    assert ids(_ordered(items, req)) == ["x", "c", "d"]  # "d" is not in "x"'s document
    items, req = start(backend, rows, order="round_robin")
    assert ids(_ordered(items, req)) == ["x", "c", "d"]
