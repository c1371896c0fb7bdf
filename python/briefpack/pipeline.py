"""``assemble``: the whole pipeline, in the order the contract fixes.

supersede -> dedupe -> expand (parents / neighbours, dedupe again, rerank) -> cap per document
-> MMR -> pack the budget -> order -> label -> prompt. Every candidate ends up either in the
``members`` of exactly one source or in ``dropped`` with a reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from ._backend import Kernels
from ._stages import cap, intake, label, neighbours, render, repeated_ids
from ._stages import dedupe as dedupe_stage
from ._stages import mmr as mmr_stage
from ._stages import order as order_stage
from ._stages import parents as parents_stage
from ._stages import rerank as rerank_stage
from ._stages import supersede as supersede_stage
from ._stages.context import Context, Item
from .assembler import Assembler
from .errors import BudgetError
from .options import DEDUPE_METHODS, DEFAULT_THRESHOLDS, Options
from .prompt import (
    SOURCE_SEPARATOR,
    LabelStyle,
    render_history,
    render_question,
    render_source,
    render_system,
    render_user,
)
from .types import Assembly, Chunk, Dropped, Source

__all__ = ["DEDUPE_METHODS", "DEFAULT_THRESHOLDS", "MESSAGE_OVERHEAD", "assemble"]

MESSAGE_OVERHEAD = 4
"""Tokens a chat format adds around each message (role markers); two messages are reserved."""

Method = Literal["auto", "exact", "jaccard", "minhash", "cosine"]


def _pack(
    run: Context, items: list[Item], labels: LabelStyle, budget: int, overflow: str
) -> list[Item]:
    """Greedy packing in rank order, counting only what the budget needs.

    An item costs its source block rendered with the widest label this request can produce,
    plus one separator (a chunk's ``tokens`` stands in for the count of its text). Items are
    rendered and counted in batches that double in size; each is counted only up to what is
    left of the budget (past that it cannot fit, whatever its exact count), and with
    ``overflow="stop"`` counting ends at the batch holding the first item that does not fit,
    so a large candidate set costs only what the budget can hold.
    """
    widest = str(max(1, len(items)))
    n_sep = run.count([SOURCE_SEPARATOR], ["source separator"])[0] if items else 0
    placed: list[Item] = []
    used = 0
    start, batch = 0, 16
    while start < len(items):
        chunk_items = items[start : start + batch]
        texts = [
            render_source(
                widest, it.chunk if it.chunk.tokens is None else it.chunk.replace(text=""), labels
            )
            for it in chunk_items
        ]
        left = budget - used
        limits = [max(0, left - n_sep - (it.chunk.tokens or 0)) for it in chunk_items]
        counted = run.count_limited(texts, limits, run.namer(chunk_items))
        # Exact where an item can fit; a number past its limit (so past what is left) where not.
        costs = [c + n_sep + (it.chunk.tokens or 0) for c, it in zip(counted, chunk_items)]
        kept, _ = run.kernels.pack(costs, left, overflow)
        kept_set = set(kept)
        misfit: str | None = None
        for j, it in enumerate(chunk_items):
            if j in kept_set:
                placed.append(it)
                used += costs[j]
            elif misfit is None or overflow == "skip":
                run.drop(it, "over_budget", {"remaining": budget - used, "context_budget": budget})
                misfit = misfit or str(it.chunk.id)
            else:
                run.drop(it, "over_budget", {"after": misfit, "context_budget": budget})
        if overflow == "stop" and misfit is not None:
            for it in items[start + len(chunk_items) :]:
                run.drop(it, "over_budget", {"after": misfit, "context_budget": budget})
            break
        start += len(chunk_items)
        batch *= 2
    return placed


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
    question, hist, query_vector = run.question, run.history, run.query_vector
    chunks, method, t = run.chunks, run.method, run.threshold
    system, instructions, b = opts.system, opts.instructions, opts.the_budget
    supersede, parents, neighbors = opts.supersede, opts.parents, opts.neighbors
    rerank, max_per_doc, mmr = opts.rerank, opts.max_per_doc, opts.mmr
    labels, overflow = opts.labels, opts.overflow
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

    # ---- 5. the budget ----
    system_text = render_system(system, instructions)
    history_block = render_history(hist, labels)
    n_system, n_framing = run.count(
        [system_text, render_user(history_block, "", question, labels)], ["system", "user framing"]
    )
    overhead = 2 * MESSAGE_OVERHEAD
    context_budget = b.context
    left = b.window_left
    if left is not None:
        fixed = n_system + n_framing + overhead
        if fixed > left:
            raise BudgetError(
                f"system + history + question need {fixed} tokens (system {n_system}, user "
                f"framing {n_framing}, message overhead {overhead}) but the window leaves {left} "
                f"(window {b.window} - max_output {b.max_output} - margin {b.margin}); raise "
                "window or pass a shorter history or system prompt"
            )
        from_window = left - fixed
        context_budget = from_window if context_budget is None else min(context_budget, from_window)
    assert context_budget is not None

    placed = _pack(run, items, labels, context_budget, overflow)
    run.history_block = history_block

    # ---- 6-8. order, label, render; evict the lowest-ranked until the rendered text fits ----
    while True:
        final = order_stage.run(placed, run)
        label.run(final, run)
        rendered = run.rendered
        render.run(final, run)
        sources_block, user = run.sources_block, run.user
        n_sources, n_user = (
            run.count([sources_block, user], ["sources block", "user message"])
            if placed
            else (0, n_framing)
        )
        fits = n_sources <= context_budget
        if left is not None:
            fits = fits and n_system + n_user + overhead <= left
        if fits or not placed:
            break
        evicted = placed.pop()
        run.drop(
            evicted,
            "over_budget",
            {"evicted": True, "sources_tokens": n_sources, "context_budget": context_budget},
        )

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
