"""The command line: in-process through ``main([...])`` and as ``python -m briefpack``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import briefpack as bp
from briefpack import cli
from briefpack.demo import CANDIDATES, CAVEAT, CAVEAT_ID, QUESTION, example
from conftest import tiktoken_available

RECORD_KEYS = {
    "record_version",
    "briefpack_version",
    "question",
    "candidates",
    "sources",
    "tokens",
    "settings",
    "prompt_sha256",
    "prompt",
}
IDS = [row["id"] for row in CANDIDATES]

ROWS = [
    {"id": "hr/1", "text": "The relocation cap for Berlin is 4000 EUR.", "score": 0.94},
    {"id": "faq/7", "text": "The relocation cap for Berlin is 4000 EUR.", "score": 0.90},
    {"id": "hr/2", "text": "Parental leave is 14 weeks in Germany.", "score": 0.80, "team": "hr"},
    {"id": "it/3", "text": "Laptops are replaced every three years.", "score": 0.50},
]


def jsonl(rows: list[dict[str, object]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


@pytest.fixture
def hits(tmp_path: Path) -> Path:
    path = tmp_path / "hits.jsonl"
    path.write_text(jsonl(ROWS), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def run_module(
    *args: str,
    stdin: bytes | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "briefpack", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=300,
        check=False,
    )
    return subprocess.CompletedProcess(
        proc.args,
        proc.returncode,
        proc.stdout.decode("utf-8"),
        proc.stderr.decode("utf-8"),
    )


def files_in(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


# ----------------------------------------------------------------------------------- demo


def test_demo_shows_prompt_every_fate_and_the_caveat_at_the_edge(capsys):
    code, out, _ = run(capsys, "demo", "--tokenizer", "approx")
    assert code == 0
    for cid in IDS:
        assert cid in out
    assert CAVEAT in out
    assert "--- system ---" in out
    assert "--- user ---" in out
    assert f"Question: {QUESTION}" in out
    # the caveat is the last source of the prompt, not buried in the middle
    user = out[out.index("--- user ---") : out.index(f"Question: {QUESTION}")]
    assert user.rindex("<source id=") < user.index(CAVEAT)
    assert "source [8] of 8, the last one" in out
    # the fate table says why each candidate was dropped, and of what it is a copy
    assert "duplicate of pricing/pro#2 (jaccard" in out
    assert "superseded by pricing/pro#2 (updated 2024-09-02)" in out
    assert "over budget" in out
    assert "context budget" in out


def test_demo_record_matches_the_story(capsys):
    code, out, _ = run(capsys, "demo", "--tokenizer", "approx", "--format", "json")
    assert code == 0
    record = json.loads(out)
    assert set(record) == RECORD_KEYS
    assert [c["id"] for c in record["candidates"]] == IDS
    assert record["sources"][-1]["id"] == CAVEAT_ID
    reasons = [c.get("reason") for c in record["candidates"] if c["fate"] == "dropped"]
    assert sorted(set(reasons)) == ["duplicate", "over_budget", "superseded"]
    assert record["tokens"]["sources"] <= record["tokens"]["context_budget"]


def test_demo_messages(capsys):
    code, out, _ = run(capsys, "demo", "--tokenizer", "approx", "--format", "messages")
    assert code == 0
    messages = json.loads(out)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert CAVEAT in messages[1]["content"]


def test_demo_relevance_order_buries_the_caveat_and_says_so(capsys):
    code, out, _ = run(capsys, "demo", "--tokenizer", "approx", "--order", "relevance")
    assert code == 0
    assert "in the middle" in out
    assert "--order edges" in out


def test_demo_brackets_labels_and_budget(capsys):
    code, out, _ = run(
        capsys, "demo", "--tokenizer", "approx", "--labels", "brackets", "--budget", "300"
    )
    assert code == 0
    assert "[1] (Pro plan) The Pro plan includes" in out
    assert "over budget" in out


def test_demo_falls_back_to_approx_when_the_vocabulary_cannot_be_loaded(capsys, monkeypatch):
    from briefpack._backend import Kernels

    real = Kernels.count_tokens

    def offline(self, texts, encoding, **options):
        if encoding != "approx":
            raise ConnectionError("no network")  # what tiktoken's download raises offline
        return real(self, texts, encoding, **options)

    monkeypatch.setattr(Kernels, "count_tokens", offline)
    code, out, err = run(capsys, "demo")
    assert code == 0
    assert "o200k_base vocabulary could not be loaded" in out
    assert "tokenizer approx" in out
    assert CAVEAT in out
    assert err == ""  # the note is in the text already
    code, out, err = run(capsys, "demo", "--format", "json")
    assert code == 0
    assert json.loads(out)["settings"]["tokenizer"] == "approx"
    assert "could not be loaded" in err


def test_demo_runs_offline_as_a_module(tmp_path):
    """A fresh machine: no tiktoken cache and no network (a proxy nobody listens on)."""
    empty = tmp_path / "cache"
    empty.mkdir()
    proc = run_module(
        "demo",
        env={
            "TIKTOKEN_CACHE_DIR": str(empty),
            "HTTPS_PROXY": "http://127.0.0.1:9",
            "HTTP_PROXY": "http://127.0.0.1:9",
            "NO_PROXY": "",
        },
    )
    assert proc.returncode == 0, proc.stderr
    for cid in IDS:
        assert cid in proc.stdout
    assert CAVEAT in proc.stdout
    assert "Traceback" not in proc.stderr
    if "could not be loaded" in proc.stdout:  # until the compiled core counts o200k_base
        assert "tokenizer approx" in proc.stdout


def test_demo_rich_output(capsys, monkeypatch):
    pytest.importorskip("rich")
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(capsys, "demo", "--tokenizer", "approx", "--color", "always")
    assert code == 0
    assert "\x1b[" in out  # styled
    for cid in IDS:
        assert cid in out
    assert CAVEAT in out


def test_example_is_fresh_and_complete():
    question, candidates = example()
    assert question == QUESTION
    assert 12 <= len(candidates) <= 16
    assert len({c.id for c in candidates}) == len(candidates)
    assert all(c.title and c.url and c.updated and c.score is not None for c in candidates)
    assert sum(CAVEAT in c.text for c in candidates) == 1
    scores = [c.score for c in candidates]
    assert scores == sorted(scores, reverse=True)


# ----------------------------------------------------------------------------------- assemble


@pytest.mark.parametrize("fmt", ["text", "json", "messages"])
def test_assemble_from_a_file(capsys, hits, fmt):
    code, out, err = run(
        capsys,
        "assemble",
        str(hits),
        "-q",
        "What is the cap?",
        "--tokenizer",
        "approx",
        "--format",
        fmt,
    )
    assert code == 0
    assert "3 sources from 4 candidates" in err
    if fmt == "text":
        assert out.startswith("--- system ---\n")
        assert "Question: What is the cap?" in out
        assert "4000 EUR" in out
    elif fmt == "json":
        record = json.loads(out)
        assert set(record) == RECORD_KEYS
        assert record["candidates"][1]["reason"] == "duplicate"
        assert record["candidates"][1]["detail"]["of"] == "hr/1"
    else:
        messages = json.loads(out)
        assert [m["role"] for m in messages] == ["system", "user"]
        assert messages[1]["content"].endswith("Question: What is the cap?")


@pytest.mark.parametrize("fmt", ["text", "json", "messages"])
def test_assemble_from_stdin(hits, fmt):
    proc = run_module(
        "assemble",
        "-",
        "-q",
        "What is the cap?",
        "--tokenizer",
        "approx",
        "--format",
        fmt,
        stdin=hits.read_bytes(),
    )
    assert proc.returncode == 0, proc.stderr
    if fmt == "json":
        record = json.loads(proc.stdout)
        assert set(record) == RECORD_KEYS
        assert [s["id"] for s in record["sources"]] == ["hr/1", "it/3", "hr/2"]
    elif fmt == "messages":
        assert json.loads(proc.stdout)[0]["role"] == "system"
    else:
        assert "Question: What is the cap?" in proc.stdout


def test_assemble_from_stdin_in_process(capsys, monkeypatch, hits):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(hits.read_bytes())))
    code, out, _ = run(
        capsys, "assemble", "-", "-q", "Cap?", "--tokenizer", "approx", "--format", "json"
    )
    assert code == 0
    assert json.loads(out)["question"] == "Cap?"


def test_assemble_options_reach_the_pipeline(capsys, hits):
    code, out, _ = run(
        capsys,
        "assemble",
        str(hits),
        "-q",
        "Cap?",
        "--tokenizer",
        "approx",
        "--format",
        "json",
        "--order",
        "relevance",
        "--labels",
        "brackets",
        "--dedupe",
        "none",
        "--window",
        "400",
        "--max-output",
        "100",
        "--margin",
        "10",
        "--max-per-doc",
        "1",
        "--backend",
        "python",
    )
    assert code == 0
    record = json.loads(out)
    s = record["settings"]
    assert (s["order"], s["labels"], s["dedupe"], s["backend"]) == (
        "relevance",
        "brackets",
        None,
        "python",
    )
    assert s["budget"] == {"context": None, "window": 400, "max_output": 100, "margin": 10}
    assert record["prompt"]["user"].startswith("<sources>\n[1] ")


def test_assemble_writes_output_atomically(capsys, hits, tmp_path):
    out_file = tmp_path / "record.json"
    code, out, _ = run(
        capsys,
        "assemble",
        str(hits),
        "-q",
        "Cap?",
        "--tokenizer",
        "approx",
        "--format",
        "json",
        "-o",
        str(out_file),
    )
    assert code == 0
    assert out == ""
    assert set(json.loads(out_file.read_text(encoding="utf-8"))) == RECORD_KEYS
    assert files_in(tmp_path) == {"hits.jsonl", "record.json"}  # no temp file left over


def test_extra_keys_go_into_meta(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text(
        jsonl([{"text": "a", "team": "hr", "meta": {"lang": "en"}}, {"text": "b", "team": "it"}]),
        encoding="utf-8",
    )
    chunks = cli.rows_to_chunks(cli.read_jsonl(str(path)), str(path))
    assert chunks[0].meta == {"team": "hr", "lang": "en"}
    assert chunks[1].meta == {"team": "it"}


def test_unicode_line_separators_inside_strings_do_not_split_lines(capsys, tmp_path):
    path = tmp_path / "x.jsonl"
    text = "first\u2028second\u0085third"
    path.write_text(json.dumps({"text": text}, ensure_ascii=False) + "\n", encoding="utf-8")
    rows = cli.read_jsonl(str(path))
    assert len(rows) == 1
    assert rows[0].obj["text"] == text


# ----------------------------------------------------------------------------------- errors


def test_malformed_line_names_file_line_and_column_and_writes_nothing(capsys, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "a"}\n\n{"text": "b", "id": 2,}\n', encoding="utf-8")
    out_file = tmp_path / "out.json"
    code, out, err = run(
        capsys, "assemble", str(path), "-q", "q", "--tokenizer", "approx", "-o", str(out_file)
    )
    assert code == 2
    # The column is the json module's: 23 (the closing brace) up to 3.12, 22 (the trailing
    # comma) from 3.13 on.
    assert f"{path}:3:23: invalid JSON" in err or f"{path}:3:22: invalid JSON" in err
    assert err.count("\n") == 1
    assert out == ""
    assert files_in(tmp_path) == {"bad.jsonl"}


def test_malformed_line_as_a_module_has_no_traceback(tmp_path):
    (tmp_path / "bad.jsonl").write_text('{"text": "a"}\n{"text" "b"}\n', encoding="utf-8")
    proc = run_module(
        "assemble", "bad.jsonl", "-q", "q", "--tokenizer", "approx", "-o", "out.txt", cwd=tmp_path
    )
    assert proc.returncode == 2
    assert "bad.jsonl:2:9: invalid JSON: Expecting ':' delimiter" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    assert files_in(tmp_path) == {"bad.jsonl"}


def test_malformed_line_on_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"text": "a"}\n[1, 2\n')))
    code, _, err = run(capsys, "dedupe", "-")
    assert code == 2
    assert "<stdin>:2:6: invalid JSON" in err


@pytest.mark.parametrize(
    ("line", "where", "what"),
    [
        ('{"id": "2", "score": "high", "text": "b"}', ":2:22:", "score must be a finite number"),
        ('{"id": "2", "text": 7}', ":2:21:", "text must be a str"),
        ('{"id": "2", "position": -1, "text": "b"}', ":2:25:", "position must be an int >= 0"),
        ('{"id": "2"}', ":2:1:", "text is missing"),
        ("[1, 2]", ":2:1:", "expected a JSON object"),
        ('  "just text"', ":2:3:", "got a JSON string"),
        ('{"text": "b", "meta": 3, "x": 1}', ":2:23:", "meta must be a JSON object"),
        ('{"id": "1", "text": "other"}', ":2:8:", "id repeats candidate 0 with different text"),
    ],
)
def test_bad_values_name_file_line_and_column(capsys, tmp_path, line, where, what):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "1", "text": "a"}\n' + line + "\n", encoding="utf-8")
    code, out, err = run(capsys, "assemble", str(path), "-q", "q", "--tokenizer", "approx")
    assert code == 2
    assert f"{path}{where}" in err
    assert what in err
    assert err.count("\n") == 1
    assert out == ""


def test_invalid_utf8_names_line_and_column(capsys, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"text": "a"}\n{"text": "\xc3\xa9\xff"}\n')
    code, _, err = run(capsys, "dedupe", str(path))
    assert code == 2
    assert f"{path}:2:12: not valid UTF-8 (byte 0xff)" in err


@pytest.mark.parametrize(
    ("args", "legal"),
    [
        (["demo", "--order", "middle"], ["relevance", "edges", "round_robin", "document"]),
        (["demo", "--labels", "json"], ["xml", "brackets"]),
        (["demo", "--format", "yaml"], ["text", "json", "messages"]),
        (["demo", "--tokenizer", "gpt2"], ["o200k_base", "cl100k_base", "approx"]),
        (["assemble", "x.jsonl", "-q", "q", "--dedupe", "fuzzy"], ["exact", "jaccard", "none"]),
        (["assemble", "x.jsonl", "-q", "q", "--supersede", "title"], ["url", "doc"]),
        (["assemble", "x.jsonl", "-q", "q", "--backend", "c"], ["auto", "rust", "python"]),
        (["dedupe", "x.jsonl", "--method", "fuzzy"], ["exact", "jaccard", "minhash", "cosine"]),
        (["count", "x.txt", "--tokenizer", "p50k_base"], ["o200k_base", "cl100k_base", "approx"]),
        (["cite", "a.txt", "--record", "r.json", "--format", "xml"], ["text", "json"]),
    ],
)
def test_unknown_option_values_list_the_legal_ones(capsys, args, legal):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert "invalid choice" in err
    for value in legal:
        assert value in err
    assert out == ""


def test_unknown_option_value_as_a_module():
    proc = run_module("demo", "--order", "middle")
    assert proc.returncode == 2
    assert "relevance" in proc.stderr
    assert "edges" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_repeated_id_with_the_same_text_is_reported_as_such(capsys, tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text(jsonl([{"id": "a", "text": "t"}, {"id": "a", "text": "t"}]), "utf-8")
    code, out, _ = run(
        capsys,
        "assemble",
        str(path),
        "-q",
        "q",
        "--tokenizer",
        "approx",
        "--dedupe",
        "none",
        "--format",
        "json",
    )
    assert code == 0
    fate = json.loads(out)["candidates"][1]
    assert cli.describe_fate(fate) == "duplicate: its id and text repeat an earlier candidate"


def test_budget_error_is_one_line(capsys, hits):
    code, _, err = run(
        capsys, "assemble", str(hits), "-q", "q", "--tokenizer", "approx", "--window", "10"
    )
    assert code == 2
    assert err.startswith("briefpack assemble: error: system + history + question need")
    assert err.count("\n") == 1


def test_input_error_is_one_line(capsys, hits):
    code, _, err = run(
        capsys, "assemble", str(hits), "-q", "q", "--tokenizer", "approx", "--threshold", "1.5"
    )
    assert code == 2
    assert err == "briefpack assemble: error: --threshold must be a number in [0, 1], got 1.5\n"


def test_max_output_needs_a_window(capsys, hits):
    code, _, err = run(capsys, "assemble", str(hits), "-q", "q", "--max-output", "100")
    assert code == 2
    assert "pass --window too" in err


def test_missing_file_and_unwritable_output(capsys, hits, tmp_path):
    code, _, err = run(capsys, "count", str(tmp_path / "nope.txt"))
    assert code == 2
    assert "cannot read" in err
    assert "nope.txt" in err
    code, _, err = run(
        capsys, "dedupe", str(hits), "-o", str(tmp_path / "no" / "such" / "dir" / "x.jsonl")
    )
    assert code == 74  # the output could not be written
    assert "cannot write" in err


def test_output_to_a_special_file_is_refused_not_replaced(capsys, hits):
    code, out, err = run(capsys, "dedupe", str(hits), "-o", os.devnull)
    assert code == 74
    assert out == ""
    assert err.count("\n") == 1
    assert "is a character device, not a regular file" in err
    assert "-o -" in err
    assert not Path(os.devnull).is_file()


def test_unavailable_vocabulary_is_a_clear_error(capsys, monkeypatch, hits):
    from briefpack._backend import Kernels

    def offline(self, texts, encoding, **options):
        raise OSError("offline")  # what tiktoken's download raises without a network

    monkeypatch.setattr(Kernels, "count_tokens", offline)
    code, _, err = run(capsys, "assemble", str(hits), "-q", "q")
    assert code == 2
    assert "the o200k_base vocabulary could not be loaded; pass --tokenizer approx" in err
    code, _, err = run(capsys, "count", str(hits))
    assert code == 2
    assert "pass --tokenizer approx" in err


def test_help_and_version(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("demo", "assemble", "count", "dedupe", "cite"):
        assert command in out
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.strip() == f"briefpack {bp.__version__}"
    code, out, _ = run(capsys, "assemble", "--help")
    assert code == 0
    assert "--max-per-doc" in out


# ----------------------------------------------------------------------------------- count


def test_count_files_and_total(capsys, tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("Hello, world! " * 10, encoding="utf-8")
    b.write_text("東京", encoding="utf-8")
    code, out, _ = run(capsys, "count", str(a), str(b), "--tokenizer", "approx")
    assert code == 0
    na, nb = bp.count_tokens([a.read_text(encoding="utf-8"), "東京"], encoding="approx")
    assert out.splitlines() == [f"{na}  {a}", f"{nb:>{len(str(na))}}  {b}", f"{na + nb}  total"]


def test_count_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"abcdefgh")))
    code, out, _ = run(capsys, "count", "-", "--tokenizer", "approx")
    assert code == 0
    assert out == "2  <stdin>\n"


@pytest.mark.skipif(not tiktoken_available(), reason="needs the tiktoken files in ../shared")
def test_count_exact_as_a_module(tmp_path):
    tiktoken = pytest.importorskip("tiktoken")
    text = "Is SSO included in the Pro plan? 東京 🙂\n"
    (tmp_path / "a.txt").write_text(text, encoding="utf-8")
    proc = run_module("count", "a.txt", "-", cwd=tmp_path, stdin=text.encode("utf-8"))
    assert proc.returncode == 0, proc.stderr
    n = len(tiktoken.get_encoding("o200k_base").encode_ordinary(text))
    assert proc.stdout.split() == [str(n), "a.txt", str(n), "<stdin>", str(2 * n), "total"]


# ----------------------------------------------------------------------------------- dedupe


@pytest.mark.parametrize(
    ("method", "kept"),
    [("exact", ["hr/1", "hr/2", "it/3"]), ("jaccard", ["hr/1", "hr/2", "it/3"])],
)
def test_dedupe_writes_kept_rows_unchanged(capsys, tmp_path, method, kept):
    path = tmp_path / "rows.jsonl"
    # odd spacing and key order must survive: kept rows are copied, not re-serialised
    lines = [f'{{ "text" : "{r["text"]}", "id":"{r["id"]}" , "x": [1]}}' for r in ROWS]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "dedupe", str(path), "--method", method)
    assert code == 0
    assert out.splitlines() == [line for line, r in zip(lines, ROWS) if r["id"] in kept]
    assert "kept 3 of 4 rows" in err
    assert "dropped 1 duplicate " in err


def test_dedupe_minhash_threshold_and_output_file(capsys, tmp_path):
    base = "the relocation cap for employees moving to berlin is four thousand euros in total"
    rows = [
        {"id": "a", "text": base},
        {"id": "b", "text": base + " today"},
        {"id": "c", "text": "parental leave in germany lasts fourteen weeks for every parent"},
    ]
    path, out_file = tmp_path / "rows.jsonl", tmp_path / "kept.jsonl"
    path.write_text(jsonl(rows), encoding="utf-8")
    code, out, err = run(
        capsys,
        "dedupe",
        str(path),
        "--method",
        "minhash",
        "--threshold",
        "0.5",
        "-o",
        str(out_file),
        "-v",
    )
    assert code == 0
    assert out == ""
    assert [json.loads(x)["id"] for x in out_file.read_text(encoding="utf-8").splitlines()] == [
        "a",
        "c",
    ]
    assert "minhash >= 0.5" in err
    assert "(id 'b') duplicates line 1 (id 'a')" in err


def test_dedupe_bad_threshold(capsys, hits):
    code, _, err = run(capsys, "dedupe", str(hits), "--threshold", "1.5")
    assert code == 2
    assert "threshold must be a number in [0, 1]" in err
    code, _, err = run(capsys, "dedupe", str(hits), "--method", "exact", "--threshold", "0.5")
    assert code == 2
    assert "does not apply" in err


def test_dedupe_as_a_module_from_stdin(hits):
    proc = run_module("dedupe", "-", stdin=hits.read_bytes())
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(x)["id"] for x in proc.stdout.splitlines()] == ["hr/1", "hr/2", "it/3"]
    assert "dropped 1 duplicate" in proc.stderr


# ----------------------------------------------------------------------------------- cite


@pytest.fixture
def record(capsys, hits, tmp_path) -> Path:
    path = tmp_path / "record.json"
    code, _, _ = run(
        capsys,
        "assemble",
        str(hits),
        "-q",
        "Cap?",
        "--tokenizer",
        "approx",
        "--order",
        "relevance",
        "--format",
        "json",
        "-o",
        str(path),
    )
    assert code == 0
    return path


def test_cite_known_labels(capsys, record, tmp_path):
    answer = tmp_path / "answer.txt"
    answer.write_text("The cap is 4000 EUR [1]. Leave is 14 weeks [2].\nThanks!\n", "utf-8")
    code, out, err = run(capsys, "cite", str(answer), "--record", str(record))
    assert code == 0
    assert err == ""
    lines = dict(line.split(None, 1) for line in out.splitlines() if not line.startswith(" "))
    assert lines["cited"].startswith("[1] hr/1")
    assert lines["unknown"] == "none"
    assert lines["uncited"].startswith("[3] it/3")
    assert "1 sentence" in lines["unsupported"]
    assert "  - Thanks!" in out


def test_cite_unknown_labels_strict_and_not(capsys, record, tmp_path):
    answer = tmp_path / "answer.txt"
    answer.write_text("The cap is 4000 EUR [1][7]. Laptops last 9 years [9].", "utf-8")
    code, out, err = run(capsys, "cite", str(answer), "--record", str(record))
    assert code == 1
    assert "[7], [9]" in out
    assert "never in the context: [7, 9]" in err
    assert "labels 1-3" in err
    code, out, err = run(
        capsys, "cite", str(answer), "--record", str(record), "--no-strict", "--format", "json"
    )
    assert code == 0
    report = json.loads(out)
    assert report["unknown"] == [7, 9]
    assert [s["label"] for s in report["cited"]] == [1]
    assert report["unsupported_sentences"] == ["Laptops last 9 years [9]."]


def test_cite_answer_from_stdin_as_a_module(record):
    proc = run_module("cite", "-", "--record", str(record), stdin=b"Cap is 4000 EUR [4].")
    assert proc.returncode == 1
    assert "never in the context: [4]" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_cite_rejects_what_is_not_a_record(capsys, hits, tmp_path):
    answer = tmp_path / "answer.txt"
    answer.write_text("x [1].", "utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text('{"sources": [{"label": "1"}]}', "utf-8")
    code, _, err = run(capsys, "cite", str(answer), "--record", str(bad))
    assert code == 2
    assert "not a briefpack record" in err
    code, _, err = run(capsys, "cite", str(answer), "--record", str(hits))
    assert code == 2
    assert f"{hits}:2:1: invalid JSON" in err


# ----------------------------------------------------------------------------------- imports


def test_rich_is_imported_only_when_drawing(tmp_path):
    code = (
        "import sys, briefpack, briefpack.cli, briefpack.demo; "
        "assert 'rich' not in sys.modules, 'rich imported'; "
        "briefpack.cli.main(['demo', '--tokenizer', 'approx', '--format', 'json', "
        "'-o', sys.argv[1]]); "
        "assert 'rich' not in sys.modules, 'rich imported for json'"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "record.json")],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr


def test_plain_text_without_rich(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "rich.console", None)  # import fails
    code, out, _ = run(capsys, "demo", "--tokenizer", "approx", "--color", "always")
    assert code == 0
    assert "\x1b[" not in out
    assert "--- every candidate's fate ---" in out


def test_rich_output_of_every_command(capsys, monkeypatch, hits, record, tmp_path):
    pytest.importorskip("rich")
    monkeypatch.setenv("COLUMNS", "200")
    answer = tmp_path / "answer.txt"
    answer.write_text("The cap is 4000 EUR [1]. Other [5].", "utf-8")
    for args, code in [
        (["assemble", str(hits), "-q", "Cap?", "--tokenizer", "approx"], 0),
        (["count", str(hits), str(answer), "--tokenizer", "approx"], 0),
        (["cite", str(answer), "--record", str(record)], 1),
    ]:
        got, out, _ = run(capsys, *args, "--color", "always")
        assert got == code
        assert "\x1b[" in out
