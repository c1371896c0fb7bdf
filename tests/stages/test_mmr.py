"""Stage: MMR. Picks in MMR order; the rest are not_selected; without a query vector the
scores are the relevance."""

from __future__ import annotations

import pytest
from stage_kit import drops, ids, start

import briefpack as bp
from briefpack._stages import mmr

ROWS = [
    {"text": "a", "id": "a", "score": 0.9, "vector": [1.0, 0.0]},
    {"text": "b", "id": "b", "score": 0.8, "vector": [0.99, 0.1]},
    {"text": "c", "id": "c", "score": 0.7, "vector": [0.6, 0.8]},
]


def test_picks_diverse_items_and_drops_the_rest(backend: str) -> None:
    items, req = start(backend, ROWS, mmr=0.3, mmr_k=2, dedupe=None, query_vector=[1.0, 0.0])
    assert ids(mmr.run(items, req)) == ["a", "c"]
    assert drops(req) == {"b": ("not_selected", {"mmr": 0.3, "mmr_k": 2})}


def test_without_a_query_vector_every_item_needs_a_score(backend: str) -> None:
    rows = [ROWS[0], {k: v for k, v in ROWS[1].items() if k != "score"}]
    items, req = start(backend, rows, mmr=0.5, dedupe=None)
    with pytest.raises(bp.InputError, match="mmr without query_vector ranks by score") as info:
        mmr.run(items, req)
    assert (info.value.index, info.value.id, info.value.field) == (1, "b", "score")
