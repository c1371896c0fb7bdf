"""``briefpack eval`` through argparse: add_eval_parser + run_eval."""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path
from typing import Any

import pytest

from briefpack.cli import eval as eval_cli
from briefpack.cli.eval import add_eval_parser, run_eval


def run(*argv: str) -> int:
    root = argparse.ArgumentParser(prog="briefpack")
    add_eval_parser(root.add_subparsers(dest="command"))
    return run_eval(root.parse_args(["eval", *argv]))


def test_example_writes_table_rows_and_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip(
        "matplotlib", reason="--plot needs matplotlib: pip install 'briefpack[eval]'"
    )
    out, png = tmp_path / "rows.csv", tmp_path / "recall.png"
    code = run(
        "--example",
        "--budget",
        "100,400",
        "--order",
        "edges,relevance",
        "--tokenizer",
        "approx",
        "--out",
        str(out),
        "--plot",
        str(png),
        "--color",
        "never",
    )
    assert code == 0
    captured = capsys.readouterr()
    assert "* order=edges budget=400" in captured.out
    assert "recommended budget for order=edges tokenizer=approx: 400" in captured.out
    assert captured.err == ""  # progress only when stderr is a terminal
    rows = list(csv.DictReader(out.read_text(encoding="utf-8").splitlines()))
    assert [(r["order"], r["budget"], r["recommended"]) for r in rows] == [
        ("edges", "100", "False"),
        ("edges", "400", "True"),
        ("relevance", "100", "False"),
        ("relevance", "400", "True"),
    ]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_progress_on_a_terminal(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(eval_cli, "_stderr_is_tty", lambda: True)
    assert run("--example", "--budget", "100", "--tokenizer", "approx", "--color", "never") == 0
    assert "pairs" in capsys.readouterr().err


def test_a_toml_grid_with_none_and_flags_that_replace_its_axes(tmp_path: Path) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text(
        'budget = [50, 100]\ndedupe = ["jaccard", "none"]\ntokenizer = "approx"\n', encoding="utf-8"
    )
    out = tmp_path / "rows.jsonl"
    assert (
        run("--example", "--grid", str(grid), "--budget", "400", "--out", str(out), "--quiet") == 0
    )
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["budget"], r["dedupe"]) for r in rows] == [(400, "jaccard"), (400, None)]
    assert rows[0]["duplicates"] > 0 == rows[1]["duplicates"]


def test_ctrl_c_keeps_the_rows_finished_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = eval_cli.evaluate

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        on_row = kwargs["on_row"]
        seen: list[object] = []

        def stop(row: Any) -> None:
            on_row(row)
            seen.append(row)
            if len(seen) == 2:
                raise KeyboardInterrupt

        return real(*args, **{**kwargs, "on_row": stop})

    monkeypatch.setattr(eval_cli, "evaluate", interrupted)
    out = tmp_path / "rows.jsonl"
    code = run("--example", "--budget", "100,200,400", "--tokenizer", "approx", "--out", str(out))
    assert code == 130
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2
    assert "keeping the 2 of 3 settings finished so far" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ((), "give DATA.jsonl or --example"),
        (("--example", "--budget", "10,x"), "--budget takes comma-separated ints, got '10,x'"),
        (("--example", "--order", "best", "--tokenizer", "approx"), "setting 0 (order=best"),
        (("missing.jsonl",), "missing.jsonl: cannot read the file: No such file"),
        (("--example", "--grid", "nowhere.toml"), "nowhere.toml: cannot read the grid"),
        (("--example", "--limit", "0"), "--limit must be >= 1"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(
    argv: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(*argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("briefpack eval: error: ")
    assert message in err
