"""Greedy budget packing and MMR selection (reference kernels)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

from .._checks import (
    check_count,
    check_unit_interval,
    check_vector,
    check_vectors,
    choice,
    type_name,
)
from .._types import PackResult
from ..errors import InputError

__all__ = ["OVERFLOWS", "mmr", "pack"]

OVERFLOWS = ("stop", "skip")


def check_overflow(overflow: object) -> str:
    return str(choice("overflow", overflow, OVERFLOWS))


def pack(
    costs: Sequence[int], budget: int, overflow: Literal["stop", "skip"] = "stop"
) -> PackResult:
    """Place items greedily in rank order while their costs fit in ``budget``.

    ``overflow="stop"`` stops at the first item that does not fit (nothing ranked lower is
    placed); ``"skip"`` passes over it and tries the smaller items below. Items are never cut.

    >>> pack([40, 30, 50, 10], 80)
    PackResult(kept=[0, 1], used=70)
    >>> pack([40, 30, 50, 10], 80, overflow="skip")
    PackResult(kept=[0, 1, 3], used=80)
    """
    check_count("budget", budget)
    check_overflow(overflow)
    if isinstance(costs, (str, bytes)) or not isinstance(costs, Sequence):
        raise InputError(f"costs must be a list of int, got {type_name(costs)}")
    checked = [check_count(f"costs[{i}]", c) for i, c in enumerate(costs)]
    kept: list[int] = []
    used = 0
    for i, cost in enumerate(checked):
        if used + cost <= budget:
            kept.append(i)
            used += cost
        elif overflow == "stop":
            break
    return PackResult(kept, used)


def _cos(u: list[float], v: list[float]) -> float:
    """Cosine of two unit vectors, clamped to [-1, 1] and rounded to 6 decimals as cosine dedupe
    reports it (so both backends score from the same numbers, and a tie is a tie in both)."""
    c = min(1.0, max(-1.0, math.fsum(x * y for x, y in zip(u, v))))
    return math.floor(c * 1e6 + 0.5) / 1e6


def _unit(v: list[float]) -> list[float]:
    # Scale by a power of two first: exact, so the result is unchanged for ordinary vectors,
    # but the squares can then neither overflow (|x| > 1e154) nor all underflow (|x| < 1e-162).
    e = math.frexp(max(abs(x) for x in v))[1]
    v = [math.ldexp(x, -e) for x in v]
    norm = math.sqrt(math.fsum(x * x for x in v))
    return [x / norm for x in v]


def mmr(
    query_vector: Any,
    vectors: Any,
    k: int | None = None,
    lambda_: float = 0.5,
    *,
    relevance: Sequence[float] | None = None,
) -> list[int]:
    """Maximal marginal relevance: pick ``k`` items greedily by ``λ·rel − (1−λ)·max sim``.

    ``rel`` is the cosine of each vector to ``query_vector``, or, when ``query_vector`` is None,
    the given ``relevance`` (e.g. the retriever's scores). ``max sim`` is the largest cosine to
    the items already picked (0 before the first pick). Ties go to the earlier (better-ranked)
    item. ``k=None`` orders every item. Returns the picked indices in pick order.

    >>> mmr([1, 0], [[1, 0], [0.99, 0.1], [0.6, 0.8]], k=2, lambda_=0.3)
    [0, 2]
    """
    rows = [_unit(v) for v in check_vectors(vectors)]
    lam = check_unit_interval("lambda_", lambda_)
    n = len(rows)
    if k is None:
        k = n
    check_count("k", k)
    if query_vector is not None:
        q = check_vector("query_vector", query_vector)
        if rows and len(q) != len(rows[0]):
            raise InputError(f"query_vector has dimension {len(q)} but vectors have {len(rows[0])}")
        q = _unit(q)
        rel = [_cos(q, v) for v in rows]
    elif relevance is not None:
        if len(relevance) != n:
            raise InputError(f"relevance has {len(relevance)} entries for {n} vectors")
        rel = []
        for i, r in enumerate(relevance):
            if isinstance(r, bool) or not isinstance(r, (int, float)) or not math.isfinite(r):
                raise InputError(f"relevance[{i}] must be a finite number, got {r!r}")
            rel.append(float(r))
    else:
        raise InputError("mmr needs query_vector or relevance")
    picked: list[int] = []
    best_sim = [-math.inf] * n  # max cosine to the picked items; unused before the first pick
    remaining = list(range(n))
    while remaining and len(picked) < k:
        best_i, best_score = -1, -math.inf
        for i in remaining:
            score = lam * rel[i] - (1.0 - lam) * (best_sim[i] if picked else 0.0)
            if score > best_score:
                best_i, best_score = i, score
        picked.append(best_i)
        remaining.remove(best_i)
        chosen = rows[best_i]
        for i in remaining:
            c = _cos(rows[i], chosen)
            if c > best_sim[i]:
                best_sim[i] = c
    return picked
