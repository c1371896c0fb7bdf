"""Token counting throughput: briefpack's Rust core against tiktoken and quicktok, one group per
encoding.

Counts 10,000 passages of the shared corpus (seven languages and code), or a synthetic
multilingual fallback when the corpus is absent. Run with timing on:

    TIKTOKEN_CACHE_DIR=../shared/tiktoken python -m pytest benches/test_bench_tokens.py \
        --benchmark-enable --benchmark-columns=min,median,max,rounds

Each benchmark records ``tokens`` and ``passages`` in ``extra_info``; tokens/s is ``tokens``
divided by the median. Rust runs on one thread per call, like tiktoken's
``encode_ordinary_batch(num_threads=1)``; "cache warm" is the cost of a batch that hits the
token-count cache for every passage. quicktok (``pip install quicktok-v1``, the ``bench`` extra),
the fastest exact counter we know of, is a peer when installed: a loop of its ``count``.
"""

from __future__ import annotations

import gzip
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus" / "passages.jsonl.gz"
if "TIKTOKEN_CACHE_DIR" not in os.environ and (SHARED / "tiktoken").is_dir():
    os.environ["TIKTOKEN_CACHE_DIR"] = str(SHARED / "tiktoken")

core: Any
try:
    from briefpack import _core as core
except ImportError:  # pragma: no cover - depends on the build
    core = None

N = 10_000
ENCODINGS = ["o200k_base", "cl100k_base"]
DEFAULT_CAPACITY = 65_536


def _synthetic(n: int) -> list[str]:
    rng = random.Random(0)
    vocabulary = (
        "the of and budget context source retrieval passage token model answer "
        "Kontext Quelle Antwort contexte réponse источник ответ 文脈 回答 上下文 答案 "
        "سياق مصدر def return self.value 0 42 3.14 {} [] () == != <= >= -> :: "
    )
    words = vocabulary.split(" ")[:-1]
    return [" ".join(rng.choice(words) for _ in range(rng.randint(80, 300))) for _ in range(n)]


def _passages() -> list[str]:
    if not CORPUS.exists():
        return _synthetic(N)
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        return [json.loads(line)["text"] for _, line in zip(range(N), f)]


TEXTS = _passages()


def _tiktoken(name: str) -> Any:
    tiktoken = pytest.importorskip("tiktoken")
    if not os.environ.get("TIKTOKEN_CACHE_DIR"):
        pytest.skip("TIKTOKEN_CACHE_DIR is not set to the offline vocabularies")
    return tiktoken.get_encoding(name)


def _needs_core() -> None:
    if core is None or not hasattr(core, "count_tokens"):
        pytest.skip("the Rust extension is not built or lacks count_tokens")


def _record(benchmark: Any, counts: list[int]) -> None:
    benchmark.extra_info["passages"] = len(counts)
    benchmark.extra_info["tokens"] = sum(counts)


@pytest.fixture(autouse=True)
def _restore_cache() -> Any:
    yield
    if core is not None and hasattr(core, "set_token_cache_capacity"):
        core.set_token_cache_capacity(DEFAULT_CAPACITY)


@pytest.mark.parametrize("name", ENCODINGS)
def test_briefpack_rust_cache_off(benchmark: Any, name: str) -> None:
    _needs_core()
    benchmark.group = f"count_tokens {name}, {len(TEXTS)} passages"
    core.set_token_cache_capacity(0)
    core.count_tokens(["warm up the vocabulary"], name)
    counts = benchmark.pedantic(core.count_tokens, args=(TEXTS, name), rounds=7, warmup_rounds=1)
    _record(benchmark, counts)


@pytest.mark.parametrize("name", ENCODINGS)
def test_briefpack_rust_cache_warm(benchmark: Any, name: str) -> None:
    _needs_core()
    benchmark.group = f"count_tokens {name}, {len(TEXTS)} passages"
    core.set_token_cache_capacity(DEFAULT_CAPACITY)
    core.count_tokens(TEXTS, name)
    counts = benchmark.pedantic(core.count_tokens, args=(TEXTS, name), rounds=20, warmup_rounds=1)
    assert core.token_cache_info()["hits"] >= len(TEXTS)
    _record(benchmark, counts)


@pytest.mark.parametrize("name", ENCODINGS)
def test_tiktoken_batch_one_thread(benchmark: Any, name: str) -> None:
    enc = _tiktoken(name)
    benchmark.group = f"count_tokens {name}, {len(TEXTS)} passages"

    def run() -> list[int]:
        return [len(t) for t in enc.encode_ordinary_batch(TEXTS, num_threads=1)]

    counts = benchmark.pedantic(run, rounds=7, warmup_rounds=1)
    _record(benchmark, counts)
    if core is not None and hasattr(core, "count_tokens"):
        assert core.count_tokens(TEXTS, name) == counts


@pytest.mark.parametrize("name", ENCODINGS)
def test_tiktoken_loop(benchmark: Any, name: str) -> None:
    enc = _tiktoken(name)
    benchmark.group = f"count_tokens {name}, {len(TEXTS)} passages"

    def run() -> list[int]:
        return [len(enc.encode_ordinary(t)) for t in TEXTS]

    counts = benchmark.pedantic(run, rounds=7, warmup_rounds=1)
    _record(benchmark, counts)


@pytest.mark.parametrize("name", ENCODINGS)
def test_quicktok_count_loop(benchmark: Any, name: str) -> None:
    quicktok = pytest.importorskip("quicktok")
    enc = quicktok.get_encoding(name)
    benchmark.group = f"count_tokens {name}, {len(TEXTS)} passages"
    count = enc.count

    def run() -> list[int]:
        return [count(t) for t in TEXTS]

    counts = benchmark.pedantic(run, rounds=7, warmup_rounds=1)
    _record(benchmark, counts)
    if core is not None and hasattr(core, "count_tokens"):
        assert core.count_tokens(TEXTS, name) == counts
