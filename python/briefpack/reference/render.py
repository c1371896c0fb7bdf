"""Price and pack source blocks in one pass (reference kernel of ``price_pack``).

The composition of ``render_source`` (the block layout of the leaf ``briefpack._escape``, which
``briefpack.prompt`` uses too), the reference counter and the rule of
``pack``, one source at a time, so that a walk that stops never prices what follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from .._checks import check_count, check_encoding_name, choice, type_name
from .._escape import render_source
from .._types import PricedPack
from ..errors import InputError
from ..types import Chunk
from .pack import check_overflow
from .tokens import count_tokens

__all__ = ["price_pack"]


def price_pack(
    chunks: Sequence[Chunk],
    labels: Literal["xml", "brackets"],
    widest: str,
    budget: int,
    separator_tokens: int,
    overflow: Literal["stop", "skip"],
    encoding: str,
) -> PricedPack:
    """Render, count and pack source blocks greedily in rank order.

    Each chunk (none with a page image) costs its block rendered under the ``widest`` label,
    plus ``separator_tokens``; a chunk's ``tokens`` stands in for the count of its text (the
    block is then counted with an empty text). A source is placed when its cost fits in what is
    left of ``budget``; at the first that does not, ``overflow="stop"`` ends the walk and
    ``"skip"`` goes on. The decisions and costs are ``pack``'s over the full costs.

    >>> c = [Chunk("one two"), Chunk("x" * 80), Chunk("three")]
    >>> price_pack(c, "brackets", "3", 12, 1, "skip", "approx")
    PricedPack(kept=[0, 2], costs=[3, 3], blocks=['[3] one two', '[3] three'], misfits=[1], \
remaining=[9])
    """
    if isinstance(chunks, (str, bytes)) or not isinstance(chunks, Sequence):
        raise InputError(f"chunks must be a list of Chunk, got {type_name(chunks)}")
    choice("labels", labels, ("xml", "brackets"))
    if not (isinstance(widest, str) and widest.isascii() and widest.isdigit()):
        raise InputError(f"widest must be a label's decimal digits, got {widest!r}")
    check_count("budget", budget)
    check_count("separator_tokens", separator_tokens)
    check_overflow(overflow)
    check_encoding_name(encoding)
    out = PricedPack([], [], [], [], [])
    used = 0
    for i, chunk in enumerate(chunks):
        if chunk.image is not None:
            raise InputError(
                f"chunks[{i}] has a page image; price_pack renders sources without page images "
                "(the pipeline prices pages itself)"
            )
        left = budget - used
        block = render_source(widest, chunk, labels)
        if chunk.tokens is None:
            cost = count_tokens([block], encoding)[0] + separator_tokens
        else:
            wrapper = render_source(widest, chunk.replace(text=""), labels)
            cost = count_tokens([wrapper], encoding)[0] + separator_tokens + chunk.tokens
        if cost <= left:
            used += cost
            out.kept.append(i)
            out.costs.append(cost)
            out.blocks.append(block)
        else:
            out.misfits.append(i)
            out.remaining.append(left)
            if overflow == "stop":
                break
    return out
