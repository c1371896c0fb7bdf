"""Stage: repeated ids. A repeat with the same text is a duplicate (method 'id'); with other
text it is an error naming both candidates."""

from __future__ import annotations

import pytest
from stage_kit import drops, ids, start

import briefpack as bp
from briefpack._stages import repeated_ids


def test_a_repeat_with_the_same_text_is_dropped_as_a_duplicate(backend: str) -> None:
    items, req = start(backend, [{"text": "a", "id": "k"}, "b", {"text": "a", "id": "k"}])
    assert ids(repeated_ids.run(items, req)) == ["k", "1"]
    assert drops(req) == {"k": ("duplicate", {"of": "k", "similarity": 1.0, "method": "id"})}


def test_a_repeat_with_other_text_is_an_error(backend: str) -> None:
    items, req = start(backend, [{"text": "a", "id": "k"}, {"text": "b", "id": "k"}])
    with pytest.raises(bp.InputError, match=r"candidate 1 \(id='k'\): id repeats candidate 0"):
        repeated_ids.run(items, req)


def test_an_automatic_id_never_takes_an_id_another_candidate_was_given(backend: str) -> None:
    cands = ["a", {"text": "b", "id": "0"}, "c", {"text": "d", "id": "2"}, bp.Chunk("e", id="#2")]
    items, req = start(backend, cands)
    assert ids(repeated_ids.run(items, req)) == ["#0", "0", "##2", "2", "#2"]
    assert drops(req) == {}
