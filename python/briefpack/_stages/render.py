"""Stage 12, render: the user message (history, sources, question last).

Joins the labelled blocks into the sources block and lays out the user message with
``briefpack.prompt.render_user``; the system prompt was rendered by the budget stage, which
needed its count. O(total text).
"""

from __future__ import annotations

from ..prompt import SOURCE_SEPARATOR, render_user
from .context import Context, Item

__all__ = ["run"]


def run(items: list[Item], ctx: Context) -> list[Item]:
    """Set ``ctx.sources_block`` and ``ctx.user`` from ``ctx.rendered``."""
    ctx.sources_block = SOURCE_SEPARATOR.join(ctx.rendered)
    ctx.user = render_user(ctx.history_block, ctx.sources_block, ctx.question, ctx.options.labels)
    return items
