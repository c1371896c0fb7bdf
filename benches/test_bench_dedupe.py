"""Rust core vs the pure-Python reference: Jaccard and MinHash dedupe on 1k passages.

A plain ``pytest`` run executes each case once (``--benchmark-disable`` is in addopts) as a
smoke test that also checks both backends agree. Time it with:

    python -m pytest benches/test_bench_dedupe.py --benchmark-enable \
        --benchmark-columns=median,min,rounds

The reference is O(n * kept) in pure Python, so its cases run a fixed 3 rounds.
Uses 1,000 passages of ``../shared/corpus`` when present (plus 100 near copies), else
synthetic text with the same shape.

``test_jaccard_workload`` times the Rust Jaccard kernel on ``benches/workload.py`` batches at
serving sizes (50, 200, 1,000 candidates, checked against the reference); set
``BRIEFPACK_BENCH_100K=1`` to add the 100,000-candidate row (a few seconds a round, not
checked against the reference, which would take hours).
"""

from __future__ import annotations

import gzip
import json
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from briefpack import reference

try:
    from briefpack import _core

    HAS_RUST = hasattr(_core, "dedupe_jaccard")
except ImportError:
    HAS_RUST = False

# ../shared/ sits beside the repository in development and CI (as in tests/conftest.py).
CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "passages.jsonl.gz"

N = 1000


def _passages(n: int) -> list[str]:
    rng = random.Random(7)
    if CORPUS.is_file():
        with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
            rows = [json.loads(line)["text"] for line in fh]
        texts = rng.sample(rows, n)
    else:
        vocab = [f"w{i}" for i in range(5000)]
        texts = [" ".join(rng.choices(vocab, k=rng.randint(60, 250))) for _ in range(n)]
    copies = []
    for _ in range(n // 10):
        words = rng.choice(texts).split(" ")
        for _ in range(3):
            words[rng.randrange(len(words))] = "edited"
        copies.append(" ".join(words))
    out = texts + copies
    rng.shuffle(out)
    return out


TEXTS = _passages(N)
CASES = {
    "jaccard-0.7": ("dedupe_jaccard", {"threshold": 0.7}),
    "jaccard-0.5": ("dedupe_jaccard", {"threshold": 0.5}),
    "minhash-0.8": ("dedupe_minhash", {"threshold": 0.8}),
}
_REFERENCE_RESULTS: dict[str, Any] = {}


def _reference(case: str) -> Any:
    if case not in _REFERENCE_RESULTS:
        name, kwargs = CASES[case]
        _REFERENCE_RESULTS[case] = tuple(getattr(reference, name)(TEXTS, **kwargs))
    return _REFERENCE_RESULTS[case]


@pytest.mark.parametrize("case", list(CASES))
def test_rust(benchmark: Any, case: str) -> None:
    if not HAS_RUST:
        pytest.skip("the Rust extension is not built")
    name, kwargs = CASES[case]
    func: Callable[..., Any] = getattr(_core, name)
    benchmark.group = case
    benchmark.extra_info["passages"] = len(TEXTS)
    result = benchmark(func, TEXTS, **kwargs)
    assert result == _reference(case)


@pytest.mark.parametrize("case", list(CASES))
def test_reference(benchmark: Any, case: str) -> None:
    name, kwargs = CASES[case]
    func: Callable[..., Any] = getattr(reference, name)
    benchmark.group = case
    benchmark.extra_info["passages"] = len(TEXTS)
    result = benchmark.pedantic(func, args=(TEXTS,), kwargs=kwargs, rounds=3, iterations=1)
    _REFERENCE_RESULTS.setdefault(case, tuple(result))


def _shingle_strings(texts: list[str], k: int = 3) -> list[list[str]]:
    """Each text's ``k``-word shingles as strings, from the reference's words (as ours)."""
    from briefpack.reference.text import words

    out = []
    for text in texts:
        w = words(text)
        k_ = min(k, len(w))
        out.append([" ".join(w[i : i + k_]) for i in range(len(w) - k_ + 1)] if w else [])
    return out


def test_rensa_minhash(benchmark: Any) -> None:
    """rensa on the same job, in the minhash group: 128 permutations, our bands, shingles of
    our words built outside the timed region (kernel against kernel). Its decisions are not
    the reference's (another hash family); ``extra_info`` counts the differing ones."""
    rensa = pytest.importorskip("rensa")
    from briefpack.reference.dedupe import lsh_bands

    bands, _ = lsh_bands(128, 0.8)
    shingles = _shingle_strings(TEXTS)

    def run() -> set[int]:
        lsh = rensa.RMinHashLSH(threshold=0.8, num_perm=128, num_bands=bands)
        kept = set()
        for i, sh in enumerate(shingles):
            if not sh:
                continue
            m = rensa.RMinHash(num_perm=128, seed=42)
            m.update(sh)
            if not lsh.query(m):
                lsh.insert(i, m)
                kept.add(i)
        return kept

    benchmark.group = "minhash-0.8"
    benchmark.extra_info["passages"] = len(TEXTS)
    kept = benchmark(run)
    exact_kept = _reference("minhash-0.8")[0]
    benchmark.extra_info["decisions_different_from_reference"] = len(
        kept.symmetric_difference(exact_kept)
    )


sys.path.insert(0, str(Path(__file__).resolve().parent))
import workload  # noqa: E402  (benches/ is not a package)

WORKLOAD_SIZES = [50, 200, 1000] + ([100_000] if os.environ.get("BRIEFPACK_BENCH_100K") else [])


@pytest.mark.parametrize("n", WORKLOAD_SIZES)
def test_jaccard_workload(benchmark: Any, n: int) -> None:
    if not HAS_RUST:
        pytest.skip("the Rust extension is not built")
    texts = workload.texts(n)
    benchmark.group = f"jaccard-0.7-workload-{n}"
    benchmark.extra_info["candidates"] = n
    benchmark.extra_info["bytes"] = sum(len(t.encode()) for t in texts)
    result = benchmark(_core.dedupe_jaccard, texts, threshold=0.7)
    assert len(result[0]) < n
    if n <= 1000:
        assert result == tuple(reference.dedupe_jaccard(texts, threshold=0.7))
