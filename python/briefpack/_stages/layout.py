"""Order, label, render: the one function from a ``Packed`` to its ``Layout``.

The plan runs it once after the budget, and ``evict`` again for the survivors after each
eviction, so the three stages run the same way both times (and no stage calls another's).
"""

from __future__ import annotations

from . import label, order, render
from .context import Request
from .phases import Layout, Packed

__all__ = ["lay_out"]


def lay_out(req: Request, packed: Packed) -> Layout:
    """``packed``'s items ordered (stage 7), labelled (8) and rendered (9)."""
    items, blocks, counts = label.run(req, packed, order.run(req, packed))
    return render.run(req, packed.framing, items, blocks, counts)
