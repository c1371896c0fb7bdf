"""Stage 6: the budget. Greedy packing in rank order (stop or skip), the window's arithmetic,
and eviction (``evict``) until the rendered block fits."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from stage_kit import drops, ids, start, tail

import briefpack as bp
from briefpack._stages import account, budget, evict, render
from briefpack._stages.layout import lay_out
from briefpack.reference.tokens import count_tokens as reference_count
from conftest import HAS_RUST, tiktoken_available

ROWS = [{"text": "x" * n, "id": f"c{n}"} for n in (40, 200, 20)]


def test_stop_drops_the_first_misfit_and_everything_below(backend: str) -> None:
    items, req = start(backend, ROWS, budget=60)
    assert ids(budget.run(items, req).placed) == ["c40"]
    # c40 costs its block, '<source id="3">' + 40 x's + '</source>' (67 chars: 16 approx
    # tokens, rendered with the widest label, 3), plus a separator (1): 60 - 17 = 43 is left
    assert drops(req)["c200"][1] == {"remaining": 43, "context_budget": 60}
    assert drops(req)["c20"][1] == {"after": "c200", "context_budget": 60}


def test_skip_tries_the_smaller_items_below(backend: str) -> None:
    items, req = start(backend, ROWS, budget=60, overflow="skip")
    assert ids(budget.run(items, req).placed) == ["c40", "c20"]


def test_the_window_leaves_what_the_fixed_parts_do_not_take(backend: str) -> None:
    items, req = start(backend, ROWS, budget=bp.Budget(window=400, max_output=100, margin=10))
    framing = budget.run(items, req).framing
    fixed = framing.n_system + framing.n_framing + 2 * budget.MESSAGE_OVERHEAD
    assert framing.context_budget == 400 - 100 - 10 - fixed
    assert framing.window_left == 400 - 100 - 10


def test_fixed_parts_over_the_window_are_a_budget_error(backend: str) -> None:
    items, req = start(backend, ROWS, budget=bp.Budget(window=20))
    with pytest.raises(bp.BudgetError, match="system \\+ history \\+ question need"):
        budget.run(items, req)


def test_evict_drops_the_lowest_ranked_until_the_rendered_block_fits(backend: str) -> None:
    rows = [{"text": "y", "id": "a", "tokens": 0}, {"text": "z" * 80, "id": "b", "tokens": 0}]
    items, req = start(backend, rows, budget=30)  # the lying counts let both be placed
    packed = budget.run(items, req)
    assert ids(packed.placed) == ["a", "b"]
    fitted = evict.run(req, packed, lay_out(req, packed))
    assert ids(fitted.layout.items) == ids(fitted.packed.placed) == ["a"]
    reason, detail = drops(req)["b"]
    assert (reason, detail["evicted"], detail["context_budget"]) == ("over_budget", True, 30)
    assert detail["sources_tokens"] > 30 >= fitted.n_sources
    assert fitted.layout.blocks == ['<source id="1">\ny\n</source>']  # laid out again


def test_page_images_cost_their_tokens_and_the_cap_counts_them(backend: str) -> None:
    pytest.importorskip("PIL")
    import numpy as np

    page = np.zeros((64, 64), dtype=np.uint8)  # one openai tile: 255 tokens
    rows = [{"image": page, "id": f"p{n}"} for n in range(3)] + [{"text": "t", "id": "t"}]
    items, req = start(
        backend, rows, dedupe=None, budget=bp.Budget(context=1000, images=2), overflow="skip"
    )
    assert ids(budget.run(items, req).placed) == ["p0", "p1", "t"]
    assert drops(req)["p2"] == ("over_budget", {"images": 2, "context_budget": 1000})
    items, req = start(backend, rows, dedupe=None, budget=600, overflow="skip")
    fitted = tail(items, req)
    assert ids(fitted.packed.placed) == ["p0", "p1", "t"]  # 2 x 255 + text; a third is over
    assert drops(req)["p2"][1]["remaining"] < 255
    assert fitted.n_images == 2 * 255


_TEXT = st.text(alphabet="ab Q1<[/\n\t\r é中😀.&]", max_size=40)
_CHUNK = st.fixed_dictionaries(
    {"text": _TEXT},
    optional={
        "title": st.text(alphabet="ab [(\n/", max_size=6),
        "tokens": st.integers(0, 3),  # a lying count: more is placed, then evicted
    },
)
_HISTORY = st.none() | _TEXT | st.lists(st.fixed_dictionaries({"role": _TEXT, "content": _TEXT}))


@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base", "approx"])
@given(
    rows=st.lists(_CHUNK, max_size=6),
    history=_HISTORY,
    question=_TEXT,
    labels=st.sampled_from(["xml", "brackets"]),
    size=st.integers(1, 60),
)
# a block's last segment starts only where the lemma splits: not before '/' (o200k_base reads
# ".\n/" as one piece) nor before whitespace
@example(
    rows=[{"text": "./\n/"}, {"text": "x"}], history=None, question="", labels="brackets", size=60
)
@example(rows=[{"text": "\n\t"}], history=None, question="", labels="brackets", size=60)
def test_the_final_counts_are_those_of_the_whole_texts(
    encoding: str,
    rows: list[dict[str, object]],
    history: object,
    question: str,
    labels: str,
    size: int,
) -> None:
    """Evict's sources and user counts (arithmetic on the blocks' counts where the split lemma
    allows) and the blocks' counts the account reuses equal counting the whole texts."""
    if encoding != "approx" and not tiktoken_available():
        pytest.skip("the oracle needs tiktoken's vocabularies")
    backend = "rust" if HAS_RUST else "python"
    rows = [{**r, "id": str(i)} for i, r in enumerate(rows)]
    items, req = start(
        backend, rows, question=question, history=history, tokenizer=encoding, labels=labels,
        budget=size, dedupe=None,
    )  # fmt: skip
    fitted = tail(items, req)
    layout = fitted.layout
    sources, user = reference_count([layout.sources, layout.user], encoding)
    assert (fitted.n_sources, fitted.n_user) == (sources if layout.items else 0, user)
    assert fitted.n_blocks == reference_count(layout.blocks, encoding)
    assert [s.tokens for s in account.assembly(req, fitted).sources] == fitted.n_blocks


def test_a_block_of_another_shape_is_counted_whole(backend: str) -> None:
    items, req = start(backend, [{"text": "x", "id": "a"}], tokenizer="o200k_base")
    packed = budget.run(items, req)
    laid = lay_out(req, packed)
    blocks = [" " + laid.blocks[0]]  # not a block the arithmetic knows: counted whole
    layout = render.run(req, packed.framing, laid.items, blocks, [None])
    fitted = evict.run(req, packed, layout)
    assert (fitted.n_sources, fitted.n_user) == tuple(
        req.count([layout.sources, layout.user], "ab")
    )
    assert fitted.n_blocks == req.count(blocks, "a")
