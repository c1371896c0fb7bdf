"""``assemble`` end to end: the Rust backend vs the pure-Python reference, side by side.

A plain ``pytest benches`` run executes each case once as a smoke test; time it with:

    python -m pytest benches/test_bench_assemble.py --benchmark-enable \
        --benchmark-columns=median,min,rounds

Candidates come from ``benches/workload.py`` (real passages from ``../shared/corpus`` when it is
there, with ~10% exact copies, ~10% near copies and ~20% overlapping windows). The reference
runs only up to 1,000 candidates (it is quadratic in pure Python).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import briefpack as bp
import workload

QUESTION = "How do I configure the network interface?"
# 100,000 candidates take seconds per round: opt in with BRIEFPACK_BENCH_LARGE=1.
SIZES = [50, 200, 1_000, 10_000] + ([100_000] if os.environ.get("BRIEFPACK_BENCH_LARGE") else [])


def _cold() -> None:
    """An empty token-count cache: a request whose chunks were never seen before."""
    core = getattr(bp, "_core", None)
    if core is not None and hasattr(core, "set_token_cache_capacity"):
        core.set_token_cache_capacity(0)
        core.set_token_cache_capacity(65_536)


@pytest.fixture(scope="module", params=SIZES, ids=lambda n: f"n={n}")
def cands(request: pytest.FixtureRequest) -> list[bp.Chunk]:
    return [bp.Chunk(**c) for c in workload.candidates(int(request.param))]  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_assemble(benchmark, cands: list[bp.Chunk], backend: str) -> None:  # type: ignore[no-untyped-def]
    if backend == "python" and len(cands) > 1_000:
        pytest.skip("the reference is too slow at this size")
    benchmark.group = f"assemble n={len(cands)}"
    rounds = 1 if backend == "python" or len(cands) > 10_000 else 5
    result = benchmark.pedantic(
        bp.assemble,
        args=(QUESTION, cands),
        kwargs={"budget": 12_000, "backend": backend, "tokenizer": "cl100k_base"},
        setup=_cold,  # cold caches, as the reference has none
        rounds=rounds,
        iterations=1,
    )
    assert result.sources
