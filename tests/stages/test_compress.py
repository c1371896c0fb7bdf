"""Stage 6's compression. ``run`` (the stage) cuts every item to its relevant sentences
(``"all"``); ``fit`` is the budget stage's cut hook: an item that does not fit, placed as its
largest cut that does."""

from __future__ import annotations

import pytest
from stage_kit import ids, start

from briefpack._stages import budget, compress

TEXT = (
    "Billing is monthly. SSO is on Pro. It needs the add-on. Seats are counted monthly. "
    "Invoices arrive by email on the first day of each month."
)
ROWS = [{"text": TEXT, "id": "a"}, {"text": "Storage is 20 GB.", "id": "b"}]


def test_the_stage_keeps_the_relevant_sentences_and_their_continuation(backend: str) -> None:
    items, req = start(backend, ROWS, question="Is SSO on Pro?", compress="all")
    out = compress.run(items, req)
    assert out[0].chunk.text == "SSO is on Pro. It needs the add-on."
    assert out[0].compression is not None
    assert out[0].compression.kept == (1, 2)
    assert out[0].compression.removed == (
        "Billing is monthly.",
        "Seats are counted monthly.",
        "Invoices arrive by email on the first day of each month.",
    )
    # no sentence of b shares a term: it keeps its best (its only) sentence, whole
    assert out[1].chunk.text == "Storage is 20 GB."
    assert out[1].compression is None


def test_non_adjacent_sentences_are_joined_by_the_elision_marker(backend: str) -> None:
    rows = [{"text": "SSO is on Pro. Billing is monthly. Pro has SSO too.", "id": "a"}]
    items, req = start(backend, rows, question="SSO Pro", compress="all")
    (out,) = compress.run(items, req)
    assert out.chunk.text == "SSO is on Pro." + compress.ELISION + "Pro has SSO too."


def test_fit_places_the_largest_cut_that_fits(backend: str) -> None:
    items, req = start(backend, ROWS, question="Is SSO on Pro?", compress="overflow")
    cut = compress.fit(items, 0, req, "2", 30, 1)
    assert cut is not None
    item, cost = cut
    assert item.chunk.text == "SSO is on Pro. It needs the add-on."
    assert item.chunk.id == "a"
    assert cost <= 30
    assert compress.fit(items, 0, req, "2", 5, 1) is None  # not even one sentence fits


def test_the_budget_stage_places_a_cut_then_goes_on_in_rank_order(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compress, "GLOBAL_TOP", 0)  # the per-source cut (global: its own tests)
    items, req = start(backend, ROWS, question="Is SSO on Pro?", compress="overflow", budget=30)
    placed = budget.run(items, req, compress.fit).placed  # the plan passes the cut hook
    assert ids(placed) == ["a", "b"]
    assert placed[0].compression is not None
    assert placed[1].compression is None
    assert not req.ledger.dropped()


def test_without_compress_the_same_budget_drops_the_item(backend: str) -> None:
    # a costs 42 tokens whole (its cut 16), b 11: without compression a is dropped, and with
    # overflow="stop" everything below it
    items, req = start(backend, ROWS, question="Is SSO on Pro?", budget=30)
    assert ids(budget.run(items, req).placed) == []
