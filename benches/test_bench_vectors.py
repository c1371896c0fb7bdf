"""Cosine dedupe: the Rust core vs numpy's Gram-matrix greedy vs the reference.

Data: float32 vectors (dim 1024) drawn around topic centres with a shared offset (pairwise
cosines mostly 0.05-0.2, same-topic ~0.5) and 10% perturbed copies of earlier rows (cosine
~0.96-0.999; ~8.4% end up above the threshold 0.97). Every benchmark checks that its answer
equals the numpy peer's, so a speed-up can never come from a different result.

A second workload uses real text: signed hashed bag-of-words vectors (dim 1024) of the first
5000 passages of the shared corpus, threshold 0.9 (sparse, with most energy in the buckets of
common words; skipped when ``../shared/corpus`` is absent).

Run with timings: ``python -m pytest benches/test_bench_vectors.py --benchmark-enable``
(a plain ``pytest`` run executes each case once as a smoke test).
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from briefpack import reference

try:
    from briefpack import _core
except ImportError:
    _core = None

DIM = 1024
THRESHOLD = 0.97
CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "passages.jsonl.gz"
CORPUS_N = 5000
CORPUS_THRESHOLD = 0.9

pytestmark = pytest.mark.skipif(
    not hasattr(_core, "dedupe_cosine"), reason="briefpack._core lacks dedupe_cosine"
)


@cache
def clustered(n: int, dim: int = DIM, seed: int = 0, copies: float = 0.1) -> np.ndarray:
    """Random-but-clustered float32 vectors with ~`copies` near copies of earlier rows."""
    rng = np.random.default_rng(seed)
    topics = rng.standard_normal((max(1, n // 50), dim), dtype=np.float32)
    common = 0.5 * rng.standard_normal(dim, dtype=np.float32)
    x = topics[rng.integers(len(topics), size=n)] + common
    x += rng.standard_normal((n, dim), dtype=np.float32)
    k = int(n * copies)
    dst = np.sort(rng.choice(np.arange(1, n), size=k, replace=False))
    src = (rng.random(k) * dst).astype(np.int64)
    eps = rng.uniform(0.05, 0.4, size=(k, 1)).astype(np.float32)
    x[dst] = x[src] + eps * rng.standard_normal((k, dim), dtype=np.float32)
    return np.ascontiguousarray(x, dtype=np.float32)


def numpy_gram_greedy(x: np.ndarray, threshold: float) -> tuple[list[int], list[Any], list[Any]]:
    """The numpy peer: all cosines at once with ``G = X @ X.T``, then the greedy pass."""
    u = x / np.linalg.norm(x, axis=1, keepdims=True)
    g = u @ u.T
    n = len(x)
    kept = np.zeros(n, dtype=bool)
    dup: list[Any] = [None] * n
    sim: list[Any] = [None] * n
    for i in range(n):
        hits = np.flatnonzero((g[i, :i] >= threshold) & kept[:i])
        if hits.size:
            dup[i], sim[i] = int(hits[0]), float(g[i, hits[0]])
        else:
            kept[i] = True
    return np.flatnonzero(kept).tolist(), dup, sim


@cache
def expected(n: int) -> tuple[list[int], list[Any]]:
    kept, dup, _ = numpy_gram_greedy(clustered(n), THRESHOLD)
    return kept, dup


def rust(x: np.ndarray) -> Any:
    return _core.dedupe_cosine(x, THRESHOLD)


def python_reference(x: np.ndarray) -> Any:
    return tuple(reference.dedupe_cosine(x, threshold=THRESHOLD))


def numpy_gram(x: np.ndarray) -> Any:
    return numpy_gram_greedy(x, THRESHOLD)


BACKENDS = {"rust": rust, "numpy-gram": numpy_gram, "reference": python_reference}
ROUNDS = {300: 3, 1000: 5, 10000: 3}
CASES = [
    (300, "rust"),
    (300, "numpy-gram"),
    (300, "reference"),
    (1000, "rust"),
    (1000, "numpy-gram"),
    (10000, "rust"),
    (10000, "numpy-gram"),
]


@pytest.mark.parametrize(("n", "backend"), CASES, ids=[f"{n}-{b}" for n, b in CASES])
def test_bench_dedupe_cosine(benchmark: Any, n: int, backend: str) -> None:
    x = clustered(n)
    fn = BACKENDS[backend]
    benchmark.group = f"dedupe_cosine {n}x{DIM} float32"
    benchmark.extra_info["items_per_call"] = n
    rounds = 1 if backend == "reference" else ROUNDS[n]
    result = benchmark.pedantic(fn, args=(x,), rounds=rounds, iterations=1, warmup_rounds=0)
    kept, dup = expected(n)
    assert list(result[0]) == kept
    assert list(result[1]) == dup
    assert 0.85 * n < len(kept) < 0.95 * n  # the near copies were found


@cache
def corpus_vectors() -> np.ndarray:
    texts = []
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        for line in f:
            texts.append(json.loads(line)["text"])
            if len(texts) == CORPUS_N:
                break
    x = np.zeros((len(texts), DIM), dtype=np.float32)
    for i, text in enumerate(texts):
        for word in re.findall(r"\w+", text.lower()):
            h = zlib.crc32(word.encode())
            x[i, h % DIM] += 1.0 if (h >> 20) & 1 else -1.0
    return x[np.abs(x).sum(axis=1) > 0]


@cache
def corpus_expected() -> list[Any]:
    return numpy_gram_greedy(corpus_vectors(), CORPUS_THRESHOLD)[1]


@pytest.mark.skipif(not CORPUS.is_file(), reason="the shared corpus is absent")
@pytest.mark.parametrize("backend", ["rust", "numpy-gram"])
def test_bench_dedupe_cosine_corpus(benchmark: Any, backend: str) -> None:
    x = corpus_vectors()
    if backend == "rust":
        fn: Any = lambda: _core.dedupe_cosine(x, CORPUS_THRESHOLD)  # noqa: E731
    else:
        fn = lambda: numpy_gram_greedy(x, CORPUS_THRESHOLD)  # noqa: E731
    benchmark.group = f"dedupe_cosine corpus {len(x)}x{DIM} hashed bag-of-words"
    result = benchmark.pedantic(fn, rounds=3, iterations=1, warmup_rounds=0)
    assert list(result[1]) == corpus_expected()


LIST_N, LIST_DIM = 50, 1536


@cache
def list_candidates() -> list[Any]:
    """50 candidates with 1536-d embeddings as Python lists (how frameworks deliver them),
    every fifth pair a near copy."""
    import briefpack as bp

    rng = np.random.default_rng(0)
    x = rng.standard_normal((LIST_N, LIST_DIM))
    x[1::5] = x[0::5] + 0.05 * rng.standard_normal((LIST_N // 5, LIST_DIM))
    return [
        bp.Chunk(f"passage {i}", id=str(i), vector=v, score=1 - i / 1000)
        for i, v in enumerate(x.tolist())
    ]


@pytest.mark.skipif(not hasattr(_core, "vector_matrix"), reason="_core lacks vector_matrix")
@pytest.mark.parametrize("checks", ["core-matrix", "python-loop"])
def test_bench_assemble_list_vectors(
    benchmark: Any, checks: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One ``assemble(dedupe="cosine")`` request on list embeddings: the vectors checked and
    stacked by ``_core.vector_matrix`` vs float by float in Python (the path before it)."""
    import briefpack as bp
    from briefpack._stages import vectors as stage

    if checks == "python-loop":
        monkeypatch.setattr(stage, "_core_matrix", lambda items, name_of: None)
    cands = list_candidates()
    benchmark.group = f"assemble dedupe='cosine' {LIST_N}x{LIST_DIM} list vectors"

    def request() -> Any:
        # the texts "passage i" differ in a number, which the difference guard (on by
        # default) would keep apart; this bench measures the vectors' path, so the cosines decide
        return bp.assemble(
            "q",
            cands,
            dedupe="cosine",
            threshold=0.95,
            budget=100_000,
            tokenizer="approx",
            dedupe_guard=False,
        )

    result = benchmark.pedantic(request, rounds=20, iterations=1, warmup_rounds=1)
    assert len(result.sources) == LIST_N - LIST_N // 5  # every near copy dropped
