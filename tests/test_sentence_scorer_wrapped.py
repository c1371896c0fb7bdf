"""A caller's ``sentence_scorer`` is wrapped like ``tokenizer`` and ``rerank``: one that raises
is an ``InputError`` naming the scorer and the candidates scored (so ``assemble_many`` with
``return_exceptions=True`` reports it for its request and keeps the others), and one that
answers with anything but one finite number per sentence is refused with a clear message."""

from __future__ import annotations

from typing import Any

import pytest

import briefpack as bp

TEXT = "SSO is on the Pro plan. It needs the add-on. Billing is monthly."


def _run(scorer: Any, **options: Any) -> bp.Assembly:
    return bp.assemble(
        "Is SSO on Pro?",
        [bp.Chunk(TEXT, id="kb/sso")],
        budget=1000,
        tokenizer="approx",
        compress="all",
        sentence_scorer=scorer,
        **options,
    )


def _raises(question: str, sentences: list[str]) -> list[float]:
    raise RuntimeError("model server down")


@pytest.mark.parametrize("backend", ["python", "rust"])
def test_a_raising_scorer_is_an_input_error_naming_it_and_the_candidate(backend: str) -> None:
    with pytest.raises(bp.InputError) as info:
        _run(_raises, backend=backend)
    message = str(info.value)
    assert "sentence_scorer callable raised RuntimeError: model server down" in message
    assert "candidate 0 (id='kb/sso')" in message
    assert info.value.option == "sentence_scorer"
    assert isinstance(info.value.__cause__, RuntimeError)


def test_assemble_many_reports_a_raising_scorer_for_its_request_only() -> None:
    good = ("Is SSO on Pro?", [bp.Chunk(TEXT, id="kb/ok")])
    bad = {
        "question": "Is SSO on Pro?",
        "candidates": [bp.Chunk(TEXT, id="kb/bad")],
        "sentence_scorer": _raises,
    }
    out = bp.assemble_many(
        [good, bad, good],
        budget=1000,
        tokenizer="approx",
        compress="all",
        return_exceptions=True,
        workers=1,
    )
    assert isinstance(out[0], bp.Assembly)
    assert isinstance(out[2], bp.Assembly)
    assert isinstance(out[1], bp.InputError)
    assert "kb/bad" in str(out[1])
    assert "sentence_scorer" in str(out[1])


@pytest.mark.parametrize(
    ("scorer", "match"),
    [
        (lambda q, s: [float("nan")] * len(s), r"returned nan for sentence 0 of 3 .*kb/sso"),
        (lambda q, s: [float("inf")] * len(s), r"returned inf for sentence 0"),
        (lambda q, s: [None] * len(s), r"returned None for sentence 0"),
        (lambda q, s: ["1"] * len(s), r"returned '1' for sentence 0"),
        (lambda q, s: [1.0], r"returned 1 scores for 3 sentences"),
        (lambda q, s: None, r"must return a list of numbers, got NoneType"),
        (lambda q, s: 3.0, r"must return a list of numbers, got float"),
        (lambda q, s: [10**400] * len(s), r"scores must be finite numbers"),
    ],
)
def test_a_scorer_answering_otherwise_is_refused(scorer: Any, match: str) -> None:
    with pytest.raises(bp.InputError, match=match) as info:
        _run(scorer)
    assert info.value.option == "sentence_scorer"


def test_a_keyboard_interrupt_in_the_scorer_is_not_swallowed() -> None:
    def interrupted(question: str, sentences: list[str]) -> list[float]:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _run(interrupted)
