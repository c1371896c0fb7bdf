"""The account: the final items and the ledger become the ``Assembly``.

Sources with their labels, members and token counts; the token accounting; the settings from
``Options``; every candidate's fate in input order (a label, or the ledger's reason and
detail; ``dropped`` and ``fates`` are built from the ledger's columns when first read). A
request with page images also counts their tokens (``tokens["images"]``, included
in ``sources`` and ``total``) and records the page settings. O(n) plus counting each source
block once.
"""

from __future__ import annotations

from typing import Any

from ..prompt import render_question
from ..types import Assembly, Chunk, Dropped, Source
from . import images
from .context import Context, Item

__all__ = ["assembly"]


def assembly(items: list[Item], ctx: Context) -> Assembly:
    """The result of one call, from the items as placed, ordered and labelled."""
    chunks, b = ctx.chunks, ctx.options.the_budget
    per_source = ctx.count(ctx.rendered, ctx.namer(items)) if ctx.rendered else []
    if ctx.pages:  # a page's tokens include its images'
        per_source = [n + images.cost(it, ctx) for n, it in zip(per_source, items)]
    sources = [
        Source(n, it.chunk, per_source[n - 1], tuple(str(chunks[m].id) for m in it.members),
               tuple(it.members), it.compression)
        for n, it in enumerate(items, 1)
    ]  # fmt: skip
    question_line = render_question(ctx.question, ctx.options.labels)
    n_history, n_question = ctx.count([ctx.history_block, question_line], ["history", "question"])
    tokens = {
        "system": ctx.n_system,
        "history": n_history if ctx.history_block else 0,
        "sources": ctx.n_sources if ctx.placed else 0,
        "question": n_question,
        "total": ctx.n_system + ctx.n_user,
        "context_budget": ctx.context_budget,
        "reserved_output": b.max_output,
        "margin": b.margin,
    }
    if ctx.pages:  # the images' tokens: part of the sources and of the total
        tokens["sources"] += ctx.n_images
        tokens["total"] += ctx.n_images
        tokens["images"] = ctx.n_images
    ledger = ctx.ledger
    label_of: dict[int, int] = {}  # read now: a caller may change ``sources`` before ``fates``
    for s in sources:
        label_of.update(dict.fromkeys(s.member_indices, s.label))
    return Assembly._deferred(
        system=ctx.system_text,
        user=ctx.user,
        sources=sources,
        dropped=ledger.dropped,
        tokens=tokens,
        settings=ctx.options.settings(ctx.method, ctx.threshold, ctx.kernels.name, pages=ctx.pages),
        fates=lambda: _fates(chunks, label_of, ledger.fate),
        question=ctx.question,
    )


def _fates(
    chunks: list[Chunk], label_of: dict[int, int], dropped: dict[int, Dropped]
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, c in enumerate(chunks):
        if i in label_of:
            out.append({"index": i, "id": c.id, "fate": "source", "label": label_of[i]})
        else:
            d = dropped[i]
            out.append(
                {
                    "index": i,
                    "id": c.id,
                    "fate": "dropped",
                    "reason": d.reason,
                    "detail": dict(d.detail),
                }
            )
    return out
