"""Concurrent calls give the same answers as serial calls (8 threads, shared inputs)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import briefpack as bp
from briefpack._backend import get_kernels
from briefpack.kernels import dedupe_exact, dedupe_jaccard, dedupe_minhash, pack

TEXTS = [
    f"Passage {i % 37} about relocation caps, parental leave and budgets, version {i % 5}."
    for i in range(400)
] + ["東京の移転上限は4000ユーロです。", "Ünïcode ąćęłńóśźż", "", "   "]
CANDIDATES: list[object] = [
    {"text": t, "doc": f"d{i % 7}", "score": 0.5, "meta": {"k": [t]}}
    if i % 2
    else bp.Chunk(t, id=f"c{i}", position=i)
    for i, t in enumerate(TEXTS)
]
"""Shared by every thread: dicts (no ids: automatic ones) and Chunks (intake's fast path)."""


def _same_in_threads(fn: Callable[[], Any], threads: int = 8, calls: int = 6) -> None:
    serial = fn()
    with ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(lambda _: fn(), range(threads * calls)))
    assert all(r == serial for r in results)


@pytest.mark.parametrize(
    "fn",
    [
        lambda: bp.count_tokens(TEXTS, "o200k_base"),
        lambda: bp.count_tokens(TEXTS, "cl100k_base"),
        lambda: tuple(dedupe_exact(TEXTS)),
        lambda: tuple(dedupe_jaccard(TEXTS, 0.6)),
        lambda: tuple(dedupe_minhash(TEXTS, 0.5)),
        lambda: tuple(pack([len(t) for t in TEXTS], 5000, "skip")),
        lambda: bp.split_sentences(TEXTS),
        lambda: get_kernels("auto").score_sentences("relocation caps version 3", TEXTS, TEXTS),
        lambda: get_kernels("auto").select_sentences(TEXTS, [float(len(t)) for t in TEXTS], 80),
        lambda: tuple(
            get_kernels("auto").price_pack(
                [bp.Chunk(t, title=f"[{i}] <{t[:9]}>") for i, t in enumerate(TEXTS)],
                "xml",
                "404",
                3000,
                1,
                "skip",
                "o200k_base",
            )
        ),
        lambda: get_kernels("auto").intake(CANDIDATES),
    ],
    ids=[
        "count-o200k",
        "count-cl100k",
        "exact",
        "jaccard",
        "minhash",
        "pack",
        "split-sentences",
        "score-sentences",
        "select-sentences",
        "price-pack",
        "intake",
    ],
)
def test_kernels_in_threads(fn: Callable[[], Any]) -> None:
    _same_in_threads(fn)


def test_assemble_in_threads() -> None:
    cands = [bp.Chunk(t, id=f"c{i}", doc=f"d{i % 7}") for i, t in enumerate(TEXTS)]

    def run() -> tuple[str, str, list[str]]:
        a = bp.assemble("What is the relocation cap?", cands, budget=2000, order="round_robin")
        return a.system, a.user, [d.reason for d in a.dropped]

    _same_in_threads(run, calls=3)
