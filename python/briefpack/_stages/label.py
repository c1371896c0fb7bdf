"""Stage 11, label: dense 1-based labels in the final order, one rendered block per source.

A label can never point at a gap, since it is given after the final order. Rendering and
escaping are ``briefpack.prompt``'s (``xml`` or ``brackets``); a block the budget stage
already rendered to price it is relabelled, not rendered again: the label is the block's
first field and is plain digits in both styles (``<source id="12" ...``, ``[12] ...``), so only
that field changes. O(total text).

Its count changes by a known amount too, when the budget counted the block (``o200k_base``,
``cl100k_base``; no caller ``tokens``): both tokenizers cut a run of digits into pieces of up
to three, on their own (the label sits between ``="`` and ``"``, or ``[`` and ``]``, which
neither joins to a digit), and every string of one to three digits is one token in both
vocabularies. So the block under label ``n`` counts the priced block's count, less
``ceil(len(widest) / 3)``, plus ``ceil(len(n) / 3)``; the final accounting uses it instead of
counting the block again.
"""

from __future__ import annotations

from ..prompt import LabelStyle, render_source
from ..types import Chunk
from .context import Context, Item

__all__ = ["run"]


def run(items: list[Item], ctx: Context) -> list[Item]:
    """Render each item's source block with its label into ``ctx.rendered``, and its count
    into ``ctx.relabelled_counts`` where the priced block's count gives it (else None)."""
    labels = ctx.options.labels
    rendered: list[str] = []
    counts: list[int | None] = []
    for n, it in enumerate(items, 1):
        priced = it.priced
        if priced is None or priced[0] is not it.chunk:
            rendered.append(render_source(n, it.chunk, labels))
            counts.append(None)
        else:
            block, count = relabel(str(n), priced, labels)
            rendered.append(block)
            counts.append(count)
    ctx.rendered, ctx.relabelled_counts = rendered, counts
    return items


def relabel(
    label: str, priced: tuple[Chunk, str, str, int | None], style: LabelStyle
) -> tuple[str, int | None]:
    """The priced block under ``label`` instead of the widest one, and its count when the
    priced count is known (see the module doc).

    >>> from briefpack import Chunk
    >>> relabel("7", (Chunk("x"), "120", '<source id="120">\\nx\\n</source>', 9), "xml")
    ('<source id="7">\\nx\\n</source>', 9)
    >>> relabel("1200", (Chunk("x"), "120", "[120] x", 4), "brackets")
    ('[1200] x', 5)
    """
    _, widest, block, count = priced
    if style == "xml":
        block = f'<source id="{label}{block[_XML_HEAD + len(widest) :]}'
    else:
        block = f"[{label}{block[1 + len(widest) :]}"
    if count is not None:
        count += _pieces(label) - _pieces(widest)
    return block, count


def _pieces(label: str) -> int:
    """How many tokens a label's digits are: runs of up to three digits, one token each."""
    return (len(label) + 2) // 3


_XML_HEAD = len('<source id="')
