"""Greedy duplicate detection in rank order (reference kernels).

Every method walks the items in input (rank) order and compares each only with the items already
kept; the earliest-ranked kept item that meets the threshold is the one it duplicates. So the
first copy wins and a duplicate never evicts what outranked it.
"""

from __future__ import annotations

import math
from typing import Any

from .._checks import check_count, check_seed, check_texts, check_unit_interval, check_vectors
from .._types import DedupeResult, GuardedResult
from ..errors import InputError
from .guard import Guard
from .text import exact_key, word_set, words

__all__ = [
    "MERSENNE_61",
    "cosine_similarity",
    "dedupe_cosine",
    "dedupe_exact",
    "dedupe_jaccard",
    "dedupe_minhash",
    "lsh_bands",
    "minhash_permutations",
    "minhash_signature",
    "shingle_hashes",
]

MASK64 = (1 << 64) - 1
MERSENNE_61 = (1 << 61) - 1
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def _result(n: int, dup: list[int | None], sim: list[float | None]) -> DedupeResult:
    return DedupeResult([i for i in range(n) if dup[i] is None], dup, sim)


class _Walk:
    """The greedy walk's bookkeeping with the difference guard (``reference.guard``).

    ``accept(i, k, s)`` decides a pair over the threshold: without a guard (or when the guard
    lets it go) ``i`` duplicates ``k``; when the guard keeps it, the first such ``k`` and its
    reason are remembered, and the walk goes on to the next kept item. ``done(i)`` clears them
    again for an item that ends up a duplicate (only kept items carry a reason).
    """

    def __init__(self, n: int, texts: list[str] | None) -> None:
        self.guard = Guard(texts) if texts is not None else None
        self.dup: list[int | None] = [None] * n
        self.sim: list[float | None] = [None] * n
        self.near: list[int | None] = [None] * n
        self.near_sim: list[float | None] = [None] * n
        self.why: list[str | None] = [None] * n

    def accept(self, i: int, k: int, s: float) -> bool:
        why = None if self.guard is None else self.guard(k, i)
        if why is None:
            self.dup[i], self.sim[i] = k, s
            self.near[i] = self.near_sim[i] = self.why[i] = None
            return True
        if self.why[i] is None:
            self.near[i], self.near_sim[i], self.why[i] = k, s, why
        return False

    def result(self) -> DedupeResult:
        n = len(self.dup)
        if self.guard is None:
            return _result(n, self.dup, self.sim)
        if not any(self.why):
            return _result(n, self.dup, self.sim)
        kept = [i for i in range(n) if self.dup[i] is None]
        return GuardedResult(kept, self.dup, self.sim, self.near, self.near_sim, self.why)


def dedupe_exact(texts: list[str]) -> DedupeResult:
    """Drop items whose whitespace-normalised text equals an earlier one's.

    >>> dedupe_exact(["a  b", "c", " a b "]).duplicate_of
    [None, None, 0]
    """
    texts = check_texts(texts)
    first: dict[str, int] = {}
    dup: list[int | None] = [None] * len(texts)
    sim: list[float | None] = [None] * len(texts)
    for i, text in enumerate(texts):
        key = exact_key(text)
        if key in first:
            dup[i], sim[i] = first[key], 1.0
        else:
            first[key] = i
    return _result(len(texts), dup, sim)


def dedupe_jaccard(
    texts: list[str], threshold: float = 0.7, *, guard: bool = False
) -> DedupeResult:
    """Drop items whose word-set Jaccard similarity to a kept item is ``>= threshold``.

    Similarity is ``|A & B| / |A | B|`` as a float64 division; an item with no words is never a
    near duplicate and never the item one duplicates. With ``guard=True`` (opt-in) a pair over
    the threshold whose texts differ in a number, identifier or negation is not a duplicate
    (``briefpack.reference.guard``): the item goes on to the next kept item, and a kept item
    the guard saved carries ``near_of``, ``near_similarity`` and ``kept_because``.

    >>> dedupe_jaccard(["the cat sat", "The cat sat!", "a dog"], threshold=0.7).duplicate_of
    [None, 0, None]
    >>> plan = "Pro plan: $49 per month, billed annually."
    >>> dedupe_jaccard([plan, plan.replace("49", "59")], guard=True).kept_because
    [None, "differs in '49' / '59'"]
    """
    texts = check_texts(texts)
    t = check_unit_interval("threshold", threshold)
    sets = [word_set(text) for text in texts]
    kept: list[int] = []
    walk = _Walk(len(texts), texts if guard else None)
    for i, a in enumerate(sets):
        if a:
            for k in kept:
                b = sets[k]
                if not b:
                    continue
                inter = len(a & b)
                j = inter / (len(a) + len(b) - inter)
                if j >= t and walk.accept(i, k, j):
                    break
        if walk.dup[i] is None:
            kept.append(i)
    return walk.result()


def _fnv1a64(data: bytes) -> int:
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK64
    return h


def splitmix64(x: int) -> int:
    """SplitMix64's output function applied to ``x + golden gamma`` (all mod 2**64)."""
    z = (x + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def shingle_hashes(text: str, shingle: int = 3) -> set[int]:
    """The 64-bit hashes of a text's shingles (runs of ``shingle`` consecutive words).

    A word hashes to FNV-1a 64 of its UTF-8 bytes; a shingle of word hashes ``w1..wk`` hashes to
    ``h = 0; h = splitmix64(h ^ w) for each w``. A text with fewer words than ``shingle`` (but at
    least one) is one shingle of all its words; a text with no words has none.

    >>> len(shingle_hashes("one two three four")), len(shingle_hashes("one")), shingle_hashes("")
    (2, 1, set())
    """
    hashes = [_fnv1a64(w.encode("utf-8")) for w in words(text)]
    if not hashes:
        return set()
    k = min(shingle, len(hashes))
    out = set()
    for start in range(len(hashes) - k + 1):
        h = 0
        for w in hashes[start : start + k]:
            h = splitmix64(h ^ w)
        out.add(h)
    return out


def minhash_permutations(num_perm: int, seed: int = 0) -> list[tuple[int, int]]:
    """The ``(a_i, b_i)`` of permutation ``i``: ``(a_i * x + b_i) mod (2**61 - 1)``.

    Drawn from a SplitMix64 stream: ``state = seed``; each draw is ``state += gamma`` (mod
    2**64) then the output mix; ``a_i = 1 + draw % (2**61 - 2)``, then ``b_i = draw % (2**61 - 1)``.

    >>> minhash_permutations(1, seed=0)[0][0] > 0
    True
    """
    state = seed
    out = []
    for _ in range(num_perm):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        a = 1 + _mix(state) % (MERSENNE_61 - 1)
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        b = _mix(state) % MERSENNE_61
        out.append((a, b))
    return out


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def minhash_signature(hashes: set[int], perms: list[tuple[int, int]]) -> list[int]:
    """The per-permutation minimums of ``(a * x + b) mod (2**61 - 1)`` over the shingle hashes."""
    return [min((a * x + b) % MERSENNE_61 for x in hashes) for a, b in perms]


def lsh_bands(num_perm: int, threshold: float) -> tuple[int, int]:
    """Bands ``b`` and rows ``r`` with ``b * r = num_perm`` minimising ``|(1/b)**(1/r) - t|``.

    Ties go to more bands.

    >>> lsh_bands(128, 0.8)
    (8, 16)
    """
    best: tuple[float, int, int] | None = None
    for b in range(num_perm, 0, -1):  # more bands first, so a strict < keeps them on ties
        if num_perm % b:
            continue
        r = num_perm // b
        err = abs((1.0 / b) ** (1.0 / r) - threshold)
        if best is None or err < best[0]:
            best = (err, b, r)
    assert best is not None
    return best[1], best[2]


def dedupe_minhash(
    texts: list[str],
    threshold: float = 0.8,
    num_perm: int = 128,
    shingle: int = 3,
    seed: int = 0,
    *,
    guard: bool = False,
) -> DedupeResult:
    """Drop items whose MinHash estimate to a kept item sharing an LSH band is ``>= threshold``.

    The estimate is the fraction of equal minimums over all ``num_perm`` permutations. A text
    with no words has no shingles: never a duplicate, never the item one duplicates. ``guard``:
    as for :func:`dedupe_jaccard`.

    >>> dedupe_minhash(["one two three four five", "one two three four five!", "x y z"]).kept
    [0, 2]
    """
    texts = check_texts(texts)
    t = check_unit_interval("threshold", threshold)
    check_count("num_perm", num_perm, minimum=1)
    check_count("shingle", shingle, minimum=1)
    check_seed(seed)
    perms = minhash_permutations(num_perm, seed)
    bands, rows = lsh_bands(num_perm, t)
    index: list[dict[tuple[int, ...], list[int]]] = [{} for _ in range(bands)]
    sigs: dict[int, list[int]] = {}
    walk = _Walk(len(texts), texts if guard else None)
    for i, text in enumerate(texts):
        hashes = shingle_hashes(text, shingle)
        if not hashes:
            continue
        sig = minhash_signature(hashes, perms)
        keys = [tuple(sig[band * rows : (band + 1) * rows]) for band in range(bands)]
        candidates = sorted({k for band, key in enumerate(keys) for k in index[band].get(key, ())})
        for k in candidates:
            est = sum(x == y for x, y in zip(sig, sigs[k])) / num_perm
            if est >= t and walk.accept(i, k, est):
                break
        if walk.dup[i] is None:
            sigs[i] = sig
            for band, key in enumerate(keys):
                index[band].setdefault(key, []).append(i)
    return walk.result()


def _unit(v: list[float]) -> list[float]:
    # Scale by a power of two first: exact, so the result is unchanged for ordinary vectors,
    # but the squares can then neither overflow (|x| > 1e154) nor all underflow (|x| < 1e-162).
    e = math.frexp(max(abs(x) for x in v))[1]
    v = [math.ldexp(x, -e) for x in v]
    norm = math.sqrt(math.fsum(x * x for x in v))
    return [x / norm for x in v]


SIMILARITY_STEPS = 1_000_000
"""Cosine similarities are rounded to multiples of ``1 / SIMILARITY_STEPS`` (6 decimals)."""


def cosine_similarity(c: float) -> float:
    """The similarity reported for cosine ``c``, and the value compared with the threshold.

    ``c`` clamped to [-1, 1], then rounded half up to 6 decimals as ``floor(c * 1e6 + 0.5) /
    1e6``: three correctly rounded IEEE-754 double operations that the Rust core performs in
    the same order, so the same ``c`` gives the same float in both backends. The backends'
    cosines differ by about ``dim * 2**-53``; since the rounding is a step function, the
    reported values can differ only where a cosine lies that close to a step (``(m + 0.5) /
    1e6``), and then by one step (1e-6, the contract's tolerance). The rounding is also the
    comparison's one tolerance: identical vectors, whose computed cosine may be a few ulps
    below 1, are duplicates at ``threshold=1.0``.

    >>> cosine_similarity(0.99999999999999978), cosine_similarity(1.0000000000000002)
    (1.0, 1.0)
    >>> cosine_similarity(0.9700004), cosine_similarity(0.9700005), cosine_similarity(-2.0)
    (0.97, 0.970001, -1.0)
    """
    c = min(1.0, max(-1.0, c))
    return math.floor(c * 1e6 + 0.5) / 1e6


def dedupe_cosine(
    vectors: Any, threshold: float = 0.97, *, texts: list[str] | None = None, guard: bool = False
) -> DedupeResult:
    """Drop items whose embedding's cosine similarity to a kept item's is ``>= threshold``.

    With ``texts`` (one per vector) and ``guard=True`` (opt-in), the difference guard of
    :func:`dedupe_jaccard` decides every pair over the threshold on their texts.

    Vectors are normalised to unit length (float64 here); zero, NaN, infinite or mismatched
    vectors are an InputError. The similarity compared and reported is
    :func:`cosine_similarity` (clamped, rounded to 6 decimals). Backends may differ only where
    a cosine lies within 1e-6 of the threshold (decisions) or within 1e-12 of a rounding step
    (reported similarity, by 1e-6).

    >>> dedupe_cosine([[1, 0], [0.99, 0.01], [0, 1]], threshold=0.97).duplicate_of
    [None, 0, None]
    """
    rows = [_unit(v) for v in check_vectors(vectors)]
    t = check_unit_interval("threshold", threshold)
    if texts is not None:
        texts = check_texts(texts)
        if len(texts) != len(rows):
            raise InputError(
                f"texts has {len(texts)} items but vectors has {len(rows)}; pass one text per "
                "vector (or texts=None)"
            )
    kept: list[int] = []
    walk = _Walk(len(rows), texts if guard else None)
    for i, u in enumerate(rows):
        for k in kept:
            c = cosine_similarity(math.fsum(x * y for x, y in zip(u, rows[k])))
            if c >= t and walk.accept(i, k, c):
                break
        if walk.dup[i] is None:
            kept.append(i)
    return walk.result()
