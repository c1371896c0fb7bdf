"""Stage 5, MMR: re-rank for diversity by ``λ·rel − (1−λ)·max sim to those picked``.

``rel`` is the cosine to ``query_vector``, or, without one, the item's score (every item then
needs one). ``mmr_k`` limits the picks; the rest are dropped as ``"not_selected"``. The items
come back in pick order. O(k·n·dim) in the kernel.
"""

from __future__ import annotations

from ..errors import InputError
from .context import Item, Request
from .vectors import check_vectors_of, dimension_error

__all__ = ["run"]


def run(items: list[Item], req: Request) -> list[Item]:
    """Pick items by maximal marginal relevance; drop the rest."""
    lam, k, query = req.options.mmr, req.options.mmr_k, req.query_vector
    if lam is None or not items:
        return items
    vecs = check_vectors_of(items, req.namer(items), "mmr", rust=req.kernels.name == "rust")
    if query is not None and len(query) != len(vecs[0]):
        raise dimension_error(query, vecs)
    rel = None
    if query is None:
        rel = []
        for it in items:
            if it.chunk.score is None:
                raise InputError(
                    f"{req.name(it)}: mmr without query_vector ranks by score, and this "
                    "candidate has none; pass query_vector or give every candidate a score",
                    index=it.members[0],
                    id=req.chunks[it.members[0]].id,
                    field="score",
                )
            rel.append(it.chunk.score)
    picked = req.kernels.mmr(query, vecs, k, lam, rel)
    chosen = set(picked)
    rest = [it for i, it in enumerate(items) if i not in chosen]
    req.ledger.drop_all(rest, "not_selected", {"mmr": lam, "mmr_k": k})
    return [items[i] for i in picked]
