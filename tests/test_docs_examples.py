"""Run the code blocks of docs/pages.md and docs/evaluate.md that name the reader's own inputs.

Those blocks use names a reader brings (``jpeg_bytes``, ``page15_array``, ``requests.jsonl``,
an OpenAI ``client`` and an Anthropic ``claude``). Here each name gets a real stand-in: pages
drawn with Pillow (the near-copy is the first page as a JPEG, so the doc's "dropped" comment is
checked), the package's own example requests as ``requests.jsonl``, and clients that record the
keyword arguments they are called with, which are then checked against what the docs say.
(The Ray Data block of docs/evaluate.md runs on a local cluster in tests/test_integrations_ray.py.)
"""

from __future__ import annotations

import io
import re
import shutil
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _blocks(name: str) -> list[str]:
    return _BLOCK.findall((DOCS / name).read_text(encoding="utf-8"))


class _Recorder:
    """A client whose every attribute chain ends in a call that records its keywords."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        return _Path(self, name)


class _Path:
    def __init__(self, recorder: _Recorder, path: str) -> None:
        self.recorder, self.path = recorder, path

    def __getattr__(self, name: str) -> _Path:
        return _Path(self.recorder, f"{self.path}.{name}")

    def __call__(self, **kwargs: Any) -> None:
        self.recorder.calls.append((self.path, kwargs))


def _page(text: str, size: tuple[int, int] = (850, 1100)) -> Any:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(img)
    for row in range(28):
        draw.text((60, 60 + 34 * row), f"{text} line {row}: revenue, costs and the outlook", fill=0)
    draw.rectangle((60, 1020, 790, 1040), fill=(40, 40, 40))
    return img


def test_the_pages_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("PIL")
    np = pytest.importorskip("numpy")
    [code] = _blocks("pages.md")
    (tmp_path / "pages").mkdir()
    first = _page("Annual report 2024, page 14")
    first.save(tmp_path / "pages" / "ar24-14.png")
    jpeg = io.BytesIO()
    first.save(jpeg, "JPEG", quality=75)
    page15 = np.asarray(_page("Annual report 2024, page 15: a different table"))
    client, claude = _Recorder(), _Recorder()
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {
        "__name__": "docs_pages",
        "jpeg_bytes": jpeg.getvalue(),
        "page15_array": page15,
        "client": client,
        "claude": claude,
    }
    exec(compile(code, "pages.md", "exec"), namespace)

    result = namespace["result"]
    assert [s.chunk.id for s in result.sources] == ["ar24#14", "ar24#15"]
    assert [(d.chunk.id, d.reason) for d in result.dropped] == [("copy#14", "duplicate")]
    [(path, kwargs)] = client.calls
    assert path == "chat.completions.create"
    assert kwargs["model"] == "gpt-4o"
    parts = [p for m in kwargs["messages"] for p in m["content"] if isinstance(p, dict)]
    assert sum(p.get("type") == "image_url" for p in parts) == 2
    [(path, kwargs)] = claude.calls
    assert path == "messages.create"
    assert {"system", "messages", "model", "max_tokens"} <= set(kwargs)


def test_the_evaluate_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = _blocks("evaluate.md")[0]
    assert 'read_requests("requests.jsonl")' in code
    example = resources.files("briefpack") / "data" / "eval_example.jsonl"
    with resources.as_file(example) as path:
        shutil.copyfile(path, tmp_path / "requests.jsonl")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "docs_evaluate"}
    exec(compile(code, "evaluate.md", "exec"), namespace)
    rows = namespace["result"].rows
    assert len(rows) == 6  # three budgets x two orders
    for order in ("edges", "relevance"):  # one recommended budget per setting
        assert sum(row.recommended for row in rows if row.name.endswith(f"order={order}")) == 1
