"""Plain dict candidates take a shorter way into ``Chunk``s, with the same result.

* ``to_chunks`` on any list of dicts equals the full check of each (``to_chunk``, then the
  automatic ids), field by field (and ``meta`` and ``vector`` are the caller's objects), or
  raises the same first error, whatever the keys and value types (valid or not, lone
  surrogates included).
* The short way builds a ``Chunk`` without its ``__init__``: that is only right while
  ``Chunk`` has no ``__post_init__``, no slots and exactly the fields it fills.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import briefpack as bp
from briefpack import candidates
from briefpack._backend import get_kernels
from briefpack.candidates import to_chunk, to_chunks
from briefpack.errors import InputError

STRS = st.one_of(st.text(max_size=8), st.sampled_from(["a\ud800b", "é", ""]))
VALUES: dict[str, st.SearchStrategy[Any]] = {
    "text": STRS,
    "id": st.one_of(st.none(), STRS, st.sampled_from(["0", "1", "#1"]), st.integers(-2, 2)),
    "doc": st.one_of(st.none(), STRS, st.integers(0, 2)),
    "parent": st.one_of(st.none(), STRS, st.floats(0, 1)),
    "score": st.one_of(st.none(), st.floats(allow_nan=True), st.integers(-2, 2), STRS),
    "position": st.one_of(st.none(), st.integers(-1, 3), st.booleans(), st.floats(0, 1)),
    "tokens": st.one_of(st.none(), st.integers(-1, 3), st.booleans()),
    "title": st.one_of(st.none(), STRS, st.integers(0, 1)),
    "url": st.one_of(st.none(), STRS),
    "updated": st.one_of(st.none(), STRS),
    "meta": st.one_of(st.none(), st.just({"k": 1}), st.just([1]), st.just({"k": "a\ud800"})),
    "vector": st.one_of(st.none(), st.just([0.5, 0.5])),
    "page": st.one_of(st.none(), st.integers(0, 2)),
    "extra": st.just(1),
}


@st.composite
def candidate_dict(draw: st.DrawFn) -> dict[str, Any]:
    keys = draw(st.sets(st.sampled_from(sorted(VALUES))))
    keys |= {"text"} if draw(st.integers(0, 9)) else set()  # mostly with a text
    return {k: draw(VALUES[k]) for k in sorted(keys)}


def _outcome(fn: Any) -> Any:
    try:
        chunks = fn()
    except InputError as exc:
        return ("error", str(exc), exc.index, exc.id, exc.field)
    return [
        (
            tuple(getattr(c, f.name) for f in dataclasses.fields(c) if f.name != "image"),
            id(c.meta),
            id(c.vector),
        )
        for c in chunks
    ]


@pytest.mark.parametrize("backend", ["rust", "python"])
@given(st.lists(candidate_dict(), max_size=6))
def test_dicts_become_the_chunks_to_chunk_makes(backend: str, cands: list[dict[str, Any]]) -> None:
    valid = get_kernels(backend).valid_texts
    fast = _outcome(lambda: to_chunks(cands, valid))
    slow = _outcome(
        lambda: candidates._resolved([to_chunk(c, i, resolve=False) for i, c in enumerate(cands)])
    )
    assert fast == slow


def test_a_dict_and_its_chunk_are_equal_and_behave_alike() -> None:
    d = {"text": "Cap is 4000 EUR.", "score": 0.5, "title": "FAQ", "meta": {"k": 1}}
    (fast,) = to_chunks([d], get_kernels("rust").valid_texts)
    assert fast == to_chunk(d, 0)
    assert fast.replace(text="x") == to_chunk(d, 0).replace(text="x")
    assert hash(fast) == hash(to_chunk(d, 0))
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.text = "y"  # type: ignore[misc]


def test_chunk_can_be_built_without_its_init() -> None:
    assert not hasattr(bp.Chunk, "__post_init__")
    assert not hasattr(bp.Chunk, "__slots__")
    names = [f.name for f in dataclasses.fields(bp.Chunk)]
    built = candidates._checked_mapping({"text": "t"}, [])
    assert built is not None
    assert list(vars(built)) == names
