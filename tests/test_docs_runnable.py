"""Run the docs' python blocks that stand on a hidden setup (``<!-- setup: ... -->`` right
before the block: the files, arrays and offline SDK clients the block names), each in an empty
folder. The Ray block of docs/evaluate.md is run by tests/test_integrations_ray.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
_SETUP = re.compile(r"^<!-- setup:[^\n]*\n(.*?)^-->\n\n```python\n(.*?)^```", re.M | re.S)
_NEEDS = {"pages.md": ("PIL", "numpy", "openai", "anthropic"), "evaluate.md": ()}


def _blocks() -> list[tuple[str, int, str, str]]:
    out = []
    for name in sorted(_NEEDS):
        for i, m in enumerate(_SETUP.finditer((DOCS / name).read_text(encoding="utf-8"))):
            out.append((name, i, m.group(1), m.group(2)))
    return out


BLOCKS = _blocks()


def test_each_doc_has_its_setup_block() -> None:
    assert sorted({name for name, *_ in BLOCKS}) == sorted(_NEEDS)


@pytest.mark.parametrize(
    ("name", "index", "setup", "code"), BLOCKS, ids=[f"{b[0]}#{b[1]}" for b in BLOCKS]
)
def test_the_block_runs(
    name: str, index: int, setup: str, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for module in _NEEDS[name]:
        pytest.importorskip(module)
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": f"docs_{Path(name).stem}"}
    exec(compile(setup, f"{name} [setup #{index + 1}]", "exec"), namespace)
    exec(compile(code, f"{name} [block #{index + 1}]", "exec"), namespace)
