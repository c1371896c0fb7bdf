"""Stage 9, the budget: the context budget, greedy packing, and eviction until it fits.

``run`` works out the context budget (the smaller of ``budget.context`` and what the window
leaves after the answer, the margin, the system prompt, the user framing and two messages'
overhead; fixed parts that do not fit are a ``BudgetError``), then packs greedily in rank
order: an item costs its source block rendered with the widest label this request can produce
plus a separator (a chunk's ``tokens`` stands in for its text). Items are counted in batches
that double in size, each only up to what is left (past that it cannot fit), so a large
candidate set costs only what the budget can hold. Without page images, compression or a
caller's tokenizer, that loop is one kernel call (``price_pack``: render, count with a running
limit, pack; a stop reads nothing past the first misfit), and the blocks it placed go to the
label stage as priced. ``evict`` runs after order, label and
render: while the rendered block (counted as one string) is over, it drops the lowest-ranked
placed item and renders again, so the budget holds whatever the tokenizer. With ``compress``
on, an item that does not fit whole is offered to ``compress.fit`` first: its largest cut that
fits is placed, and packing goes on in rank order with the next item. Page images add their
tokens to their item's cost and to the rendered block's, and ``Budget(images=N)`` caps their
number (``images``).

The final counts are exact arithmetic, not counts of the whole texts: for ``o200k_base`` and
``cl100k_base`` a text splits after a newline before an ASCII graphic character other than
``/`` with counts adding up (the lemma in the Rust core's ``tokens::segments``). An ``xml``
block starts with ``<`` and ends in ``\\n</source>``, and blocks are joined by ``\\n\\n``, so the
sources block counts ``sum(count(block)) + (m - 1) * (count("</source>\\n\\n") -
count("</source>"))``. The user message is ``... <sources>\\n`` + sources block +
``\\n</sources>\\n\\nQuestion: ...`` and the framing (``n_framing``) the same without the block and
its line break, cut at the same places (with or without history), so it counts ``n_framing +
n_sources + count("</source>\\n") - count("</source>")``. ``approx`` is a function of the
length. The blocks' counts are kept for the account. A caller's tokenizer counts the whole
texts (it promises nothing about splits), and so does the ``brackets`` style: a block's last
segment is its text after its last line break the lemma cuts at, often most of the block, and
counting it again costs more than the whole texts.

Rejected: trusting the sum of per-item costs (BPE merges across block boundaries, and a
caller's ``tokens`` may lie), and cutting an item in half.
"""

from __future__ import annotations

from ..errors import BudgetError
from ..prompt import SOURCE_SEPARATOR, render_history, render_source, render_system, render_user
from . import compress, images
from .context import Context, Item

__all__ = ["MESSAGE_OVERHEAD", "evict", "run"]

MESSAGE_OVERHEAD = 4
"""Tokens a chat format adds around each message (role markers); two messages are reserved."""


def _context_budget(ctx: Context) -> None:
    """Render system and framing, count them, and set ``ctx.context_budget``."""
    o, b = ctx.options, ctx.options.the_budget
    ctx.system_text = render_system(o.system, o.instructions)
    ctx.history_block = render_history(ctx.history, o.labels)
    framing = render_user(ctx.history_block, "", ctx.question, o.labels)
    ctx.n_system, ctx.n_framing = ctx.count([ctx.system_text, framing], ["system", "user framing"])
    overhead = 2 * MESSAGE_OVERHEAD
    budget = b.context
    left = ctx.window_left = b.window_left
    if left is not None:
        fixed = ctx.n_system + ctx.n_framing + overhead
        if fixed > left:
            raise BudgetError(
                f"system + history + question need {fixed} tokens (system {ctx.n_system}, user "
                f"framing {ctx.n_framing}, message overhead {overhead}) but the window leaves "
                f"{left} (window {b.window} - max_output {b.max_output} - margin {b.margin}); "
                "raise window or pass a shorter history or system prompt"
            )
        budget = left - fixed if budget is None else min(budget, left - fixed)
    assert budget is not None
    ctx.context_budget = budget


def _costs(batch: list[Item], ctx: Context, widest: str, left: int, n_sep: int) -> list[int]:
    """Each item's cost: exact where it can fit, some number past ``left`` where it cannot."""
    labels = ctx.options.labels
    texts = []
    for it in batch:
        chunk = it.chunk
        if chunk.tokens is None:
            block = render_source(widest, chunk, labels)
            it.priced = (chunk, widest, block, None)  # the label stage relabels it
        else:
            block = render_source(widest, chunk.replace(text=""), labels)
        texts.append(block)
    limits = [max(0, left - n_sep - (it.chunk.tokens or 0)) for it in batch]
    counted = ctx.count_limited(texts, limits, ctx.namer(batch))
    return [c + n_sep + (it.chunk.tokens or 0) for c, it in zip(counted, batch)]


def run(items: list[Item], ctx: Context) -> list[Item]:
    """Pack the items greedily in rank order; the placed ones, in rank order."""
    _context_budget(ctx)
    budget, overflow = ctx.context_budget, ctx.options.overflow
    widest = str(max(1, len(items)))
    n_sep = ctx.count([SOURCE_SEPARATOR], ["source separator"])[0] if items else 0
    tokenizer = ctx.options.tokenizer
    if not (ctx.pages or ctx.options.compress is not None or callable(tokenizer)) and (
        budget < _ONE_PASS_BUDGETS
    ):
        return _one_pass(items, ctx, widest, n_sep, tokenizer)
    placed: list[Item] = []
    used, start, size = 0, 0, 16
    cap = ctx.options.the_budget.images
    while start < len(items):
        batch = items[start : start + size]
        left = budget - used
        costs = _costs(batch, ctx, widest, left, n_sep)
        by_images: set[int] = set()
        if ctx.pages:  # page images: their tokens, and the image cap as a second budget
            costs = [c + images.cost(it, ctx) for c, it in zip(costs, batch)]
            n_images = [len(it.chunk.images) for it in batch]
            cap_left = None if cap is None else cap - sum(len(p.chunk.images) for p in placed)
            fit, by_images = images.pack(costs, n_images, left, cap_left, overflow)
            kept = set(fit)
        else:
            kept = set(ctx.kernels.pack(costs, left, overflow).kept)
        misfit: str | None = None
        resume: int | None = None
        for j, it in enumerate(batch):
            if j in kept:
                placed.append(it)
                used += costs[j]
            elif j in by_images and (misfit is None or overflow == "skip"):
                assert cap is not None
                ctx.drop(it, "over_budget", {"images": cap, "context_budget": budget})
                misfit = misfit or str(it.chunk.id)
            elif misfit is None or overflow == "skip":
                if ctx.options.compress is not None:  # compression: place a cut that fits
                    cut = compress.fit(items, start + j, ctx, widest, budget - used, n_sep)
                    if cut is not None:
                        placed.append(cut[0])
                        used += cut[1]
                        resume = start + j + 1  # what follows is costed again
                        break
                ctx.drop(it, "over_budget", {"remaining": budget - used, "context_budget": budget})
                misfit = misfit or str(it.chunk.id)
            else:
                ctx.drop(it, "over_budget", {"after": misfit, "context_budget": budget})
        if resume is not None:
            start = resume
            continue
        if overflow == "stop" and misfit is not None:
            rest = items[start + len(batch) :]
            ctx.drop_all(rest, "over_budget", {"after": misfit, "context_budget": budget})
            break
        start += len(batch)
        size *= 2
    ctx.placed = placed
    return list(placed)


_ONE_PASS_BUDGETS = 2**64 - 1
"""``price_pack`` is exact for context budgets below this (a token count always is)."""


def _one_pass(
    items: list[Item], ctx: Context, widest: str, n_sep: int, encoding: str
) -> list[Item]:
    """``run``'s loop in one kernel call (no page images, no compression, a named encoding):
    render, count and pack every block in rank order; the same decisions and drop details, and
    the placed blocks go to the label stage as priced. A dropped item costs a ledger entry
    (one shared entry for all that follow an ``overflow="stop"`` misfit)."""
    budget, overflow = ctx.context_budget, ctx.options.overflow
    r = ctx.kernels.price_pack(
        [it.chunk for it in items], ctx.options.labels, widest, budget, n_sep, overflow, encoding
    )
    placed = [items[i] for i in r.kept]
    counted = encoding in _DIGIT_LABELS  # the block's count is its cost less the separator
    for it, block, cost in zip(placed, r.blocks, r.costs):
        n = cost - n_sep if counted and it.chunk.tokens is None else None
        it.priced = (it.chunk, widest, block, n)  # the label stage relabels it
    for i, left in zip(r.misfits, r.remaining):
        ctx.drop(items[i], "over_budget", {"remaining": left, "context_budget": budget})
    if overflow == "stop" and r.misfits:
        misfit = r.misfits[0]
        after = str(items[misfit].chunk.id)
        ctx.drop_all(items[misfit + 1 :], "over_budget", {"after": after, "context_budget": budget})
    ctx.placed = placed
    return list(placed)


def evict(items: list[Item], ctx: Context) -> list[Item]:
    """While the rendered text is over, drop the lowest-ranked placed item and render again."""
    from . import label, order, render

    overhead = 2 * MESSAGE_OVERHEAD
    while True:
        if ctx.placed:
            _final_counts(items, ctx)
        else:
            ctx.n_sources, ctx.n_user, ctx.n_blocks = 0, ctx.n_framing, []
        ctx.n_images = sum(images.cost(it, ctx) for it in ctx.placed) if ctx.pages else 0
        fits = ctx.n_sources + ctx.n_images <= ctx.context_budget
        if ctx.window_left is not None:
            fits = fits and ctx.n_system + ctx.n_user + ctx.n_images + overhead <= ctx.window_left
        if fits or not ctx.placed:
            return items
        ctx.drop(
            ctx.placed.pop(),
            "over_budget",
            {
                "evicted": True,
                "sources_tokens": ctx.n_sources + ctx.n_images,
                "context_budget": ctx.context_budget,
            },
        )
        items = render.run(label.run(order.run(list(ctx.placed), ctx), ctx), ctx)


def _final_counts(items: list[Item], ctx: Context) -> None:
    """Set ``n_sources`` and ``n_user`` (and ``n_blocks``, each block's count, for the account)
    from the blocks' counts and three short ones where the split lemma makes that exact (see
    the module docstring); else count the sources block and the user message whole."""
    encoding, blocks = ctx.options.tokenizer, ctx.rendered
    if callable(encoding):  # a caller's tokenizer: count the whole texts, the account the blocks
        ctx.n_blocks = None
        ctx.n_sources, ctx.n_user = ctx.count(
            [ctx.sources_block, ctx.user], ["sources block", "user message"]
        )
        return
    ctx.n_blocks = n_blocks = _block_counts(items, ctx)
    if encoding == "approx":  # max(1, code points // 4): only the lengths matter
        ctx.n_sources = max(1, len(ctx.sources_block) // 4)
        ctx.n_user = max(1, len(ctx.user) // 4)
    elif ctx.options.labels == "xml" and all(
        b[0] == "<" and b.endswith(_XML_END) for b in blocks
    ):  # each block's last segment is "</source>"
        end, between, last = ctx.count(
            [_XML_END[1:], _XML_END[1:] + SOURCE_SEPARATOR, _XML_END[1:] + "\n"],
            ["</source>", "</source> + separator", "</source> + line break"],
        )
        ctx.n_sources = sum(n_blocks) + (len(blocks) - 1) * (between - end)
        ctx.n_user = ctx.n_framing + ctx.n_sources + last - end
    else:  # brackets: a block's last segment is all its text after its last line break
        # that the lemma cuts at, often most of it: counting it twice costs more than the
        # whole texts (whose segments the blocks' counts left in the cache)
        ctx.n_sources, ctx.n_user = ctx.count(
            [ctx.sources_block, ctx.user], ["sources block", "user message"]
        )


def _block_counts(items: list[Item], ctx: Context) -> list[int]:
    """Each rendered block's count: the label stage's, where it derived one from the priced
    count (see ``label``), else counted (one call for all that are not known)."""
    known = ctx.relabelled_counts  # the label stage sets it with ``rendered``, one per block
    missing = [j for j, n in enumerate(known) if n is None]
    if not missing:
        return known  # type: ignore[return-value]
    counts = ctx.count([ctx.rendered[j] for j in missing], lambda k: ctx.name(items[missing[k]]))
    out = list(known)
    for j, n in zip(missing, counts):
        out[j] = n
    return out  # type: ignore[return-value]


_DIGIT_LABELS = frozenset({"o200k_base", "cl100k_base"})
"""Encodings in which a label's digits are their own pieces and every run of up to three
digits is one token (``label`` relies on it; tests/stages/test_label.py checks both)."""

_XML_END = "\n</source>"
