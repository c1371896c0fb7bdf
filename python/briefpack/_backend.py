"""The kernels behind one named protocol: the Rust core, or the pure-Python reference.

The pipeline is the same Python code for both backends; only the kernels differ. ``Kernels``
resolves every kernel of ``KERNEL_NAMES`` once, when it is built, from one backend: under
``backend="rust"`` a kernel missing from the compiled core is an error (never a silent fallback
to the reference), and ``"auto"`` picks the core only when it is built and complete.

Results come back in the reference's types (``DedupeResult``, ``PackResult``, lists).

A kernel's signature is written in three places: its Rust binding (``src/**/py.rs``), the stub
``_core.pyi``, and the reference function of the same name; ``Kernels``' methods take the stub's
parameters (or a prefix of them) and ``tests/test_kernel_signatures.py`` holds all of them to
the stub. The reference is imported here only, and only when a Python backend is built, so
``import briefpack`` and the Rust path never load it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from ._checks import check_encoding, choice, count_with
from ._types import DedupeResult, GuardedResult, PackResult, PricedPack, SentenceSpans
from .errors import InputError
from .types import Chunk

__all__ = ["BACKENDS", "KERNEL_NAMES", "Kernels", "KernelsProtocol", "get_kernels", "rust_core"]

BACKENDS = ("auto", "rust", "python")
KERNEL_NAMES = (
    "count_tokens",
    "count_tokens_limited",
    "intake_fast",
    "dedupe_exact",
    "dedupe_jaccard",
    "dedupe_minhash",
    "dedupe_cosine",
    "pack",
    "price_pack",
    "mmr",
    "split_sentences",
    "score_sentences",
    "select_sentences",
    "page_hashes",
    "dedupe_pages",
)
"""What a backend provides (the reference computes ``count_tokens_limited`` in full, which
satisfies its contract)."""

PageDedupeColumns = tuple[
    list[int],
    list[int | None],
    list[float | None],
    list[int | None],
    list[tuple[int, int, int] | None],
    list[str | None],
    list[str | None],
]
"""What ``Kernels.dedupe_pages_details`` returns (``pages.PageDedupeResult``'s columns)."""


@functools.cache
def rust_core() -> ModuleType | None:
    """The compiled extension, or None when it is not built."""
    try:
        from . import _core
    except ImportError:  # pragma: no cover - a source checkout without a build
        return None
    core: ModuleType = _core
    return core


def _reference() -> ModuleType:
    """The pure-Python reference kernels, imported on first use (the Python backend only)."""
    from . import reference

    return reference


def _missing(core: ModuleType) -> list[str]:
    return [name for name in KERNEL_NAMES if not callable(getattr(core, name, None))]


class Kernels:
    """One backend's kernels, resolved by name when built (see ``KERNEL_NAMES``): what the
    pipeline asks of a backend (the stages annotate with ``KernelsProtocol``, this class)."""

    def __init__(self, name: str) -> None:
        self.name = name
        core = rust_core() if name == "rust" else None
        if name == "rust" and core is None:
            raise InputError(
                "backend='rust' needs the compiled extension briefpack._core, which is not "
                "built; reinstall briefpack (pip install .) or use backend='python'",
                option="backend",
            )
        if core is not None:
            missing = _missing(core)
            if missing:
                raise InputError(
                    f"backend='rust' needs the compiled core's kernel(s) {', '.join(missing)}, "
                    "which this build lacks; reinstall briefpack (pip install .) or use "
                    "backend='python'",
                    option="backend",
                )
        self._rust = core is not None
        source = core if core is not None else _reference()
        self._fns: dict[str, Callable[..., Any]] = {
            k: getattr(source, k) for k in KERNEL_NAMES if hasattr(source, k)
        }

    def __repr__(self) -> str:
        return f"Kernels({self.name!r})"

    def count_tokens(
        self, texts: Sequence[str], encoding: Any, *, segments: bool = False
    ) -> list[int]:
        """Counts; ``segments`` lets the Rust core reuse counts of text it has seen in other
        texts (the pipeline's rendered blocks and prompts; the results are the same)."""
        enc = check_encoding(encoding)
        if callable(enc):
            return [count_with(enc, t, f"texts[{i}]") for i, t in enumerate(texts)]
        fn = self._fns["count_tokens"]
        return list(fn(texts, enc, segments=True) if segments and self._rust else fn(texts, enc))

    def count_tokens_limited(
        self, texts: Sequence[str], limits: Sequence[int], encoding: Any
    ) -> list[int]:
        """Counts that are exact where ``<= limit``, and some number ``> limit`` elsewhere.

        The Rust core stops counting a text once it passes its limit, and caches the counts of
        its segments for the texts counted next (the pipeline's blocks, then its prompt); the
        reference and a caller's callable count in full (which satisfies the same contract).
        """
        enc = check_encoding(encoding)
        if not callable(enc) and self._rust:
            return list(self._fns["count_tokens_limited"](texts, limits, enc, segments=True))
        return self.count_tokens(texts, enc)

    def intake(self, candidates: list[object]) -> tuple[list[Chunk | None], list[int]]:
        """The candidates that need no conversion as checked ``Chunk``s (``None`` for the
        others, whose indices come second); see ``briefpack.reference.intake``."""
        chunks, misses = self._fns["intake_fast"](candidates, Chunk)
        return chunks, misses

    def dedupe(self, kernel: str, data: Any, **options: Any) -> DedupeResult:
        """Run the dedupe kernel named ``kernel`` (e.g. ``"dedupe_jaccard"``): every one, on
        either backend, returns the columns ``(kept, duplicate_of, similarity)``, and the
        guard's three more when it saved some item."""
        cols = self._fns[kernel](data, **options)
        if isinstance(cols, DedupeResult):  # the reference's, as it is
            return cols
        if len(cols) == 6:  # the difference guard saved some item (``GuardedResult``)
            return GuardedResult(*cols)
        return DedupeResult(*cols)

    def page_hashes(
        self,
        pixels: bytes,
        offsets: Sequence[int],
        widths: Sequence[int],
        heights: Sequence[int],
        channels: Sequence[int],
    ) -> list[bytes]:
        return list(self._fns["page_hashes"](pixels, offsets, widths, heights, channels))

    def dedupe_pages_details(
        self,
        hashes: Sequence[bytes],
        max_distance: int,
        *,
        factor: int,
        margin: int,
        level: int,
        texts: Sequence[str] | None = None,
        previews: Sequence[tuple[int, int, bytes] | None] | None = None,
        fine_ratio: int = 650,
    ) -> PageDedupeColumns:
        """``dedupe_pages`` with ``details=True``: ``(kept, duplicate_of, similarity, near_of,
        near_look, near_check, kept_because)``, each a list (``briefpack.pages.PageDedupeResult``
        names them)."""
        cols = self._fns["dedupe_pages"](
            hashes,
            max_distance,
            factor=factor,
            margin=margin,
            level=level,
            details=True,
            texts=texts,
            previews=previews,
            fine_ratio=fine_ratio,
        )
        kept, dup, sim, near, look, check, because = cols
        return (
            list(kept),
            list(dup),
            list(sim),
            list(near),
            [None if x is None else (int(x[0]), int(x[1]), int(x[2])) for x in look],
            list(check),
            list(because),
        )

    def pack(self, costs: Sequence[int], budget: int, overflow: str) -> PackResult:
        result = self._fns["pack"](costs, budget, overflow)
        return result if isinstance(result, PackResult) else PackResult(*result)

    def price_pack(
        self,
        chunks: Sequence[Chunk],
        labels: str,
        widest: str,
        budget: int,
        separator_tokens: int,
        overflow: str,
        encoding: str,
    ) -> PricedPack:
        """Render, count and pack the chunks' source blocks in one pass (no page images)."""
        fn = self._fns["price_pack"]
        result = fn(chunks, labels, widest, budget, separator_tokens, overflow, encoding)
        return result if isinstance(result, PricedPack) else PricedPack(*result)

    def mmr(
        self,
        query_vector: Any,
        vectors: Any,
        k: int | None,
        lambda_: float,
        relevance: Sequence[float] | None,
    ) -> list[int]:
        return list(self._fns["mmr"](query_vector, vectors, k, lambda_, relevance=relevance))

    def split_sentences(self, texts: Sequence[str]) -> SentenceSpans:
        result = self._fns["split_sentences"](texts)
        return result if isinstance(result, SentenceSpans) else SentenceSpans(*result)

    def score_sentences(
        self, question: str, sentences: Sequence[str], alias_texts: Sequence[str] = ()
    ) -> list[float]:
        return list(self._fns["score_sentences"](question, sentences, alias_texts))

    def select_sentences(
        self,
        sentences: Sequence[str],
        scores: Sequence[float],
        threshold: float,
        offsets: Sequence[int] | None = None,
    ) -> list[int]:
        return list(self._fns["select_sentences"](sentences, scores, threshold, offsets))


KernelsProtocol = Kernels
"""What the pipeline asks of a backend: the type the stages annotate ``ctx.kernels`` with."""


@functools.cache
def get_kernels(backend: str) -> Kernels:
    """Return the kernels for ``backend``: "auto" (Rust when built), "rust" or "python"."""
    choice("backend", backend, BACKENDS)
    if backend == "python":
        return Kernels("python")
    core = rust_core()
    if backend == "auto" and (core is None or _missing(core)):
        return Kernels("python")
    return Kernels("rust")
