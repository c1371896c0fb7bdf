"""Vectors given as lists, checked and stacked by the Rust core in one call.

``_core.vector_matrix`` replaces the Python loop over the floats when a request runs on the
Rust core: the same values (float64, as ``float()`` reads them), the same first bad candidate
named with the same message and field, on every input of a fuzzed mix of good and bad rows.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import briefpack as bp
from briefpack import InputError
from briefpack._backend import rust_core
from briefpack._stages import vectors as stage

np = pytest.importorskip("numpy")
core = rust_core()
pytestmark = pytest.mark.skipif(
    core is None or not hasattr(core, "vector_matrix"), reason="the Rust extension is not built"
)

BAD_ROWS: list[Any] = [
    [],
    [0.0, 0.0],
    [0, 0.0],
    [1.0, float("nan")],
    [float("inf"), 1.0],
    [10**400, 1.0],
    [1.0, True],
    [1.0, "2"],
    [1.0, None],
    "ab",
    b"ab",
    7,
    {1.0: 1.0},
    [1.0],
    [1.0, 2.0, 3.0],
]
GOOD_ROWS: list[Any] = [
    [1.0, 2.0],
    [1, -2],
    (0.5, 0.25),
    [0.0, 1e-300],
    [2**60, 3],
    [1.5, 1e300],
]


def outcome(vectors: list[Any], backend: str) -> tuple[str, Any]:
    cands = [
        bp.Chunk(f"text {i}", id=f"c{i}", vector=v, score=1.0 - i / 100)
        for i, v in enumerate(vectors)
    ]
    try:
        r = bp.assemble("q", cands, dedupe="cosine", tokenizer="approx", backend=backend)
    except InputError as e:
        return "error", (str(e), e.field, e.id)
    return "ok", r.to_dict()


def test_the_core_names_the_first_bad_vector_as_the_python_loop_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(26)
    cases = []
    for _ in range(400):
        n = rng.randint(1, 6)
        rows = [rng.choice(GOOD_ROWS) for _ in range(n)]
        for _ in range(rng.randint(0, 2)):
            rows[rng.randrange(n)] = rng.choice(BAD_ROWS)
        cases.append(rows)
    fast = [outcome(rows, "rust") for rows in cases]
    reference = [outcome(rows, "python") for rows in cases]
    monkeypatch.setattr(stage, "_core_matrix", lambda items, name_of: None)
    loop = [outcome(rows, "rust") for rows in cases]
    assert sum(kind == "error" for kind, _ in fast) > 100
    for rows, f, r, p in zip(cases, fast, reference, loop):
        assert f == p, rows  # the whole assembly, or the error
        if f[0] == "error":
            assert f == r, rows


def test_the_matrix_holds_the_values_float_reads() -> None:
    rows = [[1, 2.5, -3], (2**53 + 1, 0.1, 1e-310)]
    mat = core.vector_matrix(rows, lambda i: f"row {i}")
    assert mat.dtype == np.float64
    assert mat.shape == (2, 3)
    assert mat.flags.c_contiguous
    assert mat.tolist() == [[float(x) for x in r] for r in rows]
    assert core.vector_matrix([], lambda i: "unused").shape == (0, 0)


def test_a_rust_request_stacks_list_vectors_once() -> None:
    items = [stage.Item(bp.Chunk(f"t{i}"), [i], vector=[1.0, float(i)]) for i in range(3)]
    mat = stage.check_vectors_of(items, str, "dedupe='cosine'", rust=True)
    assert isinstance(mat, np.ndarray)
    assert mat.shape == (3, 2)
    assert all(it.vector_checked and isinstance(it.vector, np.ndarray) for it in items)
    # the Python backend keeps the reference's lists
    items = [stage.Item(bp.Chunk(f"t{i}"), [i], vector=[1, i]) for i in range(3)]
    listed = stage.check_vectors_of(items, str, "dedupe='cosine'")
    assert listed == [[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]]


def test_the_name_is_asked_for_only_on_an_error() -> None:
    asked: list[int] = []

    def name_of(i: int) -> str:
        asked.append(i)
        return f"row {i}"

    core.vector_matrix([[1.0, 2.0]] * 50, name_of)
    assert asked == []
    with pytest.raises(InputError, match=r"^row 3 holds NaN"):
        core.vector_matrix([[1.0, 2.0]] * 3 + [[float("nan"), 1.0]], name_of)
    assert asked == [3]
