"""Parity of the Rust MinHash kernel with the reference on texts long enough for its fast paths.

The AVX2 kernel computes the first 16 shingles of a text exactly and screens the rest with a
32-bit key before computing them exactly; repeated shingle sets reuse an earlier decision.
Short hypothesis texts rarely reach either path, so these properties draw texts of 20 to 120
words (from a small vocabulary, so minimums tie and sets repeat), exact copies, case and
punctuation variants, and permutation counts that are not multiples of the 8-lane groups.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from briefpack import reference
from conftest import HAS_RUST

if not HAS_RUST:
    pytest.skip("the Rust extension is not built", allow_module_level=True)

from briefpack import _core

VOCAB = [f"w{i}" for i in range(40)] + ["Straße", "東", "京", "naïve", "x"]


@st.composite
def long_batches(draw: st.DrawFn) -> list[str]:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(1, 10))
    texts: list[str] = []
    for _ in range(n):
        kind = rng.choice(["fresh", "fresh", "copy", "case", "punct", "edit"])
        if kind == "fresh" or not texts:
            texts.append(" ".join(rng.choice(VOCAB) for _ in range(rng.randint(20, 120))))
            continue
        src = rng.choice(texts)
        if kind == "copy":
            texts.append(src)
        elif kind == "case":
            texts.append(src.upper())
        elif kind == "punct":
            texts.append(src.replace(" ", ", ", 3) + "!")
        else:
            words = src.split(" ")
            words[rng.randrange(len(words))] = rng.choice(VOCAB)
            texts.append(" ".join(words))
    return texts


@settings(deadline=None)
@given(
    texts=long_batches(),
    threshold=st.sampled_from([0.0, 0.3, 0.5, 0.8, 0.95, 1.0]),
    num_perm=st.sampled_from([1, 7, 13, 64, 100, 128]),
    shingle=st.sampled_from([1, 2, 3, 5]),
    seed=st.integers(0, 2**64 - 1),
)
def test_long_texts_match_reference(
    texts: list[str], threshold: float, num_perm: int, shingle: int, seed: int
) -> None:
    want = tuple(reference.dedupe_minhash(texts, threshold, num_perm, shingle, seed))
    assert _core.dedupe_minhash(texts, threshold, num_perm, shingle, seed) == want


def test_repeated_sets_take_the_earlier_decision() -> None:
    base = " ".join(f"w{i % 37}" for i in range(90))
    other = " ".join(f"w{(i * 7) % 41}" for i in range(90))
    texts = [other, base, base.upper(), base + "!", other, base]
    got = _core.dedupe_minhash(texts)
    assert got == tuple(reference.dedupe_minhash(texts))
    assert got[1] == [None, None, 1, 1, 0, 1]
