"""Stage 3, dedupe (and stage 4's dedupe again, after expansion): the first copy wins.

One kernel call per scope (the whole list, or each document with ``scope="document"``); the
kernel compares each item only with those kept before it, so a duplicate never evicts what
outranked it. Drops record the kept item's id, the similarity and the method. A request with
page images compares them by their hash (the page hook, ``images.dedupe_parts``).
The cost is the kernel's (see ``briefpack.reference.dedupe``); the Python around it is O(n).
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import partial
from itertools import compress
from operator import attrgetter, is_, is_not
from typing import Any

from ..types import DropDetail, DuplicateDetail
from . import images
from .context import Item, Request, doc_key
from .vectors import check_vectors_of

__all__ = ["run"]

_chunk_text = attrgetter("chunk.text")
_is_none = partial(is_, None)
_is_not_none = partial(is_not, None)


def _kernel(req: Request, sub: list[Item]) -> Any:
    """The dedupe kernel's result for ``sub`` under the request's method."""
    method, k = req.method, req.kernels
    guard = req.options.dedupe_guard  # the difference guard (docs/dedupe_guard.md)
    if method == "cosine":
        data = check_vectors_of(
            sub, req.namer(sub), "dedupe='cosine'", rust=req.kernels.name == "rust"
        )
        texts = list(map(_chunk_text, sub)) if guard else None
        return k.dedupe("dedupe_cosine", data, threshold=req.threshold, texts=texts, guard=guard)
    texts = list(map(_chunk_text, sub))
    if method == "exact":
        return k.dedupe("dedupe_exact", texts)
    if method == "jaccard":
        return k.dedupe("dedupe_jaccard", texts, threshold=req.threshold, guard=guard)
    minhash = dict(req.options.minhash or {})
    return k.dedupe("dedupe_minhash", texts, threshold=req.threshold, guard=guard, **minhash)


def _keep_near(req: Request, sub: list[Item], res: Any, method: str, where: Any = None) -> None:
    """Note each kept item the difference guard saved: the kept item it was near and why
    (``where[j]``: the position in ``sub`` of the kernel's item ``j``; None: the same)."""
    because = getattr(res, "kept_because", ())
    if not any(because):
        return
    at = range(len(sub)) if where is None else where
    for j, why in enumerate(because):
        if why is not None:
            req.ledger.keep_near(
                sub[at[j]],
                {
                    "of": sub[at[res.near_of[j]]].chunk.id,
                    "similarity": float(res.near_similarity[j]),
                    "method": method,
                    "kept_because": why,
                },
            )


def run(items: list[Item], req: Request) -> list[Item]:
    """Drop near duplicates of better-ranked items (by ``req.method``)."""
    if len(items) < 2 or req.method is None:
        return items
    if req.options.scope != "document" and not req.has_pages:
        return _one_call(items, req)  # one text call over all of them
    parts: Any
    if req.options.scope == "document":
        groups: dict[Hashable, list[int]] = {}
        for i, item in enumerate(items):
            groups.setdefault(doc_key(item.chunk), []).append(i)
        parts = groups.values()
    else:
        parts = [range(len(items))]
    dup_of: dict[int, tuple[int, float, str]] = {}
    for members in parts:
        sub = [items[i] for i in members] if req.options.scope == "document" else items
        for where, res, method in images.dedupe_parts(sub, req, _kernel):  # the page hook
            _keep_near(req, sub, res, method, where)
            for j, (of, sim) in enumerate(zip(res.duplicate_of, res.similarity)):
                if of is not None:
                    s = float(sim if sim is not None else 1.0)
                    dup_of[members[where[j]]] = (members[where[of]], s, method)
    gone = sorted(dup_of)
    details: list[DropDetail] = []
    for i in gone:
        of, sim, method = dup_of[i]
        detail: DuplicateDetail = {"of": items[of].chunk.id, "similarity": sim, "method": method}
        if method == "page_hash":  # the page hook's drops say which check decided
            detail["check"] = images.PAGE_CHECK
        details.append(detail)
    req.ledger.drop_each([items[i] for i in gone], "duplicate", details)
    return [item for i, item in enumerate(items) if i not in dup_of]


def _one_call(items: list[Item], req: Request) -> list[Item]:
    """``run`` for one text kernel call over all of ``items`` (no document scope, no pages),
    without a Python step per kept item: the same drops, in the same order."""
    res = _kernel(req, items)
    dup, sims = res.duplicate_of, res.similarity
    method = str(req.method)
    _keep_near(req, items, res, method)
    gone = list(compress(range(len(items)), map(_is_not_none, dup)))
    details: list[DropDetail] = [
        {
            "of": items[dup[i]].chunk.id,
            "similarity": float(1.0 if sims[i] is None else sims[i]),
            "method": method,
        }
        for i in gone
    ]
    req.ledger.drop_each([items[i] for i in gone], "duplicate", details)
    return list(compress(items, map(_is_none, dup)))
