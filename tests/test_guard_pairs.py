"""The labelled dedupe pair set (tests/data/guard_pairs.jsonl, built by scripts/guard_pairs.py).

The format is checked always; that every id names a corpus passage, that synthetic recipes
rebuild, that ``copy`` labels hold and that no document sits in both splits, only when the
shared corpus (``../shared/corpus`` beside the checkout) is there.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conftest import CORPUS

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "tests" / "data" / "guard_pairs.jsonl"
sys.path.insert(0, str(ROOT / "scripts"))

import guard_pairs as gp  # noqa: E402

LABELS = {"copy", "near_copy", "sibling"}
SPLITS = {"tune", "heldback"}
EDITS = set(gp.NEAR_EDITS) | set(gp.SIBLING_EDITS)
needs_corpus = pytest.mark.skipif(not CORPUS.is_file(), reason="the shared corpus is not present")


@cache
def pairs() -> tuple[dict[str, Any], ...]:
    lines = PAIRS.read_text(encoding="utf-8").splitlines()
    return tuple(json.loads(line) for line in lines)


@cache
def corpus() -> dict[str, dict[str, Any]]:
    return {str(r["id"]): r for r in gp.load_corpus(CORPUS)}


def test_every_row_has_the_documented_fields() -> None:
    rows = pairs()
    assert len(rows) > 1000
    for p in rows:
        assert p["label"] in LABELS, p
        assert p["split"] in SPLITS, p
        assert isinstance(p["a"], str), p
        assert isinstance(p["b"], str), p
        assert "text" not in p, "the pair file must not carry passage text"
        if p["kind"] == "real":
            assert set(p) <= {
                "kind",
                "a",
                "b",
                "inter",
                "union",
                "minhash_at",
                "label",
                "rule",
                "split",
                "read",
                "rule_label",
            }, p
            assert 0 < p["inter"] <= p["union"], p
            assert p["inter"] / p["union"] >= gp.JOIN_FLOOR or p["minhash_at"], p
            assert set(p["minhash_at"]) <= set(gp.THRESHOLDS), p
            assert p["a"] < p["b"], "a real pair names the earlier-ranked passage first"
        else:
            assert p["kind"] == "synthetic", p
            assert p["a"] == p["b"], p
            assert p["recipe"]["edit"] in EDITS, p
            assert isinstance(p["recipe"]["seed"], int), p
            if p["label"] != "copy":
                want = "near_copy" if p["recipe"]["edit"] in gp.NEAR_EDITS else "sibling"
                assert p["label"] == want, p


def test_pairs_are_unique_and_the_mix_is_there() -> None:
    rows = pairs()
    keys = [(p["a"], p["b"], json.dumps(p.get("recipe"), sort_keys=True)) for p in rows]
    assert len(keys) == len(set(keys))
    mix = Counter((p["kind"], p["label"]) for p in rows)
    for kind in ("real", "synthetic"):
        for label in LABELS:
            assert mix[(kind, label)] > 0, (kind, label, mix)
    held = sum(p["split"] == "heldback" for p in rows) / len(rows)
    assert 0.25 <= held <= 0.35, held


def test_read_pairs_are_counted_and_relabels_say_what_the_rule_said() -> None:
    read = [p for p in pairs() if p.get("read")]
    assert len(read) == len(gp.READ)
    for p in read:
        assert gp.READ[(p["a"], p["b"])] == p["label"]
        if "rule_label" in p:
            assert p["rule_label"] != p["label"]


@needs_corpus
def test_every_id_is_a_corpus_passage_of_the_english_and_code_part() -> None:
    rows = corpus()
    assert len(rows) == 14_646
    for p in pairs():
        assert p["a"] in rows, p
        assert p["b"] in rows, p
        if "from" in p.get("recipe", {}):
            assert p["recipe"]["from"] in rows, p


@needs_corpus
def test_real_pairs_carry_the_kernels_numbers() -> None:
    rows = corpus()
    sample = [p for p in pairs() if p["kind"] == "real"][::37]
    for p in sample:
        a, b = str(rows[p["a"]]["text"]), str(rows[p["b"]]["text"])
        sa, sb = gp.word_sets([a, b])
        assert (len(sa & sb), len(sa | sb)) == (p["inter"], p["union"]), p
        assert gp.pair_thresholds(a, b)["minhash"] == p["minhash_at"], p
        assert (p["label"] == "copy") == (gp.copy_key(a) == gp.copy_key(b)), p


@needs_corpus
def test_synthetic_recipes_rebuild_and_their_labels_hold() -> None:
    rows = corpus()
    for p in pairs():
        if p["kind"] != "synthetic":
            continue
        text = str(rows[p["a"]]["text"])
        other = str(rows[p["recipe"]["from"]]["text"]) if "from" in p["recipe"] else ""
        new = gp.apply_recipe(text, p["recipe"], other)
        assert new is not None, p
        assert new != text, p
        assert (p["label"] == "copy") == (gp.copy_key(new) == gp.copy_key(text)), p


@needs_corpus
def test_no_document_is_in_both_splits() -> None:
    rows = corpus()
    where: dict[str, set[str]] = {}
    for p in pairs():
        for pid in (p["a"], p["b"]):
            where.setdefault(str(rows[pid]["doc"]), set()).add(p["split"])
    both = [doc for doc, splits in where.items() if len(splits) > 1]
    assert not both, both[:5]
