"""Stage: the budget's one-pass path (``price_pack``) against its general loop.

Without page images, compression or a caller's tokenizer, the budget stage prices, counts and
packs in one kernel call; the placed items, every drop's reason and detail, the labelled
blocks and the final counts must be what the general loop (``greedy``, the path of the page
and compression hooks) leaves.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from stage_kit import drops, ids, start

from briefpack._stages import budget, evict
from briefpack._stages.framing import frame
from briefpack._stages.layout import lay_out
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
            items, req = start(backend, candidates, budget=context, **opts)
            if one_pass:
                packed = budget.run(items, req)  # no hook, a named encoding: one kernel call
            else:
                n_sep = budget.separator(items, req)
                packed = budget.greedy(items, req, frame(req), n_sep)
            fitted = evict.run(req, packed, lay_out(req, packed))
            counts = (fitted.n_sources, fitted.n_user, fitted.n_blocks)
            seen.append((ids(packed.placed), drops(req), fitted.layout.blocks, counts))
        assert seen[0] == seen[1]
