"""``Assembler`` and ``Options``: configured once, called per request.

* Every option error is raised when the Assembler is built (no request needed), with the
  message ``assemble`` gives, and the option named on the error.
* Calling it equals ``assemble`` with the same options; ``many`` equals ``assemble_many``.
* It is immutable (``replace`` gives a checked copy), picklable, readable in a repr, and safe
  to share between threads.
* A kernel missing from the compiled core under ``backend="rust"`` is an error, not a silent
  fallback to the reference.
"""

from __future__ import annotations

import pickle
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import briefpack as bp
from briefpack import _backend
from briefpack.options import CHOICES, DEFAULTS, FIELDS

CANDIDATES = [
    bp.Chunk("The relocation cap for Berlin is 4000 EUR.", id="hr/1", score=0.9, doc="hr"),
    bp.Chunk("The relocation cap for Berlin is 4000 EUR.", id="faq/7", score=0.8, doc="faq"),
    bp.Chunk("Parental leave is 14 weeks.", id="hr/2", score=0.7, doc="hr"),
]
OPTIONS: dict[str, Any] = {"budget": 400, "tokenizer": "approx", "order": "document"}


def rerank_by_length(question: str, chunks: list[bp.Chunk]) -> list[float]:
    return [float(len(c.text)) for c in chunks]


@pytest.mark.parametrize(
    ("options", "option", "message"),
    [
        ({"order": "random"}, "order", "order must be one of 'relevance', 'edges'"),
        ({"dedupe": "fuzzy"}, "dedupe", "dedupe must be one of 'auto', 'exact'"),
        ({"threshold": 2}, "threshold", r"threshold must be a number in \[0, 1\], got 2"),
        ({"budget": "big"}, "budget", "budget must be an int or a Budget, got str"),
        ({"neighbors": 1}, "neighbors", "neighbors needs chunks_of"),
        ({"mmr_k": 2}, "mmr_k", "mmr_k limits MMR's picks but mmr is None"),
        ({"minhash": {"bands": 2}}, "minhash", "minhash option must be one of 'num_perm'"),
        ({"tokenizer": "gpt2"}, "tokenizer", "tokenizer must be one of 'o200k_base'"),
    ],
)
def test_option_errors_come_when_it_is_built(options: dict, option: str, message: str) -> None:
    with pytest.raises(bp.InputError, match=message) as built:
        bp.Assembler(**options)
    assert built.value.option == option
    with pytest.raises(bp.InputError) as called:
        bp.assemble("q", ["a"], **options)
    assert str(called.value) == str(built.value)


def test_options_are_reported_before_the_data() -> None:
    with pytest.raises(bp.InputError, match=r"^order must be one of"):
        bp.assemble("q", [{"text": "a", "score": float("nan")}], order="random")


def test_building_it_calls_no_tokenizer_and_loads_nothing() -> None:
    def tokenizer(text: str) -> int:
        raise AssertionError("counted at construction")

    asm = bp.Assembler(tokenizer=tokenizer)
    with pytest.raises(bp.InputError, match="the tokenizer callable raised AssertionError"):
        asm("q", ["a"])


def test_a_call_equals_assemble(backend: str) -> None:
    asm = bp.Assembler(backend=backend, rerank=rerank_by_length, **OPTIONS)
    got = asm("What is the cap?", CANDIDATES, history="earlier")
    want = bp.assemble(
        "What is the cap?", CANDIDATES, history="earlier", backend=backend,
        rerank=rerank_by_length, **OPTIONS,
    )  # fmt: skip
    assert got.record(include_prompt=True) == want.record(include_prompt=True)
    assert got.settings["backend"] == asm.backend == backend


def test_many_equals_assemble_many() -> None:
    requests: list[Any] = [("Cap?", CANDIDATES), {"question": "Leave?", "candidates": CANDIDATES,
                                                   "order": "relevance"}]  # fmt: skip
    asm = bp.Assembler(**OPTIONS)
    got = [r.record() for r in asm.many(requests, workers=2)]
    assert got == [r.record() for r in bp.assemble_many(requests, workers=2, **OPTIONS)]
    assert got[1]["settings"]["order"] == "relevance"


def test_replace_is_a_checked_copy() -> None:
    asm = bp.Assembler(**OPTIONS)
    smaller = asm.replace(budget=50)
    assert smaller.options.budget == bp.Budget(context=50)
    assert asm.options.budget == bp.Budget(context=400)
    with pytest.raises(bp.InputError, match="labels must be one of"):
        asm.replace(labels="html")
    with pytest.raises(AttributeError):
        asm.options.order = "edges"  # type: ignore[misc]


def test_it_pickles_by_its_options_and_rebuilds_its_kernels() -> None:
    asm = bp.Assembler(rerank=rerank_by_length, **OPTIONS)
    copy = pickle.loads(pickle.dumps(asm))
    assert copy == asm
    assert copy("Cap?", CANDIDATES).record() == asm("Cap?", CANDIDATES).record()


def test_its_repr_shows_what_differs_from_the_defaults() -> None:
    asm = bp.Assembler(budget=400, tokenizer="approx", rerank=rerank_by_length)
    assert repr(asm) == (
        "Assembler(budget=Budget(context=400, window=None, max_output=0, margin=0), "
        "rerank=rerank_by_length, tokenizer='approx')"
    )


def test_one_assembler_serves_many_threads() -> None:
    asm = bp.Assembler(**OPTIONS)
    questions = [f"question {i}?" for i in range(24)]
    serial = [asm(q, CANDIDATES).record(include_prompt=True) for q in questions]
    with ThreadPoolExecutor(8) as pool:
        threaded = list(pool.map(lambda q: asm(q, CANDIDATES).record(include_prompt=True),
                                 questions))  # fmt: skip
    assert threaded == serial


def test_a_kernel_missing_from_the_core_is_an_error_under_rust(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    core = _backend.rust_core()
    if core is None:
        pytest.skip("the Rust extension is not built")

    class Partial:
        def __getattr__(self, name: str) -> Any:
            if name == "mmr":
                raise AttributeError(name)
            return getattr(core, name)

    monkeypatch.setattr(_backend, "rust_core", lambda: Partial())
    with pytest.raises(bp.InputError, match=r"backend='rust' needs the compiled core's kernel"):
        _backend.Kernels("rust")
    assert _backend.get_kernels.__wrapped__("auto").name == "python"  # auto: all or nothing


def test_options_give_a_parser_what_it_needs() -> None:
    assert FIELDS[:3] == ("system", "instructions", "budget")
    assert CHOICES["order"] == ("relevance", "edges", "round_robin", "document")
    assert CHOICES["dedupe"][-1] is None
    assert DEFAULTS["order"] == "edges"
    assert bp.Options.from_mapping({"order": "relevance"}).order == "relevance"
    with pytest.raises(bp.InputError, match="unknown option\\(s\\) 'bugdet'") as info:
        bp.Options.from_mapping({"bugdet": 1})
    assert info.value.option == "bugdet"


def test_candidate_errors_carry_index_id_and_field() -> None:
    with pytest.raises(bp.InputError) as info:
        bp.assemble("q", ["ok", {"text": "x", "id": "k", "score": float("inf")}])
    err = info.value
    assert (err.index, err.id, err.field, err.option) == (1, "k", "score", None)
    again = pickle.loads(pickle.dumps(err))
    assert (str(again), again.index, again.id, again.field) == (str(err), 1, "k", "score")
