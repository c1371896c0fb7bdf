"""briefpack's pure-Python reference implementation: the oracle for the Rust core.

Short and readable: every kernel, one module per kernel, with the Rust core's names. It
imports only the package's leaves (``_checks``, ``_types``, ``errors``, ``types``, ``_escape``,
``_chartable``, ``ordering``), and nothing on the production path imports it:
``briefpack._backend`` loads it when the Python backend is asked for. So
``briefpack.assemble(..., backend="python")`` runs the one pipeline on these kernels, and the
property-based tests assert both backends give identical results.

>>> from briefpack import reference
>>> reference.dedupe_exact(["a", "a "]).kept
[0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from ..ordering import order as _order
from .dedupe import dedupe_cosine, dedupe_exact, dedupe_jaccard, dedupe_minhash
from .intake import intake_fast
from .pack import mmr, pack
from .pages import dedupe_pages, page_hashes
from .render import price_pack
from .sentences import score_sentences, select_sentences, sentence_aliases, split_sentences
from .tokens import count_tokens

T = TypeVar("T")


def order(items: Sequence[T], how: str = "edges", **options: Any) -> list[T]:
    """Reorder items given in rank order (pure Python in both backends: the rule is the leaf
    ``briefpack.ordering``, named here so that every kernel has its reference name).

    >>> order([1, 2, 3, 4], "edges")
    [1, 3, 4, 2]
    """
    return _order(items, how, **options)  # type: ignore[arg-type]


__all__ = [
    "count_tokens",
    "dedupe_cosine",
    "dedupe_exact",
    "dedupe_jaccard",
    "dedupe_minhash",
    "dedupe_pages",
    "intake_fast",
    "mmr",
    "order",
    "pack",
    "page_hashes",
    "price_pack",
    "score_sentences",
    "select_sentences",
    "sentence_aliases",
    "split_sentences",
]
