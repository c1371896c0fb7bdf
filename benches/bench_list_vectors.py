"""50 x 1536 list embeddings: assemble before/after ``_core.vector_matrix``, and the drop-ins.

Interleaved runs, medians. The "numpy cosine filter" is what LangChain's
``EmbeddingsRedundantFilter`` computes (list -> array, normalise, Gram matrix, drop the later of
each pair over the threshold), for when ``langchain_community`` is not installed. Needs numpy,
haystack-ai and langchain-core:

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=python python3 benches/bench_list_vectors.py 60
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from haystack import Document
from langchain_core.documents import Document as LangChainDocument
from langchain_core.embeddings import Embeddings

import briefpack as bp
from briefpack._stages import vectors as stage
from briefpack.integrations.haystack import BriefpackPromptBuilder
from briefpack.integrations.langchain import BriefpackCompressor

N, DIM, THRESHOLD = 50, 1536, 0.95
rng = np.random.default_rng(0)
x = rng.standard_normal((N, DIM))
x[1::5] = x[0::5] + 0.05 * rng.standard_normal((N // 5, DIM))  # every fifth pair a near copy
LISTS: list[list[float]] = x.tolist()
TEXTS = [f"passage {i} about topic {i % 7} with some words" for i in range(N)]
CANDS = [bp.Chunk(TEXTS[i], id=str(i), vector=LISTS[i], score=1 - i / 1000) for i in range(N)]
OWN = {"dedupe": "cosine", "threshold": THRESHOLD, "tokenizer": "approx", "budget": 100_000}


def after() -> Any:
    return bp.assemble("q", CANDS, backend="rust", **OWN)


def before() -> Any:
    real = stage._core_matrix
    stage._core_matrix = lambda items, name_of: None
    try:
        return after()
    finally:
        stage._core_matrix = real


def numpy_filter() -> list[str]:
    m = np.array(LISTS)
    m = m / np.linalg.norm(m, axis=1, keepdims=True)
    pairs = np.argwhere(m @ m.T > THRESHOLD)
    drop = {int(j) for i, j in pairs if i < j}
    return [TEXTS[i] for i in range(N) if i not in drop]


DOCS = [
    Document(id=str(i), content=t, embedding=LISTS[i], score=1 - i / 1000)
    for i, t in enumerate(TEXTS)
]
HAYSTACK = BriefpackPromptBuilder(**OWN)


class Fixed(Embeddings):
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [LISTS[int(t.split()[1])] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return LISTS[0]


LDOCS = [LangChainDocument(t, id=str(i)) for i, t in enumerate(TEXTS)]
LANGCHAIN = BriefpackCompressor(embeddings=Fixed(), **OWN)

FNS: dict[str, Callable[[], Any]] = {
    "assemble, Python checks (before)": before,
    "assemble, core matrix (after)": after,
    "Haystack drop-in": lambda: HAYSTACK.run(documents=DOCS, query="q"),
    "LangChain drop-in": lambda: LANGCHAIN.compress_documents(LDOCS, "q"),
    "numpy cosine filter": numpy_filter,
}


def main(rounds: int) -> None:
    assert len(before().sources) == len(after().sources) == len(numpy_filter()) == N - N // 5
    times: dict[str, list[float]] = {k: [] for k in FNS}
    for f in FNS.values():
        f()
    for _ in range(rounds):
        for k, f in FNS.items():
            t0 = time.perf_counter()
            f()
            times[k].append(time.perf_counter() - t0)
    for k, v in times.items():
        print(f"{k:36s} median {statistics.median(v) * 1e3:7.2f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
