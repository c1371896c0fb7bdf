"""Parity of the Rust vector and packing kernels with the reference oracle.

``briefpack._core.dedupe_cosine``, ``pack`` and ``mmr`` must match ``briefpack.reference``:
the same kept indices and ``duplicate_of``, the same reported similarities (equal floats), the
same MMR picks, and for bad input the same exception class and message. Cosine decisions may
differ only where a cosine lies within 1e-6 of the threshold, reported similarities (rounded to
6 decimals) only where a cosine lies within ~1e-12 of a rounding step, and MMR picks only where
two scores lie within 1e-9: those examples are ``assume``d away.
"""

from __future__ import annotations

import gzip
import json
import math
import re
import threading
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from briefpack import reference
from briefpack.errors import InputError
from conftest import CORPUS, param_id

try:
    from briefpack import _core
except ImportError:  # the extension is not built
    _core = None

rust = pytest.mark.skipif(
    not all(hasattr(_core, f) for f in ("dedupe_cosine", "mmr", "pack")),
    reason="briefpack._core lacks the vector kernels",
)
pytestmark = rust

NEAR_THRESHOLD = 1e-6
APPROX: dict[str, Any] = {"tokenizer": "approx"}
NEAR_STEP = 1e-11  # how close to a rounding step of the reported similarity counts as "at" it
NEAR_TIE = 1e-9


# --- generators -------------------------------------------------------------------------------


@st.composite
def matrices(draw: st.DrawFn, max_n: int = 14) -> np.ndarray:
    """Float64 rows: random, exact copies, scaled copies and small perturbations of earlier rows.

    Small dimensions draw every value with hypothesis (zeros, tiny and huge magnitudes); larger
    ones (which switch on the Rust filter, from 16 up) draw a seed for numpy.
    """
    n = draw(st.integers(0, max_n))
    dim = draw(st.one_of(st.integers(1, 6), st.sampled_from([16, 20, 40, 64, 130, 257, 1024])))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    rows: list[np.ndarray] = []
    for i in range(n):
        kind = draw(st.sampled_from(["new", "new", "copy", "scaled", "near"])) if i else "new"
        if kind == "new":
            if dim <= 6:
                values = st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False)
                row = np.array(draw(st.lists(values, min_size=dim, max_size=dim)))
            else:
                row = rng.standard_normal(dim) * draw(st.sampled_from([1e-3, 1.0, 50.0]))
            if not row.any():
                row[draw(st.integers(0, dim - 1))] = draw(st.sampled_from([1.0, -2.5]))
        else:
            src = rows[draw(st.integers(0, i - 1))]
            if kind == "copy":
                row = src.copy()
            elif kind == "scaled":
                row = src * draw(st.sampled_from([2.0, 3.0, 0.1, 1e-3]))
            else:
                eps = draw(st.sampled_from([1e-4, 1e-3, 0.01, 0.05, 0.15, 0.3]))
                row = src + eps * np.abs(src).max() * rng.standard_normal(dim)
        rows.append(row)
    return np.array(rows, dtype=np.float64).reshape(n, dim)


def as_input(x: np.ndarray, form: str) -> Any:
    """The same vectors in one of the accepted input forms."""
    if form == "f64":
        return x
    if form == "f32":
        return x.astype(np.float32)
    if form == "list":
        return x.tolist()
    if form == "list32":
        return x.astype(np.float32).tolist()
    if form == "fortran":  # not C-contiguous: copied by the binding
        return np.asfortranarray(x.astype(np.float32))
    if form == "strided":
        wide = np.zeros((x.shape[0], 2 * x.shape[1]), dtype=np.float64)
        wide[:, ::2] = x
        return wide[:, ::2]
    if form == "readonly":
        y = x.astype(np.float32)
        y.flags.writeable = False
        return y
    raise AssertionError(form)


FORMS = ["f64", "f32", "list", "list32", "fortran", "strided", "readonly"]


def unit_rows(vectors: Any) -> np.ndarray:
    x = np.array(vectors, dtype=np.float64)
    if x.size == 0:
        return x.reshape(len(x), 0) if x.ndim == 1 else x
    x = np.ldexp(x, -np.frexp(np.abs(x).max(axis=1))[1][:, None])  # as the reference
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def assert_same_dedupe(got: tuple, want: tuple) -> None:
    kept, dup, sim = got
    assert kept == want[0]
    assert dup == want[1]
    assert len(sim) == len(want[2])
    for a, b in zip(sim, want[2]):
        assert (a is None) == (b is None)
        if a is not None:
            assert a == b  # the same float: both backends round to 6 decimals alike


def near(gram: np.ndarray, threshold: float) -> bool:
    """Whether a cosine lies within 1e-6 of the threshold or within 1e-11 of a rounding step
    of the reported similarity (where the contract lets the backends differ)."""
    steps = gram * 1e6
    at_step = np.abs(steps - np.floor(steps) - 0.5) < NEAR_STEP * 1e6
    return bool(np.any(np.abs(gram - threshold) < NEAR_THRESHOLD) or np.any(at_step))


# --- cosine dedupe ----------------------------------------------------------------------------


@given(x=matrices(), threshold=st.floats(0, 1), form=st.sampled_from(FORMS))
def test_dedupe_cosine_matches_reference(x: np.ndarray, threshold: float, form: str) -> None:
    vectors = as_input(x, form)
    want = outcome(reference.dedupe_cosine, vectors, threshold=threshold)
    if want[0] != "ok":  # e.g. a tiny row that float32 rounds to zero
        assert outcome(_core.dedupe_cosine, vectors, threshold) == want
        return
    u = unit_rows(vectors)
    assume(not near(u @ u.T, threshold))
    assert_same_dedupe(_core.dedupe_cosine(vectors, threshold), tuple(want[1]))


@given(seed=st.integers(0, 2**32 - 1), threshold=st.sampled_from([0.9, 0.95, 0.97, 0.99]))
def test_dedupe_cosine_near_the_threshold_in_high_dimension(seed: int, threshold: float) -> None:
    """Pairs placed at cosines just above and below the threshold, where the filter is tight."""
    rng = np.random.default_rng(seed)
    dim, n = 384, 14
    x = rng.standard_normal((n, dim))
    for i in range(1, n, 2):
        src = x[rng.integers(0, i)]
        base = src / np.linalg.norm(src)
        w = rng.standard_normal(dim)
        w -= (w @ base) * base
        w /= np.linalg.norm(w)
        c = threshold + rng.choice([-1, 1]) * rng.uniform(2e-6, 3e-3)
        x[i] = (c * base + math.sqrt(1 - c * c) * w) * rng.uniform(0.5, 2)
    x32 = x.astype(np.float32)
    u = unit_rows(x32)
    assume(not near(u @ u.T, threshold))
    want = reference.dedupe_cosine(x32, threshold=threshold)
    assert_same_dedupe(_core.dedupe_cosine(x32, threshold), tuple(want))


def test_dedupe_cosine_clustered_high_dimension_against_brute_force() -> None:
    """A bigger clustered case (the filter's home ground) against a float64 brute force."""
    rng = np.random.default_rng(7)
    n, dim = 600, 768
    centres = rng.standard_normal((12, dim))
    x = centres[rng.integers(0, 12, n)] + rng.standard_normal((n, dim))
    for i in rng.choice(np.arange(1, n), 80, replace=False):
        x[i] = x[rng.integers(0, i)] + rng.uniform(0.05, 0.4) * rng.standard_normal(dim)
    x32 = x.astype(np.float32)
    u = unit_rows(x32)
    gram = u @ u.T
    for t in (0.9, 0.97, 0.99):
        dup = greedy(gram, t)
        got = _core.dedupe_cosine(x32, t)
        assert got[0] == [i for i, d in enumerate(dup) if d is None]
        assert got[1] == dup
        assert len(got[0]) < n


def hashed_bow(texts: list[str], dim: int) -> np.ndarray:
    """Signed hashed bag-of-words vectors: sparse, with most energy in the buckets of common
    words (a hard case for a prefix bound; real near duplicates from the corpus)."""
    x = np.zeros((len(texts), dim), dtype=np.float32)
    for i, text in enumerate(texts):
        for word in re.findall(r"\w+", text.lower()):
            h = zlib.crc32(word.encode())
            x[i, h % dim] += 1.0 if (h >> 20) & 1 else -1.0
    return x[np.abs(x).sum(axis=1) > 0]


def corpus_texts(limit: int) -> list[str]:
    if not CORPUS.is_file():
        pytest.skip("the shared corpus is absent")
    texts = []
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        for line in f:
            texts.append(json.loads(line)["text"])
            if len(texts) == limit:
                break
    return texts


def greedy(gram: np.ndarray, t: float) -> list[int | None]:
    """The greedy pass over a precomputed cosine matrix (first kept item meeting t wins)."""
    keep = np.zeros(len(gram), dtype=bool)
    dup: list[int | None] = []
    for i in range(len(gram)):
        hits = np.flatnonzero((gram[i, :i] >= t) & keep[:i])
        dup.append(int(hits[0]) if hits.size else None)
        keep[i] = not hits.size
    return dup


def test_dedupe_cosine_on_corpus_embeddings() -> None:
    """Hashed embeddings of real passages (with their real duplicates): against a float64
    brute force on 2000 passages, and against the reference itself on 80."""
    texts = corpus_texts(2000)
    x = hashed_bow(texts, 1024)
    u = unit_rows(x)
    gram = u @ u.T
    for t in (0.8, 0.9, 0.97):
        assert not np.any(np.abs(gram - t) < NEAR_THRESHOLD)
        want = greedy(gram, t)
        assert want.count(None) < len(want)
        assert _core.dedupe_cosine(x, t)[1] == want
    small = hashed_bow(texts[:80], 256)
    for t in (0.5, 0.9):
        assert not near(unit_rows(small) @ unit_rows(small).T, t)
        want = tuple(reference.dedupe_cosine(small, threshold=t))
        assert_same_dedupe(_core.dedupe_cosine(small, t), want)


def test_dedupe_cosine_reference_doctest_and_defaults() -> None:
    vectors = [[1, 0], [0.99, 0.01], [0, 1]]
    assert _core.dedupe_cosine(vectors)[1] == [None, 0, None]
    assert _core.dedupe_cosine(np.empty((0, 5), dtype=np.float32)) == ([], [], [])
    assert _core.dedupe_cosine([]) == ([], [], [])
    assert _core.dedupe_cosine(vectors, threshold=1) == ([0, 1, 2], [None] * 3, [None] * 3)


@given(
    seed=st.integers(0, 2**32 - 1),
    dim=st.sampled_from([1, 2, 3, 16, 100, 384, 768, 1024, 1536, 3072]),
    scale=st.sampled_from([1e-3, 1.0, 37.0]),
    form=st.sampled_from(FORMS),
    backend=st.sampled_from(["rust", "python"]),
)
def test_identical_vectors_are_duplicates_at_threshold_one(
    seed: int, dim: int, scale: float, form: str, backend: str
) -> None:
    """A random vector, its copy and a scaled copy: duplicates at threshold 1.0, similarity
    exactly 1.0 (in both backends; the issue found 65 of 200 such pairs missed)."""
    if backend == "python" and dim > 768:
        dim = 768  # the reference is slow; 768 already has the rounding errors that mattered
    v = np.random.default_rng(seed).standard_normal(dim) * scale
    x = as_input(np.array([v, v, 3.0 * v]), form)
    fn = _core.dedupe_cosine if backend == "rust" else reference.dedupe_cosine
    assert tuple(fn(x, 1.0)) == ([0], [None, 0, 0], [None, 1.0, 1.0])


def test_two_hundred_random_identical_pairs_at_threshold_one() -> None:
    """The issue's case: 200 random pairs of identical vectors, every one a duplicate, with
    the same reported similarity (1.0, never above) in both backends."""
    rng = np.random.default_rng(2026)
    for _ in range(200):
        v = rng.standard_normal(rng.choice([384, 768, 1024])).astype(np.float32)
        pair = np.array([v, v])
        want = ([0], [None, 0], [None, 1.0])
        assert tuple(_core.dedupe_cosine(pair, 1.0)) == want
        assert tuple(reference.dedupe_cosine(pair[:, :96], 1.0)) == want


@given(x=matrices(), form=st.sampled_from(["f64", "f32"]))
def test_reported_similarities_are_identical_and_within_bounds(x: np.ndarray, form: str) -> None:
    """At threshold 0 every later item duplicates item 0 (when its cosine rounds to >= 0), so
    this compares many reported cosines: the same floats, in [0, 1], on the 1e-6 grid."""
    vectors = as_input(x, form)
    want = outcome(reference.dedupe_cosine, vectors, threshold=0.0)
    assume(want[0] == "ok")
    assume(not near(unit_rows(vectors) @ unit_rows(vectors).T, 0.0))
    got = _core.dedupe_cosine(vectors, 0.0)
    assert_same_dedupe(got, tuple(want[1]))
    for s in got[2]:
        assert s is None or (0.0 <= s <= 1.0 and s == round(s, 6))


@given(seed=st.integers(0, 2**32 - 1), threshold=st.sampled_from([0.8, 0.95, 1.0]))
def test_records_with_cosine_similarities_are_equal(seed: int, threshold: float) -> None:
    """The whole record of both backends (cosine similarities included) is byte-equal, apart
    from the name of the backend in the settings."""
    import briefpack as bp

    rng = np.random.default_rng(seed)
    x = rng.standard_normal((12, 64)).astype(np.float32)
    for i in range(1, 12, 2):  # copies, scaled copies and near copies of earlier rows
        src = x[rng.integers(0, i)]
        x[i] = rng.choice([1.0, 2.5]) * src + rng.choice([0.0, 0.05, 0.3]) * x[i]
    assume(not near(unit_rows(x) @ unit_rows(x).T, threshold))
    # One text for all: with the difference guard on by default, texts that differ in a
    # number ("passage 3") would keep every pair; the same text leaves the cosines to decide.
    cands = [bp.Chunk("a passage", id=f"c{i}", vector=x[i].tolist()) for i in range(12)]
    records = [
        bp.assemble("q", cands, dedupe="cosine", threshold=threshold, backend=b, **APPROX).record()
        for b in ("python", "rust")
    ]
    for r in records:
        assert r["settings"].pop("backend") in ("python", "rust")  # the one field that differs
    assert json.dumps(records[0]) == json.dumps(records[1])
    dropped = [c for c in records[0]["candidates"] if "dropped" in json.dumps(c)]
    assert dropped or threshold == 1.0


def test_dedupe_cosine_accepts_int_half_and_big_endian_arrays() -> None:
    x = np.array([[3, 4, 0], [6, 8, 0], [0, 0, 7], [1, 1, 1]])
    want = tuple(reference.dedupe_cosine(x, threshold=0.9))
    for dtype in (np.int8, np.int64, np.uint16, np.float16, ">f4", ">f8", np.float32):
        assert_same_dedupe(_core.dedupe_cosine(x.astype(dtype), 0.9), want)


def test_dedupe_cosine_extreme_magnitudes() -> None:
    """Rows whose squares overflow or underflow in float64 (the reference scales them too)."""
    x = np.array([[1e-200, 2e-200], [3e200, 6e200], [5e-320, 0.0], [0.0, 1e300], [1.0, 1.0]])
    for t in (0.5, 0.97):
        assert_same_dedupe(_core.dedupe_cosine(x, t), tuple(reference.dedupe_cosine(x, t)))


def test_dedupe_cosine_does_not_mutate_input() -> None:
    x = np.random.default_rng(1).standard_normal((50, 300)).astype(np.float32)
    before = x.copy()
    listed = x.tolist()
    _core.dedupe_cosine(x, 0.5)
    _core.dedupe_cosine(listed, 0.5)
    _core.mmr(x[0], x, k=5)
    assert np.array_equal(x, before)
    assert listed == before.tolist()


def test_dedupe_cosine_same_answers_from_threads() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((400, 512)).astype(np.float32)
    x[200:] = x[:200] + 0.05 * rng.standard_normal((200, 512)).astype(np.float32)
    want = _core.dedupe_cosine(x, 0.97)
    results: list[Any] = []

    def work() -> None:
        results.append(_core.dedupe_cosine(x, 0.97))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [want] * 8


# --- pack -------------------------------------------------------------------------------------

counts = st.one_of(
    st.integers(0, 100),
    st.integers(0, 2**64 + 5),
    st.sampled_from([2**64 - 1, 2**64, 2**128 - 1, 2**128, 2**200]),
)


@given(
    costs=st.lists(st.one_of(st.integers(0, 60), counts), max_size=30),
    budget=st.one_of(st.integers(0, 300), counts),
    overflow=st.sampled_from(["stop", "skip"]),
)
def test_pack_matches_reference(costs: list[int], budget: int, overflow: str) -> None:
    want = reference.pack(costs, budget, overflow=overflow)
    got = _core.pack(costs, budget, overflow)
    assert got == tuple(want)
    kept, used = got
    assert used <= budget
    assert used == sum(costs[i] for i in kept)
    if overflow == "stop":
        assert kept == list(range(len(kept)))
    assert _core.pack(tuple(costs), budget, overflow=overflow) == got


def test_pack_reference_doctests_and_huge_counts() -> None:
    assert _core.pack([40, 30, 50, 10], 80) == ([0, 1], 70)
    assert _core.pack([40, 30, 50, 10], 80, overflow="skip") == ([0, 1, 3], 80)
    assert _core.pack([2**64 + 5, 3], 10, "skip") == ([1], 3)
    assert _core.pack([2**63, 2**63, 2**63], 2**64, "stop") == ([0, 1], 2**64)
    assert _core.pack([2**300, 5], 2**300 + 5, "stop") == ([0, 1], 2**300 + 5)
    assert _core.pack([2**300, 5], 2**300 + 4, "skip") == ([0], 2**300)
    assert _core.pack([], 0) == ([], 0)


# --- mmr --------------------------------------------------------------------------------------


def near_tie(
    raw: np.ndarray, u: np.ndarray, rel: list[float], k: int, lam: float, scores_mode: bool
) -> bool:
    """Replay the reference's MMR in float64; True if a pick had a rival within NEAR_TIE that
    both backends do not compute identically (identical rows with equal relevance, or equal
    given scores before the first pick, always tie exactly, so ties go to the earlier item)."""
    n = len(rel)
    picked: list[int] = []
    best_sim = np.full(n, -np.inf)
    remaining = list(range(n))
    while remaining and len(picked) < k:
        scores = [lam * rel[i] - (1 - lam) * (best_sim[i] if picked else 0.0) for i in remaining]
        top = int(np.argmax(scores))
        winner = remaining[top]
        for i, s in zip(remaining, scores):
            if i == winner or abs(s - scores[top]) > NEAR_TIE:
                continue
            same_rel = rel[i] == rel[winner]
            same_row = np.array_equal(raw[i], raw[winner])
            if not (same_rel and (same_row or (scores_mode and not picked))):
                return True
        picked.append(winner)
        remaining.remove(winner)
        best_sim[remaining] = np.maximum(best_sim[remaining], u[remaining] @ u[winner])
    return False


@given(
    x=matrices(max_n=8),
    data=st.data(),
    lam=st.one_of(st.floats(0, 1), st.sampled_from([0.0, 0.5, 1.0])),
    form=st.sampled_from(FORMS),
)
def test_mmr_matches_reference(x: np.ndarray, data: st.DataObject, lam: float, form: str) -> None:
    n, dim = x.shape
    vectors = as_input(x, form)
    if outcome(reference.dedupe_cosine, vectors)[0] != "ok":
        return  # invalid after conversion: error parity is tested elsewhere
    u = unit_rows(vectors)
    k = data.draw(st.one_of(st.none(), st.integers(0, n + 2)), label="k")
    if data.draw(st.booleans(), label="use query"):
        if dim <= 6:
            floats = st.floats(-5, 5, allow_nan=False)
            q = np.array(data.draw(st.lists(floats, min_size=dim, max_size=dim), label="q"))
        else:
            q = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))).normal(size=dim)
        query: Any = q.astype(np.float32) if form in ("f32", "readonly") else q.tolist()
        args: tuple[Any, ...] = (query, vectors)
        kwargs: dict[str, Any] = {}
    else:
        values = st.sampled_from([0.0, 0.5, 1.0, -0.25, 3.0])
        kwargs = {"relevance": data.draw(st.lists(values, min_size=n, max_size=n))}
        args = (None, vectors)
    want = outcome(reference.mmr, *args, k=k, lambda_=lam, **kwargs)
    if want[0] != "ok":  # a query that rounds to zero in float32
        assert outcome(_core.mmr, *args, k, lam, **kwargs) == want
        return
    rel = kwargs.get("relevance") or (list(u @ unit_rows([args[0]])[0]) if n else [])
    raw = np.array(vectors, dtype=np.float64).reshape(n, dim)
    assume(not near_tie(raw, u, rel, n if k is None else k, lam, "relevance" in kwargs))
    assert _core.mmr(*args, k, lam, **kwargs) == want[1]


def test_mmr_reference_doctest_ties_and_defaults() -> None:
    assert _core.mmr([1, 0], [[1, 0], [0.99, 0.1], [0.6, 0.8]], k=2, lambda_=0.3) == [0, 2]
    vectors = [[1, 0], [1, 0], [0, 1], [0, 1]]
    assert _core.mmr(None, vectors, relevance=[0.5] * 4) == [0, 2, 1, 3]
    assert _core.mmr(None, vectors, None, 1.0, relevance=[0.5] * 4) == [0, 1, 2, 3]
    assert _core.mmr([1, 1], np.empty((0, 2))) == []
    assert _core.mmr([1, 1], vectors, k=0) == []
    big = np.random.default_rng(2).standard_normal((60, 256)).astype(np.float32)
    assert _core.mmr(big[0], big, 20, 0.6) == reference.mmr(big[0], big, 20, 0.6)


# --- bad input: same class, same message --------------------------------------------------------


def outcome(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as exc:
        return (type(exc), str(exc))


def gen() -> Any:
    return (v for v in [[1.0, 2.0]])


masked = np.ma.array([[1.0, 2.0]], mask=[[0, 1]])
BAD_VECTORS: list[Any] = [
    "abc",
    b"ab",
    5,
    None,
    {1: 2},
    gen(),
    np.zeros(3),
    np.zeros((2, 2, 2)),
    np.float32(1.0),
    [[1, 2], [3]],
    [[1, 2], [3, 4, 5], [float("nan"), 1]],
    [[0, 0]],
    [[1, 1], [0.0, -0.0]],
    [[]],
    [[1, "a"]],
    [[1, True]],
    [[1, None]],
    [[1, 2], "ab"],
    [[1, 2], 5],
    [[1, float("inf")]],
    [[1, 10**400]],
    [[1, 2], np.zeros((1, 2))],
    [[1, 2], [np.float32(1.0), 2]],
    np.zeros((2, 3)),
    np.zeros((2, 3), dtype=np.float32),
    np.array([[1, np.nan]], dtype=np.float32),
    np.array([[1, 2], [np.inf, 1]]),
    np.array([[1, 2], [0, 0]], dtype=np.float32)[:, ::-1],
    np.empty((3, 0), dtype=np.float32),
    np.array([[1 + 1j]]),
    np.array([[True, False]]),
    np.array([["a"]]),
    np.array([[1, None]], dtype=object),
    np.array([[1.0, np.inf]], dtype=np.float16),
    np.array([[0, 0]], dtype=np.int32),
    np.array([[1.5]], dtype=np.longdouble),
    masked,
]


def bad_id(value: Any) -> str:
    return type(value).__name__ + ":" + repr(value)[:40]


@pytest.mark.parametrize("vectors", BAD_VECTORS, ids=bad_id)
def test_bad_vectors_same_error(vectors: Any) -> None:
    for threshold in (0.9, 2.0):  # a bad threshold too: the vectors are checked first
        want = outcome(reference.dedupe_cosine, vectors, threshold)
        assert want[0] != "ok"
        assert outcome(_core.dedupe_cosine, vectors, threshold) == want
    want = outcome(reference.mmr, [1.0, 2.0], vectors, 2, 0.5)
    assert outcome(_core.mmr, [1.0, 2.0], vectors, 2, 0.5) == want
    assert want[0] != "ok"


BAD_UNIT = [1.5, -0.1, float("nan"), float("inf"), "0.9", True, None, 10**400, [0.5], 1 + 0j]


@pytest.mark.parametrize("value", BAD_UNIT, ids=bad_id)
def test_bad_threshold_and_lambda_same_error(value: Any) -> None:
    vectors = [[1.0, 0.0], [0.0, 1.0]]
    want = outcome(reference.dedupe_cosine, vectors, threshold=value)
    assert want[0] in (InputError, OverflowError)
    assert outcome(_core.dedupe_cosine, vectors, value) == want
    assert outcome(_core.dedupe_cosine, vectors, threshold=value) == want
    want = outcome(reference.mmr, [1.0, 0.0], vectors, 1, value)
    assert outcome(_core.mmr, [1.0, 0.0], vectors, 1, value) == want
    assert outcome(_core.mmr, [1.0, 0.0], vectors, lambda_=value) == want


V2 = [[1.0, 0.0], [0.0, 1.0]]
BAD_MMR: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    (([1.0, 0.0], V2, -1), {}),
    (([1.0, 0.0], V2, 1.5), {}),
    (([1.0, 0.0], V2, True), {}),
    (([1.0, 0.0], V2, "3"), {}),
    (([1.0, 0.0], V2, -1, 7.0), {}),
    (([0.0, 0.0], V2), {}),
    (([1.0, 0.0, 0.0], V2), {}),
    ((np.ones((1, 2)), V2), {}),
    (("ab", V2), {}),
    ((5, V2), {}),
    (([], V2), {}),
    (([1.0, float("nan")], V2), {}),
    (([1.0, "x"], V2), {}),
    (([0.0, 0.0], "bad vectors"), {}),
    ((None, V2), {}),
    ((None, V2), {"relevance": None}),
    ((None, V2), {"relevance": [1.0]}),
    ((None, V2), {"relevance": [1.0, True]}),
    ((None, V2), {"relevance": [1.0, float("nan")]}),
    ((None, V2), {"relevance": [1.0, "x"]}),
    ((None, V2), {"relevance": [1.0, np.float32(0.5)]}),
    ((None, V2), {"relevance": [1.0, 10**400]}),
    ((None, V2), {"relevance": (v for v in [1.0, 2.0])}),
    ((None, V2), {"relevance": 5}),
    ((None, V2, -1), {"relevance": [1.0]}),
]


@pytest.mark.parametrize(("args", "kwargs"), BAD_MMR, ids=param_id)
def test_bad_mmr_arguments_same_error(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    want = outcome(reference.mmr, *args, **kwargs)
    assert want[0] != "ok"
    assert outcome(_core.mmr, *args, **kwargs) == want


BAD_PACK: list[tuple[Any, Any, Any]] = [
    ([1, 2], -1, "stop"),
    ([1, 2], 1.5, "stop"),
    ([1, 2], True, "stop"),
    ([1, 2], None, "stop"),
    ([1, 2], "10", "stop"),
    ([1, 2], -(2**70), "stop"),
    ([1, 2], 10, "x"),
    ([1, 2], 10, None),
    ([1, 2], 10, 1),
    ([1, 2], 10, b"stop"),
    ([1, 2], 10, "STOP"),
    ([1, 2], 10, "stop\ud800"),
    ("abc", 10, "stop"),
    (5, 10, "stop"),
    (None, 10, "stop"),
    (np.array([1, 2]), 10, "stop"),
    ({1, 2}, 10, "stop"),
    ([1, -1], 10, "stop"),
    ([1, True], 10, "stop"),
    ([1, 2.0], 10, "stop"),
    ([np.int64(3)], 10, "stop"),
    ([1, -(2**80)], 10, "stop"),
    ([1, None], 10, "skip"),
    ([1, 2], -1, "x"),
    ("abc", 10, "x"),
    ("abc", -1, "x"),
]


@pytest.mark.parametrize(("costs", "budget", "overflow"), BAD_PACK, ids=lambda v: repr(v)[:30])
def test_bad_pack_arguments_same_error(costs: Any, budget: Any, overflow: Any) -> None:
    want = outcome(reference.pack, costs, budget, overflow=overflow)
    assert want[0] is InputError
    assert outcome(_core.pack, costs, budget, overflow) == want
    assert outcome(_core.pack, costs, budget, overflow=overflow) == want


def test_overflow_message_lists_the_legal_values() -> None:
    with pytest.raises(InputError, match=r"^overflow must be one of 'stop', 'skip', got 'x'$"):
        _core.pack([1], 1, "x")
