"""The command line's options match the Python API's, and its errors speak of flags and files."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from briefpack import cli

ROWS = [
    {"id": "a", "doc": "d1", "text": "The relocation cap for Berlin is 4000 EUR.", "score": 0.9,
     "vector": [1.0, 0.0]},
    {"id": "b", "doc": "d2", "text": "The relocation cap for Berlin is 4000 EUR.", "score": 0.8,
     "vector": [1.0, 0.001]},
    {"id": "c", "doc": "d1", "text": "Parental leave is 14 weeks in Germany.", "score": 0.7,
     "vector": [0.0, 1.0]},
]  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def hits(tmp_path: Path) -> Path:
    path = tmp_path / "hits.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return path


def assemble(capsys, hits: Path, *args: str) -> dict:
    code, out, err = run(
        capsys, "assemble", str(hits), "-q", "Cap?", "--tokenizer", "approx", "--format", "json",
        *args,
    )  # fmt: skip
    assert code == 0, err
    return json.loads(out)


# ------------------------------------------------------------------- the API's options


def test_history_system_and_instructions_reach_the_prompt(capsys, hits, tmp_path):
    history = tmp_path / "history.json"
    history.write_text(json.dumps([{"role": "user", "content": "Moving to Berlin."}]), "utf-8")
    record = assemble(
        capsys, hits, "--history", str(history), "--system", "You are HR.", "--instructions", ""
    )
    assert record["prompt"]["system"] == "You are HR."
    assert "Moving to Berlin." in record["prompt"]["user"]
    assert record["tokens"]["history"] > 0


def test_scope_document_keeps_copies_in_other_documents(capsys, hits):
    assert assemble(capsys, hits, "--dedupe", "jaccard")["settings"]["scope"] == "global"
    record = assemble(capsys, hits, "--dedupe", "jaccard", "--scope", "document")
    assert record["settings"]["scope"] == "document"
    assert [s["id"] for s in record["sources"]].count("b") == 1


def test_mmr_with_a_query_vector_from_the_flag_or_a_file(capsys, hits, tmp_path):
    record = assemble(capsys, hits, "--mmr", "0.5", "--mmr-k", "1", "--query-vector", "[0, 1]")
    assert (record["settings"]["mmr"], record["settings"]["mmr_k"]) == (0.5, 1)
    assert [s["id"] for s in record["sources"]] == ["c"]  # the query points at c
    qv = tmp_path / "qv.json"
    qv.write_text("[0, 1]", "utf-8")
    again = assemble(capsys, hits, "--mmr", "0.5", "--mmr-k", "1", "--query-vector-file", str(qv))
    assert again["sources"] == record["sources"]


def test_minhash_options_reach_the_pipeline(capsys, hits):
    record = assemble(
        capsys, hits, "--dedupe", "minhash", "--num-perm", "64", "--shingle", "2", "--seed", "7"
    )
    assert record["settings"]["minhash"] == {"num_perm": 64, "shingle": 2, "seed": 7}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--mmr-k", "2"], "--mmr-k only applies with --mmr LAMBDA; pass --mmr too"),
        (["--query-vector", "[1, 0]"], "--query-vector only applies with --mmr LAMBDA"),
        (["--num-perm", "64"], "--num-perm only applies to --dedupe minhash"),
        (["--dedupe", "none", "--threshold", "0.5"], "--threshold does not apply to --dedupe none"),
        (["--mmr", "0.5", "--query-vector", "[1,"], "--query-vector: invalid JSON"),
        (["--mmr", "1.5"], "--mmr must be a number in [0, 1], got 1.5"),
        (["--mmr", "0.5", "--mmr-k", "0"], "--mmr-k must be an int >= 1, got 0"),
        (["--budget", "-5"], "--budget must be an int >= 0, got -5"),
        (["--window", "100", "--margin", "-1"], "--margin must be an int >= 0, got -1"),
        (["--max-per-doc", "0"], "--max-per-doc must be an int >= 1, got 0"),
        (["--dedupe", "minhash", "--num-perm", "0"], "--num-perm must be an int >= 1, got 0"),
    ],
)
def test_errors_name_the_flag(capsys, hits, args, message):
    code, _, err = run(capsys, "assemble", str(hits), "-q", "q", "--tokenizer", "approx", *args)
    assert code == 2
    assert err.startswith(f"briefpack assemble: error: {message}")
    assert err.count("\n") == 1


def test_demo_budget_error_names_the_flag(capsys):
    code, _, err = run(capsys, "demo", "--tokenizer", "approx", "--budget", "-5")
    assert code == 2
    assert err == "briefpack demo: error: --budget must be an int >= 0, got -5\n"


def test_an_error_carrying_its_option_is_mapped_by_the_attribute():
    from briefpack.cli.options import name_the_flag
    from briefpack.errors import InputError

    exc = InputError("must be a number in [0, 1], got 2")
    exc.option = "threshold"  # type: ignore[attr-defined]
    assert name_the_flag(exc) == "--threshold: must be a number in [0, 1], got 2"
    exc = InputError("mmr_k must be an int >= 1, got 0")
    exc.option = "mmr_k"  # type: ignore[attr-defined]
    assert name_the_flag(exc) == "--mmr-k must be an int >= 1, got 0"


def test_question_that_is_not_utf8_is_reported_in_plain_words(capsys, hits):
    question = b"caf\xe9?".decode("utf-8", "surrogateescape")  # what argv holds for Latin-1
    code, _, err = run(capsys, "assemble", str(hits), "-q", question, "--tokenizer", "approx")
    assert code == 2
    assert "argument -q/--question: not valid UTF-8 (byte 0xe9 at character 4)" in err
    assert "errors=" not in err  # no advice meant for Python programmers
    assert "surrogate" not in err


def test_count_tokenizer_is_one_name_and_encoding_still_works_with_a_warning(capsys, tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("Hello, world!", "utf-8")
    code, out, err = run(capsys, "count", str(path), "--tokenizer", "approx")
    assert (code, out.split()[0], err) == (0, "3", "")
    code, out, err = run(capsys, "count", str(path), "--encoding", "approx")
    assert (code, out.split()[0]) == (0, "3")
    assert err == "briefpack count: warning: --encoding is deprecated; use --tokenizer\n"
    code, out, _ = run(capsys, "count", "--help")
    assert "--encoding" not in out


# ------------------------------------------------------------------- dedupe


def test_dedupe_cosine_reads_the_rows_vectors(capsys, hits):
    code, out, err = run(capsys, "dedupe", str(hits), "--method", "cosine", "-v")
    assert code == 0, err
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["a", "c"]
    assert "(cosine >= 0.97)" in err
    assert "duplicates line 1 (id 'a')" in err


def test_dedupe_cosine_without_a_vector_names_the_line(capsys, tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"text": "a", "vector": [1, 0]}\n{"text": "b"}\n', "utf-8")
    code, _, err = run(capsys, "dedupe", str(path), "--method", "cosine")
    assert code == 2
    assert f"{path}:2:1: --method cosine needs a 'vector' on every row" in err


def test_dedupe_scope_document_compares_within_each_document(capsys, hits):
    code, out, _ = run(capsys, "dedupe", str(hits), "--scope", "document")
    assert code == 0
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["a", "b", "c"]
    code, out, _ = run(capsys, "dedupe", str(hits))
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["a", "c"]


def test_dedupe_minhash_options(capsys, hits):
    code, out, err = run(
        capsys, "dedupe", str(hits), "--method", "minhash", "--num-perm", "64", "--seed", "3"
    )
    assert code == 0, err
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["a", "c"]
    code, _, err = run(capsys, "dedupe", str(hits), "--shingle", "2")
    assert code == 2
    assert "--shingle only applies to --method minhash" in err


# ------------------------------------------------------------------- bad JSON values


@pytest.mark.parametrize(
    ("line", "column", "message"),
    [
        ('{"text": "a", "text": "b"}', 15, 'duplicate key "text" in one object'),
        ('{"text": "a", "meta": {"k": 1, "k": 2}}', 32, 'duplicate key "k" in one object'),
        ('{"text": "a", "n": ' + "7" * 5000 + "}", 20, "a number with 5000 digits is longer"),
        ('{"text": "a", "score": 1e400}', 24, "the number 1e400 is too large for a 64-bit float"),
        ('{"text": "a", "score": 1' + "0" * 400 + "}", 24, "score: a number with 401 digits"),
        ('{"text": "a", "vector": [1, 1' + "0" * 400 + "]}", 25, "vector: a number with 401"),
    ],
)
def test_json_values_python_cannot_use_are_errors_at_file_line_column(
    capsys, tmp_path, line, column, message
):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"text": "first"}\n' + line + "\n", "utf-8")
    for command in (["assemble", str(path), "-q", "q", "--tokenizer", "approx"],
                    ["dedupe", str(path)]):  # fmt: skip
        code, out, err = run(capsys, *command)
        assert code == 2
        assert out == ""
        assert err.startswith(f"briefpack {command[0]}: error: {path}:2:{column}: {message}")
        assert err.count("\n") == 1


def test_duplicate_key_in_a_record_names_line_and_column(capsys, tmp_path):
    record = tmp_path / "record.json"
    record.write_text('{\n  "sources": [],\n  "sources": []\n}\n', "utf-8")
    answer = tmp_path / "answer.txt"
    answer.write_text("Yes [1].", "utf-8")
    code, _, err = run(capsys, "cite", str(answer), "--record", str(record))
    assert code == 2
    assert f'{record}:3:3: duplicate key "sources"' in err


@pytest.mark.parametrize(
    ("line", "column", "message"),
    [
        ('{"text": "a", "id": "x\\udc80"}', 23, "id contains a lone surrogate U+DC80"),
        ('{"text": "a", "doc": "\\ud800"}', 23, "doc contains a lone surrogate U+D800"),
        ('{"text": "a", "parent": "\\uDFFF"}', 26, "parent contains a lone surrogate U+DFFF"),
        ('{"text": "a", "meta": {"k": ["\\udc80"]}}', 31, "meta.k[0] contains a lone surrogate"),
        ('{"text": "a", "team": "\\udc80"}', 24, "team contains a lone surrogate"),
        ('{"text": "a", "\\ud800": 1}', 16, "a key contains a lone surrogate"),
    ],
)
def test_a_lone_surrogate_anywhere_in_a_row_is_an_error_at_file_line(
    capsys, tmp_path, line, column, message
):
    # json reads "\udc80" as a lone surrogate, which no output can encode: the record writer
    # used to crash with a traceback (and stdout got a byte that is not UTF-8)
    path = tmp_path / "rows.jsonl"
    path.write_text('{"text": "first", "id": "ok \\ud83d\\ude00"}\n' + line + "\n", "utf-8")
    out_file = tmp_path / "record.json"
    for command in (
        ["assemble", str(path), "-q", "q", "--tokenizer", "approx", "--format", "json",
         "-o", str(out_file)],
        ["assemble", str(path), "-q", "q", "--tokenizer", "approx", "--format", "json"],
        ["dedupe", str(path)],
    ):  # fmt: skip
        code, out, err = run(capsys, *command)
        assert (code, out) == (2, "")
        assert err.startswith(f"briefpack {command[0]}: error: {path}:2:{column}: {message}")
        assert "(the escape \\u" in err
        assert err.count("\n") == 1
    assert not out_file.exists()


def test_a_surrogate_pair_is_one_character_and_fine(capsys, tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"text": "smile \\ud83d\\ude00", "id": "\\ud83d\\ude00"}\n', "utf-8")
    record = assemble(capsys, path)
    assert record["sources"][0]["id"] == "\U0001f600"


def test_a_lone_surrogate_in_a_record_is_an_error_at_file_line(capsys, tmp_path):
    record = tmp_path / "record.json"
    record.write_text('{"sources": [\n {"label": 1, "id": "\\udc80"}]}\n', "utf-8")
    answer = tmp_path / "answer.txt"
    answer.write_text("Yes [1].", "utf-8")
    code, _, err = run(capsys, "cite", str(answer), "--record", str(record))
    assert code == 2
    assert f"{record}:2:22: sources[0].id contains a lone surrogate U+DC80" in err


def test_the_flags_choices_and_defaults_come_from_the_options_table() -> None:
    """A value the library's Options accepts is a value the flag accepts, and the defaults agree
    (None is spelled 'none'; a callable tokenizer has no spelling on a command line)."""
    from briefpack.cli.parser import build_parser
    from briefpack.options import CHOICES, DEFAULTS

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assemble = sub.choices["assemble"]
    actions = {a.dest: a for a in assemble._actions}
    for option in ("order", "labels", "overflow", "scope", "backend", "tokenizer", "dedupe"):
        legal = ["none" if v is None else v for v in CHOICES[option] if v != "callable"]
        assert list(actions[option].choices) == legal, option
        assert actions[option].default == DEFAULTS[option], option
