"""``assemble`` holds what it needs and no more: one parsed row at a time, then the Chunks.

The raw lines and parsed objects of a JSONL file are dropped as each Chunk is made; error
messages still name FILE:LINE:COLUMN because the reader remembers where each row is (stdin is
copied to a temporary file for that). The JSON record is written in pieces.
"""

from __future__ import annotations

import gc
import io
import json
import sys
from pathlib import Path

import pytest

from briefpack import cli
from briefpack.assembler import Assembler
from briefpack.cli import files


def _live_rows() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is files.Row)


def test_assemble_keeps_no_parsed_row_while_the_pipeline_runs(tmp_path, monkeypatch, capsys):
    path = tmp_path / "hits.jsonl"
    path.write_text(
        "".join(json.dumps({"id": f"c{i}", "text": f"passage {i}", "k": i}) + "\n"
                for i in range(300)),
        encoding="utf-8",
    )  # fmt: skip
    real = Assembler.__call__
    seen = {}

    def spy(self, question, chunks, **request):
        seen["rows"], seen["chunks"] = _live_rows(), len(chunks)
        return real(self, question, chunks, **request)

    monkeypatch.setattr(Assembler, "__call__", spy)
    code = cli.main(["assemble", str(path), "-q", "q", "--tokenizer", "approx"])
    assert code == 0, capsys.readouterr().err
    assert seen == {"rows": 0, "chunks": 300}


@pytest.mark.parametrize("from_stdin", [False, True])
def test_an_error_after_reading_still_names_file_line_and_column(
    from_stdin, tmp_path, monkeypatch, capsys
):
    data = '\ufeff{"text": "a", "id": "x"}\n\n  {"id": "x", "text": "b"}\n'
    path = tmp_path / "hits.jsonl"
    path.write_text(data, encoding="utf-8")
    arg, name = str(path), str(path)
    if from_stdin:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode())))
        arg, name = "-", "<stdin>"
    code = cli.main(["assemble", arg, "-q", "q", "--tokenizer", "approx"])
    assert code == 2
    # the pipeline finds the clash; the row is read again to point at its id
    assert capsys.readouterr().err.startswith(
        f"briefpack assemble: error: {name}:3:10: candidate 1 (id='x'): id repeats candidate 0"
    )


def test_rows_read_again_equal_the_rows_read(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('\ufeff{"text": "é"}\r\n\n"s"\n{"text": "z"}', encoding="utf-8")
    with files.Rows(str(path), strings=True) as rows:
        first = list(rows)
        assert [r.line for r in first] == [1, 3, 4]
        assert list(rows[:]) == first
        assert first[0].raw == '{"text": "é"}\r'
        assert list(rows) == first  # a file can be read again: the places are not doubled
        assert len(rows) == 3


def test_the_record_is_written_in_pieces_with_the_same_bytes(tmp_path, monkeypatch, capsys):
    path = tmp_path / "hits.jsonl"
    path.write_text('{"text": "Le café est à 2 €."}\n', encoding="utf-8")
    written = []
    real = files.write_atomic

    def spy(target, text):
        written.append(text)
        return real(target, text)

    monkeypatch.setattr("briefpack.cli.commands.write_atomic", spy)
    monkeypatch.setattr(files, "write_atomic", spy)
    out = tmp_path / "record.json"
    args = ["assemble", str(path), "-q", "q", "--tokenizer", "approx", "--format", "json"]
    assert cli.main([*args, "-o", str(out)]) == 0
    assert not isinstance(written[0], str)  # never one string holding the whole record
    assert cli.main(args) == 0
    stdout = capsys.readouterr().out
    assert Path(out).read_text(encoding="utf-8") == stdout
    assert stdout == files.dumps(json.loads(stdout))
