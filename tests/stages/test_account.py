"""Stage: account. The Assembly, and the request's decisions on the ``briefpack`` logger."""

from __future__ import annotations

import dataclasses
import logging

import pytest
from stage_kit import start

import briefpack as bp
from briefpack._stages import account, plan

ROWS = ["the cap is 4000 EUR", "the cap is 4000 EUR", "leave is 14 weeks", "x " * 400]


def _run(backend: str) -> bp.Assembly:
    items, req = start(backend, ROWS, budget=20)
    return account.assembly(req, plan(req.options)(req, items))


def test_one_debug_line_per_request_with_the_counts(
    backend: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="briefpack"):
        _run(backend)
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        (
            "briefpack",
            logging.DEBUG,
            "assembled: 4 candidates -> 1 sources, 3 dropped {'duplicate': 1, 'over_budget': 2}, "
            "178 tokens (sources 11 of 20), dedupe=jaccard, backend=" + backend,
        )
    ]


def test_each_drop_is_logged_at_the_finer_level(
    backend: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(account.TRACE, logger="briefpack"):
        _run(backend)
    assert [r.getMessage() for r in caplog.records if r.levelno == account.TRACE] == [
        "dropped candidate 1 (id='1'): duplicate {'of': '0', 'similarity': 1.0, 'method': "
        "'jaccard'}",
        "dropped candidate 2 (id='2'): over_budget {'remaining': 8, 'context_budget': 20}",
        "dropped candidate 3 (id='3'): over_budget {'after': '2', 'context_budget': 20}",
    ]


def test_nothing_is_logged_at_info_or_above_and_nothing_is_built_when_disabled(
    backend: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    with caplog.at_level(logging.INFO, logger="briefpack"):
        monkeypatch.setattr(account, "_log", lambda *a: pytest.fail("logged while disabled"))
        _run(backend)
    assert caplog.records == []


def test_sources_are_built_without_their_init(backend: str) -> None:
    """``account`` builds each ``Source`` through its ``__dict__``: that is only the same
    object as ``Source(...)`` while ``Source`` has no ``__post_init__``, no slots, and these
    fields in this order."""
    assert not hasattr(bp.Source, "__post_init__")
    assert not hasattr(bp.Source, "__slots__")
    result = _run(backend)
    for s in result.sources:
        assert list(vars(s)) == [f.name for f in dataclasses.fields(bp.Source)]
        again = bp.Source(s.label, s.chunk, s.tokens, s.members, s.member_indices, s.compression)
        assert s == again
        assert hash(s) == hash(again)
        assert repr(s) == repr(again)
        with pytest.raises(dataclasses.FrozenInstanceError):
            s.label = 9  # type: ignore[misc]
