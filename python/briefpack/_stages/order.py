"""Stage 10, order: the placed items in the order the prompt shows them.

``relevance``, ``edges`` (best first, second best last), ``round_robin`` and ``document``, as
``briefpack.order`` defines them (one implementation): documents group by ``doc``, and input
order is the best-ranked candidate an item stands for (after a rerank, that is not its place in
the list). O(n log n).
"""

from __future__ import annotations

from ..ordering import order
from .context import Context, Item

__all__ = ["run"]


def run(items: list[Item], ctx: Context) -> list[Item]:
    """Reorder the placed items for the prompt."""
    return order_items(items, ctx.options.order)


def order_items(items: list[Item], how: str) -> list[Item]:
    """Order pipeline items; ``document`` order falls back to input order where no position."""
    if how != "document":
        return order(items, how, doc=lambda it: it.chunk.doc)  # type: ignore[arg-type]
    groups: dict[str, list[Item]] = {}
    for it in items:
        groups.setdefault(str(it.chunk.doc), []).append(it)

    def key(it: Item) -> tuple[int, int, int]:
        pos, first = it.chunk.position, it.members[0]
        return (0, pos, first) if pos is not None else (1, first, first)

    return [it for g in groups.values() for it in sorted(g, key=key)]
