"""Typed user code against the real SDKs: tests/typing/ under mypy --strict and pyright strict.

``pass_*.py`` must type-check clean; in ``fail_*.py`` exactly the lines marked
``# error: CODE`` (mypy's error code) are errors, under both checkers. The files that use the
chat SDKs are checked only when ``openai`` and ``anthropic`` are installed; each checker is
skipped when it is not installed (pyright: ``pip install pyright``, which needs Node.js) or
cannot start. Both checkers run at once, in their own processes; mypy keeps its cache in the
temp folder, so a second run takes seconds.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import briefpack

HERE = Path(__file__).resolve().parent / "typing"
_MARK = re.compile(r"#\s*error:\s*([\w-]+)\s*$")
_MYPY_LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): error: .*\[(?P<code>[\w-]+)\]$")
_TIMEOUT = 600  # seconds: a cold mypy cache on a busy machine; a warm run takes seconds


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _files() -> list[Path]:
    files = sorted(HERE.glob("pass_*.py")) + sorted(HERE.glob("fail_*.py"))
    if not (_installed("openai") and _installed("anthropic")):
        files = [f for f in files if "sdk" not in f.stem]
    return files


def _expected(files: list[Path]) -> dict[tuple[str, int], str]:
    """``(file name, line)`` -> mypy's error code, for every marked line."""
    out = {}
    for f in files:
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), start=1):
            m = _MARK.search(line)
            if m:
                assert f.stem.startswith("fail_"), f"{f.name}:{n}: a pass file marks an error"
                out[(f.name, n)] = m.group(1)
    return out


def _source_root() -> str | None:
    """The folder briefpack is imported from, when it is a checkout (not site-packages)."""
    root = Path(briefpack.__file__).resolve().parent.parent
    return None if root.name in ("site-packages", "dist-packages") else str(root)


class _Run:
    def __init__(self, name: str, cmd: list[str], cwd: Path) -> None:
        self.name = name
        self.proc = subprocess.Popen(
            cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )

    def output(self) -> tuple[int, str, str]:
        out, err = self.proc.communicate(timeout=_TIMEOUT)
        return self.proc.returncode, out, err


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, _Run | None]]:
    files = _files()
    work = tmp_path_factory.mktemp("typing")
    root = _source_root()
    started: dict[str, _Run | None] = {"mypy": None, "pyright": None}
    if _installed("mypy"):
        cache = Path(tempfile.gettempdir()) / "briefpack-typing-mypy-cache"
        config = work / "mypy.ini"
        config.write_text(
            "[mypy]\nstrict = True\nfollow_imports = silent\nshow_error_codes = True\n"
            "error_summary = False\n"
            f"cache_dir = {cache}\n" + (f"mypy_path = {root}\n" if root else ""),
            encoding="utf-8",
        )
        cmd = [sys.executable, "-m", "mypy", "--config-file", str(config)]
        started["mypy"] = _Run("mypy", [*cmd, *map(str, files)], work)
    if _installed("pyright"):
        config = work / "pyrightconfig.json"
        settings = {
            "typeCheckingMode": "strict",
            "pythonVersion": f"{sys.version_info.major}.{sys.version_info.minor}",
            "extraPaths": [root] if root else [],
        }
        config.write_text(json.dumps(settings), encoding="utf-8")
        cmd = [sys.executable, "-m", "pyright", "--outputjson", "--project", str(config)]
        cmd += ["--pythonpath", sys.executable, *map(str, files)]
        started["pyright"] = _Run("pyright", cmd, work)
    yield started
    for run in started.values():
        if run is not None and run.proc.poll() is None:
            run.proc.kill()
        if run is not None:
            run.proc.communicate()  # closes the pipes


def test_the_marks_are_well_formed() -> None:
    expected = _expected(sorted(HERE.glob("*.py")))
    assert len(expected) >= 20
    assert set(expected.values()) <= {
        "arg-type",
        "call-arg",
        "call-overload",
        "typeddict-item",
    }


def test_mypy_strict_reports_exactly_the_marked_lines(runs: dict[str, _Run | None]) -> None:
    run = runs["mypy"]
    if run is None:
        pytest.skip("mypy is not installed")
    status, out, err = run.output()
    assert status in (0, 1), out + err
    found: dict[tuple[str, int], set[str]] = {}
    for line in out.splitlines():
        m = _MYPY_LINE.match(line)
        if m:
            key = (Path(m["file"]).name, int(m["line"]))
            found.setdefault(key, set()).add(m["code"])
        else:
            assert ": note: " in line or not line.strip(), line
    expected = _expected(_files())
    assert sorted(found) == sorted(expected), out
    for key, code in expected.items():
        assert code in found[key], (key, found[key])


def test_pyright_strict_reports_exactly_the_marked_lines(runs: dict[str, _Run | None]) -> None:
    run = runs["pyright"]
    if run is None:
        pytest.skip("pyright is not installed (pip install pyright)")
    status, out, err = run.output()
    try:
        report = json.loads(out)
    except json.JSONDecodeError:
        pytest.skip(f"pyright could not start here (it needs Node.js): {err.strip()[-300:]}")
    assert status in (0, 1), out + err
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    found = sorted({(Path(d["file"]).name, d["range"]["start"]["line"] + 1) for d in errors})
    assert found == sorted(_expected(_files())), json.dumps(errors, indent=1)
    assert report["summary"]["filesAnalyzed"] == len(_files())
