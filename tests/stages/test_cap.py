"""Stage: cap per document. The best-ranked max_per_doc of each document stay."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from stage_kit import drops, ids, start

from briefpack._stages import cap
from briefpack._stages.context import Item, Request


def test_items_past_the_cap_of_their_document_are_dropped(backend: str) -> None:
    rows = [{"text": t, "id": t, "doc": d} for t, d in [("a", "x"), ("b", "x"), ("c", "y")]]
    items, req = start(backend, rows, max_per_doc=1)
    assert ids(cap.run(items, req)) == ["a", "c"]
    assert drops(req) == {"b": ("capped", {"doc": "x", "max_per_doc": 1})}


def test_a_candidate_without_doc_is_not_in_a_document_named_like_its_id(backend: str) -> None:
    rows = [{"text": "own", "id": "kb"}, {"text": "one", "id": "x", "doc": "kb"}]
    items, req = start(backend, rows, max_per_doc=1)
    assert ids(cap.run(items, req)) == ["kb", "x"]


def _capped_one_by_one(items: list[Item], req: Request) -> list[Item]:
    """The contract read literally: count each item in its document (``doc_key``), in order."""
    cap_, seen, kept = req.options.max_per_doc, {}, []
    for it in items:
        key = it.chunk.doc if it.chunk.doc is not None else (None, it.chunk.id)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > cap_:  # type: ignore[operator]
            req.ledger.drop(it, "capped", {"doc": str(it.chunk.doc), "max_per_doc": cap_})  # type: ignore[typeddict-item]
        else:
            kept.append(it)
    return kept


ROWS = st.lists(
    st.tuples(st.sampled_from(["a", "b", "c"]), st.sampled_from([None, "a", "x", "y"])),
    max_size=12,
)


@pytest.mark.parametrize("kernels", ["rust", "python"])
@given(ROWS, st.integers(1, 3))
def test_the_same_items_are_kept_and_dropped_in_the_same_order_as_one_by_one(
    kernels: str, rows: list[tuple[str, str | None]], max_per_doc: int
) -> None:
    cands: list[Any] = [
        {"text": f"t{i}", "id": cid, "doc": doc} for i, (cid, doc) in enumerate(rows)
    ]
    items, req = start(kernels, cands, max_per_doc=max_per_doc)
    items2, req2 = start(kernels, cands, max_per_doc=max_per_doc)
    assert [it.members for it in cap.run(items, req)] == [
        it.members for it in _capped_one_by_one(items2, req2)
    ]
    assert list(req.ledger.fate.items()) == list(req2.ledger.fate.items())
