"""Stage: expand to parents. Children collapse into their parent once, where the best was."""

from __future__ import annotations

import pytest
from stage_kit import ids, start

import briefpack as bp
from briefpack._stages import parents

ROWS = [
    {"text": "c1", "id": "c1", "parent": "p", "score": 0.9},
    {"text": "o", "id": "o", "score": 0.8},
    {"text": "c2", "id": "c2", "parent": "p", "score": 0.7},
]
PARENTS = {"p": {"text": "the whole section", "title": "S"}}


def test_children_collapse_into_their_parent_at_the_best_childs_place(backend: str) -> None:
    items, req = start(backend, ROWS, parents=PARENTS)
    out = parents.run(items, req)
    assert ids(out) == ["p", "o"]
    assert out[0].members == [0, 2]
    assert out[0].chunk.text == "the whole section"
    assert out[0].chunk.score == 0.9


def test_a_callable_may_decline(backend: str) -> None:
    items, req = start(backend, ROWS, parents=lambda chunk: None)
    assert ids(parents.run(items, req)) == ["c1", "o", "c2"]


def test_a_parent_that_is_one_of_the_children_is_an_error(backend: str) -> None:
    items, req = start(backend, ROWS, parents=lambda chunk: {"text": "t", "id": "o"})
    with pytest.raises(bp.InputError, match="points back at a child"):
        parents.run(items, req)


def test_one_parent_id_with_two_texts_is_an_error(backend: str) -> None:
    def section_of(chunk: bp.Chunk) -> dict[str, str] | None:
        return None if chunk.parent is None else {"text": f"section as seen from {chunk.id}"}

    items, req = start(backend, ROWS, parents=section_of)
    with pytest.raises(bp.InputError) as info:
        parents.run(items, req)
    assert str(info.value) == (
        "candidate 2 (id='c2'): parent 'p' has a different text than the parent of candidate 0 "
        "(id='c1') with that id; ids must identify one text"
    )
    assert (info.value.index, info.value.field, info.value.option) == (2, "parent", "parents")


def test_one_parent_id_with_the_same_text_collapses(backend: str) -> None:
    items, req = start(backend, ROWS, parents=lambda c: c.parent and {"text": "same", "id": "p"})
    assert [it.members for it in parents.run(items, req)] == [[0, 2], [1]]
