"""Jaccard dedupe at corpus scale: the Rust kernel against the reference on workload batches.

The hypothesis suites (``test_parity_dedupe.py``) cover small batches with every edge; this
file covers what only large batches do: long posting lists of shared rare words, many
identical word sets (exact copies, and copies that differ only in case or punctuation), near
copies of near copies, and the bench's own workload (``benches/workload.py``). The reference
is O(n * kept) in pure Python, so the batch is 3,000 texts (~10 s a threshold); the slow
hypothesis profile adds more thresholds. Skipped without ``../shared/corpus``.
"""

from __future__ import annotations

import importlib.util
import os
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from briefpack import reference
from conftest import CORPUS, HAS_RUST

if not HAS_RUST:
    pytest.skip("the Rust extension is not built", allow_module_level=True)
if not CORPUS.is_file():
    pytest.skip("the corpus (../shared/corpus) is absent", allow_module_level=True)

from briefpack import _core

N = 3000
THRESHOLDS = [0.7] if os.environ.get("HYPOTHESIS_PROFILE") != "slow" else [0.3, 0.5, 0.7, 0.9]


def _workload() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "benches" / "workload.py"
    spec = importlib.util.spec_from_file_location("_bench_workload", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def workload_texts() -> list[str]:
    return list(_workload().texts(N))


@pytest.fixture(scope="module")
def same_set_texts(workload_texts: list[str]) -> list[str]:
    """Workload texts plus variants with the same word set but other text (case, punctuation,
    order), copies of those, and near copies of near copies, shuffled into the ranking."""
    rng = random.Random(11)
    base = workload_texts[: N // 2]
    extra: list[str] = []
    for _ in range(N // 2):
        words = rng.choice(base + extra if extra else base).split()
        kind = rng.random()
        if kind < 0.3:
            words = [w.upper() if rng.random() < 0.5 else w for w in words]
        elif kind < 0.5:
            words = [w + "," for w in words[::-1]]
        elif kind < 0.9:
            for _ in range(rng.randint(1, 4)):
                words[rng.randrange(len(words))] = rng.choice(["alpha", "beta", "gamma", "δ"])
        extra.append(" ".join(words))
    out = base + extra
    # Mostly keep the originals first, but let some variants outrank their sources.
    for _ in range(N // 10):
        i, j = rng.randrange(len(out)), rng.randrange(len(out))
        out[i], out[j] = out[j], out[i]
    return out


def _check(texts: list[str], threshold: float) -> tuple[list[int], list[int | None], list]:
    want = tuple(reference.dedupe_jaccard(texts, threshold=threshold))
    got = _core.dedupe_jaccard(texts, threshold=threshold)
    assert got == want
    return got


@pytest.mark.parametrize("threshold", THRESHOLDS)
def test_workload_matches_reference(workload_texts: list[str], threshold: float) -> None:
    kept, dup, _ = _check(workload_texts, threshold)
    assert len(kept) < len(workload_texts)
    # Exact copies are answered without probing: they must point at the first kept copy.
    first: dict[str, int] = {}
    for i, text in enumerate(workload_texts):
        j = first.setdefault(text, i)
        if j != i and text.strip():
            assert dup[i] == (j if dup[j] is None else dup[j])


@pytest.mark.parametrize("threshold", THRESHOLDS)
def test_identical_word_sets_match_reference(same_set_texts: list[str], threshold: float) -> None:
    _check(same_set_texts, threshold)
