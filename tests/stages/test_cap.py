"""Stage: cap per document. The best-ranked max_per_doc of each document stay."""

from __future__ import annotations

from stage_kit import drops, ids, start

from briefpack._stages import cap


def test_items_past_the_cap_of_their_document_are_dropped(backend: str) -> None:
    rows = [{"text": t, "id": t, "doc": d} for t, d in [("a", "x"), ("b", "x"), ("c", "y")]]
    items, ctx = start(backend, rows, max_per_doc=1)
    assert ids(cap.run(items, ctx)) == ["a", "c"]
    assert drops(ctx) == {"b": ("capped", {"doc": "x", "max_per_doc": 1})}


def test_a_candidate_without_doc_is_not_in_a_document_named_like_its_id(backend: str) -> None:
    rows = [{"text": "own", "id": "kb"}, {"text": "one", "id": "x", "doc": "kb"}]
    items, ctx = start(backend, rows, max_per_doc=1)
    assert ids(cap.run(items, ctx)) == ["kb", "x"]
