"""How the program ends: every way has its own exit status and at most one line on stderr."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
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
    if to_file:  # a device is refused, never written to or replaced
        assert "/dev/full: it is a character device, not a regular file" in proc.stderr
        assert Path("/dev/full").is_char_device()
    else:
        assert "No space left on device" in proc.stderr
    assert "Traceback" not in proc.stderr


@contextlib.contextmanager
def sigint_at_its_default() -> Iterator[None]:
    """Let the children started inside get Ctrl-C's usual effect even when this process ignores
    SIGINT, as a background job of a non-interactive shell does: a child inherits an ignored
    SIGINT, and Python then installs no KeyboardInterrupt handler (the signal would do nothing).
    A caught signal is reset to its default in the child by exec."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def start_ready(args: list[str]) -> subprocess.Popen[bytes]:
    """Start ``args`` with stdin left open and return once the CLI says it is ready (with
    ``BRIEFPACK_READY`` set it writes "<prog> <command>: ready" to stderr past its imports,
    inside its handlers), so a signal sent then meets the handlers, however loaded the machine."""
    with sigint_at_its_default():
        proc = subprocess.Popen(
            args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "BRIEFPACK_READY": "1"},
        )
    assert proc.stderr is not None
    line = proc.stderr.readline()
    if not line.endswith(b": ready\n"):
        proc.kill()
        out, err = proc.communicate(timeout=300)
        pytest.fail(f"no readiness line; stderr: {(line + err)!r}, stdout: {out!r}")
    return proc


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_prints_one_line_and_exits_130() -> None:
    proc = start_ready([*BRIEFPACK, "count", "-", "--tokenizer", "approx"])  # waits on stdin
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130
    assert err.decode() == "briefpack count: interrupted\n"
    assert out == b""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_the_readiness_line_is_only_written_when_asked() -> None:
    proc = subprocess.run(
        [*BRIEFPACK, "count", "-", "--tokenizer", "approx"],
        input=b"one two three four\n",
        capture_output=True,
        timeout=300,
        check=True,
        env={k: v for k, v in os.environ.items() if k != "BRIEFPACK_READY"},
    )
    assert proc.stderr == b""


def test_exit_statuses_are_in_the_help() -> None:
    out = subprocess.run(
        [*BRIEFPACK, "--help"], capture_output=True, text=True, check=True, timeout=300,
        env={**os.environ, "COLUMNS": "100"},
    ).stdout  # fmt: skip
    for status in ("0", "1", "2", "74", "130", "141"):
        assert f"\n  {status} " in out
