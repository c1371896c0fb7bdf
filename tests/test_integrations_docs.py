"""Run every ``python`` code block of docs/integrations.md, section by section.

Blocks of one ``## `` section share a namespace and run in order; a section marked
``<!-- requires: module -->`` is skipped when that module is not installed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "integrations.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
_REQUIRES = re.compile(r"<!-- requires: ([\w.]+) -->")


def _sections() -> list[tuple[str, list[str], list[str]]]:
    parts = re.split(r"^## ", DOC.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert not _BLOCK.findall(parts[0]), "a python block outside any ## section is never run"
    out = []
    for part in parts[1:]:
        title = part.splitlines()[0].strip()
        out.append((title, _REQUIRES.findall(part), _BLOCK.findall(part)))
    return out


SECTIONS = _sections()


def test_every_section_has_an_example() -> None:
    assert [title for title, _, _ in SECTIONS] == [
        "Chat APIs",
        "LangChain",
        "LlamaIndex",
        "Haystack",
    ]
    assert all(blocks for _, _, blocks in SECTIONS)


@pytest.mark.parametrize(("title", "requires", "blocks"), SECTIONS, ids=[s[0] for s in SECTIONS])
def test_doc_examples_run(title: str, requires: list[str], blocks: list[str]) -> None:
    for module in requires:
        pytest.importorskip(module)
    namespace: dict[str, object] = {"__name__": "docs_integrations"}
    for i, code in enumerate(blocks):
        exec(compile(code, f"{DOC.name} [{title} #{i + 1}]", "exec"), namespace)
