"""``assemble``: the whole pipeline, in the order the contract fixes.

supersede -> dedupe -> expand (parents / neighbours, dedupe again, rerank) -> cap per document
-> MMR -> pack the budget -> order -> label -> prompt. Every candidate ends up either in the
``members`` of exactly one source or in ``dropped`` with a reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from ._backend import Kernels
from ._stages import budget, cap, intake, label, neighbours, render, repeated_ids
from ._stages import dedupe as dedupe_stage
from ._stages import mmr as mmr_stage
from ._stages import order as order_stage
from ._stages import parents as parents_stage
from ._stages import rerank as rerank_stage
from ._stages import supersede as supersede_stage
from .assembler import Assembler
from .options import DEDUPE_METHODS, DEFAULT_THRESHOLDS, Options
from .prompt import (
    render_question,
)
from .types import Assembly, Chunk, Dropped, Source

__all__ = ["DEDUPE_METHODS", "DEFAULT_THRESHOLDS", "MESSAGE_OVERHEAD", "assemble"]

MESSAGE_OVERHEAD = 4
"""Tokens a chat format adds around each message (role markers); two messages are reserved."""

Method = Literal["auto", "exact", "jaccard", "minhash", "cosine"]


def _run(
    opts: Options,
    kernels: Kernels,
    question: str,
    candidates: Sequence[Any],
    history: str | Sequence[Mapping[str, str]] | None,
    query_vector: Any,
) -> Assembly:
    """One request under checked options: the request's own checks, then the stages."""
    items, run = intake.start(opts, kernels, question, candidates, history, query_vector)
    question = run.question
    chunks, method, t = run.chunks, run.method, run.threshold
    b = opts.the_budget
    supersede, parents, neighbors = opts.supersede, opts.parents, opts.neighbors
    rerank, max_per_doc, mmr = opts.rerank, opts.max_per_doc, opts.mmr
    labels = opts.labels
    items = repeated_ids.run(items, run)

    # ---- 1. supersede ----
    if supersede is not None:
        items = supersede_stage.run(items, run)

    # ---- 2. dedupe ----
    if method is not None:
        items = dedupe_stage.run(items, run)

    # ---- 3. expand, dedupe again, rerank ----
    expanded = False
    if parents is not None:
        items = parents_stage.run(items, run)
        expanded = True
    if neighbors:
        items = neighbours.run(items, run)
        expanded = True
    if expanded and method is not None:
        items = dedupe_stage.run(items, run)
    if rerank is not None:
        items = rerank_stage.run(items, run)

    # ---- 4. cap per document, MMR ----
    if max_per_doc is not None:
        items = cap.run(items, run)
    if mmr is not None:
        items = mmr_stage.run(items, run)

    # ---- 5-8. the budget, order, label, render; evict until the rendered text fits ----
    items = budget.run(items, run)
    for stage in (order_stage.run, label.run, render.run, budget.evict):
        items = stage(items, run)
    final, rendered, placed, user = items, run.rendered, run.placed, run.user
    system_text, history_block = run.system_text, run.history_block
    n_system, n_sources, n_user = run.n_system, run.n_sources, run.n_user
    context_budget = run.context_budget

    per_source = run.count(rendered, run.namer(final)) if rendered else []
    sources = [
        Source(
            n,
            it.chunk,
            per_source[n - 1],
            tuple(str(chunks[m].id) for m in it.members),
            tuple(it.members),
        )
        for n, it in enumerate(final, 1)
    ]
    n_history, n_question = run.count(
        [history_block, render_question(question, labels)], ["history", "question"]
    )
    tokens = {
        "system": n_system,
        "history": n_history if history_block else 0,
        "sources": n_sources if placed else 0,
        "question": n_question,
        "total": n_system + n_user,
        "context_budget": context_budget,
        "reserved_output": b.max_output,
        "margin": b.margin,
    }
    settings = opts.settings(method, t, kernels.name)
    return Assembly(
        system=system_text,
        user=user,
        sources=sources,
        dropped=run.ledger.dropped(),
        tokens=tokens,
        settings=settings,
        fates=_fates(chunks, sources, run.ledger.fate),
        question=question,
    )


def _fates(
    chunks: list[Chunk], sources: list[Source], dropped: dict[int, Dropped]
) -> list[dict[str, Any]]:
    label_of: dict[int, int] = {}
    for s in sources:
        label_of.update(dict.fromkeys(s.member_indices, s.label))
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


def assemble(
    question: str,
    candidates: Sequence[Any],
    *,
    history: str | Sequence[Mapping[str, str]] | None = None,
    query_vector: Any = None,
    **options: Any,
) -> Assembly:
    """Assemble deduplicated, budgeted, ordered, labelled context into a prompt.

    ``Assembler(**options)(question, candidates, history=..., query_vector=...)``: see
    ``Options`` for every option. ``candidates`` are in rank order (best first): ``Chunk``s,
    mappings with ``Chunk``'s keys, plain strings, or LangChain-style objects with
    ``page_content`` and ``metadata``. The order of the stages is part of the contract.

    Raises:
        InputError: an option or a candidate is invalid (options are reported first; nothing
            is done, nothing is mutated).
        BudgetError: system, history and question alone do not fit the window.

    >>> import briefpack as bp
    >>> result = bp.assemble(
    ...     "What is the relocation cap?",
    ...     [bp.Chunk("The relocation cap for Berlin is 4000 EUR.", id="hr/1", score=0.94),
    ...      bp.Chunk("The relocation cap for Berlin is 4000 EUR.", id="faq/7", score=0.90)],
    ...     budget=500, tokenizer="approx", backend="python")
    >>> [s.chunk.id for s in result.sources], [(d.chunk.id, d.reason) for d in result.dropped]
    (['hr/1'], [('faq/7', 'duplicate')])
    """
    return Assembler(**options)(question, candidates, history=history, query_vector=query_vector)
