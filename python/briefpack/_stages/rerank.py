"""Stage 4, rerank (after expansion): a caller's ``(question, chunks) -> scores`` re-scores.

Items are re-sorted by the new score, best first, stably (ties keep their order), and each
item's chunk carries its new score. The scores must be finite numbers, one per item. O(n log n)
plus the caller's function.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .._checks import call_back, real, shown, type_name
from ..errors import InputError
from .context import Item, Request

__all__ = ["run"]


def run(items: list[Item], req: Request) -> list[Item]:
    """Re-score with ``options.rerank`` and re-sort (stable)."""
    rerank = req.options.rerank
    if not items or rerank is None:
        return items
    where = f"rerank(question, {len(items)} chunks)"
    scores = call_back("rerank", where, rerank, req.question, [it.chunk for it in items])
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence):
        try:
            scores = list(scores)
        except TypeError:
            raise InputError(
                f"rerank must return a list of floats, got {type_name(scores)}", option="rerank"
            ) from None
    if len(scores) != len(items):
        raise InputError(
            f"rerank returned {len(scores)} scores for {len(items)} chunks", option="rerank"
        )
    checked = []
    for i, s in enumerate(scores):
        x = real(s)
        if x is None or not math.isfinite(x):
            raise InputError(
                f"{req.name(items[i])}: rerank returned {shown(s)} for it (position {i} of the "
                f"{len(items)} chunks passed); scores must be finite numbers",
                option="rerank",
            )
        checked.append(x)
    out = []
    for i in sorted(range(len(items)), key=lambda i: -checked[i]):
        it = items[i]
        it.chunk = it.chunk.replace(score=checked[i])
        out.append(it)
    return out
