"""The account: the final items and the ledger become the ``Assembly``.

Sources with their labels, members and token counts; the token accounting; the settings from
``Options``; every candidate's fate in input order (a label, or the ledger's reason and
detail; ``dropped`` and ``fates`` are built from the ledger's columns when first read). A
request with page images also counts their tokens (``tokens["images"]``, included
in ``sources`` and ``total``) and records the page settings. O(n): each source block's count is
the budget stage's (counted here only for a caller's tokenizer). Logs the request's counts at
DEBUG and each drop at ``DEBUG - 1`` on the ``briefpack`` logger, only when that level is
enabled.
"""

from __future__ import annotations

import logging
from typing import Any

from ..assembly import Assembly
from ..candidates import describe
from ..prompt import render_question
from ..types import Chunk, Dropped, Source
from . import images
from .context import Context, Item

__all__ = ["LOG", "TRACE", "assembly"]

LOG = logging.getLogger("briefpack")
"""The package's logger: the decisions of each request at DEBUG, nothing at INFO or above."""
TRACE = logging.DEBUG - 1
"""The finer level of the per-drop lines (the adapters use it too)."""


def assembly(items: list[Item], ctx: Context) -> Assembly:
    """The result of one call, from the items as placed, ordered and labelled."""
    chunks, b = ctx.chunks, ctx.options.the_budget
    per_source = ctx.n_blocks
    if per_source is None:  # a caller's tokenizer: the budget stage counted whole texts only
        per_source = ctx.count(ctx.rendered, ctx.namer(items)) if ctx.rendered else []
    if ctx.pages:  # a page's tokens include its images'
        per_source = [n + images.cost(it, ctx) for n, it in zip(per_source, items)]
    sources = [_source(n, it, per_source[n - 1], chunks) for n, it in enumerate(items, 1)]
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
    assembly = Assembly._deferred(
        system=ctx.system_text,
        user=ctx.user,
        sources=sources,
        dropped=ledger.dropped,
        tokens=tokens,
        settings=ctx.options.settings(ctx.method, ctx.threshold, ctx.kernels.name, pages=ctx.pages),
        fates=lambda: _fates(chunks, label_of, ledger.fate),
        question=ctx.question,
    )
    if LOG.isEnabledFor(logging.DEBUG):  # nothing is formatted unless someone listens
        _log(assembly, ctx)
    return assembly


def _source(label: int, it: Item, tokens: int, chunks: list[Chunk]) -> Source:
    """``Source(label, it.chunk, tokens, ids, indices, it.compression)`` in a third of the time
    (a frozen dataclass sets its fields one ``object.__setattr__`` at a time; ``Source`` has no
    ``__post_init__`` and no slots, which tests/stages/test_account.py holds)."""
    members = it.members
    ids = (
        (str(chunks[members[0]].id),)
        if len(members) == 1
        else tuple(str(chunks[m].id) for m in members)
    )
    source = _object_new(Source)
    _object_setattr(
        source,
        "__dict__",
        {
            "label": label, "chunk": it.chunk, "tokens": tokens, "members": ids,
            "member_indices": tuple(members), "compression": it.compression,
        },
    )  # fmt: skip
    return source


_object_new = object.__new__
_object_setattr = object.__setattr__


def _log(assembly: Assembly, ctx: Context) -> None:
    """One DEBUG line with the request's counts; one line per drop at ``DEBUG - 1``."""
    reasons: dict[str, int] = {}
    for d in assembly.dropped:
        reasons[d.reason] = reasons.get(d.reason, 0) + 1
    t = assembly.tokens
    LOG.debug(
        "assembled: %d candidates -> %d sources, %d dropped %s, %d tokens (sources %d of "
        "%d), dedupe=%s, backend=%s",
        len(ctx.chunks), len(assembly.sources), len(assembly.dropped), reasons, t["total"],
        t["sources"], t["context_budget"], ctx.method, ctx.kernels.name,
    )  # fmt: skip
    if LOG.isEnabledFor(TRACE):
        for i in sorted(ctx.ledger.fate):
            d = ctx.ledger.fate[i]
            LOG.log(TRACE, "dropped %s: %s %s", describe(i, d.chunk.id), d.reason, d.detail)


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
