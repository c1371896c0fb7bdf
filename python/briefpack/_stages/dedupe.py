"""Stages 2 and 5, dedupe (and dedupe again after expansion): the first copy wins.

One kernel call per scope (the whole list, or each document with ``scope="document"``); the
kernel compares each item only with those kept before it, so a duplicate never evicts what
outranked it. Drops record the kept item's id, the similarity and the method. Page images
are compared by their hash (``images.dedupe_groups`` says which items go to which kernel).
The cost is the kernel's (see ``briefpack.reference.dedupe``); the Python around it is O(n).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import partial
from itertools import compress
from operator import attrgetter, is_, is_not
from typing import Any

from ..types import DuplicateDetail
from . import images
from .context import Context, Item, doc_key
from .vectors import check_vectors_of

__all__ = ["run"]

_chunk_text = attrgetter("chunk.text")
_is_none = partial(is_, None)
_is_not_none = partial(is_not, None)


def _kernel(ctx: Context, sub: list[Item]) -> Any:
    """The dedupe kernel's result for ``sub`` under the request's method."""
    method, k = ctx.method, ctx.kernels
    if method == "cosine":
        data = check_vectors_of(sub, ctx.namer(sub), "dedupe='cosine'")
        return k.dedupe("dedupe_cosine", data, threshold=ctx.threshold)
    texts = list(map(_chunk_text, sub))
    if method == "exact":
        return k.dedupe("dedupe_exact", texts)
    if method == "jaccard":
        return k.dedupe("dedupe_jaccard", texts, threshold=ctx.threshold)
    minhash = dict(ctx.options.minhash or {})
    return k.dedupe("dedupe_minhash", texts, threshold=ctx.threshold, **minhash)


def _results(ctx: Context, sub: list[Item]) -> list[tuple[Sequence[int], Any, str]]:
    """Each kernel's result with the positions in ``sub`` it covers and its method's name:
    one text kernel call, or (when pages are present) a page-hash call and a text call."""
    everything = range(len(sub))
    if not ctx.pages:
        return [(everything, _kernel(ctx, sub), str(ctx.method))]
    out: list[tuple[Sequence[int], Any, str]] = []
    pages, text = images.dedupe_groups(sub, ctx)
    if len(pages) > 1:
        out.append((pages, images.page_dupes([sub[j] for j in pages], ctx), "page_hash"))
    if len(text) > 1:
        out.append((text, _kernel(ctx, [sub[j] for j in text]), str(ctx.method)))
    return out


def run(items: list[Item], ctx: Context) -> list[Item]:
    """Drop near duplicates of better-ranked items (by ``ctx.method``)."""
    if len(items) < 2 or ctx.method is None:
        return items
    if ctx.options.scope != "document" and not ctx.pages:
        return _one_call(items, ctx)
    parts: Any
    if ctx.options.scope == "document":
        groups: dict[Hashable, list[int]] = {}
        for i, item in enumerate(items):
            groups.setdefault(doc_key(item.chunk), []).append(i)
        parts = groups.values()
    else:
        parts = [range(len(items))]
    dup_of: dict[int, tuple[int, float, str]] = {}
    for members in parts:
        sub = [items[i] for i in members] if ctx.options.scope == "document" else items
        for where, res, method in _results(ctx, sub):
            for j, (of, sim) in enumerate(zip(res.duplicate_of, res.similarity)):
                if of is not None:
                    s = float(sim if sim is not None else 1.0)
                    dup_of[members[where[j]]] = (members[where[of]], s, method)
    kept = []
    for i, item in enumerate(items):
        if i in dup_of:
            of, sim, method = dup_of[i]
            detail: DuplicateDetail = {
                "of": items[of].chunk.id,
                "similarity": sim,
                "method": method,
            }
            ctx.drop(item, "duplicate", detail)
        else:
            kept.append(item)
    return kept


def _one_call(items: list[Item], ctx: Context) -> list[Item]:
    """``run`` for one text kernel call over all of ``items`` (no document scope, no pages),
    without a Python step per kept item: the same drops, in the same order."""
    res = _kernel(ctx, items)
    dup, sims = res.duplicate_of, res.similarity
    method = str(ctx.method)
    for i in compress(range(len(items)), map(_is_not_none, dup)):
        sim = sims[i]
        detail: DuplicateDetail = {
            "of": items[dup[i]].chunk.id,
            "similarity": float(sim if sim is not None else 1.0),
            "method": method,
        }
        ctx.drop(items[i], "duplicate", detail)
    return list(compress(items, map(_is_none, dup)))
