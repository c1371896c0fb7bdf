"""Stage 9, render: the user message (history, sources, question last), as a ``Layout``.

Joins the labelled blocks into the sources block and lays out the user message with
``briefpack.prompt.render_user``; the system prompt was rendered by the budget stage, which
needed its count (``Framing``). O(total text).
"""

from __future__ import annotations

from ..prompt import SOURCE_SEPARATOR, render_user
from .context import Item, Request
from .phases import Framing, Layout

__all__ = ["run"]


def run(
    req: Request, framing: Framing, items: list[Item], blocks: list[str], counts: list[int | None]
) -> Layout:
    """The ``Layout`` of the labelled ``blocks`` (``items`` in the final order)."""
    sources = SOURCE_SEPARATOR.join(blocks)
    user = render_user(framing.history_block, sources, req.question, req.options.labels)
    return Layout(items, blocks, counts, sources, user)
