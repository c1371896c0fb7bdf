"""``assemble_many``: the results of ``assemble`` one request at a time, in request order."""

from __future__ import annotations

import pytest

import briefpack as bp
from briefpack.errors import BudgetError, InputError

APPROX = {"tokenizer": "approx"}


def _requests(n: int) -> list[tuple[str, list[bp.Chunk]]]:
    out = []
    for r in range(n):
        cands = [
            bp.Chunk(f"Passage {i % 7} about topic {r}: " + "words " * (i % 5), id=f"r{r}/{i}")
            for i in range(30)
        ]
        out.append((f"question {r}?", cands))
    return out


@pytest.mark.parametrize("workers", [1, 2, 8])
def test_same_results_as_one_at_a_time_in_request_order(backend: str, workers: int) -> None:
    requests = _requests(12)
    expected = [bp.assemble(q, c, budget=120, backend=backend, **APPROX) for q, c in requests]
    got = bp.assemble_many(requests, budget=120, backend=backend, workers=workers, **APPROX)
    assert [g.user for g in got] == [e.user for e in expected]
    assert [g.record() for g in got] == [e.record() for e in expected]


def test_a_mapping_overrides_the_shared_options(backend: str) -> None:
    (q, cands), *_ = _requests(1)
    got = bp.assemble_many(
        [(q, cands), {"question": q, "candidates": cands, "order": "relevance", "budget": 60}],
        budget=200,
        order="edges",
        backend=backend,
        **APPROX,
    )
    assert got[0].settings["order"] == "edges"
    assert got[1].settings["order"] == "relevance"
    assert got[1].tokens["context_budget"] == 60


def test_the_first_failing_request_by_position_is_raised_with_its_index() -> None:
    requests: list = [("ok", ["a"]), ("ok", [1]), ("ok", ["b"]), ("ok", [None])]
    with pytest.raises(InputError) as info:
        bp.assemble_many(requests, workers=4, **APPROX)
    assert str(info.value).startswith("requests[1]: candidate 0")
    got = bp.assemble_many(requests, workers=4, return_exceptions=True, **APPROX)
    assert [type(g).__name__ for g in got] == ["Assembly", "InputError", "Assembly", "InputError"]
    assert str(got[3]).startswith("requests[3]: ")


def test_budget_errors_keep_their_class() -> None:
    requests = [("a question that is far too long " * 20, ["x"])]
    with pytest.raises(BudgetError, match=r"^requests\[0\]: system \+ history"):
        bp.assemble_many(requests, budget=bp.Budget(window=50), **APPROX)


@pytest.mark.parametrize(
    ("requests", "options", "message"),
    [
        ("q", {}, "requests must be a list of requests, got str"),
        ([("q",)], {}, "requests[0] must be a (question, candidates) pair or a mapping"),
        ([{"question": "q"}], {}, "requests[0] must have 'question' and 'candidates'"),
        ([("q", ["a"])], {"workers": 0}, "workers must be an int >= 1, got 0"),
        ([("q", ["a"])], {"candidates": []}, "candidates belongs in each request"),
        ([("q", ["a"])], {"bogus": 1}, "requests[0]: "),
        ([("q", ["a"])], {"return_exceptions": 1}, "return_exceptions must be a bool"),
        (
            [("q", ["a"])],
            {"executor": "fork"},
            "executor must be 'threads', 'processes' or a concurrent.futures.Executor",
        ),
    ],
)
def test_bad_requests(requests: object, options: dict, message: str) -> None:
    with pytest.raises(InputError) as info:
        bp.assemble_many(requests, **APPROX, **options)  # type: ignore[arg-type]
    assert str(info.value).startswith(message)


def test_processes_give_the_same_results() -> None:
    requests = _requests(6)
    expected = [bp.assemble(q, c, budget=120, **APPROX) for q, c in requests]
    got = bp.assemble_many(requests, budget=120, workers=2, executor="processes", **APPROX)
    assert [g.record() for g in got] == [e.record() for e in expected]
    bad: list = [("ok", ["a"]), ("ok", [1])]
    got = bp.assemble_many(bad, workers=2, executor="processes", return_exceptions=True, **APPROX)
    assert isinstance(got[1], InputError)
    assert str(got[1]).startswith("requests[1]: candidate 0")


def test_a_callers_executor_gives_the_same_results_and_stays_open(backend: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    requests = _requests(6)
    expected = [bp.assemble(q, c, budget=120, backend=backend, **APPROX) for q, c in requests]
    with ThreadPoolExecutor(max_workers=3) as pool:
        got = bp.assemble_many(requests, budget=120, backend=backend, executor=pool, **APPROX)
        asm = bp.Assembler(budget=120, backend=backend, **APPROX)
        again = asm.many(requests, executor=pool)
        assert pool.submit(len, "still open").result() == 10
    assert [g.record() for g in got] == [e.record() for e in expected]
    assert [g.record() for g in again] == [e.record() for e in expected]


def test_a_type_error_inside_a_callable_is_reported_as_the_callables() -> None:
    def rerank(question: str, chunks: list) -> list:
        raise TypeError("the reranker's own bug")

    with pytest.raises(bp.InputError) as info:
        bp.assemble_many([("q", ["a"])], rerank=rerank, **APPROX)
    assert str(info.value) == (
        "requests[0]: rerank(question, 1 chunks): the rerank callable raised TypeError: "
        "the reranker's own bug"
    )
    assert isinstance(info.value.__cause__, TypeError)  # the caller's bug, with its traceback


def test_no_requests_no_results() -> None:
    assert bp.assemble_many([], **APPROX) == []
