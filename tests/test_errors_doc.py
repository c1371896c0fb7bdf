"""docs/errors.md is the bad-input table; it must list exactly the cases the tests check."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_errors_doc_is_current() -> None:
    spec = importlib.util.spec_from_file_location(
        "gen_errors_doc", ROOT / "scripts/gen_errors_doc.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    expected = module.render()
    actual = (ROOT / "docs/errors.md").read_text(encoding="utf-8")
    assert actual == expected, "run: python scripts/gen_errors_doc.py > docs/errors.md"
