"""The stages, and how one request flows through them (stage numbers as in docs/design.md).

::

    intake.start      -> Request (frozen: options, kernels, question, history, query vector,
                         checked chunks, resolved dedupe method and threshold, pages; with its
                         Ledger of drops and Scratch of caches) and one Item per candidate
    1-5 selection     list[Item] -> list[Item] in rank order, dropping only through the ledger:
                         repeated_ids, supersede, dedupe, (4) parents, neighbours, dedupe
                         again, rerank, (5) cap, mmr
    6 compress        ("all") list[Item] -> list[Item], each cut to its relevant sentences
    6 budget          list[Item] -> Packed: its Framing (system, history block, counts, context
                         budget, window left), the placed items in rank order and their priced
                         blocks and counts; hooks: images.fit (pages), compress.fit (the cut)
    7-9 lay_out       Packed -> Layout: order (positions), label (blocks, counts), render
                         (sources block, user message)
    6 evict           Packed + Layout -> Fitted: what fits, counted (lays out the survivors
                         again through lay_out after each eviction)
    account.assembly  Request + Fitted -> Assembly

``plan(options)`` decides once per ``Assembler`` which stages run and whether the budget gets
the cut hook; the order is the contract and is not pluggable. To add a stage: write
``_stages/<name>.py`` (module doc: algorithm, invariants, complexity, what was rejected) with
``run(items, req)``, add its option to ``Options``, put it in ``plan`` at its place, and add
``tests/stages/test_<name>.py`` (both backends).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import (
    budget,
    cap,
    compress,
    dedupe,
    evict,
    mmr,
    neighbours,
    parents,
    repeated_ids,
)
from . import rerank as rerank_stage
from . import supersede as supersede_stage
from .context import Item, Request, Stage
from .layout import lay_out
from .phases import Fitted

if TYPE_CHECKING:
    from ..options import Options

__all__ = ["Plan", "plan"]

_TAIL = ("budget", "order", "label", "render", "evict")


@dataclass(frozen=True, slots=True)
class Plan:
    """The stages one ``Assembler`` runs: the selection stages in order, then the fixed tail
    (budget with its cut hook, order, label, render, evict)."""

    select: tuple[Stage, ...]
    cut: budget.Cut | None  # the budget's compression hook (``compress`` on)
    fallback: budget.Cut | None = None  # the hook when nothing fits whole (``fallback``)

    @property
    def names(self) -> tuple[str, ...]:
        """The stages in the order they run."""
        return (*(s.__module__.rsplit(".", 1)[1] for s in self.select), *_TAIL)

    def __call__(self, req: Request, items: list[Item]) -> Fitted:
        """Run every stage on ``req``'s items; what fits, counted."""
        for stage in self.select:
            items = stage(items, req)
        packed = budget.run(items, req, self.cut, self.fallback)
        return evict.run(req, packed, lay_out(req, packed))


def plan(options: Options) -> Plan:
    """The stages ``options`` need, in the contract's order (from repeated ids to evict).

    >>> from briefpack import Options
    >>> plan(Options(max_per_doc=2)).names
    ('repeated_ids', 'dedupe', 'cap', 'budget', 'order', 'label', 'render', 'evict')
    >>> plan(Options(compress="all")).names[-7:-4]
    ('dedupe', 'compress', 'budget')
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
        (o.compress == "all", compress.run),
    ]
    cut = compress.fit if o.compress is not None else None
    # compress on already cuts what does not fit; off, the fallback packs again with the cut
    fallback = compress.fit if o.compress is None and o.fallback == "compress" else None
    return Plan(tuple(stage for wanted, stage in steps if wanted), cut, fallback)
