"""Orders for the chosen sources.

* ``relevance``: rank order, best first.
* ``edges`` (for "lost in the middle"): best first, second best last, weakest in the middle:
  ranks [1,2,3,4,5,6] -> [1,3,5,6,4,2] and [1..5] -> [1,3,5,4,2]. (LangChain's
  LongContextReorder puts the best item last when n is even; the common deque version puts the
  best item in the middle: neither is this order.)
* ``round_robin``: one chunk per document per round, documents in order of their first
  (best-ranked) chunk.
* ``document``: each document's chunks together in their original position order (chunks with a
  ``position`` first, by position; then those without, in input order), documents in order of
  their best chunk. Input order is an item's place in the list unless ``rank`` says otherwise
  (the pipeline passes the input index of the best candidate an item stands for, which a
  rerank may have moved).

This is the one implementation of each order: ``assemble`` orders its sources with it. It is a
leaf (it imports only ``_checks``): ordering is pure Python on both backends, a rule rather
than a kernel, so the reference re-exports it (``briefpack.reference.order``) instead of the
production path importing the reference.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Literal, TypeVar

from ._checks import choice

__all__ = ["ORDERS", "order"]

T = TypeVar("T")
Order = Literal["relevance", "edges", "round_robin", "document"]
ORDERS = ("relevance", "edges", "round_robin", "document")


def check_order(how: object) -> Order:
    return choice("order", how, ORDERS)  # type: ignore[arg-type]


def _doc_of(item: Any, i: int) -> Hashable:
    doc = getattr(item, "doc", None)
    if doc is None:
        chunk = getattr(item, "chunk", None)
        doc = getattr(chunk, "doc", None) if chunk is not None else None
    return ("__own__", i) if doc is None else doc


def _position_of(item: Any) -> int | None:
    pos = getattr(item, "position", None)
    if pos is None:
        chunk = getattr(item, "chunk", None)
        pos = getattr(chunk, "position", None) if chunk is not None else None
    return pos


def order(
    items: Sequence[T],
    how: Order = "edges",
    *,
    doc: Callable[[T], Hashable] | None = None,
    position: Callable[[T], int | None] | None = None,
    rank: Callable[[T], int] | None = None,
) -> list[T]:
    """Reorder ``items`` (given in rank order, best first) for the prompt.

    ``round_robin`` and ``document`` group by each item's ``doc`` attribute (or ``doc(item)``);
    an item without one is a document of its own. ``document`` sorts by ``position`` (or
    ``position(item)``), then by input order: the item's index, or ``rank(item)``.

    >>> order([1, 2, 3, 4, 5, 6], "edges")
    [1, 3, 5, 6, 4, 2]
    >>> order([1, 2, 3, 4, 5], "edges")
    [1, 3, 5, 4, 2]
    """
    check_order(how)
    items = list(items)
    if how == "relevance":
        return items
    if how == "edges":
        return items[0::2] + items[1::2][::-1]
    docs = [doc(x) if doc else _doc_of(x, i) for i, x in enumerate(items)]
    groups: dict[Hashable, list[int]] = {}
    for i, d in enumerate(docs):
        groups.setdefault(d, []).append(i)
    if how == "round_robin":
        out: list[T] = []
        queues = [list(g) for g in groups.values()]
        depth = max((len(q) for q in queues), default=0)
        for r in range(depth):
            out.extend(items[q[r]] for q in queues if r < len(q))
        return out
    out = []
    for members in groups.values():

        def key(i: int) -> tuple[int, int, int]:
            p = position(items[i]) if position else _position_of(items[i])
            r = rank(items[i]) if rank else i
            return (0, p, r) if p is not None else (1, r, r)

        out.extend(items[i] for i in sorted(members, key=key))
    return out
