"""``cite`` reads model output, so it must stay correct, fast and clear on any answer.

Each test states one rule of docs/semantics.md ("Citations") or of issue 11's list of defects.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import briefpack as bp
from briefpack import citations


def assembly(n: int = 5) -> bp.Assembly:
    cands = [bp.Chunk(f"policy {i + 1}", id=f"kb/{i + 1}") for i in range(n)]
    return bp.assemble("q", cands, order="relevance", dedupe=None, tokenizer="approx")


# ------------------------------------------------------------------ many unknown labels


class _Counted(int):
    """An int that counts the equality checks made on it (hashing stays int's)."""

    calls = 0

    def __eq__(self, other: object) -> bool:
        _Counted.calls += 1
        return int(self) == other

    __hash__ = int.__hash__


def test_work_is_linear_in_distinct_unknown_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    # 3 ranges of 1,000 labels each: 3,000 distinct unknown labels. Checking each against a
    # list of those already seen makes ~4.5 million comparisons; a set or dict next to none.
    parse = citations._Expander.labels
    monkeypatch.setattr(
        citations._Expander, "labels", lambda self, inner: [_Counted(n) for n in parse(self, inner)]
    )
    _Counted.calls = 0
    answer = " ".join(f"Claim [{k * 1000 + 10}-{k * 1000 + 1009}]." for k in range(3))
    result = bp.cite(answer, assembly(), strict=False)
    assert len(result.unknown) == 3_000
    assert result.unknown[:2] == [10, 11]
    assert _Counted.calls <= 2 * 3_000


def test_the_strict_message_names_the_first_labels_then_counts_the_rest() -> None:
    answer = " ".join(f"Claim [{k * 1000 + 10}-{k * 1000 + 1009}]." for k in range(12))
    with pytest.raises(bp.CitationError) as info:
        bp.cite(answer, assembly())
    assert len(info.value.unknown) == 12_000  # the data is complete; the prose is not
    assert str(info.value) == (
        "the answer cites labels that were never in the context: "
        "[10, 11, 12, 13, 14, 15, 16, 17, 18, 19] and 11990 more; this assembly has labels 1-5"
    )


# ------------------------------------------------------------------ numbers too long for an int


def test_a_label_of_more_than_4300_digits_is_an_unknown_label() -> None:
    long = "9" * 5000
    result = bp.cite(f"Cap [{long}]. Leave [2].", assembly(), strict=False)
    assert result.unknown == [long]  # its digits: no int conversion (Python refuses one)
    assert result.unsupported_sentences == [f"Cap [{long}]."]
    assert [s.label for s in result.sources] == [2]
    with pytest.raises(bp.CitationError) as info:
        bp.cite(f"Cap [{long}, 7]. Leave [{long}-3].", assembly())
    assert info.value.unknown == [long, 7]  # the range's ends: long (again) and 3 (known)
    assert str(info.value) == (
        "the answer cites labels that were never in the context: [99999999...(5000 digits), 7]; "
        "this assembly has labels 1-5"
    )


def test_leading_zeros_do_not_make_a_label_long() -> None:
    result = bp.cite(f"Cap [{'0' * 5000}2].", assembly())
    assert [s.label for s in result.sources] == [2]
    wide = "０" * 4999 + "３"  # full-width digits, also zero-padded
    assert [s.label for s in bp.cite(f"Cap [{wide}].", assembly()).sources] == [3]


# ------------------------------------------------------------------ ranges


def test_a_range_expands_only_up_to_1000_labels_wide() -> None:
    # docs/semantics.md: "at most 1,000 labels wide expands to every label in it"
    assert citations.parse_markers("[1-1000]") == list(range(1, 1001))
    assert citations.parse_markers("[1-1001]") == [1, 1001]
    assert citations.parse_markers("[5-5]") == [5]
    assert citations.parse_markers("[4-2]") == [4, 2]


# ------------------------------------------------------------------ the record is checked


def a_record() -> dict[str, Any]:
    return assembly(4).record()


@pytest.mark.parametrize(
    ("label", "shown"),
    [
        ("x", "'x'"),
        (None, "None"),
        (float("nan"), "nan"),
        (1.9, "1.9"),
        (True, "True"),
        (2.0, "2.0"),
        (0, "0"),
        (-1, "-1"),
    ],
)
def test_a_record_with_a_bad_label_is_an_input_error_naming_the_path(
    label: object, shown: str
) -> None:
    record = a_record()
    record["sources"][3]["label"] = label
    with pytest.raises(bp.InputError) as info:
        bp.cite("Cap [1].", record)
    assert str(info.value) == (
        f"record.sources[3].label must be an int >= 1, got {shown}; "
        "pass the Assembly or its record() unchanged"
    )


def test_a_record_with_a_missing_or_repeated_label_is_an_input_error() -> None:
    record = a_record()
    del record["sources"][2]["label"]
    with pytest.raises(bp.InputError, match=r"^record\.sources\[2\]\.label is missing; "):
        bp.cite("Cap [1].", record)
    record = a_record()
    record["sources"][2]["label"] = 1
    with pytest.raises(bp.InputError, match=r"^record\.sources\[2\]\.label: label 1 appears twice"):
        bp.cite("Cap [1].", record)
    record = a_record()
    record["sources"][1] = "kb/2"
    with pytest.raises(bp.InputError, match=r"^record\.sources\[1\] must be an object"):
        bp.cite("Cap [1].", record)


@pytest.mark.parametrize(
    ("record", "got"),
    [({}, "missing"), ({"sources": None}, "missing"), ({"sources": {"1": {}}}, "a dict")],
)
def test_a_record_without_a_sources_list_is_an_input_error(record: Any, got: str) -> None:
    with pytest.raises(bp.InputError, match=rf"^record\.sources must be a list, got {got}; "):
        bp.cite("Cap [1].", record)
    with pytest.raises(bp.InputError, match=r"^cite needs an Assembly or a record dict"):
        bp.cite("Cap [1].", [record])  # type: ignore[arg-type]


def test_a_record_label_may_be_any_integer_type() -> None:
    class Index:  # e.g. numpy.int64: an integer by operator.index, not an int subclass
        def __index__(self) -> int:
            return 2

    record = a_record()
    record["sources"][1]["label"] = Index()
    assert [s["id"] for s in bp.cite("Cap [2].", record).sources] == ["kb/2"]


# ------------------------------------------------------------------ full-width markers


@pytest.mark.parametrize(
    "answer",
    [
        "Cap ［2］. Leave 【4】.",
        "Cap [２]. Leave [４].",
        "Cap ［２］。Leave 【4】.",
        "Cap 【2，4】.",
    ],
)
def test_full_width_and_lenticular_brackets_are_markers(answer: str) -> None:
    result = bp.cite(answer, assembly())
    assert [s.label for s in result.sources] == [2, 4]


def test_a_marker_needs_a_matching_pair_of_brackets() -> None:
    assert citations.parse_markers("[1】 【2] ［3] [4］") == []
    assert citations.parse_markers("【1－3】") == [1, 2, 3]


# ------------------------------------------------------------------ code is not citation


def test_inline_code_is_not_citation() -> None:
    answer = "Read it with `sys.argv[9]` [1]. The list `arr[3]` holds it [2]."
    result = bp.cite(answer, assembly())
    assert [s.label for s in result.sources] == [1, 2]
    assert result.unknown == []
    assert result.unsupported_sentences == []


def test_a_fenced_block_is_neither_citation_nor_sentences() -> None:
    answer = (
        "Read the argument [1].\n"
        "```python\n"
        "x = sys.argv[9]. y = arr[3]\n"
        "print(x)\n"
        "```\n"
        "Then pass it on [2].\n"
        "~~~~\n"
        "``` not a closing fence for tildes\n"
        "z = m[7]\n"
        "~~~~~\n"
        "Done."
    )
    result = bp.cite(answer, assembly())
    assert [s.label for s in result.sources] == [1, 2]
    assert result.unknown == []
    assert result.unsupported_sentences == ["Done."]


def test_an_unclosed_fence_runs_to_the_end_and_unmatched_backticks_are_text() -> None:
    result = bp.cite("A [1].\n```\nb [9].", assembly())
    assert result.unknown == []
    assert result.unsupported_sentences == []
    result = bp.cite("It `costs [3].", assembly(), strict=False)  # a lone backtick is literal
    assert [s.label for s in result.sources] == [3]
    result = bp.cite("It ``x` [3] `` y [4].", assembly())  # a span closes on an equal run
    assert [s.label for s in result.sources] == [4]


# ------------------------------------------------------------------ sentences


def test_numbered_list_markers_and_abbreviations_do_not_split_sentences() -> None:
    answer = (
        "Steps:\n"
        "1. Mr. Li applies within 90 days [1].\n"
        "2) Dr. Weber signs, e.g. by mail [2].\n"
        "  10. Costs are refunded (i.e. up to the cap) [3].\n"
        "Pens, paper, etc. Bikes are free."
    )
    result = bp.cite(answer, assembly())
    assert [s.label for s in result.sources] == [1, 2, 3]
    assert result.unsupported_sentences == ["Steps:", "Pens, paper, etc.", "Bikes are free."]


def test_a_number_ending_a_sentence_still_ends_it() -> None:
    result = bp.cite("The cap is 4000 EUR [1]. It rose in 2023. Leave is 14 weeks [2].", assembly())
    assert result.unsupported_sentences == ["It rose in 2023."]


# ------------------------------------------------------------------ any answer


_ALPHABET = list("[]［］【】0123456789１-–，,.!? \n`~Mre.g_x")
_ANSWERS = st.text(st.sampled_from(_ALPHABET) | st.characters(), max_size=80)


@given(answer=_ANSWERS)
def test_any_answer_is_checked_without_a_raw_error(answer: str) -> None:
    a = assembly(3)
    result = bp.cite(answer, a, strict=False)
    assert all(isinstance(n, (int, str)) for n in result.unknown)
    assert not {s.label for s in result.sources} & {s.label for s in result.uncited}
    assert all(s.strip() == s and s for s in result.unsupported_sentences)
    if result.unknown:
        with pytest.raises(bp.CitationError) as info:
            bp.cite(answer, a.record())
        assert info.value.unknown == result.unknown
    else:
        assert bp.cite(answer, a.record()).unsupported_sentences == result.unsupported_sentences
