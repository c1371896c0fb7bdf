"""Long work shows a rich progress bar on stderr when stderr is a terminal, and nothing else.

The one place that decides is ``progress._stderr_is_tty``; the tests force it. Stdout is the
same either way, and with stderr not a terminal (pipes, files, these tests unforced) stderr
is byte for byte what it was without progress.
"""

from __future__ import annotations

import io
import json
import sys

import pytest

from briefpack import cli
from briefpack.cli import progress

pytest.importorskip("rich")

ROWS = [{"id": f"r{i}", "text": f"passage number {i % 3}", "doc": f"d{i % 2}"} for i in range(40)]


@pytest.fixture
def hits(tmp_path):
    path = tmp_path / "hits.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return str(path)


COMMANDS = {
    "count": (["count", "{hits}", "--tokenizer", "approx"], ["counting approx tokens"]),
    "assemble": (
        ["assemble", "{hits}", "-q", "q", "--tokenizer", "approx", "--format", "json"],
        ["reading hits.jsonl", "assembling 40 candidates"],
    ),
    "dedupe": (
        ["dedupe", "{hits}", "--scope", "document"],
        ["reading hits.jsonl", "deduplicating"],
    ),
    "route": (
        ["route", "q", "--corpus", "{hits}", "--tokenizer", "approx"],
        ["reading hits.jsonl"],
    ),
}


def _run(capsys, argv):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, err


@pytest.mark.parametrize("command", list(COMMANDS))
def test_progress_shows_on_a_terminal_and_changes_nothing_else(command, hits, monkeypatch, capsys):
    template, descriptions = COMMANDS[command]
    argv = [a.format(hits=hits) for a in template]
    plain_out, plain_err = _run(capsys, argv)  # stderr is captured: not a terminal
    assert not any(d.format(hits=hits) in plain_err for d in descriptions)
    assert "\x1b" not in plain_err

    monkeypatch.setattr(progress, "_stderr_is_tty", lambda: True)
    out, err = _run(capsys, argv)
    assert out == plain_out
    for description in descriptions:
        assert description.format(hits=hits) in err
    assert "\x1b[" in err  # drawn, then erased (transient)
    assert err.endswith(plain_err)  # the summary line, if any, comes after, unchanged

    out, err = _run(capsys, [*argv, "--color", "never"])  # plain output asked for: no bar
    assert (out, err) == (plain_out, plain_err)


def test_the_tty_check_reads_stderr_and_term(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stderr", Tty())
    monkeypatch.setenv("TERM", "xterm")
    assert progress._stderr_is_tty()
    monkeypatch.setenv("TERM", "dumb")
    assert not progress._stderr_is_tty()
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    monkeypatch.setenv("TERM", "xterm")
    assert not progress._stderr_is_tty()


def test_without_a_terminal_the_callback_writes_nothing(capsys):
    with progress.progress("work", 10) as advance:
        advance(10)
    assert capsys.readouterr() == ("", "")
