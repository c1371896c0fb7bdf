"""Golden cases for ``briefpack.assemble``: one test (or a few) per bullet of the contract.

Read top to bottom, this file is the contract of DESIGN.md with numbers in it: the classic
relocation rows, the orders, the budget arithmetic, packing, supersede, dedupe, expansion,
rerank, caps, MMR, labels, the prompt layout, citations, the record and determinism. Every test
that runs the pipeline runs once per backend.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from typing import Any

import pytest

import briefpack as bp
from briefpack import reference
from briefpack.citations import parse_markers
from briefpack.pipeline import MESSAGE_OVERHEAD
from briefpack.prompt import DEFAULT_INSTRUCTIONS, DEFAULT_SYSTEM
from pipeline_strategies import count, sources_block

APPROX = {"tokenizer": "approx"}

RELOCATION = "The relocation cap for Berlin is 4000 EUR."
RELOCATION_LONG = "Relocation cap for Berlin is 4000 EUR. Apply within 90 days of arrival."
LEAVE = "Parental leave is 14 weeks in Germany."


def classic_rows() -> list[bp.Chunk]:
    return [
        bp.Chunk(RELOCATION, id="hr/1", score=0.94, doc="handbook"),
        bp.Chunk(RELOCATION_LONG, id="hr/2", score=0.91, doc="handbook"),
        bp.Chunk(RELOCATION, id="faq/7", score=0.90, doc="faq"),
        bp.Chunk(LEAVE, id="wiki/3", score=0.62, doc="wiki"),
    ]


def ids(result: bp.Assembly) -> list[str | None]:
    return [s.chunk.id for s in result.sources]


def dropped(result: bp.Assembly) -> list[tuple[str | None, str]]:
    return [(d.chunk.id, d.reason) for d in result.dropped]


# ---------------------------------------------------------------- the classic relocation rows
# docs/design.md: "Dedupe" (stage 3), "Jaccard", "Which kept item"


def test_classic_rows_jaccard_keeps_three_of_four(backend: str) -> None:
    result = bp.assemble(
        "What is the relocation cap?",
        classic_rows(),
        dedupe="jaccard",
        threshold=0.7,
        order="relevance",
        backend=backend,
        **APPROX,
    )
    assert ids(result) == ["hr/1", "hr/2", "wiki/3"]
    assert dropped(result) == [("faq/7", "duplicate")]
    detail = result.dropped[0].detail
    assert detail["of"] == "hr/1"
    assert detail["similarity"] == 1.0
    assert detail["method"] == "jaccard"


def test_classic_rows_the_near_duplicate_is_below_the_threshold(backend: str) -> None:
    # 6 shared words of 12: Jaccard 0.5 < 0.7, so the longer row with the deadline stays.
    words = reference.dedupe_jaccard([RELOCATION, RELOCATION_LONG], threshold=0.0).similarity
    assert words == [None, 0.5]
    result = bp.assemble("q", classic_rows()[:2], dedupe="jaccard", backend=backend, **APPROX)
    assert result.dropped == []


def test_classic_rows_as_plain_strings_get_index_ids(backend: str) -> None:
    texts = [c.text for c in classic_rows()]
    result = bp.assemble("q", texts, order="relevance", backend=backend, **APPROX)
    assert ids(result) == ["0", "1", "3"]
    assert result.dropped[0].chunk.id == "2"
    assert result.dropped[0].detail["of"] == "0"
    assert result.settings["dedupe"] == "jaccard"  # "auto" with no vectors
    assert result.settings["threshold"] == 0.7


def test_a_duplicate_never_evicts_what_outranked_it(backend: str) -> None:
    # The later, longer copy would be "better" by length; rank order decides.
    cands = [bp.Chunk("cap is 4000", id="a"), bp.Chunk("The cap is 4000!", id="b")]
    result = bp.assemble("q", cands, dedupe="jaccard", threshold=0.5, backend=backend, **APPROX)
    assert ids(result) == ["a"]
    assert result.dropped[0].detail["of"] == "a"


def test_duplicate_of_is_the_earliest_ranked_kept_item(backend: str) -> None:
    cands = [
        bp.Chunk("alpha beta gamma", id="first"),
        bp.Chunk("delta epsilon", id="other"),
        bp.Chunk("alpha beta gamma", id="second"),
        bp.Chunk("alpha beta gamma", id="third"),
    ]
    result = bp.assemble("q", cands, dedupe="exact", backend=backend, **APPROX)
    assert [(d.chunk.id, d.detail["of"]) for d in result.dropped] == [
        ("second", "first"),
        ("third", "first"),
    ]
    # the earliest-ranked kept item that meets the threshold, not the most similar one:
    # C is 0.5 like A and 0.8 like B, and A outranks B
    near = [
        bp.Chunk("a b c d", id="A"),
        bp.Chunk("a b e f", id="B"),  # 2/6 like A: kept
        bp.Chunk("a b c e f", id="C"),
    ]
    result = bp.assemble("q", near, dedupe="jaccard", threshold=0.5, backend=backend, **APPROX)
    assert [(d.chunk.id, d.detail["of"], d.detail["similarity"]) for d in result.dropped] == [
        ("C", "A", 0.5)
    ]


# ---------------------------------------------------------------- orders
# docs/design.md: "Orders"


def test_round_robin_handbook_faq_wiki(backend: str) -> None:
    cands = [
        bp.Chunk("Handbook: the cap is 4000 EUR.", id="h1", score=0.94, doc="handbook"),
        bp.Chunk("FAQ: apply within 90 days.", id="f1", score=0.91, doc="faq"),
        bp.Chunk("Handbook: receipts are required.", id="h2", score=0.71, doc="handbook"),
        bp.Chunk("Wiki: parental leave is 14 weeks.", id="w1", score=0.62, doc="wiki"),
    ]
    result = bp.assemble("q", cands, order="round_robin", dedupe=None, backend=backend, **APPROX)
    assert ids(result) == ["h1", "f1", "w1", "h2"]
    assert [s.chunk.score for s in result.sources] == [0.94, 0.91, 0.62, 0.71]
    assert [s.label for s in result.sources] == [1, 2, 3, 4]


def test_round_robin_documents_in_order_of_first_appearance() -> None:
    class Item:
        def __init__(self, name: str, doc: str) -> None:
            self.name, self.doc = name, doc

    items = [
        Item(n, d)
        for n, d in [("a1", "a"), ("b1", "b"), ("a2", "a"), ("a3", "a"), ("c1", "c"), ("b2", "b")]
    ]
    assert [i.name for i in bp.order(items, "round_robin")] == ["a1", "b1", "c1", "a2", "b2", "a3"]


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, []),
        (1, [1]),
        (2, [1, 2]),
        (3, [1, 3, 2]),
        (4, [1, 3, 4, 2]),
        (5, [1, 3, 5, 4, 2]),
        (6, [1, 3, 5, 6, 4, 2]),
        (7, [1, 3, 5, 7, 6, 4, 2]),
    ],
)
def test_edges_best_first_second_best_last(n: int, expected: list[int]) -> None:
    assert bp.order(list(range(1, n + 1)), "edges") == expected


@pytest.mark.parametrize(("n", "expected"), [(6, [1, 3, 5, 6, 4, 2]), (5, [1, 3, 5, 4, 2])])
def test_edges_in_the_pipeline(backend: str, n: int, expected: list[int]) -> None:
    topics = ["relocation", "leave", "pension", "laptop", "travel", "parking"]
    cands = [bp.Chunk(f"{topics[i]} policy {i}", id=str(i + 1)) for i in range(n)]
    result = bp.assemble("q", cands, order="edges", backend=backend, **APPROX)
    assert [int(s.chunk.id) for s in result.sources] == expected
    assert [s.label for s in result.sources] == list(range(1, n + 1))


def test_relevance_is_rank_order(backend: str) -> None:
    cands = [bp.Chunk(t, id=t[0]) for t in ["alpha", "bravo", "charlie", "delta"]]
    result = bp.assemble("q", cands, order="relevance", backend=backend, **APPROX)
    assert ids(result) == ["a", "b", "c", "d"]


def test_document_order_groups_by_document_in_position_order(backend: str) -> None:
    cands = [
        bp.Chunk("guide part three", id="g3", doc="guide", position=3),
        bp.Chunk("faq answer", id="f1", doc="faq", position=9),
        bp.Chunk("guide part one", id="g1", doc="guide", position=1),
        bp.Chunk("faq earlier answer", id="f0", doc="faq", position=2),
        bp.Chunk("guide part two", id="g2", doc="guide", position=2),
    ]
    result = bp.assemble("q", cands, order="document", dedupe=None, backend=backend, **APPROX)
    assert ids(result) == ["g1", "g2", "g3", "f0", "f1"]


def test_candidates_without_doc_or_position(backend: str) -> None:
    # doc=None: a document of its own; position=None: input order within its document.
    cands = [
        bp.Chunk("b first", id="b1", doc="b"),
        bp.Chunk("lonely one", id="x"),
        bp.Chunk("a first", id="a1", doc="a"),
        bp.Chunk("b second", id="b2", doc="b"),
        bp.Chunk("lonely two", id="y"),
    ]
    result = bp.assemble("q", cands, order="document", dedupe=None, backend=backend, **APPROX)
    assert ids(result) == ["b1", "b2", "x", "a1", "y"]
    rr = bp.assemble("q", cands, order="round_robin", dedupe=None, backend=backend, **APPROX)
    assert ids(rr) == ["b1", "x", "a1", "y", "b2"]
    capped = bp.assemble("q", cands, max_per_doc=1, dedupe=None, backend=backend, **APPROX)
    assert dropped(capped) == [("b2", "capped")]
    assert [s.chunk.doc for s in result.sources] == ["b", "b", None, "a", None]


def test_langchain_style_documents(backend: str) -> None:
    class Document:
        def __init__(self, page_content: str, metadata: dict[str, Any]) -> None:
            self.page_content, self.metadata = page_content, metadata

    docs = [
        Document(RELOCATION, {"id": "kb/1", "source": "handbook", "score": 0.9, "title": "HR"}),
        Document(RELOCATION, {"id": "kb/2", "source": "faq"}),
    ]
    result = bp.assemble("q", docs, backend=backend, **APPROX)
    assert [(s.chunk.id, s.chunk.doc, s.chunk.title) for s in result.sources] == [
        ("kb/1", "handbook", "HR")
    ]
    assert dropped(result) == [("kb/2", "duplicate")]
    assert docs[0].metadata == {"id": "kb/1", "source": "handbook", "score": 0.9, "title": "HR"}


# ---------------------------------------------------------------- the budget
# docs/design.md: "Budget arithmetic"


def test_budget_window_leaves_7040() -> None:
    assert bp.Budget(window=8192, max_output=1024, margin=128).window_left == 7040


@pytest.mark.parametrize(
    "history",
    [None, "We talked about Berlin.", [{"role": "user", "content": "And Munich?"}]],
)
def test_context_budget_is_what_the_window_leaves(backend: str, history: Any) -> None:
    budget = bp.Budget(window=8192, max_output=1024, margin=128)
    question = "What is the relocation cap?"
    result = bp.assemble(question, classic_rows(), budget=budget, history=history, backend=backend)
    # framing: the user message rendered with an empty sources block
    empty = bp.assemble(question, [], budget=budget, history=history, backend=backend)
    n_system = count(result.system, "o200k_base")
    n_framing = count(empty.user, "o200k_base")
    assert result.tokens["context_budget"] == 7040 - n_system - n_framing - 2 * MESSAGE_OVERHEAD
    assert result.tokens["system"] == n_system
    assert result.tokens["total"] == n_system + count(result.user, "o200k_base")
    assert result.tokens["sources"] == count(sources_block(result.user), "o200k_base")
    assert result.tokens["reserved_output"] == 1024
    assert result.tokens["margin"] == 128
    assert result.tokens["total"] + 2 * MESSAGE_OVERHEAD + 1024 + 128 <= 8192


def test_context_and_window_the_smaller_wins(backend: str) -> None:
    budget = bp.Budget(context=50, window=8192, max_output=1024, margin=128)
    result = bp.assemble("q", classic_rows(), budget=budget, backend=backend)
    assert result.tokens["context_budget"] == 50
    roomy = bp.Budget(context=100_000, window=8192, max_output=1024, margin=128)
    result = bp.assemble("q", classic_rows(), budget=roomy, backend=backend)
    assert result.tokens["context_budget"] < 7040


def test_an_int_budget_is_the_context_budget(backend: str) -> None:
    result = bp.assemble("q", classic_rows(), budget=321, backend=backend, **APPROX)
    assert result.tokens["context_budget"] == 321
    assert result.tokens["reserved_output"] == 0
    assert result.settings["budget"] == {
        "context": 321,
        "window": None,
        "max_output": 0,
        "margin": 0,
    }


def test_a_huge_budget_places_everything(backend: str) -> None:
    result = bp.assemble("q", classic_rows(), budget=sys.maxsize, backend=backend, **APPROX)
    assert len(result.sources) == 3
    assert result.tokens["context_budget"] == sys.maxsize
    window = bp.Budget(window=sys.maxsize, max_output=2**32, margin=2**31)
    result = bp.assemble("q", classic_rows(), budget=window, backend=backend, **APPROX)
    assert len(result.sources) == 3


def test_token_counts_are_exact(backend: str) -> None:
    history = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello [1]"}]
    result = bp.assemble("How long is leave?", classic_rows(), history=history, backend=backend)
    t = result.tokens
    history_block = result.user[: result.user.index("\n\n<sources>")]
    assert t["history"] == count(history_block, "o200k_base")
    assert t["question"] == count("Question: How long is leave?", "o200k_base")
    assert t["sources"] == count(sources_block(result.user), "o200k_base")
    assert [s.tokens for s in result.sources] == [
        count(block, "o200k_base") for block in sources_block(result.user).split("\n\n")
    ]


def test_question_tokens_count_the_whole_question_line(backend: str) -> None:
    # A question that itself contains "Question: " must still be counted whole.
    question = "Why? Question: what changed in 2024?"
    result = bp.assemble(question, ["x"], backend=backend, **APPROX)
    assert result.user.endswith(f"\n\nQuestion: {question}")
    assert result.tokens["question"] == count(f"Question: {question}", "approx")


def test_fixed_parts_over_the_window_is_a_budget_error(backend: str) -> None:
    # approx counts: system 40 chars -> 10; framing "<sources>\n</sources>\n\nQuestion: " + 20
    # chars = 52 chars -> 13; overhead 2 * 4 = 8; fixed = 31 > 100 - 70 - 10 = 20.
    with pytest.raises(bp.BudgetError) as info:
        bp.assemble(
            "q" * 20,
            ["some text"],
            system="S" * 40,
            instructions=None,
            budget=bp.Budget(window=100, max_output=70, margin=10),
            backend=backend,
            **APPROX,
        )
    assert str(info.value) == (
        "system + history + question need 31 tokens (system 10, user framing 13, message "
        "overhead 8) but the window leaves 20 (window 100 - max_output 70 - margin 10); raise "
        "window or pass a shorter history or system prompt"
    )


def test_fixed_parts_that_just_fit_leave_a_zero_budget(backend: str) -> None:
    result = bp.assemble(
        "q" * 20,
        ["some text"],
        system="S" * 40,
        instructions=None,
        budget=bp.Budget(window=111, max_output=70, margin=10),
        backend=backend,
        **APPROX,
    )
    assert result.tokens["context_budget"] == 0
    assert result.sources == []
    assert dropped(result) == [("0", "over_budget")]


# ---------------------------------------------------------------- packing
# docs/design.md: "Budget arithmetic" (packing, eviction, never cut in half)


def pack_rows() -> list[bp.Chunk]:
    # approx: each short block is '<source id="1">\n' + 40 chars + '\n</source>' = 66 chars
    # -> 16 tokens, plus 1 for the separator: 17. The long one costs far more.
    return [
        bp.Chunk("a" * 40, id="a"),
        bp.Chunk("b" * 40, id="b"),
        bp.Chunk("c" * 400, id="c"),
        bp.Chunk("d" * 40, id="d"),
    ]


def test_pack_stop_drops_the_misfit_and_everything_below_it(backend: str) -> None:
    result = bp.assemble(
        "q", pack_rows(), budget=55, overflow="stop", order="relevance", backend=backend, **APPROX
    )
    assert ids(result) == ["a", "b"]
    assert dropped(result) == [("c", "over_budget"), ("d", "over_budget")]
    assert result.dropped[0].detail["context_budget"] == 55


def test_pack_skip_continues_with_smaller_items(backend: str) -> None:
    result = bp.assemble(
        "q", pack_rows(), budget=55, overflow="skip", order="relevance", backend=backend, **APPROX
    )
    assert ids(result) == ["a", "b", "d"]
    assert dropped(result) == [("c", "over_budget")]
    assert result.tokens["sources"] <= 55


def test_pack_never_cuts_an_item(backend: str) -> None:
    result = bp.assemble("q", pack_rows(), budget=55, overflow="skip", backend=backend, **APPROX)
    texts = {c.id: c.text for c in pack_rows()}
    assert all(s.chunk.text == texts[s.chunk.id] for s in result.sources)


def test_precomputed_tokens_that_lie_are_caught_by_the_final_count(backend: str) -> None:
    # Both claim 0 tokens, so greedy packing places both; the rendered block is counted once
    # and the lowest-ranked item is evicted until it fits.
    cands = [bp.Chunk("x" * 200, id="big1", tokens=0), bp.Chunk("y" * 200, id="big2", tokens=0)]
    result = bp.assemble("q", cands, budget=80, order="relevance", backend=backend, **APPROX)
    assert ids(result) == ["big1"]
    assert dropped(result) == [("big2", "over_budget")]
    assert result.dropped[0].detail["evicted"] is True
    assert result.tokens["sources"] == count(sources_block(result.user), "approx") <= 80


def test_precomputed_tokens_stand_in_for_the_text(backend: str) -> None:
    # An honest precomputed count gives the same result as counting.
    counted = bp.assemble("q", pack_rows(), budget=55, backend=backend, **APPROX)
    given = [c.replace(tokens=max(1, len(c.text) // 4)) for c in pack_rows()]
    precomputed = bp.assemble("q", given, budget=55, backend=backend, **APPROX)
    assert ids(precomputed) == ids(counted)


# ---------------------------------------------------------------- supersede
# docs/design.md: "Supersede" (stage 2 and the rule)


def test_supersede_by_url_keeps_the_newest(backend: str) -> None:
    cands = [
        bp.Chunk("Cap is 3000 EUR.", id="v1", url="https://hr/reloc", updated="2023-01-10"),
        bp.Chunk("Cap is 4000 EUR.", id="v2", url="https://hr/reloc", updated="2024-06-30"),
        bp.Chunk("Cap is 2000 EUR.", id="v0", url="https://hr/reloc", updated=""),
        bp.Chunk("Leave is 14 weeks.", id="leave", url="https://hr/leave", updated="2020-01-01"),
        bp.Chunk("No url at all.", id="nourl", updated="1999-01-01"),
    ]
    result = bp.assemble(
        "q", cands, supersede="url", dedupe=None, order="relevance", backend=backend, **APPROX
    )
    assert ids(result) == ["v2", "leave", "nourl"]
    assert dropped(result) == [("v1", "superseded"), ("v0", "superseded")]
    assert result.dropped[0].detail == {
        "by": "v2",
        "updated": "2024-06-30",
        "url": "https://hr/reloc",
    }


def test_supersede_empty_updated_is_oldest(backend: str) -> None:
    cands = [
        bp.Chunk("new", id="a", url="u", updated=""),
        bp.Chunk("old", id="b", url="u", updated="2001"),
    ]
    result = bp.assemble("q", cands, supersede="url", dedupe=None, backend=backend, **APPROX)
    assert ids(result) == ["b"]
    assert dropped(result) == [("a", "superseded")]


def test_supersede_ties_keep_all(backend: str) -> None:
    cands = [
        bp.Chunk("part one", id="a", url="u", updated="2024-01-01"),
        bp.Chunk("part two", id="b", url="u", updated="2024-01-01"),
        bp.Chunk("older", id="c", url="u", updated="2023-12-31"),
    ]
    result = bp.assemble(
        "q", cands, supersede="url", dedupe=None, order="relevance", backend=backend, **APPROX
    )
    assert ids(result) == ["a", "b"]
    assert dropped(result) == [("c", "superseded")]


def test_supersede_by_doc(backend: str) -> None:
    cands = [
        bp.Chunk("policy v1 part", id="a", doc="policy", updated="2023-01-01"),
        bp.Chunk("policy v2 part", id="b", doc="policy", updated="2024-01-01"),
        bp.Chunk("same url, other doc", id="c", doc="other", url="u", updated="2020-01-01"),
        bp.Chunk("same url, other doc 2", id="d", doc="other2", url="u", updated="2021-01-01"),
    ]
    result = bp.assemble(
        "q", cands, supersede="doc", dedupe=None, order="relevance", backend=backend, **APPROX
    )
    assert ids(result) == ["b", "c", "d"]
    assert result.dropped[0].detail == {"by": "b", "updated": "2024-01-01", "doc": "policy"}


def test_supersede_runs_before_dedupe(backend: str) -> None:
    # The old version outranks the new one and is identical in words: supersede removes it
    # first, so the new version survives dedupe instead of being dropped as its duplicate.
    cands = [
        bp.Chunk("The cap is 4000 EUR.", id="old", url="u", updated="2023"),
        bp.Chunk("The cap is 4000 EUR!", id="new", url="u", updated="2024"),
    ]
    result = bp.assemble("q", cands, supersede="url", backend=backend, **APPROX)
    assert ids(result) == ["new"]
    assert dropped(result) == [("old", "superseded")]


# ---------------------------------------------------------------- dedupe methods
# docs/design.md: "Exact", "Jaccard", "MinHash", "Cosine", "Identity"


def test_scope_document_compares_only_within_a_document(backend: str) -> None:
    cands = [
        bp.Chunk(RELOCATION, id="a", doc="handbook"),
        bp.Chunk(RELOCATION, id="b", doc="faq"),
        bp.Chunk(RELOCATION, id="c", doc="handbook"),
    ]
    glob = bp.assemble("q", cands, order="relevance", backend=backend, **APPROX)
    assert ids(glob) == ["a"]
    per_doc = bp.assemble(
        "q", cands, scope="document", order="relevance", backend=backend, **APPROX
    )
    assert ids(per_doc) == ["a", "b"]
    assert dropped(per_doc) == [("c", "duplicate")]
    assert per_doc.dropped[0].detail["of"] == "a"


EXACT_CASES = [
    ("a  b", True),  # a run of spaces collapses
    (" a b\n", True),  # stripped at both ends
    ("a\tb", True),
    ("a\u00a0b", True),  # NO-BREAK SPACE is whitespace (str.isspace)
    ("a\u3000b", True),  # IDEOGRAPHIC SPACE too
    ("a\u2028b", True),
    ("A b", False),  # case is kept
    ("a, b", False),  # punctuation is kept
    ("a\u200bb", False),  # ZERO WIDTH SPACE is not whitespace
    ("ab", False),  # whitespace is collapsed, not removed
]


@pytest.mark.parametrize(("text", "duplicate"), EXACT_CASES)
def test_exact_dedupe_whitespace_rules(backend: str, text: str, duplicate: bool) -> None:
    cands = [bp.Chunk("a b", id="first"), bp.Chunk(text, id="second")]
    result = bp.assemble("q", cands, dedupe="exact", backend=backend, **APPROX)
    if duplicate:
        assert dropped(result) == [("second", "duplicate")]
        assert result.dropped[0].detail == {"of": "first", "similarity": 1.0, "method": "exact"}
    else:
        assert result.dropped == []


def test_exact_dedupe_empty_and_whitespace_only_texts(backend: str) -> None:
    cands = [bp.Chunk("", id="empty"), bp.Chunk(" \n\t", id="blank"), bp.Chunk("x", id="x")]
    result = bp.assemble("q", cands, dedupe="exact", order="relevance", backend=backend, **APPROX)
    assert ids(result) == ["empty", "x"]
    assert dropped(result) == [("blank", "duplicate")]


def test_empty_texts_are_accepted_and_never_near_duplicates(backend: str) -> None:
    cands = [bp.Chunk("", id="e1"), bp.Chunk("!!!", id="e2"), bp.Chunk("word", id="w")]
    result = bp.assemble("q", cands, dedupe="jaccard", threshold=0.0, backend=backend, **APPROX)
    assert sorted(ids(result)) == ["e1", "e2", "w"]


def test_minhash_drops_copies_and_records_the_estimate(backend: str) -> None:
    base = "the relocation cap for berlin is four thousand euro and you apply within ninety days"
    near = base.replace("ninety", "ninety-one")
    cands = [
        bp.Chunk(base, id="a"),
        bp.Chunk(LEAVE, id="b"),
        bp.Chunk(base.upper() + "!", id="c"),
        bp.Chunk(near, id="d"),
    ]
    options = {"num_perm": 64, "seed": 7}
    result = bp.assemble(
        "q", cands, dedupe="minhash", threshold=0.5, minhash=options, backend=backend, **APPROX
    )
    # The difference guard is the default (the contract changed): "ninety-one" is a word
    # the kept text lacks, so "d" is kept and the record says why; off, it is dropped.
    oracle = reference.dedupe_minhash([c.text for c in cands], threshold=0.5, guard=True, **options)
    assert [d.chunk.id for d in result.dropped] == [
        cands[i].id for i, of in enumerate(oracle.duplicate_of) if of is not None
    ]
    by_id = {d.chunk.id: d.detail for d in result.dropped}
    assert by_id["c"] == {"of": "a", "similarity": 1.0, "method": "minhash"}
    assert "b" not in by_id
    assert "d" not in by_id
    near = result.record()["candidates"][3]["near"]
    assert (near["of"], near["kept_because"]) == ("a", "differs in 'ninety-one'")
    off = bp.assemble(
        "q",
        cands,
        dedupe="minhash",
        threshold=0.5,
        minhash=options,
        backend=backend,
        dedupe_guard=False,
        **APPROX,
    )
    plain = reference.dedupe_minhash([c.text for c in cands], threshold=0.5, **options)
    assert [d.chunk.id for d in off.dropped] == [
        cands[i].id for i, of in enumerate(plain.duplicate_of) if of is not None
    ]
    assert "d" in {d.chunk.id for d in off.dropped}
    assert result.settings["minhash"] == options
    assert result.settings["threshold"] == 0.5


def test_minhash_default_threshold(backend: str) -> None:
    result = bp.assemble("q", ["a b c d", "a b c d"], dedupe="minhash", backend=backend, **APPROX)
    assert result.settings["threshold"] == 0.8
    assert dropped(result) == [("1", "duplicate")]


def test_cosine_with_vectors(backend: str) -> None:
    cands = [
        bp.Chunk("first wording", id="a", vector=[1.0, 0.0]),
        bp.Chunk("totally different words", id="b", vector=[0.99, 0.01]),
        bp.Chunk("first wording", id="c", vector=[0.0, 1.0]),
    ]
    result = bp.assemble("q", cands, dedupe="cosine", order="relevance", backend=backend, **APPROX)
    assert ids(result) == ["a", "c"]
    detail = result.dropped[0].detail
    assert detail["of"] == "a"
    assert detail["method"] == "cosine"
    assert math.isclose(detail["similarity"], 0.99 / math.hypot(0.99, 0.01), rel_tol=1e-6)
    assert result.settings["threshold"] == 0.97


def test_cosine_accepts_numpy_vectors(backend: str) -> None:
    np = pytest.importorskip("numpy")
    cands = [
        bp.Chunk("a", id="a", vector=np.array([1.0, 0.0], dtype=np.float32)),
        bp.Chunk("b", id="b", vector=np.array([1.0, 0.001], dtype=np.float32)),
    ]
    result = bp.assemble("q", cands, dedupe="cosine", backend=backend, **APPROX)
    assert ids(result) == ["a"]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "float16"])
def test_numpy_vectors_give_the_same_assembly_as_lists(backend: str, dtype: str) -> None:
    """numpy vectors are checked and stacked as one matrix (no loop over floats in Python);
    the result must be the one the same vectors give as lists of floats."""
    np = pytest.importorskip("numpy")
    gen = np.random.default_rng(7)
    mat = (gen.standard_normal((40, 8)) * 4).astype(dtype)
    mat[5] = mat[2]  # an exact copy: a cosine duplicate
    mat[9] = mat[3] + (1 if dtype == "int64" else 0.001)
    cands = [bp.Chunk(f"text {i}", id=f"c{i}", score=1 - i / 50, vector=mat[i]) for i in range(40)]
    as_lists = [c.replace(vector=[float(x) for x in c.vector.tolist()]) for c in cands]
    for options in ({"dedupe": "cosine"}, {"dedupe": "cosine", "mmr": 0.7, "mmr_k": 10}):
        a = bp.assemble("q", cands, backend=backend, **options, **APPROX)
        b = bp.assemble("q", as_lists, backend=backend, **options, **APPROX)
        assert a.user == b.user
        assert a.fates == b.fates
    assert np.array_equal(cands[5].vector, mat[5])  # the caller's arrays are untouched


def test_chunks_that_need_no_conversion_are_used_as_given(backend: str) -> None:
    """A candidate that is already a checked Chunk is not copied; anything to convert or check
    (an int score, a missing id) goes the long way and gives the same result."""
    exact = bp.Chunk("text one", id="a", doc="d", score=0.5, title="T", tokens=3)
    loose = bp.Chunk("text two", score=1, title=None, url=None)  # type: ignore[arg-type]
    result = bp.assemble("q", [exact, loose], backend=backend, order="relevance", **APPROX)
    assert result.sources[0].chunk is exact
    second = result.sources[1].chunk
    got = (second.id, second.doc, second.score, second.title, second.url)
    assert got == ("1", None, 1.0, "", "")
    assert type(second.score) is float


@pytest.mark.parametrize("field", ["text", "title"])
def test_the_first_bad_candidate_is_named_whatever_its_kind(backend: str, field: str) -> None:
    """Chunks checked in place have their Unicode checked all at once, later; the error is
    still the first bad candidate's, even when a later candidate fails a cheaper check."""
    bad = bp.Chunk("ok", id="b").replace(**{field: "caf\u00e9 \ud800"})
    cands = [bp.Chunk("ok", id="a"), bad, {"text": "x", "score": "high"}]
    with pytest.raises(bp.InputError) as info:
        bp.assemble("q", cands, backend=backend, **APPROX)
    where = "candidate 1 (id='b')" + (": title" if field == "title" else "")
    assert str(info.value).startswith(f"{where}: text contains a lone surrogate U+D800 at offset 5")


def test_auto_is_cosine_only_when_every_candidate_has_a_vector(backend: str) -> None:
    with_vectors = [
        bp.Chunk(RELOCATION, id="a", vector=[1.0, 0.0]),
        bp.Chunk(RELOCATION, id="b", vector=[0.0, 1.0]),  # same words, orthogonal meaning
    ]
    result = bp.assemble("q", with_vectors, backend=backend, **APPROX)
    assert result.settings["dedupe"] == "cosine"
    assert result.dropped == []
    one_missing = [*with_vectors, bp.Chunk("other", id="c")]
    result = bp.assemble("q", one_missing, backend=backend, **APPROX)
    assert result.settings["dedupe"] == "jaccard"
    assert dropped(result) == [("b", "duplicate")]


def test_dedupe_none_keeps_copies(backend: str) -> None:
    result = bp.assemble("q", ["same", "same"], dedupe=None, backend=backend, **APPROX)
    assert len(result.sources) == 2
    assert result.settings["dedupe"] is None
    assert result.settings["threshold"] is None


def test_a_repeated_id_with_the_same_text_is_dropped_as_a_duplicate(backend: str) -> None:
    # Fusion of several retrievers returns the same chunk twice: the later copy goes.
    cands = [
        bp.Chunk(RELOCATION, id="kb/1", score=0.9),
        bp.Chunk(LEAVE, id="kb/2", score=0.8),
        bp.Chunk(RELOCATION, id="kb/1", score=0.7),
    ]
    result = bp.assemble("q", cands, dedupe=None, order="relevance", backend=backend, **APPROX)
    assert ids(result) == ["kb/1", "kb/2"]
    assert dropped(result) == [("kb/1", "duplicate")]
    assert result.dropped[0].chunk.score == 0.7
    assert result.dropped[0].detail["of"] == "kb/1"
    assert result.fates[2]["fate"] == "dropped"


# ---------------------------------------------------------------- expansion: parents
# docs/design.md: "Expand" (stage 4), "Expansion"


SECTIONS = {
    "hr/reloc": bp.Chunk(
        "Relocation. The cap for Berlin is 4000 EUR. Apply within 90 days of arrival.",
        id="hr/reloc",
        title="Relocation",
        url="https://hr/reloc",
    ),
    "hr/leave": {"text": "Leave. Parental leave is 14 weeks in Germany.", "title": "Leave"},
}


def parent_rows() -> list[bp.Chunk]:
    return [
        bp.Chunk(
            "The cap for Berlin is 4000 EUR.", id="c1", score=0.9, doc="hr", parent="hr/reloc"
        ),
        bp.Chunk("Bikes are reimbursed.", id="c2", score=0.8, doc="bikes"),
        bp.Chunk("Parental leave is 14 weeks.", id="c3", score=0.7, doc="hr", parent="hr/leave"),
        bp.Chunk(
            "Apply within 90 days of arrival.", id="c4", score=0.6, doc="hr", parent="hr/reloc"
        ),
    ]


def test_parents_collapse_children_at_the_best_childs_position(backend: str) -> None:
    result = bp.assemble(
        "q", parent_rows(), parents=SECTIONS, order="relevance", backend=backend, **APPROX
    )
    assert ids(result) == ["hr/reloc", "c2", "hr/leave"]
    reloc, bikes, leave = result.sources
    assert reloc.chunk.text == SECTIONS["hr/reloc"].text  # the parent as given
    assert reloc.chunk.title == "Relocation"
    assert reloc.chunk.url == "https://hr/reloc"
    assert reloc.members == ("c1", "c4")
    assert reloc.member_indices == (0, 3)
    assert reloc.chunk.score == 0.9  # the best child's score
    assert bikes.members == ("c2",)
    assert leave.members == ("c3",)
    assert leave.chunk.id == "hr/leave"  # a mapping parent takes its key as id
    assert leave.chunk.title == "Leave"
    assert result.dropped == []
    assert [f["label"] for f in result.fates] == [1, 2, 3, 1]


def test_parents_as_a_callable(backend: str) -> None:
    def parent_of(chunk: bp.Chunk) -> bp.Chunk | None:
        return SECTIONS["hr/reloc"] if chunk.parent == "hr/reloc" else None

    result = bp.assemble(
        "q", parent_rows(), parents=parent_of, order="relevance", backend=backend, **APPROX
    )
    assert ids(result) == ["hr/reloc", "c2", "c3"]
    assert result.sources[0].members == ("c1", "c4")


def test_parents_then_dedupe_again(backend: str) -> None:
    # The parent repeats a lower-ranked candidate word for word: dedupe runs again after
    # expansion and the candidate is dropped as a duplicate of the parent.
    cands = [*parent_rows(), bp.Chunk(SECTIONS["hr/reloc"].text, id="copy", score=0.5)]
    result = bp.assemble("q", cands, parents=SECTIONS, dedupe="exact", backend=backend, **APPROX)
    assert dropped(result) == [("copy", "duplicate")]
    assert result.dropped[0].detail["of"] == "hr/reloc"


def test_rerank_rescores_expanded_items_and_resorts_stably(backend: str) -> None:
    seen: list[list[str | None]] = []

    def rerank(question: str, chunks: list[bp.Chunk]) -> list[float]:
        seen.append([c.id for c in chunks])
        return [0.5 if c.id == "hr/reloc" else 0.9 for c in chunks]

    result = bp.assemble(
        "q",
        parent_rows(),
        parents=SECTIONS,
        rerank=rerank,
        order="relevance",
        backend=backend,
        **APPROX,
    )
    assert seen == [["hr/reloc", "c2", "hr/leave"]]  # the expanded items, in rank order
    assert ids(result) == ["c2", "hr/leave", "hr/reloc"]  # ties keep their order
    assert [s.chunk.score for s in result.sources] == [0.9, 0.9, 0.5]
    assert result.settings["rerank"] is True


def test_rerank_without_expansion_is_a_stable_sort(backend: str) -> None:
    cands = [bp.Chunk(f"text number {w}", id=w) for w in ["a", "b", "c", "d", "e"]]
    scores = {"a": 0.1, "b": 0.7, "c": 0.1, "d": 0.7, "e": 0.3}
    result = bp.assemble(
        "q",
        cands,
        rerank=lambda q, chunks: [scores[c.id] for c in chunks],
        dedupe=None,
        order="relevance",
        backend=backend,
        **APPROX,
    )
    assert ids(result) == ["b", "d", "e", "a", "c"]


# ---------------------------------------------------------------- expansion: neighbours
# docs/design.md: "Expand" (stage 4), "Expansion"


def guide(n: int = 10) -> list[bp.Chunk]:
    return [
        bp.Chunk(f"Step {i}: {w}.", id=f"g{i}", doc="guide", position=i)
        for i, w in enumerate(
            [
                "open",
                "unpack",
                "plug",
                "charge",
                "pair",
                "sync",
                "update",
                "restart",
                "test",
                "done",
            ][:n]
        )
    ]


def test_neighbours_grow_a_hit_in_position_order(backend: str) -> None:
    chunks = guide()
    result = bp.assemble(
        "q",
        [chunks[4]],
        neighbors=1,
        chunks_of={"guide": chunks},
        dedupe=None,
        backend=backend,
        **APPROX,
    )
    (source,) = result.sources
    assert source.chunk.text == "Step 3: charge.\nStep 4: pair.\nStep 5: sync."
    assert source.chunk.id == "g4"
    assert source.members == ("g4",)


def test_neighbours_windows_that_touch_or_overlap_merge(backend: str) -> None:
    chunks = guide()
    # windows (n=1): g7 -> [6, 8], g2 -> [1, 3], g4 -> [3, 5] (overlaps g2's), g9 -> [8, 9]
    # g2+g4 -> [1, 5]; g7 -> [6, 8] touches [1, 5]; g9 -> [8, 9] overlaps: one span [1, 9].
    hits = [chunks[7], chunks[2], chunks[4], chunks[9]]
    result = bp.assemble(
        "q", hits, neighbors=1, chunks_of={"guide": chunks}, dedupe=None, backend=backend, **APPROX
    )
    (source,) = result.sources
    assert source.chunk.text == "\n".join(c.text for c in chunks[1:10])
    assert source.chunk.id == "g7"  # the best hit leads the span
    assert source.members == ("g7", "g2", "g4", "g9")
    assert result.dropped == []

    apart = bp.assemble(
        "q",
        [chunks[0], chunks[5]],
        neighbors=1,
        chunks_of={"guide": chunks},
        dedupe=None,
        order="relevance",
        backend=backend,
        **APPROX,
    )
    assert [s.chunk.text for s in apart.sources] == [
        "Step 0: open.\nStep 1: unpack.",
        "Step 4: pair.\nStep 5: sync.\nStep 6: update.",
    ]


def test_neighbours_touching_windows_merge(backend: str) -> None:
    chunks = guide()
    # n=1: g1 -> [0, 2], g4 -> [3, 5]: adjacent, so one span [0, 5].
    result = bp.assemble(
        "q",
        [chunks[4], chunks[1]],
        neighbors=1,
        chunks_of={"guide": chunks},
        dedupe=None,
        backend=backend,
        **APPROX,
    )
    assert [s.members for s in result.sources] == [("g4", "g1")]
    assert result.sources[0].chunk.text == "\n".join(c.text for c in chunks[0:6])


def test_neighbours_sliding_window_overlap_written_once(backend: str) -> None:
    texts = [
        "Relocation is capped at 4000 EUR for Berlin.",
        "capped at 4000 EUR for Berlin. Claims need receipts",
        "Claims need receipts and must be filed within 90 days.",
    ]
    chunks = [bp.Chunk(t, id=f"s{i}", doc="policy", position=i) for i, t in enumerate(texts)]
    result = bp.assemble(
        "q",
        [chunks[1]],
        neighbors=1,
        chunks_of=lambda doc: chunks if doc == "policy" else [],
        dedupe=None,
        backend=backend,
        **APPROX,
    )
    assert result.sources[0].chunk.text == (
        "Relocation is capped at 4000 EUR for Berlin. Claims need receipts and must be filed "
        "within 90 days."
    )


def test_neighbours_short_overlaps_are_not_merged(backend: str) -> None:
    # A coincidental overlap of a few characters ("the") is not a sliding window: merging it
    # would eat a word. Only an overlap of at least pipeline.MIN_OVERLAP characters is merged.
    chunks = [
        bp.Chunk("The cat jumped over the", id="p0", doc="d"),
        bp.Chunk("the fence and ran away.", id="p1", doc="d"),
    ]
    result = bp.assemble(
        "q",
        [chunks[0]],
        neighbors=1,
        chunks_of={"d": chunks},
        dedupe=None,
        backend=backend,
        **APPROX,
    )
    assert result.sources[0].chunk.text == "The cat jumped over the\nthe fence and ran away."


def test_an_original_hit_is_never_dropped_in_favour_of_a_neighbour(backend: str) -> None:
    # g5 is a hit of its own and also g4's neighbour: it is part of the merged source (a member),
    # never dropped as a duplicate of the span that contains its text.
    chunks = guide()
    hits = [chunks[4], bp.Chunk("A different document.", id="other"), chunks[5]]
    for method in ("exact", "jaccard", "minhash", None):
        result = bp.assemble(
            "q",
            hits,
            neighbors=1,
            chunks_of={"guide": chunks},
            dedupe=method,
            order="relevance",
            backend=backend,
            **APPROX,
        )
        members = [m for s in result.sources for m in s.members]
        assert "g5" in members, method
        assert "g4" in members, method
        assert ("g5", "duplicate") not in dropped(result)


def test_neighbours_of_a_hit_missing_from_chunks_of_leave_it_as_is(backend: str) -> None:
    result = bp.assemble(
        "q",
        [bp.Chunk("lonely", id="z", doc="nowhere")],
        neighbors=2,
        chunks_of={"guide": guide()},
        backend=backend,
        **APPROX,
    )
    assert [(s.chunk.text, s.members) for s in result.sources] == [("lonely", ("z",))]


# ---------------------------------------------------------------- cap per document, MMR
# docs/design.md: "Cap" and "MMR" (stage 5), "MMR"


def test_max_per_doc(backend: str) -> None:
    cands = [
        bp.Chunk("handbook one", id="h1", doc="handbook"),
        bp.Chunk("faq one", id="f1", doc="faq"),
        bp.Chunk("handbook two", id="h2", doc="handbook"),
        bp.Chunk("handbook three", id="h3", doc="handbook"),
        bp.Chunk("faq two", id="f2", doc="faq"),
    ]
    result = bp.assemble(
        "q", cands, max_per_doc=1, dedupe=None, order="relevance", backend=backend, **APPROX
    )
    assert ids(result) == ["h1", "f1"]
    assert dropped(result) == [("h2", "capped"), ("h3", "capped"), ("f2", "capped")]
    assert result.dropped[0].detail == {"doc": "handbook", "max_per_doc": 1}


def test_mmr_with_mmr_k_drops_the_rest_as_not_selected(backend: str) -> None:
    cands = [
        bp.Chunk("cap 4000", id="a", vector=[1.0, 0.0]),
        bp.Chunk("cap four thousand", id="b", vector=[0.99, 0.1]),
        bp.Chunk("leave 14 weeks", id="c", vector=[0.6, 0.8]),
    ]
    result = bp.assemble(
        "q",
        cands,
        dedupe=None,
        mmr=0.3,
        mmr_k=2,
        query_vector=[1.0, 0.0],
        order="relevance",
        backend=backend,
        **APPROX,
    )
    assert ids(result) == ["a", "c"]  # diversity beats the near copy
    assert dropped(result) == [("b", "not_selected")]
    assert result.dropped[0].detail == {"mmr": 0.3, "mmr_k": 2}


def test_mmr_without_query_vector_ranks_by_score(backend: str) -> None:
    cands = [
        bp.Chunk("x", id="a", score=0.2, vector=[1.0, 0.0]),
        bp.Chunk("y", id="b", score=0.9, vector=[0.0, 1.0]),
        bp.Chunk("z", id="c", score=0.5, vector=[0.0, 1.0]),
    ]
    result = bp.assemble(
        "q", cands, dedupe=None, mmr=1.0, order="relevance", backend=backend, **APPROX
    )
    assert ids(result) == ["b", "c", "a"]  # λ = 1: pure relevance, picked in MMR order
    assert result.dropped == []


# ---------------------------------------------------------------- labels
# docs/design.md: "Label" (stage 8), "Escaping"


def test_xml_label_exactly_as_rendered(backend: str) -> None:
    cands = [
        bp.Chunk(
            'Cap < 5000 & "fair" [2]',
            id="kb/1",
            title='Relocation "2024"',
            url="https://hr/x?a=1&b=2",
            updated="2024-06-30",
        ),
        bp.Chunk("No attributes here.", id="kb/2"),
        bp.Chunk("Only a url.", id="kb/3", url="https://u"),
    ]
    result = bp.assemble("q", cands, order="relevance", backend=backend, **APPROX)
    assert sources_block(result.user) == (
        '<source id="1" title="Relocation &quot;2024&quot;" updated="2024-06-30" '
        'url="https://hr/x?a=1&amp;b=2">\n'
        'Cap &lt; 5000 &amp; "fair" &#91;2]\n'
        "</source>\n"
        "\n"
        '<source id="2">\n'
        "No attributes here.\n"
        "</source>\n"
        "\n"
        '<source id="3" url="https://u">\n'
        "Only a url.\n"
        "</source>"
    )


def test_brackets_label_exactly_as_rendered(backend: str) -> None:
    cands = [
        bp.Chunk("See [3] and [1, 2]; a < b.", id="kb/1", title="FAQ (v2) [draft]"),
        bp.Chunk("No title, url is not shown.", id="kb/2", url="https://u", updated="2024"),
    ]
    result = bp.assemble(
        "q", cands, labels="brackets", order="relevance", backend=backend, **APPROX
    )
    assert sources_block(result.user) == (
        "[1] (FAQ &#40;v2&#41; &#91;draft]) See &#91;3] and &#91;1, 2]; a &lt; b.\n"
        "\n"
        "[2] No title, url is not shown."
    )


def test_label_lookalikes_in_history_and_question_are_neutralised(
    backend: str,
) -> None:
    # A label is cited as "[n]": an earlier answer's citations or a question quoting one must
    # not read as this request's labels (unescape still recovers them).
    result = bp.assemble(
        "What does [1] say?",
        ["The cap is 4000 EUR."],
        history=[{"role": "assistant", "content": "It is 4000 EUR [2]."}],
        labels="brackets",
        backend=backend,
        **APPROX,
    )
    assert result.user == (
        "<history>\n"
        '<message role="assistant">It is 4000 EUR &#91;2].</message>\n'
        "</history>\n"
        "\n"
        "<sources>\n"
        "[1] The cap is 4000 EUR.\n"
        "</sources>\n"
        "\n"
        "Question: What does &#91;1] say?"
    )
    assert parse_markers(result.user) == [1]
    assert result.tokens["question"] == count("Question: What does &#91;1] say?", "approx")
    # the xml style's labels are tags, but the model is told to cite with [n]: text there is
    # neutralised the same way (docs/security.md)
    xml = bp.assemble("What does [1] say?", ["x"], backend=backend, **APPROX)
    assert xml.user.endswith("Question: What does &#91;1] say?")


def test_labels_are_dense_after_the_final_order(backend: str) -> None:
    result = bp.assemble("q", classic_rows(), order="edges", backend=backend, **APPROX)
    assert [s.label for s in result.sources] == [1, 2, 3]
    block = sources_block(result.user)
    assert [block.index(f'<source id="{n}"') for n in (1, 2, 3)] == sorted(
        block.index(f'<source id="{n}"') for n in (1, 2, 3)
    )


# ---------------------------------------------------------------- the prompt
# docs/design.md: "Render" (stage 9), "Budget arithmetic" (tokens)


def test_system_is_identical_across_requests(backend: str) -> None:
    a = bp.assemble("What is the cap?", classic_rows(), backend=backend, **APPROX)
    b = bp.assemble(
        "How long is leave?",
        [LEAVE],
        history="Earlier we talked.",
        budget=bp.Budget(window=4000, max_output=500),
        order="relevance",
        labels="brackets",
        backend=backend,
        **APPROX,
    )
    assert a.system == b.system == f"{DEFAULT_SYSTEM}\n\n{DEFAULT_INSTRUCTIONS}"
    assert "What is the cap?" not in a.system
    custom = bp.assemble("q", [], system="You help.", instructions=None, backend=backend, **APPROX)
    assert custom.system == "You help."


def test_user_message_layout_history_sources_question(backend: str) -> None:
    history = [
        {"role": "user", "content": "Hi <there>"},
        {"role": "assistant", "content": "Hello."},
    ]
    result = bp.assemble(
        "What is the cap?",
        [RELOCATION],
        history=history,
        order="relevance",
        backend=backend,
        **APPROX,
    )
    assert result.user == (
        "<history>\n"
        '<message role="user">Hi &lt;there&gt;</message>\n'
        '<message role="assistant">Hello.</message>\n'
        "</history>\n"
        "\n"
        "<sources>\n"
        '<source id="1">\n'
        f"{RELOCATION}\n"
        "</source>\n"
        "</sources>\n"
        "\n"
        "Question: What is the cap?"
    )
    assert result.messages == [
        {"role": "system", "content": result.system},
        {"role": "user", "content": result.user},
    ]


def test_user_message_with_a_string_history_and_without_history(backend: str) -> None:
    with_str = bp.assemble("q?", [], history="We spoke & agreed.", backend=backend, **APPROX)
    assert with_str.user == (
        "<history>\nWe spoke &amp; agreed.\n</history>\n\n<sources>\n</sources>\n\nQuestion: q?"
    )
    for empty in (None, "", []):
        result = bp.assemble("q?", [], history=empty, backend=backend, **APPROX)
        assert result.user == "<sources>\n</sources>\n\nQuestion: q?"
        assert result.tokens["history"] == 0


def test_question_is_escaped_and_last(backend: str) -> None:
    result = bp.assemble("Is a < b & c?", ["x"], backend=backend, **APPROX)
    assert result.user.endswith("\n\nQuestion: Is a &lt; b &amp; c?")
    assert result.question == "Is a < b & c?"


# ---------------------------------------------------------------- citations
# docs/design.md: "Citations"


def cited_assembly(backend: str = "python", n: int = 5) -> bp.Assembly:
    topics = ["relocation", "leave", "pension", "laptop", "travel", "parking"]
    cands = [bp.Chunk(f"{topics[i]} policy", id=f"kb/{i + 1}") for i in range(n)]
    return bp.assemble("q", cands, order="relevance", dedupe=None, backend=backend, **APPROX)


@pytest.mark.parametrize(
    ("answer", "labels"),
    [
        ("The cap is 4000 EUR [3].", [3]),
        ("The cap is 4000 EUR [3, 5].", [3, 5]),
        ("The cap is 4000 EUR [3][5].", [3, 5]),
        ("The cap is 4000 EUR [2-4].", [2, 3, 4]),
        ("The cap is 4000 EUR [2–4].", [2, 3, 4]),
        ("The cap is 4000 EUR [ 1 ,2-3 ].", [1, 2, 3]),
        ("Cap [4]. Leave [2]. Cap again [4].", [4, 2]),
    ],
)
def test_citation_markers(backend: str, answer: str, labels: list[int]) -> None:
    assembly = cited_assembly(backend)
    result = bp.cite(answer, assembly)
    assert [s.label for s in result.sources] == labels
    assert [s.chunk.id for s in result.sources] == [f"kb/{n}" for n in labels]
    assert result.unknown == []
    assert [s.label for s in result.uncited] == [n for n in range(1, 6) if n not in labels]
    assert result.unsupported_sentences == []


def test_unknown_labels_raise_naming_them_when_strict() -> None:
    assembly = cited_assembly()
    with pytest.raises(bp.CitationError) as info:
        bp.cite("Cap [7]. Leave [2][9]. Again [7].", assembly)
    assert info.value.unknown == [7, 9]
    assert str(info.value) == (
        "the answer cites labels that were never in the context: [7, 9]; "
        "this assembly has labels 1-5"
    )
    with pytest.raises(bp.CitationError, match="this assembly has labels none"):
        bp.cite("Cap [1].", bp.assemble("q", [], tokenizer="approx", backend="python"))


def test_unknown_labels_are_reported_when_not_strict() -> None:
    result = bp.cite("Cap [7]. Leave [2][9].", cited_assembly(), strict=False)
    assert result.unknown == [7, 9]
    assert [s.label for s in result.sources] == [2]
    assert result.unsupported_sentences == ["Cap [7]."]  # its only marker is unknown


def test_uncited_sources_and_unsupported_sentences() -> None:
    answer = "The cap is 4000 EUR [1]. It is generous! Leave is 14 weeks [3].\nNo idea here"
    result = bp.cite(answer, cited_assembly())
    assert [s.label for s in result.uncited] == [2, 4, 5]
    assert result.unsupported_sentences == ["It is generous!", "No idea here"]


@pytest.mark.parametrize(
    "answer",
    [
        "The cap is 4000 EUR. [1] Leave is 14 weeks. [2]",
        "The cap is 4000 EUR.[1] Leave is 14 weeks.[2]",
        "The cap is 4000 EUR. [1][2] Leave is 14 weeks! [2]",
        "The cap is 4000 EUR? [1]\nLeave is 14 weeks. [2]",
    ],
)
def test_markers_after_the_sentence_end_belong_to_it(answer: str) -> None:
    result = bp.cite(answer, cited_assembly())
    assert [s.label for s in result.sources] == [1, 2]
    assert result.unsupported_sentences == []


def test_a_claim_after_a_cited_sentence_is_unsupported() -> None:
    result = bp.cite("The cap is 4000 EUR.[1] Bikes are free.", cited_assembly())
    assert result.unsupported_sentences == ["Bikes are free."]


def test_cite_accepts_the_record() -> None:
    assembly = cited_assembly()
    result = bp.cite("Cap [2].", assembly.record())
    assert [s["id"] for s in result.sources] == ["kb/2"]
    assert assembly.cite("Cap [2].").sources == [assembly.sources[1]]


# ---------------------------------------------------------------- the record
# docs/design.md: "Record"


def test_record_is_json_and_explains_every_candidate(backend: str) -> None:
    result = bp.assemble(
        "What is the cap?", classic_rows(), budget=40, order="relevance", backend=backend, **APPROX
    )
    record = result.record()
    text = json.dumps(record, allow_nan=False)
    assert json.loads(text) == record
    assert record["record_version"] == 1
    assert record["briefpack_version"] == bp.__version__
    assert record["question"] == "What is the cap?"
    fates = record["candidates"]
    assert [f["id"] for f in fates] == ["hr/1", "hr/2", "faq/7", "wiki/3"]
    assert [f["index"] for f in fates] == [0, 1, 2, 3]
    assert fates[0] == {"index": 0, "id": "hr/1", "fate": "source", "label": 1}
    assert fates[2]["fate"] == "dropped"
    assert fates[2]["reason"] == "duplicate"
    assert fates[2]["detail"] == {"of": "hr/1", "similarity": 1.0, "method": "jaccard"}
    assert {f["fate"] for f in fates} == {"source", "dropped"}
    assert any(f.get("reason") == "over_budget" for f in fates)
    assert record["tokens"] == result.tokens
    assert record["settings"]["order"] == "relevance"
    assert record["settings"]["tokenizer"] == "approx"
    assert [s["label"] for s in record["sources"]] == [s.label for s in result.sources]
    assert record["sources"][0]["members"] == ["hr/1"]
    expected = hashlib.sha256(f"{result.system}\x00{result.user}".encode()).hexdigest()
    assert record["prompt_sha256"] == expected
    assert "prompt" not in record


def test_record_include_prompt(backend: str) -> None:
    result = bp.assemble("q", classic_rows(), backend=backend, **APPROX)
    record = result.record(include_prompt=True)
    assert record["prompt"] == {"system": result.system, "user": result.user}
    json.dumps(record, allow_nan=False)


def test_record_with_a_callable_tokenizer_and_everything_on(backend: str) -> None:
    result = bp.assemble(
        "q",
        [*parent_rows(), bp.Chunk("x " * 300, id="huge", doc="big")],
        parents=SECTIONS,
        rerank=lambda q, chunks: [1.0] * len(chunks),
        max_per_doc=1,
        supersede="url",
        tokenizer=lambda s: len(s.split()),
        budget=bp.Budget(context=200, window=1000, max_output=100),
        backend=backend,
    )
    record = result.record(include_prompt=True)
    json.dumps(record, allow_nan=False)
    assert record["settings"]["tokenizer"] == "callable"
    assert record["settings"]["parents"] is True
    assert len(record["candidates"]) == 5


# ---------------------------------------------------------------- determinism
# docs/design.md: "Record" (identical input, byte-identical prompt)


def test_the_same_input_gives_byte_identical_prompts(backend: str) -> None:
    def run() -> bp.Assembly:
        return bp.assemble(
            "What is the cap?",
            classic_rows(),
            history=[{"role": "user", "content": "Hi"}],
            budget=bp.Budget(window=8192, max_output=1024, margin=128),
            backend=backend,
        )

    first, second = run(), run()
    assert first.system.encode() == second.system.encode()
    assert first.user.encode() == second.user.encode()
    assert first.record() == second.record()


def test_chunks_dicts_and_strings_give_the_same_prompt(backend: str) -> None:
    rows = classic_rows()
    as_dicts = [{"text": c.text, "id": c.id, "score": c.score, "doc": c.doc} for c in rows]
    a = bp.assemble("q", rows, backend=backend, **APPROX)
    b = bp.assemble("q", as_dicts, backend=backend, **APPROX)
    assert (a.system, a.user) == (b.system, b.user)


def test_both_backends_give_the_same_prompt(backend: str) -> None:
    a = bp.assemble("q", classic_rows(), backend=backend)
    b = bp.assemble("q", classic_rows(), backend="python")
    assert (a.system, a.user, a.tokens) == (b.system, b.user, b.tokens)
    assert a.record()["candidates"] == b.record()["candidates"]
