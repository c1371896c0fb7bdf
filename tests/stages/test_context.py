"""The shared parts: items made at intake, the frozen request, the ledger's batched drops."""

from __future__ import annotations

import dataclasses

import pytest
from stage_kit import drops, start

import briefpack as bp
from briefpack._stages import compress, plan
from briefpack._stages.context import Item, items_of


def test_items_of_equals_the_constructor() -> None:
    chunks = [bp.Chunk("a", id="a", vector=[1.0, 0.0]), bp.Chunk("b", id="b")]
    made = items_of(chunks)
    assert made == [Item(c, [i], c.vector) for i, c in enumerate(chunks)]
    assert [f.name for f in dataclasses.fields(Item)] == [
        "chunk",
        "members",
        "vector",
        "expanded",
        "vector_checked",
        "compression",
    ]  # fmt: skip  (items_of sets each of these)
    made[0].members.append(9)
    assert made[1].members == [1]  # each item has its own members


def test_the_request_is_frozen_and_holds_no_phase_result(backend: str) -> None:
    _, req = start(backend, ["a"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        req.question = "other"  # type: ignore[misc]
    assert [f.name for f in dataclasses.fields(req)] == [
        "options", "kernels", "question", "history", "query_vector", "chunks", "method",
        "threshold", "pages", "ledger", "scratch",
    ]  # fmt: skip


def test_drop_each_writes_each_item_with_its_own_detail(backend: str) -> None:
    items, req = start(backend, ["a", "b", "c"], dedupe=None)
    details = [{"of": "0", "similarity": 0.5, "method": "exact"}, {"of": "0", "similarity": 0.7,
               "method": "exact"}]  # fmt: skip
    req.ledger.drop_each(items[1:], "duplicate", details)  # type: ignore[arg-type]
    assert drops(req) == {"1": ("duplicate", details[0]), "2": ("duplicate", details[1])}


def test_the_plan_declares_the_compression_stage_and_its_budget_hook() -> None:
    assert plan(bp.Options()).cut is None
    assert plan(bp.Options(compress="overflow")).cut is compress.fit
    assert "compress" not in plan(bp.Options(compress="overflow")).names
    every = plan(bp.Options(supersede="url", parents={}, neighbors=1, chunks_of={},
                            rerank=lambda q, c: [0.0] * len(c), max_per_doc=1, mmr=0.5,
                            compress="all"))  # fmt: skip
    assert every.names == (
        "repeated_ids", "supersede", "dedupe", "parents", "neighbours", "dedupe", "rerank",
        "cap", "mmr", "compress", "budget", "order", "label", "render", "evict",
    )  # fmt: skip


def test_an_expansion_that_brings_a_page_turns_the_page_hooks_on(backend: str) -> None:
    """A text-only request whose parent is a page: from the parents stage on, the request's
    items carry pages, so the budget and the account count the page's image."""
    pytest.importorskip("PIL")
    import numpy as np

    from briefpack._stages import account, parents

    parent = {"text": "section", "id": "P", "image": np.zeros((64, 64), dtype=np.uint8)}
    rows = [{"text": "child", "id": "c", "parent": "P"}]
    items, req = start(backend, rows, parents={"P": parent}, budget=1000)
    assert (req.pages, req.has_pages) == (False, False)
    parents.run(items, req)
    assert (req.pages, req.has_pages, req.scratch.expanded_pages) == (False, True, True)
    items, req = start(backend, rows, parents={"P": parent}, budget=1000)  # a fresh request
    result = account.assembly(req, plan(req.options)(req, items))
    assert result.tokens["images"] == 255  # one openai tile
    assert result.sources[0].tokens > 255  # the page's tokens include its image's
    assert "pages" in result.settings
