"""Stage 8, label: dense 1-based labels in the final order, one rendered block per source.

A label can never point at a gap, since it is given after the final order. Rendering and
escaping are ``briefpack.prompt``'s (``xml`` or ``brackets``); a block the budget stage
already rendered to price it (``Packed.blocks``) is relabelled, not rendered again: the label
is the block's first field and is plain digits in both styles (``<source id="12" ...``,
``[12] ...``), so only that field changes. O(total text).

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
from .context import Item, Request
from .phases import Packed

__all__ = ["relabel", "run"]


def run(
    req: Request, packed: Packed, order: list[int]
) -> tuple[list[Item], list[str], list[int | None]]:
    """The placed items in ``order`` (positions in ``packed.placed``), each one's source block
    under its label, and each block's count where the priced block's count gives it (else
    None)."""
    labels, widest = req.options.labels, packed.widest
    placed, priced, known = packed.placed, packed.blocks, packed.counts
    items = [placed[j] for j in order]
    rendered: list[str] = []
    counts: list[int | None] = []
    for n, j in enumerate(order, 1):
        block = priced[j]
        if block is None:
            rendered.append(render_source(n, placed[j].chunk, labels))
            counts.append(None)
        else:
            block, count = relabel(str(n), widest, block, known[j], labels)
            rendered.append(block)
            counts.append(count)
    return items, rendered, counts


def relabel(
    label: str, widest: str, block: str, count: int | None, style: LabelStyle
) -> tuple[str, int | None]:
    """``block``, rendered under the label ``widest``, under ``label`` instead, and its count
    when ``count`` (the priced block's) is known (see the module doc).

    >>> relabel("7", "120", '<source id="120">\\nx\\n</source>', 9, "xml")
    ('<source id="7">\\nx\\n</source>', 9)
    >>> relabel("1200", "120", "[120] x", 4, "brackets")
    ('[1200] x', 5)
    """
    if style == "xml":
        block = f'<source id="{label}{block[_XML_HEAD + len(widest) :]}'
    else:
        block = f"[{label}{block[1 + len(widest) :]}"
    if count is not None:  # runs of up to three digits, one token each
        count += (len(label) + 2) // 3 - (len(widest) + 2) // 3
    return block, count


_XML_HEAD = len('<source id="')
