"""An ``Assembly``'s ``dropped`` and ``fates`` are built when first read, with the same values.

* The pipeline keeps its drops as columns; a result that is never asked for them never builds
  a ``Dropped`` or a fates entry.
* Once read they are what they always were: one ``Dropped`` per dropped candidate in input
  order (its own detail dict each, also for a run of candidates dropped at once) and one
  fates entry per candidate; equality, repr, pickling, copying, ``to_dict``/``from_dict``,
  ``record()`` and a routed result all see the values.
"""

from __future__ import annotations

import copy
import pickle
from concurrent.futures import ThreadPoolExecutor

import pytest

import briefpack as bp
from briefpack.assembly import Assembly

TEXTS = [
    "The relocation cap for Berlin is 4000 EUR.",
    "The relocation cap for Berlin is 4000 EUR.",  # a duplicate
    "Parental leave is 14 weeks. " * 30,  # over the budget: the first misfit
    "Sick leave needs a note after three days.",  # dropped after it, with the next two
    "Home office is two days a week.",
    "The canteen opens at noon.",
]
OPTIONS = {"budget": 60, "tokenizer": "approx", "order": "relevance"}


def _result(backend: str = "rust") -> Assembly:
    cands = [bp.Chunk(t, id=f"c{i}", doc=f"d{i}") for i, t in enumerate(TEXTS)]
    return bp.Assembler(**OPTIONS, backend=backend)("What is the cap?", cands)


def _deferred(a: Assembly, name: str) -> bool:
    return type(a.__dict__[name]).__name__ == "_Deferred"


def test_nothing_is_built_until_read() -> None:
    a = _result()
    assert _deferred(a, "dropped")
    assert _deferred(a, "fates")
    assert [s.chunk.id for s in a.sources] == ["c0"]
    assert _deferred(a, "dropped")
    assert _deferred(a, "fates")
    assert len(a.dropped) == 5
    assert not _deferred(a, "dropped")
    assert _deferred(a, "fates")


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_values_in_input_order_with_their_reasons(backend: str) -> None:
    a = _result(backend)
    assert [(d.chunk.id, d.reason) for d in a.dropped] == [
        ("c1", "duplicate"),
        ("c2", "over_budget"),
        ("c3", "over_budget"),
        ("c4", "over_budget"),
        ("c5", "over_budget"),
    ]
    after = [d.detail for d in a.dropped[2:]]
    assert after == [{"after": "c2", "context_budget": a.tokens["context_budget"]}] * 3
    assert len({id(d) for d in after}) == 3  # each its own dict, as when built one by one
    assert [f["fate"] for f in a.fates] == ["source"] + ["dropped"] * 5
    assert a.fates[3] == {
        "index": 3,
        "id": "c3",
        "fate": "dropped",
        "reason": "over_budget",
        "detail": {"after": "c2", "context_budget": a.tokens["context_budget"]},
    }


def test_equality_repr_pickle_copy_and_dict_round_trip() -> None:
    a, b = _result(), _result()
    assert a == b
    assert repr(a) == repr(_result())
    for other in (
        pickle.loads(pickle.dumps(_result())),
        copy.copy(_result()),
        copy.deepcopy(_result()),
        Assembly.from_dict(_result().to_dict()),
    ):
        assert other == a
        assert other.dropped == a.dropped
        assert other.fates == a.fates
    assert _result().record() == a.record()
    eager = Assembly(
        a.system, a.user, a.sources, a.dropped, a.tokens, a.settings, a.fates, a.question
    )
    assert eager == _result()


def test_a_routed_result_keeps_them_deferred_and_equal() -> None:
    route = bp.route("What is the cap?")
    cands = [bp.Chunk(t, id=f"c{i}", doc=f"d{i}") for i, t in enumerate(TEXTS)]
    a = bp.Assembler(**OPTIONS)("What is the cap?", cands, route=route)
    assert _deferred(a, "dropped")
    assert a.route == route.to_dict()
    assert a.dropped == _result().dropped
    assert a.fates == _result().fates


def test_threads_reading_at_once_see_the_same_values() -> None:
    a = _result()
    with ThreadPoolExecutor(2) as pool:
        seen = list(pool.map(lambda _: (a.dropped, a.fates), range(8)))
    assert all(s == seen[0] for s in seen)


def test_still_frozen() -> None:
    a = _result()
    with pytest.raises(AttributeError):
        a.dropped = []  # type: ignore[misc]
