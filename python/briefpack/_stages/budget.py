"""Stage 6, the budget: the context budget, then greedy packing in rank order (``Packed``).

``run`` frames the prompt (``framing``: the context budget) and packs: an item costs its
source block rendered with the widest label this request can produce plus a separator (a
chunk's ``tokens`` stands in for its text). ``overflow="stop"`` drops the first misfit and
everything below it, ``"skip"`` goes on with smaller items. Two paths, the same decisions
and drop details (tests/stages/test_budget_one_pass.py):

* ``one_pass``, for a named encoding and no hook: one kernel call (``price_pack``: render,
  count with a running limit, pack; a stop reads nothing past the first misfit).
* ``greedy``, with the declared hooks: items are counted in batches that double in size, each
  only up to what is left (past that it cannot fit), so a large candidate set costs only what
  the budget can hold. Hooks: the page hook (``images.fit``: image tokens, and
  ``Budget(images=N)`` as a second budget) and the compression cut (``compress.fit``: an item
  that does not fit whole is placed as its largest cut that fits, and packing goes on; at the
  first misfit, when it is the best item, the hook may answer a ``Spread``: sentences chosen
  across the best items, placed instead of what was placed).

No silent empty context: with ``compress`` off and ``fallback="compress"`` (the default), a
request that places nothing is packed again with the cut hook (as ``compress="overflow"``
would pack it), so the best candidate is placed cut to its most relevant sentences when a
cut fits; the drops of the first packing are rolled back. The account says why in
``empty_reason`` when the context is still empty. The second packing runs only when the
first placed nothing, so a request that places something costs what it did.

The placed blocks and their counts go to the label stage in ``Packed``; the rendered block
is counted and evicted from in ``evict``, after render. Rejected: cutting an item in half.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ..prompt import SOURCE_SEPARATOR, render_source
from ..types import DropDetail
from . import images
from .context import Item, Request
from .framing import MESSAGE_OVERHEAD, frame
from .phases import Framing, Packed

__all__ = [
    "DIGIT_LABELS",
    "MESSAGE_OVERHEAD",
    "Cut",
    "Spread",
    "greedy",
    "one_pass",
    "run",
    "separator",
]


@dataclass(slots=True)
class Spread:
    """A cut hook's answer that replaces the packing so far: ``placed`` (index in ``items``,
    the item whole or cut, its cost), in rank order, chosen among ``items[:end]``; packing
    goes on at ``end``."""

    placed: list[tuple[int, Item, int]]
    end: int


class Cut(Protocol):
    """The compression hook: ``cut(items, k, req, widest, left, n_sep)`` is ``items[k]``
    (which does not fit in ``left``) as a cut that does, with its cost; None when no cut fits.
    ``whole``: the context budget, passed at the packing's first misfit when every item above
    it was placed whole; the hook may then answer a ``Spread`` (the global choice of
    sentences across sources, docs/semantics.md "Compression")."""

    def __call__(
        self, items: list[Item], k: int, req: Request, widest: str, left: int, n_sep: int,
        *, whole: int | None = None,
    ) -> tuple[Item, int] | Spread | None: ...  # fmt: skip


DIGIT_LABELS = frozenset({"o200k_base", "cl100k_base"})
"""Encodings in which a label's digits are their own pieces and every run of up to three
digits is one token (``label`` relies on it; tests/stages/test_label.py checks both)."""


def run(
    items: list[Item], req: Request, cut: Cut | None = None, fallback: Cut | None = None
) -> Packed:
    """Frame the prompt and pack ``items`` greedily in rank order (``cut``: the compression
    hook, which the plan passes when ``compress`` is on; ``fallback``: the same hook, used
    only when nothing is placed without it, which the plan passes when ``compress`` is off
    and ``fallback="compress"``: the drops are forgotten and the items packed again with it,
    so there is no empty context while a cut of a candidate fits)."""
    framing = frame(req)
    n_sep = separator(items, req)
    tokenizer = req.options.tokenizer
    mark = req.ledger.mark()
    if cut is None and not req.has_pages and not callable(tokenizer):
        packed = one_pass(items, req, framing, n_sep, tokenizer)
    else:
        packed = greedy(items, req, framing, n_sep, cut)
    if packed.placed or not items or fallback is None:
        return packed
    req.ledger.rollback(mark)  # nothing fits whole: pack again, cutting what does not fit
    return greedy(items, req, framing, n_sep, fallback)


def separator(items: list[Item], req: Request) -> int:
    """The separator's count, which each item's cost includes (none is counted for no item)."""
    return req.count([SOURCE_SEPARATOR], ["source separator"])[0] if items else 0


def _widest(items: list[Item], first: int = 1) -> str:
    """The largest label these items can get (labels run from ``first``)."""
    return str(first - 1 + max(1, len(items)))


def one_pass(
    items: list[Item], req: Request, framing: Framing, n_sep: int, encoding: str
) -> Packed:
    """Render, count and pack every block in one kernel call (no hook, a named encoding); the
    drops are two ledger entries: the misfits (each with what was left), and all that follow
    an ``overflow="stop"`` misfit."""
    budget, overflow = framing.context_budget, req.options.overflow
    widest = _widest(items, req.options.first_label)
    r = req.kernels.price_pack(
        [it.chunk for it in items], req.options.labels, widest, budget, n_sep, overflow, encoding
    )
    placed = [items[i] for i in r.kept]
    if encoding in DIGIT_LABELS:  # the block's count is its cost less the separator
        counts = [
            cost - n_sep if it.chunk.tokens is None else None for it, cost in zip(placed, r.costs)
        ]
    else:
        counts = [None] * len(placed)
    details: list[DropDetail] = [
        {"remaining": left, "context_budget": budget} for left in r.remaining
    ]
    req.ledger.drop_each([items[i] for i in r.misfits], "over_budget", details)
    if overflow == "stop" and r.misfits:
        misfit = r.misfits[0]
        after = str(items[misfit].chunk.id)
        req.ledger.drop_all(
            items[misfit + 1 :], "over_budget", {"after": after, "context_budget": budget}
        )
    return Packed(framing, placed, list(r.blocks), counts, widest)


@dataclass(slots=True)
class _Run:
    """The greedy loop's state: what is placed so far (``Packed``'s lists) and what it costs."""

    widest: str
    placed: list[Item] = field(default_factory=list)
    blocks: list[str | None] = field(default_factory=list)
    used: int = 0
    images: int = 0  # page images placed (the cap counts them)
    misfit: str | None = None  # the first item that did not fit (``after`` in later drops)

    def place(self, item: Item, block: str | None, cost: int) -> None:
        self.placed.append(item)
        self.blocks.append(block)
        self.used += cost
        self.images += len(item.chunk.images)


def greedy(
    items: list[Item], req: Request, framing: Framing, n_sep: int, cut: Cut | None = None
) -> Packed:
    """Pack in batches that double in size, with the page hook and the compression ``cut``
    (the path of any request; ``run`` takes ``one_pass`` when it gives the same answer). The
    counts of the blocks are left to evict (``Packed.counts`` all None)."""
    budget, stop = framing.context_budget, req.options.overflow == "stop"
    state = _Run(_widest(items, req.options.first_label))
    start, size = 0, 16
    while start < len(items):
        batch = items[start : start + size]
        resume = _batch(items, start, batch, req, framing, state, n_sep, cut)
        if resume is not None:  # a cut was placed: what follows is costed again
            start = resume
            continue
        if stop and state.misfit is not None:
            req.ledger.drop_all(
                items[start + len(batch) :],
                "over_budget",
                {"after": state.misfit, "context_budget": budget},
            )
            break
        start += len(batch)
        size *= 2
    counts: list[int | None] = [None] * len(state.placed)
    return Packed(framing, state.placed, state.blocks, counts, state.widest)


def _batch(
    items: list[Item], start: int, batch: list[Item], req: Request, framing: Framing,
    state: _Run, n_sep: int, cut: Cut | None,
) -> int | None:  # fmt: skip
    """Place or drop each item of ``batch`` (``items[start:]``); where a cut was placed, the
    index to go on from."""
    budget, widest = framing.context_budget, state.widest
    skip, drop = req.options.overflow == "skip", req.ledger.drop
    left = budget - state.used
    costs, blocks = _costs(batch, req, widest, left, n_sep)
    # the page hook: image tokens, and the image cap as a second budget (tokens alone if none)
    costs, kept, by_images = images.fit(batch, costs, req, left, state.images)
    for j, it in enumerate(batch):
        if j in kept:
            state.place(it, blocks[j], costs[j])
        elif state.misfit is not None and not skip:
            drop(it, "over_budget", {"after": state.misfit, "context_budget": budget})
        elif j in by_images:
            cap = req.options.the_budget.images
            assert cap is not None
            drop(it, "over_budget", {"images": cap, "context_budget": budget})
            state.misfit = state.misfit or str(it.chunk.id)
        else:
            now, k = budget - state.used, start + j
            first = state.misfit is None and len(state.placed) == k and not state.images
            got = None
            if cut is not None:
                got = cut(items, k, req, widest, now, n_sep, whole=budget if first else None)
            if isinstance(got, Spread):  # a global choice replaces what was placed above
                return _spread(items, got, req, state, budget)
            if got is not None:  # the compression hook placed a cut of it
                state.place(got[0], None, got[1])
                return k + 1
            drop(it, "over_budget", {"remaining": now, "context_budget": budget})
            state.misfit = state.misfit or str(it.chunk.id)
    return None


def _spread(items: list[Item], got: Spread, req: Request, state: _Run, budget: int) -> int:
    """Place the hook's global choice instead of what was placed (every item above the
    misfit, whole); the items of ``items[:got.end]`` it leaves out are dropped over budget
    (with what is left after it), the first of them the misfit. Where to go on from."""
    state.placed.clear()
    state.blocks.clear()
    state.used = 0
    for _, item, cost in got.placed:
        state.place(item, None, cost)
    chosen = {i for i, _, _ in got.placed}
    left = budget - state.used
    for i in range(got.end):
        if i not in chosen:
            req.ledger.drop(items[i], "over_budget", {"remaining": left, "context_budget": budget})
            state.misfit = state.misfit or str(items[i].chunk.id)
    return got.end


def _costs(
    batch: list[Item], req: Request, widest: str, left: int, n_sep: int
) -> tuple[list[int], list[str | None]]:
    """Each item's cost (exact where it can fit, some number past ``left`` where it cannot),
    and its block as priced (None where a caller's ``tokens`` stood in for the text)."""
    labels = req.options.labels
    texts: list[str] = []
    blocks: list[str | None] = []
    for it in batch:
        chunk = it.chunk
        if chunk.tokens is None:
            block = render_source(widest, chunk, labels)
            blocks.append(block)
        else:
            block = render_source(widest, chunk.replace(text=""), labels)
            blocks.append(None)
        texts.append(block)
    limits = [max(0, left - n_sep - (it.chunk.tokens or 0)) for it in batch]
    counted = req.count_limited(texts, limits, req.namer(batch))
    return [c + n_sep + (it.chunk.tokens or 0) for c, it in zip(counted, batch)], blocks
