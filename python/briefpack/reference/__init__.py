"""briefpack's pure-Python reference implementation: the oracle for the Rust core.

Short, readable and complete: every kernel and the whole pipeline. ``briefpack`` uses the Rust
core by default; ``backend="python"`` (or importing from here) gives this oracle, and the
property-based tests assert both give identical results.

>>> from briefpack import reference
>>> reference.dedupe_exact(["a", "a "]).kept
[0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .dedupe import dedupe_cosine, dedupe_exact, dedupe_jaccard, dedupe_minhash
from .pack import mmr, pack
from .pages import dedupe_pages, page_hashes
from .tokens import count_tokens

if TYPE_CHECKING:
    from ..types import Assembly

T = TypeVar("T")


def assemble(question: str, candidates: Sequence[Any], **options: Any) -> Assembly:
    """The whole pipeline on the reference kernels: ``briefpack.assemble(..., backend="python")``.

    >>> assemble("q?", ["a", "a"], budget=100, tokenizer="approx").dropped[0].reason
    'duplicate'
    """
    from ..pipeline import assemble as _assemble

    options["backend"] = "python"
    return _assemble(question, candidates, **options)


def order(items: Sequence[T], how: str = "edges", **options: Any) -> list[T]:
    """Reorder items given in rank order (pure Python in both backends).

    >>> order([1, 2, 3, 4], "edges")
    [1, 3, 4, 2]
    """
    from ..ordering import order as _order

    return _order(items, how, **options)  # type: ignore[arg-type]


__all__ = [
    "assemble",
    "count_tokens",
    "dedupe_cosine",
    "dedupe_exact",
    "dedupe_jaccard",
    "dedupe_minhash",
    "dedupe_pages",
    "mmr",
    "order",
    "pack",
    "page_hashes",
]
