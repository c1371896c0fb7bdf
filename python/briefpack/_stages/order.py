"""Stage 7, order: the placed items in the order the prompt shows them.

``relevance``, ``edges`` (best first, second best last), ``round_robin`` and ``document``, as
``briefpack.order`` defines them (one implementation): documents group by ``doc``, and input
order is the best-ranked candidate an item stands for (after a rerank, that is not its place in
the list). The stage orders positions in ``Packed.placed``, so the label stage finds each
item's priced block by its position. O(n log n).
"""

from __future__ import annotations

from ..ordering import order
from .context import Request, doc_key
from .phases import Packed

__all__ = ["run"]


def run(req: Request, packed: Packed) -> list[int]:
    """The positions in ``packed.placed`` (rank order) in the order of the prompt."""
    placed = packed.placed
    return order(
        range(len(placed)),
        req.options.order,
        doc=lambda j: doc_key(placed[j].chunk),
        position=lambda j: placed[j].chunk.position,
        rank=lambda j: placed[j].members[0],
    )
