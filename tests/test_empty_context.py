"""No silent empty context.

When candidates exist and none fits whole, the default (``fallback="compress"``) packs the
request again as ``compress="overflow"`` would, so the best candidate is placed cut to its
most relevant sentences (its cut in ``Source.compression`` and in the record). When no cut
fits either, or ``fallback=None``, ``result.empty_reason`` says why, the record has it, and a
WARNING is logged on ``briefpack``; the adapters log it and expose the Assembly with it.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

import briefpack as bp

QUESTION = "What is the relocation cap for Berlin?"


def _page(n: int, topic: str = "relocation") -> str:
    """A long page: many sentences, a few of them about ``topic``."""
    out = []
    for i in range(n):
        if i % 37 == 5:
            out.append(f"The {topic} cap for Berlin is {4000 + i} EUR for item {i}.")
        else:
            out.append(f"Clause {i} covers office hours, badges and the parking rota in hall {i}.")
    return " ".join(out)


BIG = _page(600)  # ~9k tokens in o200k


@pytest.mark.parametrize("backend", ["python", "rust"])
@pytest.mark.parametrize("tokenizer", ["o200k_base", "approx", lambda t: len(t) // 3 + 1])
def test_a_top_candidate_over_budget_is_placed_cut(backend: str, tokenizer: Any) -> None:
    a = bp.assemble(QUESTION, [BIG, _page(400)], budget=600, backend=backend, tokenizer=tokenizer)
    assert len(a.sources) >= 1
    s = a.sources[0]
    assert s.chunk.id == "0"
    assert s.compression is not None
    assert 0 < len(s.compression.kept) < s.compression.sentences
    assert "relocation cap for Berlin" in s.chunk.text
    assert a.tokens["sources"] <= 600
    assert a.empty_reason is None
    record = a.record()
    assert "compressed" in record["sources"][0]
    assert "empty_reason" not in record
    assert "fallback" not in record["settings"]  # the default is not written
    # every candidate is accounted for once, after the second packing
    fates = [f["fate"] for f in record["candidates"]]
    assert fates.count("source") == len(a.sources)
    assert len(fates) == 2


def test_the_fallback_is_compress_overflow_for_an_otherwise_empty_request() -> None:
    chunks = [BIG, _page(300)]
    a = bp.assemble(QUESTION, chunks, budget=600)
    b = bp.assemble(QUESTION, chunks, budget=600, compress="overflow")
    assert a.user == b.user
    assert [s.compression for s in a.sources] == [s.compression for s in b.sources]


def test_a_request_that_places_something_is_unchanged() -> None:
    small = "The relocation cap for Berlin is 4000 EUR."
    chunks = [small, BIG]
    a = bp.assemble(QUESTION, chunks, budget=600)
    b = bp.assemble(QUESTION, chunks, budget=600, fallback=None)
    assert a.user == b.user
    assert [s.compression for s in a.sources] == [None]
    assert [d.reason for d in a.dropped] == ["over_budget"]


def test_no_candidates_is_not_an_empty_reason() -> None:
    assert bp.assemble(QUESTION, [], budget=600).empty_reason is None


def test_fallback_none_says_why_and_logs_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="briefpack"):
        a = bp.assemble(QUESTION, [BIG], budget=600, fallback=None)
    assert a.sources == []
    assert a.empty_reason is not None
    assert "candidate 0 (id='0')" in a.empty_reason
    assert "fallback=None" in a.empty_reason
    assert "fallback='compress'" in a.empty_reason
    assert a.record()["empty_reason"] == a.empty_reason
    assert a.record()["settings"]["fallback"] is None
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    assert a.empty_reason in caplog.records[0].getMessage()
    assert bp.Assembly.from_dict(a.to_dict()) == a


def test_no_cut_fits_says_so() -> None:
    one_sentence = "relocation " * 3000  # one sentence: no cut removes anything
    a = bp.assemble(QUESTION, [one_sentence, one_sentence + "x"], budget=300, dedupe=None)
    assert a.sources == []
    assert a.empty_reason is not None
    assert "nor does any cut of it" in a.empty_reason
    assert "300 tokens" in a.empty_reason


@pytest.mark.parametrize("overflow", ["stop", "skip"])
def test_both_overflows_fall_back(overflow: str) -> None:
    a = bp.assemble(QUESTION, [BIG, BIG + " More."], budget=600, overflow=overflow, dedupe=None)
    assert a.sources
    assert a.sources[0].compression is not None


def test_the_cli_spells_the_option() -> None:
    from briefpack.cli.parser import build_parser

    args = build_parser().parse_args(["assemble", "f.jsonl", "-q", "q", "--fallback", "none"])
    assert args.fallback in (None, "none")
