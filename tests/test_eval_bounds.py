"""The evaluation under hostile input: huge grids, bombs, odd line breaks, failing models."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest

import briefpack as bp
from briefpack import cli
from briefpack.errors import InputError
from briefpack.evaluation import expand_grid, grid_size, read_requests

BASE = {"tokenizer": "approx"}


def request(i: int) -> dict[str, Any]:
    return {
        "id": f"q{i}",
        "question": "How long is leave?",
        "candidates": [{"id": "c1", "text": "Leave is 14 weeks."}],
        "evidence": ["c1"],
    }


# --------------------------------------------------------------------------- grids


def test_a_huge_grid_is_refused_before_it_is_expanded() -> None:
    grid = {k: list(range(100)) for k in ("budget", "mmr_k", "neighbors", "max_per_doc", "seed")}
    assert grid_size(grid) == 10_000_000_000
    with pytest.raises(InputError, match=r"grid has 10,000,000,000 settings, more than the 10,000"):
        expand_grid(grid)  # counted, not built: a product this size could not be held
    assert len(expand_grid({"budget": list(range(20_000))}, max_settings=20_000)) == 20_000


def test_cli_eval_refuses_a_huge_toml_grid_and_a_non_utf8_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps(request(0)) + "\n", "utf-8")
    grid = tmp_path / "grid.toml"
    grid.write_text(
        "\n".join(
            f"{k} = {list(range(300))}" for k in ("budget", "mmr_k", "neighbors", "max_per_doc")
        )
    )
    assert cli.main(["eval", str(data), "--grid", str(grid)]) == 2
    err = capsys.readouterr().err
    assert "grid has 8,100,000,000 settings" in err
    assert "--max-settings" in err
    assert err.count("\n") == 1
    grid.write_bytes(b'order = ["edges"]\n# caf\xe9\n')
    assert cli.main(["eval", str(data), "--grid", str(grid)]) == 2
    assert f"{grid}:2: not valid UTF-8 (byte 0xe9)" in capsys.readouterr().err


# --------------------------------------------------------------------------- the data reader


def test_the_data_reader_keeps_json_line_separators_and_refuses_duplicate_keys(
    tmp_path: Path,
) -> None:
    path = tmp_path / "data.jsonl"
    row = request(0) | {"question": "leave\u2028policy\u0085now?"}
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n", "utf-8")
    assert read_requests(path)[0].question == "leave\u2028policy\u0085now?"
    path.write_text('{"question": "a", "question": "b", "candidates": [], "answers": ["x"]}\n')
    with pytest.raises(InputError, match=r'data.jsonl:1:\d+: duplicate key "question"'):
        read_requests(path)


def test_the_data_reader_streams_gzip_within_bounds(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb") as f:
        f.write(b"\n" * 5_000_000)  # 5 MB of blank lines, a few KB compressed
    with pytest.raises(InputError, match=r"more than 1,000,000 bytes of data"):
        read_requests(bomb, max_bytes=1_000_000)
    endless = tmp_path / "endless.jsonl.gz"
    with gzip.open(endless, "wb") as f:
        f.write(b"0" * 5_000_000)
    with pytest.raises(InputError, match=r"endless.jsonl.gz:1:1: line 1 is longer than 100,000"):
        read_requests(endless, max_line_bytes=100_000)
    ok = tmp_path / "ok.jsonl.gz"
    with gzip.open(ok, "wt", encoding="utf-8") as f:
        f.write(json.dumps(request(0)) + "\n")
    assert read_requests(ok)[0].id == "q0"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs")
def test_the_data_reader_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "data.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        read_requests(fifo)


# --------------------------------------------------------------------------- failing models


def test_a_raising_generate_is_recorded_per_request_and_the_sweep_finishes() -> None:
    calls = []

    def generate(messages: Any) -> str:  # one worker: the calls come in request order
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("model overloaded")
        return "Leave is 14 weeks [1]."

    reqs = [request(i) for i in range(3)]
    result = bp.evaluate(reqs, {"budget": [100], **BASE}, generate=generate, workers=1)
    errors = [o.error for o in result.outcomes[0]]
    assert errors == [
        None,
        "requests[1] (id='q1'): generate raised RuntimeError: model overloaded",
        None,
    ]
    assert result.rows[0].failed == 1
    assert result.rows[0].recall_any == 1.0  # the assembly's measures are kept


def test_a_hung_generate_is_abandoned_past_its_timeout() -> None:
    release = threading.Event()

    def generate(messages: Any) -> str:
        release.wait()  # hangs until the test ends
        return "never"

    try:
        result = bp.evaluate(
            [request(0)], {"budget": [100], **BASE}, generate=generate, workers=1, timeout=0.2
        )
    finally:
        release.set()
    assert result.outcomes[0][0].error == (
        "requests[0] (id='q0'): generate took longer than the 0.2 s timeout (abandoned)"
    )
    with pytest.raises(InputError, match="timeout must be a number of seconds > 0"):
        bp.evaluate([request(0)], {"budget": [100], **BASE}, timeout=0)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_sweep_whose_calls_hang() -> None:
    """Before, the pool was shut down waiting for the hung calls: Ctrl-C never returned."""
    script = textwrap.dedent(
        """
        import sys, threading
        import briefpack as bp

        def generate(messages):
            print("calling", flush=True)
            threading.Event().wait()  # hangs forever

        req = {"question": "q", "candidates": ["Leave is 14 weeks."], "answers": ["14"]}
        try:
            bp.evaluate([req] * 4, {"budget": [100, 200], "tokenizer": "approx"},
                        generate=generate, workers=2)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(130)
        """
    )
    with subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as proc:
        try:
            assert proc.stdout is not None
            # two workers may print at once ("callingcalling\n"): any of it means a call hangs
            assert proc.stdout.readline().startswith("calling")
            proc.send_signal(signal.SIGINT)
            try:
                out, err = proc.communicate(timeout=60)  # generous: well under a second
            except subprocess.TimeoutExpired:
                pytest.fail("Ctrl-C did not stop the sweep")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    assert proc.returncode == 130, err
    assert "interrupted" in out


def test_executor_ray_without_ray_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    with pytest.raises(InputError, match=r"executor='ray' needs Ray, which is not installed"):
        bp.evaluate([request(0)], {"budget": [100], **BASE}, executor="ray")
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps(request(0)) + "\n", "utf-8")
    assert (
        cli.main(
            ["eval", str(data), "--budget", "100", "--tokenizer", "approx", "--executor", "ray"]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "pip install 'briefpack[ray]'" in err
