"""Stage 10, order: the placed items in the order the prompt shows them.

``relevance``, ``edges`` (best first, second best last), ``round_robin`` and ``document``, as
``briefpack.order`` defines them (one implementation): documents group by ``doc``, and input
order is the best-ranked candidate an item stands for (after a rerank, that is not its place in
the list). O(n log n).
"""

from __future__ import annotations

from ..ordering import order
from .context import Context, Item, doc_key

__all__ = ["run"]


def run(items: list[Item], ctx: Context) -> list[Item]:
    """Reorder the placed items for the prompt."""
    return order(
        items,
        ctx.options.order,
        doc=lambda it: doc_key(it.chunk),
        position=lambda it: it.chunk.position,
        rank=lambda it: it.members[0],
    )
