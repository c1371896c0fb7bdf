"""The one writer (``briefpack._files.write_file``) and every command that writes through it."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from briefpack._files import WriteError, write_file
from briefpack.cli import main
from briefpack.cli.eval import add_eval_parser, run_eval

BRIEFPACK = [sys.executable, "-m", "briefpack"]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture
def specials(tmp_path: Path) -> dict[str, Path]:
    """A FIFO, a symlink to a file, a folder (and /dev/full where there is one)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    target = tmp_path / "target.txt"
    target.write_text("keep me\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    folder = tmp_path / "folder"
    folder.mkdir()
    out = {"a named pipe (FIFO)": fifo, "a symbolic link": link, "a folder": folder}
    if Path("/dev/full").exists():
        out["a character device"] = Path("/dev/full")
    return out


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file types")
def test_non_regular_targets_are_refused_and_left_as_they_are(
    specials: dict[str, Path], tmp_path: Path
) -> None:
    for kind, path in specials.items():
        with pytest.raises(WriteError, match=re.escape(f"it is {kind}, not a regular file")):
            write_file(path, "x\n")
    assert (tmp_path / "pipe").is_fifo()
    assert (tmp_path / "link.txt").is_symlink()
    assert (tmp_path / "target.txt").read_text() == "keep me\n"  # not written through the link
    assert Path("/dev/full").is_char_device() or not Path("/dev/full").exists()
    assert leftovers(tmp_path) == []


def test_an_error_while_writing_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    path.write_text("old\n")
    path.chmod(0o640)

    def pieces():  # type: ignore[no-untyped-def]
        yield "new "
        raise RuntimeError("the producer failed")

    with pytest.raises(RuntimeError):
        write_file(path, pieces())
    assert path.read_text() == "old\n"
    assert leftovers(tmp_path) == []
    write_file(path, b"bytes\n")
    assert path.read_bytes() == b"bytes\n"
    assert oct(path.stat().st_mode & 0o777) == oct(0o640)  # the old file's permission bits
    with pytest.raises(WriteError, match=r"cannot write .*No such file or directory"):
        write_file(tmp_path / "no" / "such" / "x", "x")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT"])
def test_a_signal_during_a_large_write_leaves_no_temporary_file(
    tmp_path: Path, signal_name: str
) -> None:
    """The signal arrives while the temporary file is half written (sent by the producer of
    the pieces itself, so it is certain to land mid-write, however loaded the machine)."""
    path = tmp_path / "big.rec.json"
    path.write_text("old\n")
    script = textwrap.dedent(
        f"""
        import os, signal, sys
        from briefpack._files import write_file

        def pieces():
            for i in range(5000):
                yield "x" * 1000
                if i == 2500:
                    assert any(n.endswith(".tmp") for n in os.listdir(sys.argv[2]))
                    os.kill(os.getpid(), signal.{signal_name})
        write_file(sys.argv[1], pieces())
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, str(path), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if signal_name == "SIGTERM":
        assert proc.returncode == -15, proc.stderr  # ended by the signal, as asked
    else:
        assert "KeyboardInterrupt" in proc.stderr
    assert "AssertionError" not in proc.stderr
    assert path.read_text() == "old\n"
    assert leftovers(tmp_path) == []


# --------------------------------------------------------------------------- the commands


def run_eval_args(*argv: str) -> int:
    root = argparse.ArgumentParser(prog="briefpack")
    add_eval_parser(root.add_subparsers(dest="command"))
    return run_eval(root.parse_args(["eval", *argv]))


EXAMPLE = ("--example", "--budget", "100,400", "--tokenizer", "approx", "--color", "never")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file types")
def test_eval_out_refuses_a_device_a_fifo_a_link_before_the_sweep(
    specials: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    for kind, path in specials.items():
        assert run_eval_args(*EXAMPLE, "--out", str(path)) == 74
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert f"it is {kind}, not a regular file" in err


def test_eval_plot_writes_exactly_the_named_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_eval_args(*EXAMPLE, "--plot", str(tmp_path / "recall")) == 2
    assert "name the file with one of .png, .svg, .pdf" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # no recall.png written instead
    pytest.importorskip("matplotlib")
    svg = tmp_path / "recall.svg"
    assert run_eval_args(*EXAMPLE, "--plot", str(svg)) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["recall.svg"]
    assert b"<svg" in svg.read_bytes()[:400]


def test_route_train_writes_the_model_through_the_writer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = tmp_path / "rows.tsv"
    rows.write_text(
        "kind\tquestion\n"
        + "".join(f"aggregate\tHow many orders in month {i}?\n" for i in range(8))
        + "".join(f"retrieve\tWhy does policy {i} apply?\n" for i in range(8))
    )
    target = tmp_path / "real.bin"
    target.write_bytes(b"old")
    link = tmp_path / "model.bin"
    link.symlink_to(target)
    assert main(["route", "--train", str(rows), "--model", str(link)]) == 74
    assert "it is a symbolic link, not a regular file" in capsys.readouterr().err
    assert target.read_bytes() == b"old"
    model = tmp_path / "new.bin"
    assert main(["route", "--train", str(rows), "--model", str(model)]) == 0
    assert model.read_bytes().startswith(b"{")
    assert leftovers(tmp_path) == []
