"""Stage 11, label: dense 1-based labels in the final order, one rendered block per source.

A label can never point at a gap, since it is given after the final order. Rendering and
escaping are ``briefpack.prompt``'s (``xml`` or ``brackets``); a block the budget stage
already rendered to price it is relabelled, not rendered again. O(total text).
"""

from __future__ import annotations

from ..prompt import LabelStyle, render_source
from .context import Context, Item

__all__ = ["run"]


def run(items: list[Item], ctx: Context) -> list[Item]:
    """Render each item's source block with its label into ``ctx.rendered``."""
    labels = ctx.options.labels
    ctx.rendered = [_block(n, it, labels) for n, it in enumerate(items, 1)]
    return items


def _block(n: int, it: Item, labels: LabelStyle) -> str:
    """``render_source(n, it.chunk, labels)``; from the block the budget priced, when it
    rendered this chunk: the label is the block's first field and is plain digits in both
    styles (``<source id="12" ...``, ``[12] ...``), so only that field changes."""
    priced = it.priced
    if priced is None or priced[0] is not it.chunk:
        return render_source(n, it.chunk, labels)
    _, widest, block = priced
    if labels == "xml":
        return f'<source id="{n}{block[_XML_HEAD + len(widest) :]}'
    return f"[{n}{block[1 + len(widest) :]}"


_XML_HEAD = len('<source id="')
