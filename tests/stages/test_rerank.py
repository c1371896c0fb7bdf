"""Stage: rerank. A stable re-sort by the caller's scores, which become the items' scores."""

from __future__ import annotations

import pytest
from stage_kit import ids, start

import briefpack as bp
from briefpack._stages import rerank


def test_a_stable_re_sort_by_the_new_scores(backend: str) -> None:
    items, req = start(
        backend, ["aa", "b", "cc", "d"], rerank=lambda q, chunks: [len(c.text) for c in chunks]
    )
    out = rerank.run(items, req)
    assert ids(out) == ["0", "2", "1", "3"]
    assert [it.chunk.score for it in out] == [2.0, 2.0, 1.0, 1.0]


def test_a_score_that_is_not_finite_names_the_candidate(backend: str) -> None:
    items, req = start(backend, ["a", "b"], rerank=lambda q, chunks: [1.0, float("nan")])
    with pytest.raises(bp.InputError, match=r"candidate 1 \(id='1'\): rerank returned nan"):
        rerank.run(items, req)
