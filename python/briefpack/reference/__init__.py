"""briefpack's pure-Python reference implementation: the oracle for the Rust core.

Short, readable and complete: every kernel and the whole pipeline. ``briefpack`` uses the Rust
core by default; ``backend="python"`` (or importing from here) gives this oracle, and the
property-based tests assert both give identical results.

>>> from briefpack import reference
>>> reference.dedupe_exact(["a", "a "]).kept
[0]
"""

from __future__ import annotations

from .dedupe import dedupe_cosine, dedupe_exact, dedupe_jaccard, dedupe_minhash
from .pack import mmr, pack
from .tokens import count_tokens

__all__ = [
    "count_tokens",
    "dedupe_cosine",
    "dedupe_exact",
    "dedupe_jaccard",
    "dedupe_minhash",
    "mmr",
    "pack",
]
