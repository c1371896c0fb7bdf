"""Sentence scoring (compression's built-in scorer): 1,000 sentences, Rust vs the reference.

A plain ``pytest benches`` run executes each case once as a smoke test; time it with:

    python -m pytest benches/test_bench_sentences.py --benchmark-enable \
        --benchmark-columns=median,min,rounds

The sentences are the first 1,000 of the passages of ``benches/workload.py`` (the real corpus
when it is there), split by ``split_sentences``; the question is a corpus-style one. The goal
(issue #25): scoring 1,000 sentences takes at most 1 ms in Rust. ``compress_100kb`` is the
compression of one 100 KB source (``compress="all"``), at 50 KB and 100 KB, to see that it
grows linearly.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import briefpack as bp
import workload
from briefpack._backend import get_kernels
from briefpack.sentences import split_sentences

QUESTION = "How do I configure the network interface after the upgrade?"


def _sentences(n: int) -> list[str]:
    out: list[str] = []
    for text in workload.texts(400):
        out.extend(split_sentences([text])[0])
        if len(out) >= n:
            break
    return out[:n]


SENTENCES = _sentences(1_000)


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_score_1000_sentences(benchmark, backend: str) -> None:  # type: ignore[no-untyped-def]
    kernels = get_kernels(backend)
    benchmark.group = "score 1,000 sentences"
    scores = benchmark.pedantic(
        kernels.score_sentences,
        args=(QUESTION, SENTENCES, SENTENCES),
        rounds=1 if backend == "python" else 20,
        iterations=1,
    )
    assert len(scores) == len(SENTENCES)


@pytest.mark.parametrize("kb", [50, 100])
def test_compress_one_source(benchmark, kb: int) -> None:  # type: ignore[no-untyped-def]
    text = ""
    pool = workload.texts(2_000)
    while len(text) < kb * 1000:
        text += " ".join(pool)[: kb * 1000 - len(text)]
    benchmark.group = "compress one source"
    a = benchmark.pedantic(
        bp.assemble,
        args=(QUESTION, [text]),
        kwargs={"budget": 100_000, "compress": "all", "tokenizer": "cl100k_base"},
        rounds=3,
        iterations=1,
    )
    assert a.sources
