"""Sentence scoring (compression's built-in scorer): 1,000 sentences, Rust vs the reference.

A plain ``pytest benches`` run executes each case once as a smoke test; time it with:

    python -m pytest benches/test_bench_sentences.py --benchmark-enable \
        --benchmark-columns=median,min,rounds

The sentences are 1,000 of 20 words each, cut from the passages of ``benches/workload.py`` (the
real corpus when it is there); the question is a corpus-style one. The same 1,000 sentences
are also the alias texts (each request's candidates are). The goal
(issue #25): scoring 1,000 sentences takes at most 1 ms in Rust. ``test_compress_one_source`` is the
compression of one 100 KB source (``compress="all"``), at 50 KB and 100 KB, to see that it
grows linearly.

To compare against an older build side by side in the same run, point
``BRIEFPACK_BENCH_OLD_CORE`` at a copy of its ``_core.abi3.so``; the ``rust-old`` cases time it
(and are skipped without it).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import briefpack as bp
import workload
from briefpack._backend import get_kernels
from briefpack.sentences import split_sentences

QUESTION = "How do I configure the network interface after the upgrade?"


def _sentences(n: int, words: int = 20) -> list[str]:
    """``n`` sentences of ``words`` words each (about 115 characters): the workload's passages
    have no sentence ends (synthetic text splits into one sentence per passage), so their
    words are cut into sentences here, each ending in a full stop."""
    # letters and digits only, so no word of a real passage ("itself.", "e.g.") ends a sentence
    pool = [
        w for w in (re.sub(r"[^\w]", "", w) for w in " ".join(workload.texts(400)).split()) if w
    ]
    made = [" ".join(pool[i * words : (i + 1) * words]).capitalize() + "." for i in range(n + 50)]
    # the splitter has the last word: a word it reads as an abbreviation ("Co.") joins two
    out = split_sentences([" ".join(made)])[0][:n]
    assert len(out) == n
    return out


SENTENCES = _sentences(1_000)


def _old_core() -> Any:
    """The extension at ``BRIEFPACK_BENCH_OLD_CORE``, loaded under its own name, or a skip."""
    path = os.environ.get("BRIEFPACK_BENCH_OLD_CORE")
    if not path:
        pytest.skip("set BRIEFPACK_BENCH_OLD_CORE to an older _core.abi3.so to compare")
    # The module's init symbol is PyInit__core, so it is loaded as a top-level "_core".
    spec = importlib.util.spec_from_file_location("_core", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _kernels(backend: str) -> Any:
    return _old_core() if backend == "rust-old" else get_kernels(backend)


@pytest.mark.parametrize("backend", ["rust", "rust-old", "python"])
def test_score_1000_sentences(benchmark, backend: str) -> None:  # type: ignore[no-untyped-def]
    kernels = _kernels(backend)
    benchmark.group = "score 1,000 sentences"
    scores = benchmark.pedantic(
        kernels.score_sentences,
        args=(QUESTION, SENTENCES, SENTENCES),
        rounds=1 if backend == "python" else 20,
        iterations=1,
    )
    assert len(scores) == len(SENTENCES)


@pytest.mark.parametrize("backend", ["rust", "rust-old"])
def test_score_1000_sentences_without_aliases(benchmark, backend: str) -> None:  # type: ignore[no-untyped-def]
    """The same in Rust with no alias texts: the scoring alone, without learning aliases."""
    kernels = _kernels(backend)
    benchmark.group = "score 1,000 sentences"
    scores = benchmark.pedantic(
        kernels.score_sentences, args=(QUESTION, SENTENCES, []), rounds=20, iterations=1
    )
    assert len(scores) == len(SENTENCES)


@pytest.mark.parametrize("kb", [50, 100])
def test_compress_one_source(benchmark, kb: int) -> None:  # type: ignore[no-untyped-def]
    # 20-word sentences (the workload's passages have no sentence ends), cut at kb * 1000 chars
    text = " ".join(_sentences(kb * 10))[: kb * 1000]
    assert len(text) == kb * 1000
    benchmark.group = "compress one source"
    a = benchmark.pedantic(
        bp.assemble,
        args=(QUESTION, [text]),
        kwargs={"budget": 100_000, "compress": "all", "tokenizer": "cl100k_base"},
        rounds=3,
        iterations=1,
    )
    assert a.sources
