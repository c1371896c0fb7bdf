"""One rule for a candidate row in every entry point: a key that is not Chunk's goes to meta.

Tested once per entry point: ``bp.assemble`` with dict candidates, ``briefpack assemble``,
``bp.evaluate``, ``briefpack eval`` and Ray's ``AssembleBatch``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import briefpack as bp
from briefpack import cli
from briefpack.errors import InputError

ROW = {"id": "c1", "text": "Leave is 14 weeks.", "lang": "en", "meta": {"team": "hr"}}
EXPECTED_META = {"lang": "en", "team": "hr"}


def test_api_keeps_unknown_keys_in_meta() -> None:
    result = bp.assemble("How long is leave?", [dict(ROW)], tokenizer="approx")
    assert result.sources[0].chunk.meta == EXPECTED_META
    row = {"text": "x", "team": "a", "meta": {"team": "b"}}
    clash = bp.assemble("q", [row], tokenizer="approx")
    assert clash.sources[0].chunk.meta == {"team": "b"}  # meta's own value wins
    with pytest.raises(InputError, match=r"meta must be a mapping .*here 'lang', go into meta"):
        bp.assemble("q", [{"text": "x", "lang": "en", "meta": "hr"}], tokenizer="approx")
    with pytest.raises(InputError, match="text is missing"):
        bp.assemble("q", [{"txt": "x"}], tokenizer="approx")


def test_cli_assemble_keeps_unknown_keys_in_meta(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hits = tmp_path / "hits.jsonl"
    hits.write_text(json.dumps(ROW) + "\n", "utf-8")
    chunks = cli.rows_to_chunks(cli.read_jsonl(str(hits)), str(hits))  # what assemble reads
    assert chunks[0].meta == EXPECTED_META
    code = cli.main(["assemble", str(hits), "-q", "q", "--tokenizer", "approx", "--format", "json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["sources"][0]["id"] == "c1"


REQUEST: dict[str, Any] = {
    "id": "q1",
    "question": "How long is leave?",
    "candidates": [ROW, {"id": "c2", "text": "The cap is 4000 EUR.", "source": "kb"}],
    "evidence": ["c1"],
}


def test_evaluate_accepts_rows_with_extra_keys() -> None:
    result = bp.evaluate([REQUEST], {"budget": [100], "tokenizer": "approx"}, workers=1)
    assert result.rows[0].recall_any == 1.0


def test_cli_eval_accepts_rows_with_extra_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps(REQUEST) + "\n", "utf-8")
    code = cli.main(["eval", str(data), "--budget", "100", "--tokenizer", "approx"])
    assert code == 0, capsys.readouterr().err
    assert "100.0%" in capsys.readouterr().out


def test_ray_batch_does_not_fail_on_a_row_with_an_extra_key() -> None:
    pytest.importorskip("ray", reason="Ray is not installed")
    from briefpack.integrations.ray import AssembleBatch

    out = AssembleBatch(tokenizer="approx")(
        {"question": ["How long is leave?"] * 2, "candidates": [[dict(ROW)], ["plain"]]}
    )
    assert [json.loads(r)["sources"][0]["id"] for r in out["record"]] == ["c1", "0"]
