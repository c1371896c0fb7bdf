"""The root conftest skips oracle tests when tiktoken's vocabularies cannot be loaded, except in
CI (``BRIEFPACK_REQUIRE_ORACLE=1``), where the same failure must fail the run."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT_CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"

OFFLINE_TEST = """
from briefpack.errors import InputError

def test_needs_the_oracle():
    raise InputError("cannot load the o200k_base vocabulary through tiktoken (offline)")
"""


@pytest.mark.parametrize(("required", "outcome"), [("0", "skipped"), ("1", "failed")])
def test_vocabulary_failure_skips_only_outside_ci(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, required: str, outcome: str
) -> None:
    monkeypatch.setenv("BRIEFPACK_REQUIRE_ORACLE", required)
    pytester.makeconftest(ROOT_CONFTEST.read_text(encoding="utf-8"))
    pytester.makepyfile(test_offline=OFFLINE_TEST)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:benchmark")
    result.assert_outcomes(**{outcome: 1})
