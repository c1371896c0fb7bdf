"""Type stubs for briefpack's Rust core (``briefpack._core``)."""

from collections.abc import Sequence
from typing import Any, Literal

__all__ = ["__version__", "dedupe_cosine", "mmr", "pack"]
__version__: str

def dedupe_cosine(
    vectors: Any, threshold: float = 0.97
) -> tuple[list[int], list[int | None], list[float | None]]:
    """Drop items whose embedding's cosine similarity to a kept item's is ``>= threshold``.

    Greedy in rank (input) order: each item is compared only with the items already kept, and
    the earliest kept item that meets the threshold is the one it duplicates (the first copy
    wins). Same decisions as ``briefpack.reference.dedupe_cosine`` unless a similarity lies
    within 1e-6 of the threshold.

    Arguments:
        vectors: a 2-D numpy array (float32 and float64 are read in place when C-contiguous;
            other layouts are copied, integer and float16 arrays converted) or a sequence of
            equal-length sequences of numbers.
        threshold: a number in [0, 1].

    Returns:
        ``(kept, duplicate_of, similarity)``: the kept indices in rank order; per item, the
        index of the kept item it duplicates or None; per item, that cosine or None.

    Raises:
        InputError: vectors that are not 2-D, empty, ragged, non-numeric, non-finite or of
            zero norm, or a threshold outside [0, 1] (the reference's messages).
    """

def pack(
    costs: Sequence[int], budget: int, overflow: Literal["stop", "skip"] = "stop"
) -> tuple[list[int], int]:
    """Place items greedily in rank order while their costs fit in ``budget``.

    ``overflow="stop"`` stops at the first item that does not fit (the kept indices are a
    prefix); ``"skip"`` passes over it and tries the smaller items below. Items are never cut.
    Exact for any int sizes (no wrapping).

    Arguments:
        costs: a sequence of ints >= 0 (bools rejected).
        budget: an int >= 0.
        overflow: ``"stop"`` or ``"skip"``.

    Returns:
        ``(kept, used)``: the placed indices in rank order and the sum of their costs.

    Raises:
        InputError: a bad budget, overflow or cost (the reference's messages, checked in the
            reference's order: budget, overflow, costs).
    """

def mmr(
    query_vector: Any,
    vectors: Any,
    k: int | None = None,
    lambda_: float = 0.5,
    *,
    relevance: Sequence[float] | None = None,
) -> list[int]:
    """Maximal marginal relevance: pick ``k`` items greedily by ``λ·rel − (1−λ)·max sim``.

    ``rel`` is the cosine of each vector to ``query_vector``, or, when ``query_vector`` is
    None, the given ``relevance``. ``max sim`` is the largest cosine to the items already
    picked (0 before the first pick). Ties go to the earlier item. Same picks as
    ``briefpack.reference.mmr`` unless two scores lie within 1e-9.

    Arguments:
        query_vector: a sequence of numbers or a 1-D array, or None.
        vectors: as for ``dedupe_cosine``.
        k: how many to pick (None: all).
        lambda_: a number in [0, 1].
        relevance: one finite number per vector, used when ``query_vector`` is None.

    Returns:
        The picked indices, in pick order.

    Raises:
        InputError: bad vectors, lambda_, k, query_vector or relevance, or neither
            query_vector nor relevance (the reference's messages).
    """
