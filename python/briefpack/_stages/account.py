"""The account: the final items and the ledger become the ``Assembly``.

Sources with their labels, members and token counts; the token accounting; the settings from
``Options``; every candidate's fate in input order (a label, or the ledger's reason and
detail; ``dropped`` and ``fates`` are built from the ledger's columns when first read). A
request with page images also counts their tokens (``tokens["images"]``, included
in ``sources`` and ``total``) and records the page settings. O(n): each source block's count is
evict's (counted here only for a caller's tokenizer). Logs the request's counts at
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
from .context import Item, Request
from .phases import Fitted

__all__ = ["LOG", "TRACE", "assembly"]

LOG = logging.getLogger("briefpack")
"""The package's logger: the decisions of each request at DEBUG, nothing at INFO or above."""
TRACE = logging.DEBUG - 1
"""The finer level of the per-drop lines (the adapters use it too)."""


def assembly(req: Request, fitted: Fitted) -> Assembly:
    """The result of one call, from what fits (``Fitted``: placed, ordered, labelled)."""
    chunks, b, framing = req.chunks, req.options.the_budget, fitted.packed.framing
    layout = fitted.layout
    items = layout.items
    per_source = fitted.n_blocks
    if per_source is None:  # a caller's tokenizer: evict counted whole texts only
        per_source = req.count(layout.blocks, req.namer(items)) if layout.blocks else []
    per_source = images.with_images(per_source, items, req)  # the page hook
    sources = _sources(items, per_source, chunks, req.options.first_label)
    question_line = render_question(req.question, req.options.labels)
    history = framing.history_block
    n_history, n_question = req.count([history, question_line], ["history", "question"])
    tokens = {
        "system": framing.n_system,
        "history": n_history if history else framing.n_turns,
        "sources": fitted.n_sources if fitted.packed.placed else 0,
        "question": n_question,
        "total": framing.n_system + framing.n_turns + fitted.n_user,
        "context_budget": framing.context_budget,
        "reserved_output": b.max_output,
        "margin": b.margin,
    }
    images.account(tokens, fitted.n_images, req)  # the page hook
    ledger = req.ledger
    label_of: dict[int, int] = {}  # read now: a caller may change ``sources`` before ``fates``
    for s in sources:
        label_of.update(dict.fromkeys(s.member_indices, s.label))
    settings = req.options.settings(
        req.method, req.threshold, req.kernels.name, pages=req.has_pages
    )
    assembly = Assembly._deferred(
        system=framing.system,
        user=layout.user,
        sources=sources,
        dropped=ledger.dropped,
        tokens=tokens,
        settings=settings,
        fates=lambda: _fates(chunks, label_of, ledger.fate, req.scratch.second_look, ledger.near),
        question=req.question,
        history=[dict(t) for t in framing.turns] if req.options.history_turns else None,
        empty_reason=_empty_reason(req, framing.context_budget) if not sources and chunks else None,
    )
    if assembly.empty_reason is not None:
        LOG.warning("empty context: %s", assembly.empty_reason)
    if LOG.isEnabledFor(logging.DEBUG):  # nothing is formatted unless someone listens
        _log(assembly, req)
    return assembly


def _sources(
    items: list[Item], per_source: list[int], chunks: list[Chunk], first: int = 1
) -> list[Source]:
    """``Source(n, it.chunk, tokens, ids, indices, it.compression)`` for each item, labels from
    ``first``, in a third of the time (a frozen dataclass sets its fields one
    ``object.__setattr__`` at a time; ``Source`` has no ``__post_init__`` and no slots, which
    tests/stages/test_account.py holds)."""
    out: list[Source] = []
    for label, (it, tokens) in enumerate(zip(items, per_source), first):
        members = it.members
        ids = (
            (str(chunks[members[0]].id),)
            if len(members) == 1
            else tuple([str(chunks[m].id) for m in members])
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
        out.append(source)
    return out


_object_new = object.__new__
_object_setattr = object.__setattr__


def _empty_reason(req: Request, budget: int) -> str:
    """Why no source was placed although there were candidates: one sentence that names the
    best candidate that did not fit, what was left for it, and what was tried."""
    o, fate = req.options, req.ledger.fate
    misfit = next(
        (
            i
            for i in sorted(fate)
            if fate[i].reason == "over_budget" and "remaining" in fate[i].detail
        ),
        None,
    )
    if misfit is None:
        reasons = sorted({d.reason for d in fate.values()})
        return (
            f"no source was placed: each of the {len(req.chunks)} candidate(s) was dropped "
            f"({', '.join(reasons)}); see result.dropped"
        )
    left = fate[misfit].detail.get("remaining")
    head = (
        f"no source fits the context budget of {budget} tokens: "
        f"{describe(misfit, fate[misfit].chunk.id)} does not fit in the {left} tokens left"
    )
    if o.compress is not None or o.fallback == "compress":
        return (
            f"{head}, nor does any cut of it to its most relevant sentences; raise the "
            "budget (or window), or pass smaller candidates"
        )
    return (
        f"{head}, and no cut of it was tried (fallback=None); pass fallback='compress' to "
        "place its most relevant sentences, or raise the budget"
    )


def _log(assembly: Assembly, req: Request) -> None:
    """One DEBUG line with the request's counts; one line per drop at ``DEBUG - 1``."""
    reasons: dict[str, int] = {}
    for d in assembly.dropped:
        reasons[d.reason] = reasons.get(d.reason, 0) + 1
    t = assembly.tokens
    LOG.debug(
        "assembled: %d candidates -> %d sources, %d dropped %s, %d tokens (sources %d of "
        "%d), dedupe=%s, backend=%s",
        len(req.chunks), len(assembly.sources), len(assembly.dropped), reasons, t["total"],
        t["sources"], t["context_budget"], req.method, req.kernels.name,
    )  # fmt: skip
    if LOG.isEnabledFor(TRACE):
        for i in sorted(req.ledger.fate):
            d = req.ledger.fate[i]
            LOG.log(TRACE, "dropped %s: %s %s", describe(i, d.chunk.id), d.reason, d.detail)


def _fates(
    chunks: list[Chunk],
    label_of: dict[int, int],
    dropped: dict[int, Dropped],
    second_look: dict[int, dict[str, Any]],
    near: dict[int, dict[str, object]],
) -> list[dict[str, Any]]:
    """Each candidate's fate; a page that the second look kept apart from a kept page (its
    hash was within ``page_max_distance``) also has ``second_look``: that page's id and the
    look's ``distance``, ``worst`` and ``typical``."""
    out: list[dict[str, Any]] = []
    for i, c in enumerate(chunks):
        if i in label_of:
            fate: dict[str, Any] = {"index": i, "id": c.id, "fate": "source", "label": label_of[i]}
        else:
            d = dropped[i]
            fate = {
                "index": i,
                "id": c.id,
                "fate": "dropped",
                "reason": d.reason,
                "detail": dict(d.detail),
            }
        if second_look and i in second_look:
            fate["second_look"] = dict(second_look[i])
        out.append(fate)
        if i in near:  # kept by dedupe's difference guard (only then: other bytes unchanged)
            fate["near"] = dict(near[i])
    return out
