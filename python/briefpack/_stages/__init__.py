"""The stages of the pipeline, one module each, in the order the contract fixes.

``plan(options)`` decides once per ``Assembler`` which stages run; the order is the contract and
is not pluggable::

    intake (the request's checks) -> repeated_ids -> supersede -> dedupe -> parents
    -> neighbours -> dedupe again -> rerank -> cap -> mmr -> compress (``"all"``: every
    source cut to its relevant sentences) -> budget (``compress`` on: an item that does not
    fit whole is placed cut, if a cut fits) -> order -> label
    -> render -> evict (budget: while the rendered block is over, drop the lowest-ranked
    placed item and order, label, render again) -> account (the Assembly)

Every stage is ``(items, ctx) -> items`` (see ``context``); it may drop items (through the
ledger, with a typed detail), merge, replace or reorder them, never lose one. Kernels come
from ``ctx.kernels``, so the same stages run on the Rust core and on the reference.

To add a stage: write ``_stages/<name>.py`` with a module doc (algorithm, invariants,
complexity, what was rejected) and ``run(items, ctx)``; add its option(s) to ``Options`` (a
field and a rule); put it in ``plan`` at its place in the contract; add
``tests/stages/test_<name>.py`` (both backends) and let the snapshot show what changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import (
    budget,
    cap,
    compress,
    dedupe,
    label,
    mmr,
    neighbours,
    order,
    parents,
    render,
    repeated_ids,
)
from . import rerank as rerank_stage
from . import supersede as supersede_stage
from .context import Stage

if TYPE_CHECKING:
    from ..options import Options

__all__ = ["plan"]


def plan(options: Options) -> tuple[Stage, ...]:
    """The stages ``options`` need, in the contract's order (from repeated ids to evict).

    >>> from briefpack import Options
    >>> [s.__module__.rsplit(".", 1)[1] for s in plan(Options(max_per_doc=2))]
    ['repeated_ids', 'dedupe', 'cap', 'budget', 'order', 'label', 'render', 'budget']
    """
    o = options
    expands = o.parents is not None or bool(o.neighbors)
    steps: list[tuple[bool, Stage]] = [
        (True, repeated_ids.run),
        (o.supersede is not None, supersede_stage.run),
        (o.dedupe is not None, dedupe.run),
        (o.parents is not None, parents.run),
        (bool(o.neighbors), neighbours.run),
        (expands and o.dedupe is not None, dedupe.run),  # dedupe again
        (o.rerank is not None, rerank_stage.run),
        (o.max_per_doc is not None, cap.run),
        (o.mmr is not None, mmr.run),
        (o.compress == "all", compress.reduce),
        (True, budget.run),
        (True, order.run),
        (True, label.run),
        (True, render.run),
        (True, budget.evict),
    ]
    return tuple(stage for wanted, stage in steps if wanted)
