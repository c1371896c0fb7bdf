"""Hostile inputs to the command line: image paths in rows, lines without end, files too large.

Every case ends with one line on stderr naming the file and line, and exit status 2; none
hangs (a FIFO named as an image is never opened for a blocking read), none exhausts memory.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from briefpack import cli

BRIEFPACK = [sys.executable, "-m", "briefpack"]


def tiny_png() -> bytes:
    Image = pytest.importorskip("PIL.Image")
    buf = io.BytesIO()
    Image.new("L", (8, 8), 200).save(buf, "PNG")
    return buf.getvalue()


def assemble(tmp_path: Path, image: str, *flags: str) -> subprocess.CompletedProcess[str]:
    hits = tmp_path / "data" / "hits.jsonl"
    hits.parent.mkdir(exist_ok=True)
    hits.write_text(
        "".join(
            json.dumps(r) + "\n" for r in ({"id": "a", "text": "x"}, {"id": "p", "image": image})
        ),
        "utf-8",
    )
    return subprocess.run(
        [*BRIEFPACK, "assemble", str(hits), "-q", "q", "--tokenizer", "approx", *flags],
        capture_output=True,
        text=True,
        timeout=120,  # a hang (a FIFO read) would fail here instead of blocking the suite
        check=False,
    )


def one_line_error(proc: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "hits.jsonl:2:" in proc.stderr
    for needle in needles:
        assert needle in proc.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths and devices")
def test_image_paths_outside_the_folder_are_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.png").write_bytes(tiny_png())
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "link.png").symlink_to(tmp_path / "secret.png")
    for image in ("../secret.png", str(tmp_path / "secret.png"), "/dev/zero", "link.png"):
        one_line_error(assemble(tmp_path, image), "leads out of", "--images-root")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX devices and FIFOs")
def test_devices_fifos_and_nul_bytes_are_refused_without_reading(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    os.mkfifo(tmp_path / "data" / "pipe.png")  # a blocking read would hang forever
    one_line_error(assemble(tmp_path, "pipe.png"), "not a regular file")
    one_line_error(assemble(tmp_path, "/dev/zero", "--images-root", "/"), "not a regular file")
    one_line_error(assemble(tmp_path, "a\u0000b.png"), "NUL")
    one_line_error(assemble(tmp_path, "gone.png"), "does not exist")
    (tmp_path / "data" / "dir.png").mkdir()
    one_line_error(assemble(tmp_path, "dir.png"), "not a regular file")


def test_the_image_size_limit_and_the_images_root(tmp_path: Path) -> None:
    data = tiny_png()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "page.png").write_bytes(data)
    one_line_error(
        assemble(tmp_path, "page.png", "--max-image-bytes", str(len(data) - 1)),
        f"{len(data):,} bytes, more than the {len(data) - 1:,} allowed",
        "--max-image-bytes",
    )
    ok = assemble(tmp_path, "page.png", "--format", "json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["sources"][-1]["images"]
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "p1.png").write_bytes(data)
    other = assemble(tmp_path, "p1.png", "--images-root", str(tmp_path / "pages"))
    assert other.returncode == 0, other.stderr


def test_a_line_past_the_limit_is_an_error_with_its_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hits = tmp_path / "hits.jsonl"
    hits.write_text('{"text": "ok"}\n{"text": "' + "x" * 5000 + '"}\n', "utf-8")
    args = ["assemble", str(hits), "-q", "q", "--tokenizer", "approx"]
    assert cli.main([*args, "--max-line-bytes", "1000"]) == 2
    err = capsys.readouterr().err
    assert f"{hits}:2:1: line 2 is longer than 1,000 bytes" in err
    assert "--max-line-bytes" in err
    assert cli.main(args) == 0  # the default is generous
    capsys.readouterr()
    assert cli.main(["dedupe", str(hits), "--max-line-bytes", "1000"]) == 2
    assert "line 2 is longer than 1,000 bytes" in capsys.readouterr().err
    answer = tmp_path / "answer.txt"
    answer.write_text("x" * 2000)
    assert cli.main(["cite", str(answer), "--record", str(hits), "--max-line-bytes", "1000"]) == 2
    assert "larger than 1,000 bytes, the most a file read whole" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_dev_zero_as_input_stops_at_the_line_limit_within_a_memory_limit() -> None:
    """An endless line is refused after the limit, in bounded memory (1 GiB address space
    would not hold what an unbounded read tries)."""
    code = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
        "from briefpack.cli import main; "
        "sys.exit(main(['assemble', '/dev/zero', '-q', 'q', '--tokenizer', 'approx', "
        "'--max-line-bytes', '1000000']))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 2, proc.stderr
    assert "/dev/zero:1:1: line 1 is longer than 1,000,000 bytes" in proc.stderr
