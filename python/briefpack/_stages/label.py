"""Stage 8, label: dense labels in the final order, one rendered block per source.

Labels run from ``first_label`` (1 unless set: an agent's later retrieval continues the
numbering of the earlier ones), one per source, with no gap.

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
    under its label (``first_label`` plus its position), and each block's count where the
    priced block's count gives it (else None)."""
    placed, labels, first = packed.placed, req.options.labels, req.options.first_label
    items = [placed[j] for j in order]
    priced = [packed.blocks[j] for j in order]
    known = [packed.counts[j] for j in order]
    blocks, counts = relabel(packed.widest, priced, known, labels, first)
    if None in priced:  # not priced (a caller's ``tokens``, a cut): rendered here
        for j, (it, block) in enumerate(zip(items, priced)):
            if block is None:
                blocks[j] = render_source(first + j, it.chunk, labels)
    return items, blocks, counts  # type: ignore[return-value]


def relabel(
    widest: str,
    blocks: list[str | None],
    counts: list[int | None],
    style: LabelStyle,
    first: int = 1,
) -> tuple[list[str | None], list[int | None]]:
    """Each of ``blocks``, rendered under the label ``widest``, under its label (``first``,
    ``first + 1``, ...) instead, and its count where ``counts`` (the priced blocks') has it;
    None where a block is None (see the module doc).

    >>> relabel("120", ['<source id="120">\\nx\\n</source>', None], [9, None], "xml")
    (['<source id="1">\\nx\\n</source>', None], [9, None])
    >>> relabel("999", ["[999] x"] * 1000, [4] * 1000, "brackets")[1][-1]
    5
    """
    head, skip = ('<source id="', _XML_HEAD) if style == "xml" else ("[", 1)
    skip += len(widest)
    pieces = (len(widest) + 2) // 3  # runs of up to three digits, one token each
    out: list[str | None] = []
    known: list[int | None] = []
    for n, (block, count) in enumerate(zip(blocks, counts), first):
        if block is None:
            out.append(None)
            known.append(None)
            continue
        label = str(n)
        out.append(f"{head}{label}{block[skip:]}")
        known.append(None if count is None else count + (len(label) + 2) // 3 - pieces)
    return out, known


_XML_HEAD = len('<source id="')
