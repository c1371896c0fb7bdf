"""``briefpack demo``'s exact output, byte for byte, in every format it has.

The expected bytes live in ``tests/snapshot/cli/``, one file per case. A change to them is a
change of output: regenerate them deliberately with

    python tests/test_cli_snapshot.py

review the diff, and say why in CHANGELOG.md under ``## Unreleased``.
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

import pytest

from briefpack import __version__, cli

SNAPSHOTS = Path(__file__).resolve().parent / "snapshot" / "cli"

# name -> arguments. approx counts tokens the same everywhere (no vocabulary needed), so the
# bytes depend only on briefpack.
CASES: dict[str, list[str]] = {
    "demo.txt": ["demo", "--tokenizer", "approx"],
    "demo.json": ["demo", "--tokenizer", "approx", "--format", "json"],
    "demo.messages.json": ["demo", "--tokenizer", "approx", "--format", "messages"],
    "demo-brackets-relevance-300.txt": [
        "demo",
        "--tokenizer",
        "approx",
        "--labels",
        "brackets",
        "--order",
        "relevance",
        "--budget",
        "300",
    ],
    "demo-document.txt": ["demo", "--tokenizer", "approx", "--order", "document"],
    "demo-compress-overflow.txt": ["demo", "--tokenizer", "approx", "--compress", "overflow"],
    "demo-compress-overflow.json": [
        "demo",
        "--tokenizer",
        "approx",
        "--compress",
        "overflow",
        "--format",
        "json",
    ],
}


def render(args: list[str]) -> tuple[int, bytes, str]:
    """Run the command in-process with stdout not a terminal (plain text, as when piped)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(args)
    return code, out.getvalue().encode("utf-8"), err.getvalue()


def _needs_rust() -> None:
    from briefpack._backend import rust_core

    if rust_core() is None:  # the demo names the backend it ran on
        pytest.skip("the snapshots were taken with the compiled core")


@pytest.mark.parametrize("name", sorted(CASES))
def test_demo_output_is_the_snapshot(name: str) -> None:
    _needs_rust()
    code, got, err = render(CASES[name])
    assert code == 0, err
    assert err == ""
    expected = (SNAPSHOTS / name).read_bytes().replace(b"@VERSION@", __version__.encode())
    assert got == expected, f"run `python {Path(__file__).name}` if the change is deliberate"


def test_every_snapshot_file_has_a_case() -> None:
    assert {p.name for p in SNAPSHOTS.iterdir()} == set(CASES)


def regenerate() -> None:
    """Write every case's output to ``tests/snapshot/cli/`` (the version as ``@VERSION@``)."""
    SNAPSHOTS.mkdir(parents=True, exist_ok=True)
    for name, args in CASES.items():
        code, got, err = render(args)
        if code != 0:
            raise SystemExit(f"{name}: exit {code}: {err}")
        version = f'"briefpack_version": "{__version__}"'.encode()
        got = got.replace(version, b'"briefpack_version": "@VERSION@"')
        (SNAPSHOTS / name).write_bytes(got)
        print(f"wrote {SNAPSHOTS / name} ({len(got)} bytes)", file=sys.stderr)


if __name__ == "__main__":
    regenerate()
