"""Running one stage alone: a checked request's items and context, and readers of the result."""

from __future__ import annotations

from typing import Any

import briefpack as bp
from briefpack._backend import get_kernels
from briefpack._stages import budget, evict, intake
from briefpack._stages.context import Item, Request
from briefpack._stages.framing import frame
from briefpack._stages.layout import lay_out
from briefpack._stages.phases import Fitted, Packed


def start(
    backend: str,
    candidates: list[Any],
    *,
    question: str = "q",
    history: Any = None,
    query_vector: Any = None,
    **options: Any,
) -> tuple[list[Item], Request]:
    """The items and request a stage receives for this request (before any stage ran)."""
    options = {"tokenizer": "approx", "budget": 1000, **options}
    opts = bp.Options(backend=backend, **options)
    req, items = intake.start(
        opts, get_kernels(backend), question, candidates, history, query_vector
    )
    return items, req


def ids(items: list[Item]) -> list[str | None]:
    return [it.chunk.id for it in items]


def drops(req: Request) -> dict[str | None, tuple[str, dict[str, Any]]]:
    """What the ledger holds: candidate id -> (reason, detail)."""
    return {d.chunk.id: (d.reason, dict(d.detail)) for d in req.ledger.dropped()}


def packed_of(items: list[Item], req: Request) -> Packed:
    """``items`` as the budget stage would hand them on if all were placed, none priced."""
    n = len(items)
    return Packed(frame(req), list(items), [None] * n, [None] * n, str(max(1, n)))


def tail(items: list[Item], req: Request) -> Fitted:
    """The plan's tail on ``items``: budget, order, label, render, evict."""
    packed = budget.run(items, req)
    return evict.run(req, packed, lay_out(req, packed))
