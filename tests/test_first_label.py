"""``first_label`` (sources numbered from N) and ``Assembly.merge`` (several calls' sources,
one numbering): what an agent whose retrieval tool runs more than once needs for ``cite``."""

from __future__ import annotations

import pytest

import briefpack as bp
from briefpack import Assembly
from briefpack.kernels import count_tokens

TEXTS = [f"Clause {i} says the cap for case {i} is {100 * i} EUR." for i in range(1, 7)]


@pytest.mark.parametrize("backend", ["python", "rust"])
@pytest.mark.parametrize("labels", ["xml", "brackets"])
@pytest.mark.parametrize("tokenizer", ["o200k_base", "cl100k_base", "approx"])
def test_sources_are_numbered_from_first_label_and_counted_exactly(
    backend: str, labels: str, tokenizer: str
) -> None:
    for first in (1, 4, 98, 999, 10**6):
        a = bp.assemble(
            "cap?", TEXTS, first_label=first, backend=backend, labels=labels, tokenizer=tokenizer
        )
        assert [s.label for s in a.sources] == list(range(first, first + len(TEXTS)))
        head = f'<source id="{first}"' if labels == "xml" else f"[{first}] "
        assert head in a.user
        if tokenizer != "approx":  # the relabelled blocks' counts are exact, not estimated
            system, user = count_tokens([a.system, a.user], encoding=tokenizer)
            assert a.tokens["total"] == system + user
        assert sorted(f["label"] for f in a.fates) == [s.label for s in a.sources]
        assert a.settings.get("first_label", 1) == first
        assert ("first_label" in a.record()["settings"]) == (first != 1)


def test_a_caller_tokenizer_and_a_cut_source_are_numbered_from_first_label_too() -> None:
    a = bp.assemble("cap?", TEXTS[:2], first_label=7, tokenizer=lambda t: len(t.split()))
    assert [s.label for s in a.sources] == [7, 8]
    long = " ".join(f"Sentence {i} is about the cap." for i in range(400))
    cut = bp.assemble("cap?", [long], first_label=12, budget=60, tokenizer="o200k_base")
    assert [s.label for s in cut.sources] == [12]
    assert cut.sources[0].compression is not None
    assert cut.user.count('<source id="12"') == 1


def test_the_budget_prices_the_widest_label_the_offset_gives() -> None:
    # each block fits with a one-digit label; a seven-digit one costs more, so fewer fit
    plain = bp.assemble("cap?", TEXTS, budget=90, tokenizer="o200k_base", dedupe=None)
    far = bp.assemble("cap?", TEXTS, budget=90, tokenizer="o200k_base", dedupe=None,
                      first_label=10**6)  # fmt: skip
    for a in (plain, far):
        assert a.tokens["sources"] <= a.tokens["context_budget"]
    assert len(far.sources) <= len(plain.sources)


@pytest.mark.parametrize("bad", [0, -3, 1.5, "2", True, None])
def test_first_label_is_an_int_of_at_least_one(bad: object) -> None:
    with pytest.raises(bp.InputError) as info:
        bp.assemble("q", ["a"], first_label=bad)
    assert info.value.option == "first_label"


def test_the_default_records_nothing_new() -> None:
    a = bp.assemble("q", ["a b"], tokenizer="approx")
    assert "first_label" not in a.settings
    assert [s.label for s in a.sources] == [1]


# ------------------------------------------------------------------- merge


def _tool_calls() -> tuple[Assembly, Assembly]:
    first = bp.assemble("cap for cases 1-3?", TEXTS[:3], tokenizer="approx", dedupe=None)
    later = bp.assemble(
        "cap for cases 4-6?",
        TEXTS[3:],
        tokenizer="approx",
        dedupe=None,
        first_label=max(s.label for s in first.sources) + 1,
    )
    return first, later


def test_two_tool_calls_merged_resolve_a_label_of_the_second() -> None:
    first, later = _tool_calls()
    assert [s.label for s in first.sources] == [1, 2, 3]
    assert [s.label for s in later.sources] == [4, 5, 6]
    both = Assembly.merge(first, later)
    assert [s.label for s in both.sources] == [1, 2, 3, 4, 5, 6]
    found = both.cite("Case 5 is capped at 500 EUR [5]. Case 1 at 100 EUR [1].")
    assert [s.label for s in found.sources] == [5, 1]
    assert found.sources[0].chunk.text == later.sources[1].chunk.text
    assert found.unsupported_sentences == []
    assert found.unknown == []
    with pytest.raises(bp.CitationError):
        both.cite("Nothing says [7].")
    # alone, neither call can check the whole answer
    with pytest.raises(bp.CitationError):
        first.cite("Case 5 is capped at 500 EUR [5].")


def test_merge_keeps_the_account_of_every_call() -> None:
    first, later = _tool_calls()
    both = Assembly.merge(first, later)
    assert both.system == first.system
    assert both.user == first.user + "\n\n" + later.user
    assert both.question == "cap for cases 1-3?\n\ncap for cases 4-6?"
    assert [f["index"] for f in both.fates] == list(range(6))
    assert sorted(s.member_indices for s in both.sources) == [(i,) for i in range(6)]
    assert both.sources[3].member_indices == tuple(m + 3 for m in later.sources[0].member_indices)
    assert both.tokens == {k: first.tokens[k] + later.tokens[k] for k in first.tokens}
    record = both.record()
    assert [s["label"] for s in record["sources"]] == [1, 2, 3, 4, 5, 6]
    assert Assembly.from_dict(both.to_dict()).cite("[6].").sources[0].label == 6
    assert Assembly.merge(first) == first._with(settings=dict(first.settings))


def test_labels_out_of_call_order_are_sorted_and_gaps_are_allowed() -> None:
    first, later = _tool_calls()
    both = Assembly.merge(later, first)
    assert [s.label for s in both.sources] == [1, 2, 3, 4, 5, 6]
    skip = bp.assemble("q", ["x y"], tokenizer="approx", first_label=10)
    assert [s.label for s in Assembly.merge(first, skip).sources] == [1, 2, 3, 10]


def test_clashing_labels_are_an_input_error_naming_the_clash() -> None:
    first, _ = _tool_calls()
    again = bp.assemble("more?", TEXTS[3:5], tokenizer="approx", dedupe=None, first_label=3)
    with pytest.raises(bp.InputError) as info:
        Assembly.merge(first, again)
    message = str(info.value)
    assert "label 3 is in assemblies[0] and assemblies[1]" in message
    assert "first_label=4 for assemblies[1]" in message


def test_merge_needs_assemblies() -> None:
    with pytest.raises(bp.InputError, match="at least one"):
        Assembly.merge()
    with pytest.raises(bp.InputError, match=r"assemblies\[1\] must be an Assembly, got dict"):
        Assembly.merge(_tool_calls()[0], {"sources": []})  # type: ignore[arg-type]


def test_an_unknown_label_error_names_the_labels_the_assembly_has() -> None:
    """An offset or merged assembly's labels are named as they are, not as 1-N."""
    texts = ["Leave is 14 weeks.", "Pay is 80%.", "Notice is 2 weeks."]
    a = bp.assemble("q", texts, budget=1000, tokenizer="approx", first_label=4)
    with pytest.raises(bp.CitationError, match=r"this assembly has labels 4-6$"):
        bp.cite("Leave is 14 weeks [1].", a, strict=True)
