"""Global ranking under a tight budget (docs/semantics.md, "Compression", "Global ranking").

When the best source does not fit whole, ``compress="overflow"`` (and the empty-context
fallback) chooses segments across the best sources by score and places each chosen source
as its kept sentences in text order: golden cases with exact token arithmetic, rank fidelity
under ``overflow="stop"``, and properties (never over budget, never a half sentence, both
backends identical).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import briefpack as bp
from briefpack._stages import compress
from briefpack.sentences import sentence_spans
from conftest import tiktoken_files_present
from pipeline_strategies import backend_settings

Q = "Is SSO on the Pro plan?"
A = (
    "Billing is monthly. SSO is on the Pro plan. Invoices arrive by email on the first day "
    "of each month. Storage is pooled across the whole team."
)
B = (
    "Seats are counted weekly. The Pro plan includes SSO for every seat. Support answers "
    "every ticket within one working day."
)
ROWS = [{"id": "a", "text": A}, {"id": "b", "text": B}]

needs_tiktoken = pytest.mark.skipif(
    not tiktoken_files_present(), reason="tiktoken's vocabulary files are not at hand"
)


def _kept(result: bp.Assembly) -> list[tuple[Any, Any]]:
    return [(s.chunk.id, s.compression and s.compression.kept) for s in result.sources]


@needs_tiktoken
def test_two_sources_each_keep_their_best_sentence_in_exactly_the_budget(backend: str) -> None:
    # A whole is 42 tokens: over 38. Its best segment (17 + the separator) and B's best
    # (19 + the separator) fill the 38 exactly; one more sentence of either would not fit.
    options: dict[str, Any] = {"tokenizer": "o200k_base", "compress": "overflow"}
    got = bp.assemble(Q, ROWS, budget=38, backend=backend, **options)
    assert _kept(got) == [("a", (1,)), ("b", (1,))]
    assert [s.chunk.text for s in got.sources] == [
        "SSO is on the Pro plan.",
        "The Pro plan includes SSO for every seat.",
    ]
    blocks = [
        '<source id="1">\nSSO is on the Pro plan.\n</source>',
        '<source id="2">\nThe Pro plan includes SSO for every seat.\n</source>',
    ]
    counts = bp.count_tokens(blocks, "o200k_base")
    sep = bp.count_tokens(["\n\n"], "o200k_base")[0]
    assert [s.tokens for s in got.sources] == counts == [17, 19]
    assert sum(counts) + 2 * sep == 38 == got.tokens["context_budget"]
    assert not got.dropped
    # the record keeps each cut: which sentences were kept, what was removed
    entry = got.record()["sources"][0]["compressed"]
    assert entry["kept"] == [1]
    assert entry["sentences"] == 4
    # one token less and B's best no longer fits: A's sentences fill what is left, in order
    less = bp.assemble(Q, ROWS, budget=37, backend=backend, **options)
    assert _kept(less) == [("a", (0, 1, 2))]
    assert less.dropped[0].detail == {"remaining": 2, "context_budget": 37}


@needs_tiktoken
def test_each_source_keeps_its_sentences_in_text_order(backend: str) -> None:
    options: dict[str, Any] = {"tokenizer": "o200k_base", "compress": "overflow"}
    got = bp.assemble(Q, ROWS, budget=34, backend=backend, **options)
    (only,) = got.sources
    assert only.compression is not None
    assert only.compression.kept == (0, 1, 3)  # the best, then what fills, in text order
    assert only.chunk.text == (
        "Billing is monthly. SSO is on the Pro plan." + compress.ELISION
        + "Storage is pooled across the whole team."
    )  # fmt: skip


@needs_tiktoken
def test_the_fallback_without_compress_chooses_the_same_way(backend: str) -> None:
    plain = bp.assemble(Q, ROWS, budget=38, backend=backend, tokenizer="o200k_base")
    assert _kept(plain) == [("a", (1,)), ("b", (1,))]


def test_under_stop_the_sources_placed_are_a_prefix_of_the_ranking(backend: str) -> None:
    # "Pro." scores best but ranks third; under "stop" it may contribute only once the two
    # above it hold a segment each, and the one above it cannot hold any
    rows = [
        {"id": "c2", "text": "Sso. Sso sso sso sso sso sso. Sso sso sso sso sso sso."},
        {"id": "c1", "text": "Sso sso sso sso sso sso sso sso sso sso sso sso."},
        {"id": "c0", "text": "Pro."},
    ]
    options: dict[str, Any] = {"tokenizer": "approx", "compress": "overflow", "dedupe": None}
    stop = bp.assemble("pro", rows, budget=20, backend=backend, **options)
    placed = [s.member_indices[0] for s in stop.sources]
    assert placed == list(range(len(placed)))
    skip = bp.assemble("pro", rows, budget=20, backend=backend, overflow="skip", **options)
    assert "c0" in [s.chunk.id for s in skip.sources]  # "skip" may pass over a source


def test_a_single_source_keeps_its_own_largest_cut(backend: str) -> None:
    text = "Billing is monthly. SSO is on Pro. It needs the add-on. Seats are counted monthly."
    got = bp.assemble("Is SSO on Pro?", [text], budget=30, backend=backend, compress="overflow")
    assert got.sources[0].compression is not None
    assert got.sources[0].compression.kept == (1, 2)  # nothing to rank across


def test_under_all_only_the_relevant_cut_is_chosen_from(backend: str) -> None:
    rows = [
        {"id": "a", "text": "SSO is on Pro. Billing is monthly. Seats are weekly. Storage."},
        {"id": "b", "text": "Pro has SSO. Invoices arrive by email. Support is quick."},
    ]
    got = bp.assemble("SSO Pro", rows, budget=25, backend=backend, compress="all")
    for s in got.sources:
        assert s.compression is not None
        assert s.compression.kept == (0,)


def test_only_the_best_sources_are_ranked_across(backend: str) -> None:
    rows = [{"id": str(i), "text": f"Filler {i} words. Pro has SSO {i}."} for i in range(80)]
    got = bp.assemble(
        "SSO Pro", rows, budget=400, backend=backend, compress="overflow", dedupe=None
    )
    assert got.sources
    assert max(s.member_indices[0] for s in got.sources) < compress.GLOBAL_WINDOW


_words = st.sampled_from(["SSO", "Pro", "plan", "It", "seats", "billing", "the", "add-on"])
_sentence = st.lists(_words, min_size=1, max_size=8).map(lambda ws: " ".join(ws) + ".")
_text = st.lists(_sentence, min_size=1, max_size=8).map(" ".join)
_rows = st.lists(_text, min_size=2, max_size=6).map(
    lambda ts: [{"id": f"c{i}", "text": t} for i, t in enumerate(ts)]
)


@backend_settings(60)
@given(
    rows=_rows,
    budget=st.integers(15, 160),
    overflow=st.sampled_from(["stop", "skip"]),
    mode=st.sampled_from(["overflow", "all", None]),
)
def test_never_over_budget_never_half_a_sentence_and_both_backends_agree(
    backend: str, rows: list[dict[str, str]], budget: int, overflow: str, mode: str | None
) -> None:
    options: dict[str, Any] = {
        "budget": budget, "tokenizer": "approx", "dedupe": None, "overflow": overflow,
        "compress": mode,
    }  # fmt: skip
    got = bp.assemble("Is SSO on the Pro plan?", rows, backend=backend, **options)
    assert got.tokens["sources"] <= got.tokens["context_budget"]
    spans = sentence_spans([r["text"] for r in rows])
    for s in got.sources:
        i = s.member_indices[0]
        text = rows[i]["text"]
        sentences = [text[a:b] for a, b in spans[i]]
        if s.compression is None:
            assert s.chunk.text == text
            continue
        kept = list(s.compression.kept)
        assert kept == sorted(set(kept))
        pieces = s.chunk.text.split(compress.ELISION)
        joined = " ".join(sentences[k] for k in kept)
        assert " ".join(pieces) == joined  # whole sentences only, in text order
    if overflow == "stop":
        placed = [s.member_indices[0] for s in got.sources]
        assert sorted(placed) == list(range(len(placed)))
    if backend == "rust":
        other = bp.assemble("Is SSO on the Pro plan?", rows, backend="python", **options)
        assert other.user == got.user
        assert [(d.chunk.id, d.reason, d.detail) for d in other.dropped] == [
            (d.chunk.id, d.reason, d.detail) for d in got.dropped
        ]


@needs_tiktoken
@pytest.mark.parametrize("backend", ["python", "rust"])
def test_when_no_segment_fits_the_best_sentence_alone_is_placed(backend: str) -> None:
    # The best sentence's segment carries its continuation ("It also ..."), too long for the
    # budget; the sentence alone fits. Until 2026-12-07 nothing was placed (an empty context,
    # whose message said no cut fits); now the choice is made again with single sentences.
    question = "Which plan includes SSO?"
    rows = [
        {
            "id": "a",
            "text": "SSO is included on the Pro plan. It also covers audit logs, SCIM "
            "provisioning, custom roles and a dedicated support channel for every administrator.",
        },
        {"id": "b", "text": "The Team plan has shared folders. It also has comments."},
    ]
    options: dict[str, Any] = {"tokenizer": "o200k_base", "compress": "overflow"}
    got = bp.assemble(question, rows, budget=24, backend=backend, **options)
    assert _kept(got) == [("a", (0,))]
    assert got.sources[0].chunk.text == "SSO is included on the Pro plan."
    assert sum(s.tokens for s in got.sources) <= got.tokens["context_budget"]
    both = bp.assemble(question, rows, budget=36, backend=backend, **options)
    assert _kept(both) == [("a", (0,))]  # b's segment does not fit after it (set 8's round)
    none = bp.assemble(question, rows, budget=16, backend=backend, **options)
    assert none.sources == []  # not even the best sentence alone fits


@needs_tiktoken
@pytest.mark.parametrize("backend", ["python", "rust"])
def test_a_segment_that_does_not_fit_is_tried_first_as_its_best_sentence(backend: str) -> None:
    # The best segment (the SSO sentence with its continuation) is too long; a later,
    # lower-scoring segment of the same source fits. Until compression set 8's round the
    # short segment was placed ("The plan is billed yearly."); now the best sentence is,
    # with what fits after it.
    question = "Which plan includes SSO?"
    rows = [
        {
            "id": "a",
            "text": "SSO is included on the Pro plan. It also covers audit logs, SCIM "
            "provisioning, custom roles and a dedicated support channel for every "
            "administrator. The plan is billed yearly.",
        },
        {"id": "b", "text": "The Team plan has shared folders. It also has comments."},
    ]
    options: dict[str, Any] = {"tokenizer": "o200k_base", "compress": "overflow"}
    got = bp.assemble(question, rows, budget=24, backend=backend, **options)
    assert got.sources[0].chunk.text == "SSO is included on the Pro plan."
    more = bp.assemble(question, rows, budget=28, backend=backend, **options)
    assert _kept(more) == [("a", (0, 2))]  # the short segment fills what is left
    assert sum(s.tokens for s in more.sources) <= more.tokens["context_budget"]
    whole = bp.assemble(question, rows, budget=40, backend=backend, **options)
    assert _kept(whole) == [("a", (0, 1))]  # the segment fits whole: as before
