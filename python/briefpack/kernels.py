"""The kernels, fast path: the Rust core when it is built, else the reference.

Same names and signatures as ``briefpack.reference``; the parity tests hold them identical.
``import briefpack`` exports only ``count_tokens`` of these; the others are used from here:

>>> from briefpack.kernels import dedupe_exact, pack
>>> dedupe_exact(["a b", "a  b"]).kept, pack([40, 30], 50).kept
([0], [0])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from ._backend import get_kernels
from ._checks import ENCODINGS, MAX_NUM_PERM, MAX_SHINGLE, check_count
from ._tokenizers import resolve
from ._types import DedupeResult, PackResult
from .errors import InputError

__all__ = [
    "DedupeResult",
    "PackResult",
    "count_tokens",
    "dedupe_cosine",
    "dedupe_exact",
    "dedupe_jaccard",
    "dedupe_minhash",
    "mmr",
    "pack",
]


def count_tokens(texts: Sequence[str], encoding: Any = "o200k_base") -> list[int]:
    """Count each text's tokens: identical to tiktoken's ``len(enc.encode_ordinary(text))``.

    ``encoding`` is "o200k_base", "cl100k_base", "approx" (``max(1, len(text) // 4)``), a
    callable ``str -> int`` (or ``str -> list of tokens``: its length), or what
    ``assemble(tokenizer=...)`` takes: an OpenAI model name ("gpt-4o"), a "claude-..." name
    (approximated by "approx"), a tiktoken ``Encoding`` (ours is counted by the core), a
    Haystack ``TokenCounter``.

    >>> count_tokens(["Hello, world!", "東京"], encoding="approx")
    [3, 1]
    >>> count_tokens(["Hello, world!"], encoding="gpt-4o") == count_tokens(["Hello, world!"])
    True
    """
    if not (type(encoding) is str and encoding in ENCODINGS):
        encoding = resolve(encoding, "encoding")
    return get_kernels("auto").count_tokens(texts, encoding)


def dedupe_exact(texts: Sequence[str]) -> DedupeResult:
    """Exact duplicates after collapsing whitespace; the first copy wins.

    >>> r = dedupe_exact(["a b", "a  b", "c"])
    >>> r.kept, r.duplicate_of, r.similarity
    ([0, 2], [None, 0, None], [None, 1.0, None])
    """
    return get_kernels("auto").dedupe("dedupe_exact", texts)


def _check_guard(guard: object) -> bool:
    if not isinstance(guard, bool):
        raise InputError(f"guard must be True or False, got {guard!r}", option="guard")
    return guard


def dedupe_jaccard(
    texts: Sequence[str], threshold: float = 0.7, *, guard: bool = False
) -> DedupeResult:
    """Near duplicates by Jaccard similarity of normalised word sets (``>= threshold``).

    ``guard`` (default False for the bare kernel; ``assemble``'s ``dedupe_guard`` option, which
    turns it on, defaults to True): the difference guard
    (``docs/dedupe_guard.md``). A pair over the threshold whose texts differ in a number, date,
    version, code identifier or negation is not a duplicate; the later item stays (unless it
    duplicates another kept item) and its ``near_of``, ``near_similarity`` and
    ``kept_because`` say which kept item it was near and why it stayed. Off: every pair over
    the threshold is a duplicate (the three extra columns are then empty).

    >>> dedupe_jaccard(["The cap is 4000 EUR.", "the cap is 4000 eur", "Leave: 14 weeks"]).kept
    [0, 2]
    >>> r = dedupe_jaccard(["Use bisect.insort_left(a, x) to insert x in a, sorted.",
    ...                     "Use bisect.insort_right(a, x) to insert x in a, sorted."], guard=True)
    >>> r.kept, r.near_of, r.kept_because[1]
    ([0, 1], [None, 0], "differs in 'bisect.insort_left' / 'bisect.insort_right'")
    """
    return get_kernels("auto").dedupe(
        "dedupe_jaccard", texts, threshold=threshold, guard=_check_guard(guard)
    )


def dedupe_minhash(
    texts: Sequence[str],
    threshold: float = 0.8,
    num_perm: int = 128,
    shingle: int = 3,
    seed: int = 0,
    *,
    guard: bool = False,
) -> DedupeResult:
    """Near duplicates by MinHash over word shingles with LSH banding.

    ``guard``: the difference guard, as for :func:`dedupe_jaccard`.

    >>> dedupe_minhash(["a b c d e f", "a b c d e f", "u v w x y z"]).kept
    [0, 2]
    """
    for name, value, maximum in (
        ("num_perm", num_perm, MAX_NUM_PERM),
        ("shingle", shingle, MAX_SHINGLE),
    ):
        if isinstance(value, int) and value > maximum:  # the kernels check the rest
            check_count(name, value, maximum=maximum)
    return get_kernels("auto").dedupe(
        "dedupe_minhash",
        texts,
        threshold=threshold,
        num_perm=num_perm,
        shingle=shingle,
        seed=seed,
        guard=_check_guard(guard),
    )


def dedupe_cosine(
    vectors: Any,
    threshold: float = 0.97,
    *,
    texts: Sequence[str] | None = None,
    guard: bool = False,
) -> DedupeResult:
    """Near duplicates by cosine similarity of embeddings (a 2-D array or list of vectors).

    With ``texts`` (one per vector) and ``guard=True`` (default False), the difference guard of
    :func:`dedupe_jaccard` decides each pair over the threshold on their texts; without texts
    there is nothing to guard.

    >>> dedupe_cosine([[1.0, 0.0], [0.999, 0.01], [0.0, 1.0]]).kept
    [0, 2]
    >>> vectors, texts = [[1.0, 0.0], [0.999, 0.01]], ["Python 3.11", "Python 3.12"]
    >>> dedupe_cosine(vectors, texts=texts).kept
    [0]
    >>> dedupe_cosine(vectors, texts=texts, guard=True).kept
    [0, 1]
    """
    return get_kernels("auto").dedupe(
        "dedupe_cosine", vectors, threshold=threshold, texts=texts, guard=_check_guard(guard)
    )


def pack(
    costs: Sequence[int], budget: int, overflow: Literal["stop", "skip"] = "stop"
) -> PackResult:
    """Greedy packing in rank order; ``stop`` at the first misfit or ``skip`` over it.

    >>> pack([40, 30, 50, 10], 80)
    PackResult(kept=[0, 1], used=70)
    """
    return get_kernels("auto").pack(costs, budget, overflow)


def mmr(
    query_vector: Any,
    vectors: Any,
    k: int | None = None,
    lambda_: float = 0.5,
    *,
    relevance: Sequence[float] | None = None,
) -> list[int]:
    """Maximal marginal relevance selection; returns picked indices in pick order.

    >>> mmr([1.0, 0.0], [[1.0, 0.0], [0.99, 0.1], [0.6, 0.8]], k=2, lambda_=0.3)
    [0, 2]
    """
    return get_kernels("auto").mmr(query_vector, vectors, k, lambda_, relevance)
