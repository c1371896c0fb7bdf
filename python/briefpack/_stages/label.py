"""Stage 11, label: dense 1-based labels in the final order, one rendered block per source.

A label can never point at a gap, since it is given after the final order. Rendering and
escaping are ``briefpack.prompt``'s (``xml`` or ``brackets``). O(total text).
"""

from __future__ import annotations

from ..prompt import render_source
from .context import Context, Item

__all__ = ["run"]


def run(items: list[Item], ctx: Context) -> list[Item]:
    """Render each item's source block with its label into ``ctx.rendered``."""
    labels = ctx.options.labels
    ctx.rendered = [render_source(n, it.chunk, labels) for n, it in enumerate(items, 1)]
    return items
