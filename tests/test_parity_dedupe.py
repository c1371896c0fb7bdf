"""Parity of the Rust dedupe kernels (exact, jaccard, minhash) with the reference.

``_core.dedupe_X(texts, ...)`` must equal ``tuple(reference.dedupe_X(texts, ...))`` exactly:
same kept indices, same ``duplicate_of``, bit-identical similarities (they are f64 divisions
of exact integers in both backends). Bad input must raise the same class with the same message.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import strategies
from briefpack import reference
from briefpack.errors import InputError
from conftest import CORPUS, HAS_RUST

if not HAS_RUST:
    pytest.skip("the Rust extension is not built", allow_module_level=True)

from briefpack import _core

if not all(hasattr(_core, f) for f in ("dedupe_exact", "dedupe_jaccard", "dedupe_minhash")):
    pytest.skip("_core has no dedupe kernels", allow_module_level=True)

# The hypothesis profile sets max_examples (fast 30, ci 200, slow 5000); each kernel runs a
# multiple of it so the ci profile spreads a few thousand examples over the kernels.
PROFILE_EXAMPLES = settings().max_examples


def _many(factor: int) -> settings:
    return settings(max_examples=PROFILE_EXAMPLES * factor)


def _check(name: str, texts: list[str], **kwargs: Any) -> tuple[Any, ...]:
    want = tuple(getattr(reference, name)(texts, **kwargs))
    got = getattr(_core, name)(texts, **kwargs)
    assert got == want
    sim = got[2]
    assert all(isinstance(s, float) for s in sim if s is not None)
    return got


DESIGN_ROWS = [
    "The relocation cap for Berlin is 4000 EUR.",
    "Relocation cap for Berlin is 4000 EUR. Apply within 90 days of arrival.",
    "The relocation cap for Berlin is 4000 EUR.",
    "Parental leave is 14 weeks in Germany.",
]


@pytest.mark.parametrize("name", ["dedupe_exact", "dedupe_jaccard", "dedupe_minhash"])
def test_design_example(name: str) -> None:
    kept, dup, sim = _check(name, DESIGN_ROWS)
    assert kept == [0, 1, 3]
    assert dup == [None, None, 0, None]
    assert sim == [None, None, 1.0, None]


# --- exact -----------------------------------------------------------------------------------


@given(texts=strategies.near_duplicate_texts())
@example(texts=["a  b", "c", " a b ", "", " ", "\u3000", "A b"])
def test_exact_matches_reference(texts: list[str]) -> None:
    _check("dedupe_exact", texts)


# --- jaccard ---------------------------------------------------------------------------------


@_many(5)
@given(texts=strategies.near_duplicate_texts(), threshold=strategies.thresholds())
@example(texts=["", "...", "a", "", "a"], threshold=0.0)
@example(texts=["a b c d e", "a b c d e f g h x", "a b c d e f g h"], threshold=0.6)
@example(texts=["a b", "a b c", "a", "b a", "c"], threshold=1.0)
@example(texts=["x", "y", "x y", "y x z"], threshold=0.0)
def test_jaccard_matches_reference(texts: list[str], threshold: float) -> None:
    _check("dedupe_jaccard", texts, threshold=threshold)
    _check("dedupe_exact", texts)


def _fraction_near(f: Fraction) -> list[float]:
    x = float(f)
    return [math.nextafter(x, 0.0), x, math.nextafter(x, 1.0)]


@given(
    base=st.lists(st.integers(0, 40), min_size=1, max_size=30, unique=True),
    changes=st.lists(st.lists(st.integers(0, 60), max_size=8), min_size=1, max_size=12),
    num=st.integers(1, 30),
    den=st.integers(1, 30),
    which=st.integers(0, 2),
)
def test_jaccard_thresholds_at_exact_ratios(
    base: list[int], changes: list[list[int]], num: int, den: int, which: int
) -> None:
    """Thresholds at (and one ulp around) ratios that real pairs hit exactly."""
    f = Fraction(min(num, den), max(num, den))
    threshold = _fraction_near(f)[which]
    texts = [" ".join(f"w{x}" for x in base)]
    for extra in changes:
        words = {f"w{x}" for x in base[: len(base) // 2] + extra}
        texts.append(" ".join(sorted(words)))
    _check("dedupe_jaccard", texts, threshold=threshold)


# --- minhash ---------------------------------------------------------------------------------

_num_perms = st.one_of(st.sampled_from([1, 2, 3, 4, 6, 8, 12, 16, 32]), st.integers(1, 40))


@_many(4)
@given(
    texts=strategies.near_duplicate_texts(max_size=20),
    threshold=strategies.thresholds(),
    num_perm=_num_perms,
    shingle=st.integers(1, 5),
    seed=st.one_of(st.just(0), st.integers(0, 2**64 - 1)),
)
@example(
    texts=["one two three four five", "one two three four five!", "x y z"],
    threshold=0.8,
    num_perm=128,
    shingle=3,
    seed=0,
)
@example(texts=["", "...", "a", "", "a"], threshold=0.0, num_perm=1, shingle=1, seed=2**64 - 1)
def test_minhash_matches_reference(
    texts: list[str], threshold: float, num_perm: int, shingle: int, seed: int
) -> None:
    _check(
        "dedupe_minhash",
        texts,
        threshold=threshold,
        num_perm=num_perm,
        shingle=shingle,
        seed=seed,
    )


@given(texts=strategies.near_duplicate_texts(max_size=8), threshold=strategies.thresholds())
def test_minhash_default_num_perm_matches_reference(texts: list[str], threshold: float) -> None:
    _check("dedupe_minhash", texts, threshold=threshold)


def test_minhash_huge_shingle_is_one_shingle_per_text() -> None:
    texts = ["a b c d", "a b c d", "a b c e"]
    _check("dedupe_minhash", texts, shingle=10**30, num_perm=16)


# --- errors ----------------------------------------------------------------------------------


def _numpy_values() -> list[object]:
    try:
        import numpy
    except ImportError:
        return []
    return [numpy.float64(0.5), numpy.int64(1), numpy.float32(0.5)]


BAD_TEXTS: list[object] = ["text", b"bytes", None, 3, {"a": 1}, ["a", b"b"], ["a", "\ud800"]]
THRESHOLDS: list[object] = [
    0,
    1,
    0.5,
    -0.0,
    -0.1,
    1.0000001,
    math.nan,
    math.inf,
    "0.5",
    None,
    True,
    False,
    1 + 0j,
    Fraction(1, 2),
    10**400,
    *_numpy_values(),
]
COUNTS: list[object] = [1, 2, 0, -1, 1.5, True, "3", None, 2**70, *_numpy_values()]
SEEDS: list[object] = [0, 2**64 - 1, -1, 2**64, 1.5, True, None, "0", *_numpy_values()]


def _outcome(func: Any, *args: Any, **kwargs: Any) -> tuple[str, object]:
    try:
        return "ok", tuple(func(*args, **kwargs))
    except Exception as exc:  # compare class and message of whatever is raised
        return type(exc).__name__, str(exc)


def _same(name: str, *args: Any, **kwargs: Any) -> None:
    want = _outcome(getattr(reference, name), *args, **kwargs)
    got = _outcome(getattr(_core, name), *args, **kwargs)
    assert got == want


@pytest.mark.parametrize("texts", BAD_TEXTS, ids=repr)
@pytest.mark.parametrize("name", ["dedupe_exact", "dedupe_jaccard", "dedupe_minhash"])
def test_bad_texts_same_error(name: str, texts: object) -> None:
    with pytest.raises(InputError):
        getattr(reference, name)(texts)
    _same(name, texts)
    if name != "dedupe_exact":  # texts are checked before the threshold
        _same(name, texts, threshold=2.0)


@pytest.mark.parametrize("threshold", THRESHOLDS, ids=repr)
@pytest.mark.parametrize("name", ["dedupe_jaccard", "dedupe_minhash"])
def test_thresholds_same_outcome(name: str, threshold: object) -> None:
    _same(name, ["a b c", "a b c d", "x"], threshold=threshold)
    _same(name, ["a b c", "a b c d", "x"], threshold)


@pytest.mark.parametrize("value", COUNTS, ids=repr)
@pytest.mark.parametrize("param", ["num_perm", "shingle"])
def test_counts_same_outcome(param: str, value: object) -> None:
    if param == "num_perm" and isinstance(value, int) and value > 2**20:
        # The reference would build 2**70 permutations (it never finishes); Rust raises
        # MemoryError up front. Only the check order is compared: a bad threshold wins.
        _same("dedupe_minhash", ["a"], threshold=2, num_perm=value)
        return
    _same("dedupe_minhash", ["a b c d", "a b c d e", ""], **{param: value})  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
def test_seeds_same_outcome(seed: object) -> None:
    _same("dedupe_minhash", ["a b c d", "a b c d e", ""], num_perm=8, seed=seed)


def test_check_order_matches_reference() -> None:
    _same("dedupe_minhash", ["a"], threshold=2, num_perm=0, shingle=0, seed=-1)
    _same("dedupe_minhash", ["a"], num_perm=0, shingle=0, seed=-1)
    _same("dedupe_minhash", ["a"], shingle=0, seed=-1)
    _same("dedupe_minhash", [b"a"], threshold=2, num_perm=0, shingle=0, seed=-1)


def test_num_perm_beyond_memory_is_a_memory_error() -> None:
    with pytest.raises(MemoryError):
        _core.dedupe_minhash(["a"], num_perm=2**62)


def test_keywords_and_positionals_like_reference() -> None:
    texts = ["a b c d", "a b c d e", "a b c"]
    assert _core.dedupe_jaccard(texts, 0.5) == tuple(reference.dedupe_jaccard(texts, 0.5))
    assert _core.dedupe_minhash(texts, 0.5, 16, 2, 7) == tuple(
        reference.dedupe_minhash(texts, 0.5, 16, 2, 7)
    )
    assert _core.dedupe_exact(texts=texts) == tuple(reference.dedupe_exact(texts=texts))
    with pytest.raises(TypeError):
        _core.dedupe_jaccard(texts, threshold=0.5, bogus=1)  # type: ignore[call-arg]


# --- the real corpus -------------------------------------------------------------------------

# The reference is O(n * kept) in pure Python (and MinHash costs 128 big-int permutations per
# shingle), so the corpus size follows the hypothesis profile: ~2,000 passages under `slow`.
CORPUS_SIZE = {"slow": 2000, "ci": 300}.get(os.environ.get("HYPOTHESIS_PROFILE", "fast"), 200)


def _corpus_texts(n: int, seed: int = 0) -> list[str]:
    """``n`` corpus passages plus n/4 synthetic near copies (edits, windows, exact copies)."""
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line)["text"] for line in fh]
    rng = random.Random(seed)
    texts = rng.sample(rows, n)
    copies: list[str] = []
    for _ in range(n // 4):
        src = rng.choice(texts).split(" ")
        kind = rng.choice(["edit", "edit", "window", "copy", "case"])
        if kind == "edit":
            for _ in range(rng.randint(1, max(1, len(src) // 20))):
                i = rng.randrange(len(src))
                op = rng.choice(["del", "ins", "rep"])
                if op == "del" and len(src) > 1:
                    del src[i]
                elif op == "ins":
                    src.insert(i, rng.choice(["new", "word", "Zusatz", "追加", "и"]))
                else:
                    src[i] = src[i].upper()
        elif kind == "window":
            cut = rng.randrange(len(src))
            src = src[cut:] + rng.choice(texts).split(" ")[: max(1, cut)]
        elif kind == "case":
            src = [w.swapcase() for w in src]
        copies.append(" ".join(src))
    out = texts + copies
    rng.shuffle(out)
    return out


@pytest.fixture(scope="module")
def corpus_texts() -> list[str]:
    if not CORPUS.is_file():
        pytest.skip("the corpus (../shared/corpus/passages.jsonl.gz) is absent")
    return _corpus_texts(CORPUS_SIZE)


@pytest.mark.parametrize("threshold", [0.5, 0.7, 0.9])
def test_corpus_jaccard_matches_reference(corpus_texts: list[str], threshold: float) -> None:
    kept, _, _ = _check("dedupe_jaccard", corpus_texts, threshold=threshold)
    assert len(kept) < len(corpus_texts)  # the near copies were found


def test_corpus_minhash_matches_reference(corpus_texts: list[str]) -> None:
    kept, _, _ = _check("dedupe_minhash", corpus_texts)
    assert len(kept) < len(corpus_texts)


def test_corpus_exact_matches_reference(corpus_texts: list[str]) -> None:
    _check("dedupe_exact", corpus_texts)


def test_threads_get_the_same_answers() -> None:
    """The kernels run with the GIL released; eight threads at once must agree with one."""
    from concurrent.futures import ThreadPoolExecutor

    rng = random.Random(3)
    vocab = [f"w{i}" for i in range(300)]
    texts = [" ".join(rng.choices(vocab, k=rng.randint(0, 40))) for _ in range(400)]
    texts += [t + " extra" for t in texts[:100]]
    calls = [
        ("dedupe_exact", {}),
        ("dedupe_jaccard", {"threshold": 0.5}),
        ("dedupe_minhash", {"threshold": 0.5, "num_perm": 32}),
        ("words", {}),
    ]
    want = [getattr(_core, name)(texts, **kw) for name, kw in calls]
    with ThreadPoolExecutor(8) as pool:
        futures = [
            pool.submit(getattr(_core, name), texts, **kw) for _ in range(8) for name, kw in calls
        ]
        got = [f.result() for f in futures]
    assert got == want * 8
