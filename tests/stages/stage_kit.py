"""Running one stage alone: a checked request's items and context, and readers of the result."""

from __future__ import annotations

from typing import Any

import briefpack as bp
from briefpack._backend import get_kernels
from briefpack._stages import intake
from briefpack._stages.context import Context, Item


def start(
    backend: str,
    candidates: list[Any],
    *,
    question: str = "q",
    history: Any = None,
    query_vector: Any = None,
    **options: Any,
) -> tuple[list[Item], Context]:
    """The items and context a stage receives for this request (before any stage ran)."""
    options = {"tokenizer": "approx", "budget": 1000, **options}
    opts = bp.Options(backend=backend, **options)
    return intake.start(opts, get_kernels(backend), question, candidates, history, query_vector)


def ids(items: list[Item]) -> list[str | None]:
    return [it.chunk.id for it in items]


def drops(ctx: Context) -> dict[str | None, tuple[str, dict[str, Any]]]:
    """What the ledger holds: candidate id -> (reason, detail)."""
    return {d.chunk.id: (d.reason, dict(d.detail)) for d in ctx.ledger.dropped()}
