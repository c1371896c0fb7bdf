"""Compression (``compress="overflow"`` / ``"all"``): a source cut to its relevant sentences.

The contract: the caveat that says only "SSO" survives a question that says "single sign-on";
a cut text is made only of the source's own sentences, in order, with the elision marker
between non-adjacent ones; the record lists every removed sentence; the budget still holds;
``"overflow"`` with room for everything is ``compress=None``; both backends agree.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import briefpack as bp
from briefpack._stages.compress import ELISION
from briefpack.demo import CAVEAT, CAVEAT_ID, DEMO_OPTIONS, example
from briefpack.sentences import sentence_spans
from conftest import HAS_RUST
from pipeline_strategies import backend_settings

SSO_QUESTION = "Is single sign-on included in the Pro plan?"


def _demo(backend: str, **options: Any) -> bp.Assembly:
    _, chunks = example()
    options = {"budget": 1000, "tokenizer": "approx", **DEMO_OPTIONS, **options}
    return bp.assemble(SSO_QUESTION, chunks, backend=backend, **options)


def _rebuild(original: str, c: bp.Compression) -> str:
    """The cut text from the original and the kept indices, by the documented rule."""
    spans = sentence_spans([original])[0]
    pieces: list[str] = []
    run: list[int] = []
    for k in c.kept:
        if run and k != run[-1] + 1:
            pieces.append(original[spans[run[0]][0] : spans[run[-1]][1]])
            run = []
        run.append(k)
    pieces.append(original[spans[run[0]][0] : spans[run[-1]][1]])
    return ELISION.join(pieces)


def _check_cut(result: bp.Assembly, originals: dict[str, str]) -> None:
    """Every compressed source: its text is its kept sentences, in order, with markers; the
    kept and removed sentences are all of its sentences; label fields are the source's."""
    for s in result.sources:
        c = s.compression
        if c is None:
            continue
        original = originals[s.members[0]]
        sentences = bp.split_sentences([original])[0]
        assert c.sentences == len(sentences)
        assert list(c.kept) == sorted(set(c.kept))
        assert 0 < len(c.kept) < len(sentences)
        assert s.chunk.text == _rebuild(original, c)
        assert [x for i, x in enumerate(sentences) if i not in c.kept] == list(c.removed)


# ---- the caveat case -----------------------------------------------------------------------


def test_all_keeps_the_caveat_that_says_only_sso(backend: str) -> None:
    result = _demo(backend, compress="all")
    caveat = next(s for s in result.sources if s.chunk.id == CAVEAT_ID)
    assert caveat.compression is not None  # cut: its first sentence is about audit logs
    assert caveat.chunk.text == CAVEAT
    assert CAVEAT in result.user
    assert caveat.chunk.title == "Security add-on"
    assert caveat.chunk.url == "https://relay.example/pricing/security-add-on"
    assert caveat.chunk.updated == "2024-10-01"
    _, chunks = example()
    _check_cut(result, {str(c.id): c.text for c in chunks})


def test_overflow_places_more_distinct_sources_and_keeps_the_caveat(backend: str) -> None:
    whole = _demo(backend)
    cut = _demo(backend, compress="overflow")
    assert len(cut.sources) > len(whole.sources)
    assert CAVEAT in cut.user
    assert cut.tokens["sources"] <= cut.tokens["context_budget"]
    assert [s.chunk.id for s in cut.sources if s.compression] == ["guides/sso-troubleshooting#1"]


def test_the_record_lists_every_removed_sentence_and_citations_resolve(backend: str) -> None:
    result = _demo(backend, compress="overflow")
    record = result.record()
    assert record["settings"]["compress"] == "overflow"
    assert record["settings"]["sentence_scorer"] == "builtin"
    (entry,) = [s for s in record["sources"] if "compressed" in s]
    source = next(s for s in result.sources if s.compression is not None)
    assert entry["label"] == source.label
    assert entry["id"] == source.chunk.id
    assert entry["compressed"] == {
        "sentences": source.compression.sentences,  # type: ignore[union-attr]
        "kept": list(source.compression.kept),  # type: ignore[union-attr]
        "removed": list(source.compression.removed),  # type: ignore[union-attr]
    }
    assert all(sentence not in result.user for sentence in entry["compressed"]["removed"])
    checked = result.cite(f"Owners can always sign in with a password [{source.label}].")
    assert [s.chunk.id for s in checked.sources] == [source.chunk.id]
    assert checked.sources[0].compression == source.compression
    assert bp.Assembly.from_dict(result.to_dict()) == result


def test_without_compress_the_record_has_no_compression_keys(backend: str) -> None:
    record = _demo(backend).record()
    assert "compress" not in record["settings"]
    assert all("compressed" not in s for s in record["sources"])


# ---- the scorer ----------------------------------------------------------------------------


def test_a_sentence_scorer_is_called_once_with_every_sentence_it_needs(backend: str) -> None:
    calls: list[tuple[str, list[str]]] = []

    def shorter_seats(question: str, sentences: list[str]) -> list[float]:
        calls.append((question, list(sentences)))
        return [float(-len(s)) if "seat" in s else 1.0 for s in sentences]

    result = _demo(backend, compress="all", sentence_scorer=shorter_seats)
    assert len(calls) == 1
    question, sentences = calls[0]
    assert question == SSO_QUESTION
    # every sentence of every source that reaches the budget stage, once
    reached = [
        s for s in _demo(backend).fates if s["fate"] == "source" or s["reason"] == "over_budget"
    ]
    _, chunks = example()
    texts = [chunks[f["index"]].text for f in reached]
    assert sentences == [x for parts in bp.split_sentences(texts) for x in parts]
    by_id = {s.chunk.id: s for s in result.sources}
    # no sentence of the seats page scores above 0: it keeps its best one, the shorter
    seats = by_id["billing/seats#2"]
    assert seats.compression is not None
    assert seats.compression.kept == (1,)
    assert by_id["pricing/pro#2"].compression is None  # every sentence relevant: whole
    assert result.record()["settings"]["sentence_scorer"] == "callable"


def test_overflow_does_not_call_the_scorer_when_everything_fits(backend: str) -> None:
    def never(question: str, sentences: list[str]) -> list[float]:
        raise AssertionError("called")

    result = _demo(backend, compress="overflow", sentence_scorer=never, budget=100_000)
    assert all(s.compression is None for s in result.sources)


@pytest.mark.parametrize(
    ("returned", "message"),
    [
        (lambda n: [1.0] * (n - 1), r"sentence_scorer returned \d+ scores for \d+ sentences"),
        (lambda n: [float("nan")] * n, r"sentence_scorer returned nan for sentence 0 of"),
        (lambda n: [True] * n, r"sentence_scorer returned True for sentence 0"),
        (lambda n: "x" * n, r"sentence_scorer must return a list of numbers, got str"),
    ],
)
def test_bad_scores_are_input_errors(backend: str, returned: Any, message: str) -> None:
    def scorer(question: str, sentences: list[str]) -> Any:
        return returned(len(sentences))

    with pytest.raises(bp.InputError, match=message) as info:
        _demo(backend, compress="all", sentence_scorer=scorer)
    assert info.value.option == "sentence_scorer"


def test_bad_options_are_reported_once_when_built() -> None:
    with pytest.raises(bp.InputError, match="compress must be one of None, 'overflow', 'all'"):
        bp.Assembler(compress="some")
    with pytest.raises(bp.InputError, match="sentence_scorer must be a callable"):
        bp.Assembler(compress="all", sentence_scorer=3)
    with pytest.raises(bp.InputError, match="but compress is None; pass compress="):
        bp.Assembler(sentence_scorer=lambda q, s: [0.0] * len(s))


# ---- the relative cut ----------------------------------------------------------------------

CUT_TEXT = "Pro includes single sign-on and seats. Pro has seats. Billing is monthly for the team."


def _cut_all(backend: str, cut: float | None) -> bp.Assembly:
    chunks = [{"id": "a", "text": CUT_TEXT}, {"id": "b", "text": "Other text about cats."}]
    return bp.assemble(
        "Does Pro include single sign-on?",
        chunks,
        budget=400,
        tokenizer="approx",
        compress="all",
        compress_cut=cut,
        backend=backend,
    )


def test_compress_cut_keeps_only_sentences_near_the_requests_best(backend: str) -> None:
    loose = _cut_all(backend, 0)  # no cut: every sentence sharing a term
    tight = _cut_all(backend, 0.9)
    source = next(s for s in loose.sources if s.chunk.id == "a")
    assert source.compression is not None
    assert list(source.compression.kept) == [0, 1]
    source = next(s for s in tight.sources if s.chunk.id == "a")
    assert source.compression is not None
    assert list(source.compression.kept) == [0]
    assert source.chunk.text == "Pro includes single sign-on and seats."
    assert tight.record()["settings"]["compress_cut"] == 0.9
    assert loose.record()["settings"]["compress_cut"] == 0
    # a source that shares no term keeps its best sentence, as without a cut
    assert [s.chunk.text for s in tight.sources if s.chunk.id == "b"] == ["Other text about cats."]


def test_the_default_cut_is_a_fifth_of_the_requests_best(backend: str) -> None:
    default = _cut_all(backend, None)
    assert "compress_cut" not in default.record()["settings"]
    assert [s.chunk.text for s in default.sources] == [
        s.chunk.text for s in _cut_all(backend, 0.2).sources
    ]
    # the cut is relative to the request's best, not the source's: a source whose best
    # sentence scores under a fifth of the request's best keeps just that one
    chunks = [
        {"id": "a", "text": "Pro includes single sign-on. Pro has seats."},
        {"id": "b", "text": "Seats are billed monthly. Pro is the plan. Cats purr."},
    ]
    got = bp.assemble(
        "Does Pro include single sign-on?",
        chunks,
        budget=400,
        tokenizer="approx",
        compress="all",
        backend=backend,
    )
    assert [s.chunk.text for s in got.sources] == [
        "Pro includes single sign-on.",
        "Pro is the plan.",
    ]


@pytest.mark.parametrize("bad", [-0.5, 1.5, float("nan"), "0.5", True])
def test_compress_cut_out_of_range_is_an_input_error(bad: Any) -> None:
    with pytest.raises(bp.InputError, match=r"compress_cut must be a number in \[0, 1\]") as e:
        bp.Assembler(compress="all", compress_cut=bad)
    assert e.value.option == "compress_cut"


def test_compress_cut_with_a_sentence_scorer_is_an_input_error() -> None:
    with pytest.raises(bp.InputError, match="compress_cut is a cut of the built-in scorer"):
        bp.Assembler(compress="all", sentence_scorer=lambda q, s: [1.0] * len(s), compress_cut=0.5)


# ---- properties (hypothesis, both backends) ------------------------------------------------

WORDS = ["sso", "pro", "plan", "seats", "billing", "It", "However", "the", "and", "add-on"]
_sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(
    lambda ws: " ".join(ws).capitalize() + "."
)
_text = st.lists(_sentence, min_size=1, max_size=6).map(" ".join)
_cands = st.lists(
    st.builds(lambda i, t: {"id": f"c{i}", "text": t}, st.integers(0, 10**6), _text),
    min_size=1,
    max_size=8,
    unique_by=lambda c: c["id"],
)
_options = st.fixed_dictionaries(
    {
        "budget": st.integers(20, 400),
        "compress": st.sampled_from(["overflow", "all"]),
        "overflow": st.sampled_from(["stop", "skip"]),
        "order": st.sampled_from(["relevance", "edges"]),
        "labels": st.sampled_from(["xml", "brackets"]),
        "tokenizer": st.sampled_from(["approx", "o200k_base"]),
        "dedupe": st.sampled_from([None, "jaccard"]),
        "compress_cut": st.sampled_from([None, 0, 0.5, 1.0]),
    }
)
_question = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)


@given(question=_question, cands=_cands, options=_options)
@backend_settings()
def test_a_cut_is_its_own_sentences_in_order_and_the_budget_holds(
    backend: str, question: str, cands: list[dict[str, str]], options: dict[str, Any]
) -> None:
    result = bp.assemble(question, cands, backend=backend, **options)
    _check_cut(result, {c["id"]: c["text"] for c in cands})
    assert result.tokens["sources"] <= result.tokens["context_budget"]
    ranks = [s.member_indices[0] for s in sorted(result.sources, key=lambda s: s.member_indices)]
    assert len(ranks) == len(result.sources)


@given(question=_question, cands=_cands, options=_options)
@backend_settings()
def test_overflow_with_room_for_everything_is_compress_none(
    backend: str, question: str, cands: list[dict[str, str]], options: dict[str, Any]
) -> None:
    options = {**options, "budget": 100_000}
    plain = bp.assemble(question, cands, backend=backend, **options | {"compress": None})
    cut = bp.assemble(question, cands, backend=backend, **options | {"compress": "overflow"})
    a, b = plain.record(include_prompt=True), cut.record(include_prompt=True)
    assert {k: v for k, v in b["settings"].items() if k not in ("compress", "sentence_scorer")} == (
        a["settings"]
    )
    a.pop("settings")
    b.pop("settings")
    assert a == b


@given(question=_question, cands=_cands, options=_options)
@backend_settings()
def test_both_backends_give_the_same_record_with_compression(
    question: str, cands: list[dict[str, str]], options: dict[str, Any]
) -> None:
    if not HAS_RUST:  # pragma: no cover - a source checkout without a build
        return
    records = []
    for backend in ("rust", "python"):
        record = bp.assemble(question, cands, backend=backend, **options).record(
            include_prompt=True
        )
        record["settings"]["backend"] = "*"
        records.append(record)
    assert records[0] == records[1]


@given(question=_question, cands=_cands, budget=st.integers(20, 300))
@backend_settings()
def test_overflow_keeps_rank_order_and_never_places_fewer_sources(
    backend: str, question: str, cands: list[dict[str, str]], budget: int
) -> None:
    options = {"budget": budget, "tokenizer": "approx", "dedupe": None}
    plain = bp.assemble(question, cands, backend=backend, **options)
    cut = bp.assemble(question, cands, backend=backend, compress="overflow", **options)
    assume(not any(d.detail.get("evicted") for r in (plain, cut) for d in r.dropped))
    assert len(cut.sources) >= len(plain.sources)
    placed = [s.member_indices[0] for s in cut.sources]
    over = [cands.index(next(c for c in cands if c["id"] == d.chunk.id)) for d in cut.dropped]
    assert not placed or not over or max(placed) < min(over)  # nothing lower placed above


def test_a_scorer_may_return_a_numpy_array_of_float32(backend: str) -> None:
    np = pytest.importorskip("numpy")

    def scorer(question: str, sentences: list[str]) -> Any:
        return np.array([1.0 if "SSO" in s else 0.0 for s in sentences], dtype=np.float32)

    result = _demo(backend, compress="all", sentence_scorer=scorer)
    assert CAVEAT in result.user
