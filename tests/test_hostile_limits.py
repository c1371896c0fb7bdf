"""Issue 22, items 5, 7, 10 and 12: bounded citation ranges, linear neighbour expansion,
callbacks that raise inside a batch, and ints too large to print.

Time and memory are bounded by counting work or by a subprocess under an address-space limit,
never by the clock.
"""

from __future__ import annotations

import json
import os
import pickle
import resource
import subprocess
import sys
import textwrap
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any, ClassVar

import numpy as np
import pytest

import briefpack as bp
from briefpack import citations
from briefpack._stages import neighbours

HUGE = 10**5000  # past Python's 4,300-digit limit for int -> str
ENV = {**os.environ, "PYTHONPATH": os.path.join(os.path.dirname(__file__), "..", "python")}


def run_limited(code: str, megabytes: int) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter whose address space is capped at ``megabytes``."""

    def limit() -> None:
        cap = megabytes * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=ENV,
        preexec_fn=limit,
        timeout=600,  # a hang guard only; nothing here is measured by the clock
        check=False,
    )


def assembly() -> bp.Assembly:
    return bp.assemble("Cap?", ["The cap is 4000 EUR.", "Leave is 14 weeks."], tokenizer="approx")


# ------------------------------------------------------------------ item 5: cite's ranges


def test_one_marker_of_a_megabyte_of_ranges_fits_in_400_mb() -> None:
    # before: 999 labels per 7 bytes of answer; a 1 MB marker was a raw MemoryError (2.9 GB
    # at 500 KB). Now at most MAX_EXPANDED labels come from ranges, whatever the answer.
    proc = run_limited(
        """
        import briefpack as bp
        a = bp.assemble("Cap?", ["The cap is 4000 EUR.", "Leave."], tokenizer="approx")
        answer = "The cap [" + ", ".join(["1-999"] * 150_000) + "]."
        assert len(answer) > 1_000_000
        found = bp.cite(answer, a, strict=False)
        print(len(found.unknown), [s.label for s in found.sources])
        """,
        400,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["997", "[1,", "2]"]


def test_ranges_past_the_budget_are_read_as_their_two_ends() -> None:
    full = (citations.MAX_EXPANDED // 998) * 1  # ranges of 1,000 labels that fit in full
    answer = "Claim [" + ", ".join(["1-1000"] * (full + 3)) + "]."
    labels = citations.parse_markers(answer)
    assert len(labels) == full * 1000 + 3 * 2
    assert labels[-6:] == [1, 1000] * 3
    # cite shares one budget over the whole answer, every sentence included
    many = " ".join("Claim [3-1002]." for _ in range(full + 2))
    found = bp.cite(many, assembly(), strict=False)
    assert [s.label for s in found.sources] == []  # 3..1002 never includes 1 or 2
    assert len(found.unknown) == 1000


def test_the_range_budget_counts_only_labels_between_the_ends() -> None:
    # [1-2] and [5, 6] add nothing to the budget: ten thousand of them are read in full
    labels = citations.parse_markers("A [1-2]. " * 200_000)
    assert len(labels) == 400_000
    assert labels[:4] == [1, 2, 1, 2]


# ------------------------------------------------------------------ item 7: neighbours


class CountedList(list):  # type: ignore[type-arg]
    """A chunk list that counts the items read by iterating it."""

    read = 0

    def __iter__(self) -> Any:
        for x in super().__iter__():
            CountedList.read += 1
            yield x


def test_finding_hits_reads_each_chunk_list_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # before: a linear scan per hit (20,000 chunks and 6,667 hits: 12.8 s)
    n = 3_000
    rows = [{"text": f"chunk {i} says a thing.", "id": f"c{i}", "doc": "d"} for i in range(n)]
    real = neighbours._chunks_of
    monkeypatch.setattr(neighbours, "_chunks_of", lambda *a: CountedList(real(*a)))
    CountedList.read = 0
    hits = rows[::3]
    out = bp.assemble(
        "q", hits, neighbors=1, chunks_of={"d": rows}, budget=10**7, tokenizer="approx"
    )
    assert len(out.sources) == 1  # every window touches the next: one span
    assert CountedList.read <= 2 * n  # was len(hits) * n / 2 on average


def test_a_long_span_is_joined_in_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    # before: the text so far was rebuilt and scanned for every chunk (a 16,000-chunk span took
    # 105 s); now the overlap search reads at most the next chunk's length of the text so far
    read = [0]
    real = neighbours._overlap

    def counted(a: str, b: str) -> int:
        read[0] += len(a) + len(b)
        return real(a, b)

    monkeypatch.setattr(neighbours, "_overlap", counted)
    n = 2_000
    rows = [
        {"text": f"part {i} of the long manual, page {i}.", "id": f"c{i}", "doc": "d"}
        for i in range(n)
    ]
    out = bp.assemble(
        "q", [rows[n // 2]], neighbors=n, chunks_of={"d": rows}, budget=10**7, tokenizer="approx"
    )
    total = sum(len(r["text"]) for r in rows)
    assert out.sources[0].chunk.text == "\n".join(r["text"] for r in rows)
    assert read[0] <= 2 * total  # was about n * total / 2


def test_the_linear_join_equals_the_fold_of_merge_overlap() -> None:
    texts = ["the cap is 4000 EUR", "is 4000 EUR for Berlin", "", "x", "Berlin and Paris too"]
    for k in range(1, len(texts) + 1):
        folded = texts[0]
        for t in texts[1:k]:
            folded = neighbours.merge_overlap(folded, t)
        assert neighbours._join(texts[:k]) == folded


# ------------------------------------------------------------------ item 10: batches


def boom(*_: object) -> Any:
    raise ZeroDivisionError("boom")


class BadMap(dict):  # type: ignore[type-arg]
    """A mapping whose look-ups raise (a caller's lazy table that fails)."""

    def get(self, *_: object) -> Any:
        raise RuntimeError("lookup failed")

    def __getitem__(self, _: object) -> Any:
        raise RuntimeError("lookup failed")

    def __contains__(self, _: object) -> bool:
        raise RuntimeError("lookup failed")


class BadDocument:
    """A LangChain-style document whose content raises when read."""

    metadata: ClassVar[dict[str, Any]] = {}

    @property
    def page_content(self) -> str:
        raise RuntimeError("content unavailable")


PAGE = np.zeros((32, 32), dtype=np.uint8)
CANDIDATE = {"text": "The cap is 4000 EUR. Leave is 14 weeks.", "doc": "d", "parent": "p"}
CALLBACKS: dict[str, dict[str, Any]] = {
    "rerank": {"rerank": boom},
    "tokenizer": {"tokenizer": boom},
    "parents": {"parents": boom},
    "parents-mapping": {"parents": BadMap(p="x")},
    "chunks_of": {"chunks_of": boom, "neighbors": 1},
    "chunks_of-mapping": {"chunks_of": BadMap(d=[]), "neighbors": 1},
    "sentence_scorer": {"compress": "all", "sentence_scorer": boom},
    "image_tokens": {"image_tokens": boom},
}


@pytest.mark.parametrize("name", sorted(CALLBACKS))
def test_a_raising_callback_is_that_requests_error(name: str) -> None:
    bad = {"question": "Cap?", "candidates": [{**CANDIDATE, "image": PAGE}], **CALLBACKS[name]}
    good = ("Cap?", ["The cap is 4000 EUR."])
    for workers in (1, 2):
        out = bp.assemble_many(
            [good, bad, good], tokenizer="approx", return_exceptions=True, workers=workers
        )
        assert isinstance(out[0], bp.Assembly)
        assert isinstance(out[2], bp.Assembly)
        assert isinstance(out[1], bp.InputError), out[1]
        assert str(out[1]).startswith("requests[1]: ")
        cause = out[1].__cause__
        assert isinstance(cause, (ZeroDivisionError, RuntimeError)), repr(cause)
    with pytest.raises(bp.InputError, match=r"^requests\[1\]: "):
        bp.assemble_many([good, bad], tokenizer="approx", workers=1)


def test_an_object_that_raises_in_a_candidate_is_that_requests_error() -> None:
    out = bp.assemble_many(
        [("q", ["a"]), ("q", [BadDocument()])], tokenizer="approx", return_exceptions=True
    )
    assert isinstance(out[0], bp.Assembly)
    assert isinstance(out[1], bp.InputError)
    assert str(out[1]).startswith("requests[1]: raised RuntimeError: content unavailable")
    assert isinstance(out[1].__cause__, RuntimeError)


class SerialExecutor(Executor):
    """A caller's executor that pickles each job, like a process pool (without processes)."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            job = pickle.loads(pickle.dumps(args))
            future.set_result(fn(*job, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future


def test_a_request_that_does_not_pickle_loses_no_other_result() -> None:
    requests = [("q", ["a"]), ("q", [{"text": "b", "meta": {"f": lambda: 1}}]), ("q", ["c"])]
    out = bp.assemble_many(
        requests, tokenizer="approx", executor=SerialExecutor(), return_exceptions=True
    )
    assert [type(r).__name__ for r in out] == ["Assembly", "InputError", "Assembly"]
    assert str(out[1]).startswith("requests[1]: raised ")
    with pytest.raises(bp.InputError, match=r"^requests\[1\]: "):
        bp.assemble_many(requests, tokenizer="approx", executor=SerialExecutor())
    with ThreadPoolExecutor(2) as pool:  # a caller's pool: nothing pickled, all fine
        assert len(bp.assemble_many(requests, tokenizer="approx", executor=pool)) == 3


def test_requests_that_cannot_be_read_are_an_input_error() -> None:
    class Unreadable(list):  # type: ignore[type-arg]
        def __iter__(self) -> Any:
            raise RuntimeError("gone")

    with pytest.raises(bp.InputError, match="requests could not be read: it raised Runtime"):
        bp.assemble_many(Unreadable([("q", ["a"])]), tokenizer="approx")


# ------------------------------------------------------------------ item 12: huge ints


@pytest.mark.parametrize("backend", ["python", "rust"])
@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("id", "id must be a str or an int of at most 1,000 digits"),
        ("doc", "doc must be a str or an int of at most 1,000 digits"),
        ("parent", "parent must be a str or an int of at most 1,000 digits"),
        ("page", "page must be an int <= 2**63 - 1, got an int of about 5001 digits"),
        ("tokens", "tokens must be an int <= 2**63 - 1 or None"),
        ("position", "position must be an int <= 2**63 - 1 or None"),
    ],
)
def test_a_huge_int_in_a_candidate_is_an_input_error(
    backend: str, field: str, message: str
) -> None:
    for value in (HUGE, 2**63):
        if field in ("id", "doc", "parent") and value == 2**63:
            continue  # an int id of 19 digits is an id
        with pytest.raises(bp.InputError, match=message.split(", got")[0].replace("*", r"\*")):
            bp.assemble("q", [{"text": "a", field: value}], tokenizer="approx", backend=backend)
        with pytest.raises(bp.InputError) as info:
            bp.assemble("q", [bp.Chunk("a", **{field: value})], tokenizer="approx", backend=backend)
        assert info.value.field == field
        assert info.value.index == 0


def test_an_int_id_of_1000_digits_is_still_an_id() -> None:
    a = bp.assemble("q", [{"text": "a", "id": 10**999}], tokenizer="approx")
    assert a.sources[0].chunk.id == "1" + "0" * 999


@pytest.mark.parametrize("option", ["mmr_k", "max_per_doc", "neighbors", "budget"])
def test_a_huge_int_option_is_an_input_error(option: str) -> None:
    for value in (HUGE, -HUGE):
        with pytest.raises(bp.InputError, match=option) as info:
            bp.assemble("q", ["a"], tokenizer="approx", **{option: value})
        assert "digits" in str(info.value)
        assert len(str(info.value)) < 200


def test_a_tokenizer_that_counts_past_2_63_is_an_input_error() -> None:
    for got in (HUGE, 2**63):
        with pytest.raises(bp.InputError, match=r"the tokenizer callable must return an int <="):
            bp.assemble("q", ["a"], tokenizer=lambda _, got=got: got)
        with pytest.raises(bp.InputError, match=r"texts\[0\]: the tokenizer callable"):
            bp.count_tokens("abc", encoding=lambda _, got=got: got)


def test_to_dict_and_record_of_a_huge_meta_int_are_json() -> None:
    loop: dict[str, Any] = {}
    loop["self"] = loop
    deep: list[Any] = []
    for _ in range(5_000):
        deep = [deep]
    meta = {"n": HUGE, HUGE: "key", "loop": loop, "deep": deep, "big": 10**1000}
    a = bp.assemble("q", [{"text": "a", "meta": meta}], tokenizer="approx")
    data = json.loads(json.dumps(a.to_dict()))
    kept = data["sources"][0]["chunk"]["meta"]
    assert kept["n"] == "an int of about 5001 digits"
    assert kept["an int of about 5001 digits"] == "key"
    assert kept["big"] == 10**1000  # an int json can write is kept as it is
    assert kept["loop"] == {"self": "{'self': {...}}"}
    json.dumps(a.record(include_prompt=True))
    back = bp.Assembly.from_dict(data)
    assert back.cite("The cap [1].").sources[0].label == 1
