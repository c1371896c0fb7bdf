"""Today's output, byte for byte: thousands of seeded requests and ``briefpack demo``.

Each stored value is a sha256 of a full record (or of an error), written by
``tests/snapshot/make.py``; see its docstring for how to regenerate the file deliberately.
The Rust backend answers every request; the reference answers every ``PYTHON_EVERY``-th. Each
backend is held to its own stored bytes (that the two agree is the parity tests' job).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from conftest import HAS_RUST

_spec = importlib.util.spec_from_file_location(
    "briefpack_snapshot_make", Path(__file__).with_name("make.py")
)
assert _spec is not None
assert _spec.loader is not None
make: ModuleType = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)

STORED = json.loads(make.SNAPSHOT.read_text())
HINT = "output bytes changed; if that is deliberate, run python tests/snapshot/make.py"


def _changed(backend: str, seeds: range) -> list[int]:
    return [s for s in seeds if make.outcome(s, backend) != STORED[backend][str(s)]]


def test_the_snapshot_covers_every_seed() -> None:
    assert sorted(map(int, STORED["rust"])) == list(range(make.COUNT))
    assert sorted(map(int, STORED["python"])) == list(make.PYTHON_SEEDS)
    assert sorted(STORED["demo"]) == sorted(make.DEMO_FORMATS)


@pytest.mark.skipif(not HAS_RUST, reason="the Rust extension is not built")
def test_every_request_gives_the_stored_bytes_on_rust() -> None:
    assert _changed("rust", range(make.COUNT)) == [], HINT


def test_every_third_request_gives_the_stored_bytes_on_python() -> None:
    assert _changed("python", make.PYTHON_SEEDS) == [], HINT


@pytest.mark.parametrize("fmt", make.DEMO_FORMATS)
def test_the_demo_gives_the_stored_bytes(fmt: str) -> None:
    assert make.demo(fmt) == STORED["demo"][fmt], HINT
