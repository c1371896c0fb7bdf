"""Candidates that need no conversion take a shorter way into ``Chunk``s, with the same result.

* ``to_chunks`` on any list of dicts, ``Chunk``s (of any field values), subclasses and other
  candidates equals the full check of each (``to_chunk``, then the automatic ids), field by
  field (and ``meta`` and ``vector`` are the caller's objects), or raises the same first
  error, whatever the keys and value types (valid or not, lone surrogates included, in
  ``meta`` too), on both backends; and the two backends' fast paths (``intake_fast``) take
  the same candidates and return the same chunks.
* The short way builds a ``Chunk`` without its ``__init__``: that is only right while
  ``Chunk`` has no ``__post_init__``, no slots and exactly the fields it fills, in order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import briefpack as bp
from briefpack import candidates, reference
from briefpack._backend import get_kernels, rust_core
from briefpack.candidates import to_chunk, to_chunks
from briefpack.errors import InputError


class _Str(str):
    """A str subclass (its own ``isascii`` could lie: only the full check may take it)."""


class _Float(float):
    pass


class _Dict(dict):  # type: ignore[type-arg]
    pass


class _Mapping(Mapping):  # type: ignore[type-arg]
    def __getitem__(self, key: object) -> object:
        raise KeyError(key)

    def __iter__(self) -> Iterator[object]:
        return iter(())

    def __len__(self) -> int:
        return 0


def _cyclic() -> dict[str, Any]:
    d: dict[str, Any] = {"é": []}
    d["é"].append(d)
    return d


ODD: dict[str, list[Any]] = {
    "text": ["a\ud800b", "\udfff", _Str("x"), 1, None, b"x"],
    "id": [1, -2, True, _Str("s"), "a\ud800", 0.5],
    "doc": [0, "\udfff", _Str("d")],
    "parent": [0.5, "x\ud800", 1],
    "score": [float("nan"), float("inf"), 1, True, "0.5", _Float(0.5)],
    "position": [-1, True, 0.0, 2**70, -(2**70), 1.5],
    "tokens": [-1, False, 2**70, -(2**70)],
    "title": [None, 1, "a\ud800", _Str("t")],
    "url": [None, "\ud800"],
    "updated": [None, "2024\ud800"],
    "meta": [
        [1],
        {"k": "a\ud800"},
        {"a\ud800": 1},
        {"k": ["x", ("é", {"n": None, 2: 2.5, "t": True}), "y\udfff"]},
        {("a\ud800",): "é"},
        {"k": _Str("a\ud800")},
        {_Str("k"): 1},
        {"k": _Dict(v="a\ud800")},
        {"k": _Mapping()},
        {"k": object()},
        _Dict(k="é"),
        _Mapping(),
        _cyclic(),
    ],
    "vector": ["v"],
    "page": [0, "iv", None],
    "extra": [1],
}
"""Values around the edges of what the fast path takes (each key's valid values are
``VALID``'s)."""
VALUES = {k: st.sampled_from(v) for k, v in ODD.items()}
NAMES = st.one_of(st.none(), st.text(max_size=4), st.sampled_from(["0", "1", "#1", "é"]))
VALID: dict[str, st.SearchStrategy[Any]] = {
    "text": st.text(max_size=8),
    "id": NAMES,
    "doc": NAMES,
    "parent": NAMES,
    "score": st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False)),
    "position": st.one_of(st.none(), st.integers(0, 3)),
    "tokens": st.one_of(st.none(), st.integers(0, 3)),
    "title": st.text(max_size=4),
    "url": st.text(max_size=4),
    "updated": st.text(max_size=4),
    "meta": st.one_of(st.none(), st.just({"k": 1}), st.just({"k": ["é", (None, 2.5)]})),
    "vector": st.one_of(st.none(), st.just([0.5, 0.5])),
}
"""Values the fast path takes (most drawn values are these, so that one odd value among
valid ones is tried often)."""


@st.composite
def candidate_dict(draw: st.DrawFn) -> dict[str, Any]:
    keys = draw(st.sets(st.sampled_from(sorted(VALUES)), max_size=5))
    keys -= set() if draw(st.integers(0, 4)) == 0 else {"page", "extra"}  # mostly without
    keys |= {"text"} if draw(st.integers(0, 9)) else set()  # mostly with a text
    odd = draw(st.sets(st.sampled_from(sorted(keys)), max_size=1)) if keys else set()
    return {k: draw(VALUES[k] if k in odd or k not in VALID else VALID[k]) for k in sorted(keys)}


class _Chunk(bp.Chunk):
    pass


@st.composite
def candidate(draw: st.DrawFn) -> object:
    """A dict, a ``Chunk`` of the same values (as given, unchecked), a subclass of either, or
    another kind of candidate."""
    d = draw(candidate_dict())
    kind = draw(st.sampled_from(["dict", "dict", "chunk", "chunk", "sub", "dictsub", "str"]))
    if kind == "dict":
        return d
    if kind == "dictsub":
        return _Dict(d)
    if kind == "str":
        return d.get("text")
    d.pop("extra", None)
    d.setdefault("text", "")
    chunk = (_Chunk if kind == "sub" else bp.Chunk)(**d)
    if draw(st.integers(0, 9)) == 0:  # a Chunk whose __dict__ lacks a field
        object.__delattr__(chunk, draw(st.sampled_from(["text", "id", "meta"])))
    return chunk


def _outcome(fn: Any) -> Any:
    try:
        chunks = fn()
    except InputError as exc:
        return ("error", str(exc), exc.index, exc.id, exc.field)
    return [
        (
            tuple(getattr(c, f.name) for f in dataclasses.fields(c) if f.name != "image"),
            # a row's unknown key ("extra") is kept in a new meta mapping: equal, not the same
            id(c.meta) if "extra" not in (c.meta or {}) else None,
            id(c.vector),
        )
        for c in chunks
    ]


def _full_check(cands: list[Any]) -> Any:
    return _outcome(
        lambda: candidates._resolved([to_chunk(c, i, resolve=False) for i, c in enumerate(cands)])
    )


@pytest.mark.parametrize("backend", ["rust", "python"])
@given(st.lists(candidate_dict(), max_size=6))
def test_dicts_become_the_chunks_to_chunk_makes(backend: str, cands: list[dict[str, Any]]) -> None:
    fast = _outcome(lambda: to_chunks(cands, get_kernels(backend).intake))
    assert fast == _full_check(cands)


@pytest.mark.parametrize("backend", ["rust", "python"])
@given(st.lists(candidate(), max_size=6))
@example([{"text": "a"}, bp.Chunk("b", id="0"), {"text": "c", "id": "#0"}, bp.Chunk("d")])
@example([{"text": "a", "score": float("nan")}, bp.Chunk("b", score=float("-inf"))])
@example([{"text": "a", "position": 2**70}, bp.Chunk("b", tokens=-(2**70))])
def test_any_candidates_become_what_the_full_check_makes(backend: str, cands: list[Any]) -> None:
    fast = _outcome(lambda: to_chunks(cands, get_kernels(backend).intake))
    assert fast == _full_check(cands)


def _taken(result: tuple[list[Any], list[int]], cands: list[Any]) -> Any:
    chunks, misses = result
    return (
        _outcome(lambda: [c for c in chunks if c is not None]),
        misses,
        [c is cands[i] for i, c in enumerate(chunks)],
    )


@pytest.mark.skipif(rust_core() is None, reason="needs the compiled core")
@given(st.lists(candidate(), max_size=6))
def test_both_backends_take_the_same_candidates(cands: list[Any]) -> None:
    core = rust_core()
    rust = _taken(core.intake_fast(cands, bp.Chunk), cands)  # type: ignore[union-attr]
    assert rust == _taken(reference.intake_fast(cands, bp.Chunk), cands)


def test_a_dict_and_its_chunk_are_equal_and_behave_alike() -> None:
    d = {"text": "Cap is 4000 EUR.", "score": 0.5, "title": "FAQ", "meta": {"k": 1}}
    (fast,) = to_chunks([d], get_kernels("rust").intake)
    assert fast == to_chunk(d, 0)
    assert fast.replace(text="x") == to_chunk(d, 0).replace(text="x")
    assert hash(fast) == hash(to_chunk(d, 0))
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.text = "y"  # type: ignore[misc]


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_chunk_can_be_built_without_its_init(backend: str) -> None:
    assert not hasattr(bp.Chunk, "__post_init__")
    assert not hasattr(bp.Chunk, "__slots__")
    names = [f.name for f in dataclasses.fields(bp.Chunk)]
    given = bp.Chunk("u")  # given no id: a copy with its automatic id
    (built, renamed), misses = get_kernels(backend).intake([{"text": "t"}, given])
    assert misses == []
    assert built is not None
    assert renamed is not None
    assert renamed is not given
    assert list(vars(built)) == names == list(vars(renamed))
    assert (built.id, renamed.id) == ("0", "1")


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_candidates_that_need_no_conversion_are_taken_as_they_are(backend: str) -> None:
    chunk = bp.Chunk("Cap is 4000 EUR.", id="a", meta={"k": ["é"]})
    chunks, misses = get_kernels(backend).intake([chunk, {"text": "x", "id": 3}, "y"])
    assert chunks[0] is chunk
    assert chunks[1:] == [None, None]
    assert misses == [1, 2]


EDGES = [(key, value) for key, values in ODD.items() for value in values]


@pytest.mark.parametrize("backend", ["rust", "python"])
@pytest.mark.parametrize(
    ("key", "value"), EDGES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(EDGES)]
)
def test_each_edge_value_is_decided_as_the_full_check_decides(
    backend: str, key: str, value: object
) -> None:
    base: dict[str, Any] = {"text": "Cap is 4000 EUR.", "id": "a", "doc": "d", "score": 0.5}
    as_dict = {**base, key: value}
    cands: list[Any] = [{"text": "first"}, as_dict]
    if key != "extra":
        cands.append(bp.Chunk(**{**base, "id": "b", key: value}))
    fast = _outcome(lambda: to_chunks(cands, get_kernels(backend).intake))
    assert fast == _full_check(cands)
