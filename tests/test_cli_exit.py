"""How the program ends: every way has its own exit status and at most one line on stderr."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

BRIEFPACK = [sys.executable, "-m", "briefpack"]


def test_broken_pipe_exits_quietly_with_141(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [*BRIEFPACK, "demo", "--tokenizer", "approx"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    proc.stdout.close()  # the reader is gone before the first write, as with `| head -0`
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 141
    assert err == b""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("to_file", [False, True])
def test_a_full_disk_is_one_line_and_exit_74(to_file: bool) -> None:
    args = [*BRIEFPACK, "demo", "--tokenizer", "approx", "--format", "json"]
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [*args, "-o", "/dev/full"] if to_file else args,
            stdout=subprocess.DEVNULL if to_file else full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
            check=False,
        )
    assert proc.returncode == 74
    assert proc.stderr.count("\n") == 1
    assert "No space left on device" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_prints_one_line_and_exits_130() -> None:
    proc = subprocess.Popen(
        [*BRIEFPACK, "count", "-", "--tokenizer", "approx"],
        stdin=subprocess.PIPE,  # left open: count waits for its input
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    time.sleep(2.0)  # past the imports, waiting on stdin
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130
    assert err.decode() == "briefpack count: interrupted\n"
    assert out == b""


def test_exit_statuses_are_in_the_help() -> None:
    out = subprocess.run(
        [*BRIEFPACK, "--help"], capture_output=True, text=True, check=True, timeout=300,
        env={**os.environ, "COLUMNS": "100"},
    ).stdout  # fmt: skip
    for status in ("0", "1", "2", "74", "130", "141"):
        assert f"\n  {status} " in out
