"""Stage: the budget's one-pass path (``price_pack``) against its general loop.

Without page images, compression or a caller's tokenizer, the budget stage prices, counts and
packs in one kernel call; the placed items, every drop's reason and detail, and the labelled
blocks must be what the general loop (still used for pages and compression) leaves.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from stage_kit import drops, ids, start

from briefpack._stages import budget, label
from test_price_pack import adversarial, overflows, styles, tokens


@st.composite
def rows(draw: Any) -> list[dict[str, Any]]:
    n = draw(st.integers(0, 40))
    texts = st.one_of(adversarial, st.text(alphabet="abc [1]", min_size=0, max_size=300))
    return [
        {
            "text": draw(texts),
            "id": f"r{i}",
            "title": draw(st.one_of(st.just(""), adversarial)),
            "page": draw(st.one_of(st.none(), st.integers(0, 99))),
            "tokens": draw(st.one_of(st.none(), st.none(), tokens)),
        }
        for i in range(n)
    ]


@given(rows(), styles, st.integers(0, 3000), overflows, st.sampled_from(["approx", "o200k_base"]))
def test_the_one_pass_path_leaves_what_the_general_loop_leaves(
    candidates: list[dict[str, Any]], labels: str, context: int, overflow: str, tokenizer: str
) -> None:
    for backend in ("rust", "python"):
        seen = []
        for one_pass in (True, False):
            opts = {"overflow": overflow, "labels": labels, "tokenizer": tokenizer}
            items, ctx = start(backend, candidates, budget=context, **opts)
            saved = budget._ONE_PASS_BUDGETS
            budget._ONE_PASS_BUDGETS = saved if one_pass else 0
            try:
                placed = budget.run(items, ctx)
            finally:
                budget._ONE_PASS_BUDGETS = saved
            label.run(placed, ctx)
            seen.append((ids(placed), drops(ctx), ctx.rendered))
        assert seen[0] == seen[1]
