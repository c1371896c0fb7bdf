"""Type stubs for briefpack's Rust core (``briefpack._core``).

Each function mirrors its ``#[pyo3(signature)]`` and returns plain lists/tuples; the public
API wraps them (``DedupeResult`` is a NamedTuple, so ``tuple(result)`` equals the raw tuple).
"""

from collections.abc import Sequence

def words(texts: Sequence[str]) -> list[list[str]]:
    """Each text's lowercased words by the shared character table, in order, repeats kept.

    Arguments:
        texts: the texts (any sequence of str; not a str itself).

    Returns:
        One list of words per text, as ``briefpack.reference.text.words`` gives.

    Raises:
        InputError: ``texts`` is not a sequence of str, or a text holds a lone surrogate.
    """

def exact_keys(texts: Sequence[str]) -> list[str]:
    """Each text with every whitespace run collapsed to one space and both ends stripped.

    Arguments:
        texts: the texts (any sequence of str; not a str itself).

    Returns:
        One key per text, as ``briefpack.reference.text.exact_key`` gives.

    Raises:
        InputError: ``texts`` is not a sequence of str, or a text holds a lone surrogate.
    """

def dedupe_exact(
    texts: Sequence[str],
) -> tuple[list[int], list[int | None], list[float | None]]:
    """Drop items whose whitespace-normalised text equals an earlier one's.

    Arguments:
        texts: the candidates' texts in rank order.

    Returns:
        ``(kept, duplicate_of, similarity)``: kept indices in rank order; per item the index of
        the earliest kept copy (or None); per item 1.0 for a copy (or None).

    Raises:
        InputError: ``texts`` is not a sequence of str, or a text holds a lone surrogate.
    """

def dedupe_jaccard(
    texts: Sequence[str], threshold: float = 0.7
) -> tuple[list[int], list[int | None], list[float | None]]:
    """Drop items whose word-set Jaccard similarity to a kept item is ``>= threshold``.

    Exact (identical to ``briefpack.reference.dedupe_jaccard``), with prefix filtering. An item
    with no words is never a near duplicate and never the item one duplicates.

    Arguments:
        texts: the candidates' texts in rank order.
        threshold: a number in [0, 1].

    Returns:
        ``(kept, duplicate_of, similarity)``: ``duplicate_of`` is the earliest-ranked kept item
        meeting the threshold; ``similarity`` is ``|A & B| / |A | B|`` as a float64 division.

    Raises:
        InputError: bad ``texts`` (as above), or ``threshold`` is not a number in [0, 1].
    """

def dedupe_minhash(
    texts: Sequence[str],
    threshold: float = 0.8,
    num_perm: int = 128,
    shingle: int = 3,
    seed: int = 0,
) -> tuple[list[int], list[int | None], list[float | None]]:
    """Drop items whose MinHash estimate to a kept item sharing an LSH band is ``>= threshold``.

    Identical to ``briefpack.reference.dedupe_minhash`` (same hashes, permutations, bands).

    Arguments:
        texts: the candidates' texts in rank order.
        threshold: a number in [0, 1].
        num_perm: permutations, an int >= 1.
        shingle: words per shingle, an int >= 1.
        seed: the permutation seed, an int in [0, 2**64 - 1].

    Returns:
        ``(kept, duplicate_of, similarity)``; ``similarity`` is the fraction of equal minimums.

    Raises:
        InputError: bad ``texts``, ``threshold``, ``num_perm``, ``shingle`` or ``seed`` (the
            reference's messages, checked in that order).
        MemoryError: ``num_perm`` is too large to allocate.
    """
