"""Stage: the budget. Greedy packing in rank order (stop or skip), the window's arithmetic,
and eviction until the rendered block fits."""

from __future__ import annotations

import pytest
from stage_kit import drops, ids, start

import briefpack as bp
from briefpack._stages import budget, label, order, render

ROWS = [{"text": "x" * n, "id": f"c{n}"} for n in (40, 200, 20)]


def test_stop_drops_the_first_misfit_and_everything_below(backend: str) -> None:
    items, ctx = start(backend, ROWS, budget=60)
    assert ids(budget.run(items, ctx)) == ["c40"]
    # c40 costs its block, '<source id="3">' + 40 x's + '</source>' (67 chars: 16 approx
    # tokens, rendered with the widest label, 3), plus a separator (1): 60 - 17 = 43 is left
    assert drops(ctx)["c200"][1] == {"remaining": 43, "context_budget": 60}
    assert drops(ctx)["c20"][1] == {"after": "c200", "context_budget": 60}


def test_skip_tries_the_smaller_items_below(backend: str) -> None:
    items, ctx = start(backend, ROWS, budget=60, overflow="skip")
    assert ids(budget.run(items, ctx)) == ["c40", "c20"]


def test_the_window_leaves_what_the_fixed_parts_do_not_take(backend: str) -> None:
    items, ctx = start(backend, ROWS, budget=bp.Budget(window=400, max_output=100, margin=10))
    budget.run(items, ctx)
    fixed = ctx.n_system + ctx.n_framing + 2 * budget.MESSAGE_OVERHEAD
    assert ctx.context_budget == 400 - 100 - 10 - fixed


def test_fixed_parts_over_the_window_are_a_budget_error(backend: str) -> None:
    items, ctx = start(backend, ROWS, budget=bp.Budget(window=20))
    with pytest.raises(bp.BudgetError, match="system \\+ history \\+ question need"):
        budget.run(items, ctx)


def test_evict_drops_the_lowest_ranked_until_the_rendered_block_fits(backend: str) -> None:
    rows = [{"text": "y", "id": "a", "tokens": 0}, {"text": "z" * 80, "id": "b", "tokens": 0}]
    items, ctx = start(backend, rows, budget=30)  # the lying counts let both be placed
    items = budget.run(items, ctx)
    assert ids(items) == ["a", "b"]
    for stage in (order.run, label.run, render.run, budget.evict):
        items = stage(items, ctx)
    assert ids(items) == ["a"]
    reason, detail = drops(ctx)["b"]
    assert (reason, detail["evicted"], detail["context_budget"]) == ("over_budget", True, 30)
    assert detail["sources_tokens"] > 30 >= ctx.n_sources


def test_page_images_cost_their_tokens_and_the_cap_counts_them(backend: str) -> None:
    pytest.importorskip("PIL")
    import numpy as np

    page = np.zeros((64, 64), dtype=np.uint8)  # one openai tile: 255 tokens
    rows = [{"image": page, "id": f"p{n}"} for n in range(3)] + [{"text": "t", "id": "t"}]
    items, ctx = start(
        backend, rows, dedupe=None, budget=bp.Budget(context=1000, images=2), overflow="skip"
    )
    assert ids(budget.run(items, ctx)) == ["p0", "p1", "t"]
    assert drops(ctx)["p2"] == ("over_budget", {"images": 2, "context_budget": 1000})
    items, ctx = start(backend, rows, dedupe=None, budget=600, overflow="skip")
    assert ids(budget.run(items, ctx)) == ["p0", "p1", "t"]  # 2 x 255 + text; a third is over
    assert drops(ctx)["p2"][1]["remaining"] < 255
