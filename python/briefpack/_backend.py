"""Choosing the kernels: the Rust core by default, the pure-Python reference on request."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from . import reference
from ._types import DedupeResult, PackResult
from .errors import InputError
from .reference.tokens import check_encoding, count_with

__all__ = ["BACKENDS", "Kernels", "get_kernels", "rust_core"]

BACKENDS = ("auto", "rust", "python")


@functools.cache
def rust_core() -> ModuleType | None:
    """The compiled extension, or None when it is not built."""
    try:
        from . import _core
    except ImportError:  # pragma: no cover - a source checkout without a build
        return None
    core: ModuleType = _core
    return core


class Kernels:
    """One backend's kernels behind a single interface (results in the reference's types)."""

    def __init__(self, name: str) -> None:
        self.name = name
        core = rust_core() if name == "rust" else None
        self._core = core

    def _rust(self, kernel: str) -> Callable[..., Any] | None:
        return getattr(self._core, kernel, None) if self._core is not None else None

    def count_tokens(
        self, texts: Sequence[str], encoding: Any, *, segments: bool = False
    ) -> list[int]:
        """Counts; ``segments`` lets the Rust core reuse counts of text it has seen in other
        texts (the pipeline's rendered blocks and prompts; the results are the same)."""
        enc = check_encoding(encoding)
        if callable(enc):
            return [count_with(enc, t, f"texts[{i}]") for i, t in enumerate(texts)]
        fn = self._rust("count_tokens")
        if fn is not None:
            return list(fn(texts, enc, segments=segments) if segments else fn(texts, enc))
        return reference.count_tokens(texts, enc)

    def count_tokens_limited(
        self, texts: Sequence[str], limits: Sequence[int], encoding: Any
    ) -> list[int]:
        """Counts that are exact where ``<= limit``, and some number ``> limit`` elsewhere.

        The Rust core stops counting a text once it passes its limit, and caches the counts of
        its segments for the texts counted next (the pipeline's blocks, then its prompt); the
        reference and a caller's callable count in full (which satisfies the same contract).
        """
        enc = check_encoding(encoding)
        if not callable(enc):
            fn = self._rust("count_tokens_limited")
            if fn is not None:
                return list(fn(texts, limits, enc, segments=True))
        return self.count_tokens(texts, enc)

    def valid_texts(self, texts: list[str]) -> bool:
        """Whether every str is valid Unicode (the Rust core also caches their UTF-8)."""
        fn = self._rust("valid_texts")
        if fn is not None:
            return bool(fn(texts))
        try:
            for t in texts:
                t.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True

    def dedupe(self, kernel: str, data: Any, **options: Any) -> DedupeResult:
        fn = self._rust(kernel)
        if fn is not None:
            return DedupeResult(*fn(data, **options))
        return getattr(reference, kernel)(data, **options)  # type: ignore[no-any-return]

    def page_hashes(
        self,
        pixels: bytes,
        offsets: Sequence[int],
        widths: Sequence[int],
        heights: Sequence[int],
        channels: Sequence[int],
    ) -> list[bytes]:
        fn = self._rust("page_hashes")
        if fn is not None:
            return list(fn(pixels, offsets, widths, heights, channels))
        return reference.page_hashes(pixels, offsets, widths, heights, channels)

    def pack(self, costs: Sequence[int], budget: int, overflow: str) -> PackResult:
        fn = self._rust("pack")
        if fn is not None:
            return PackResult(*fn(costs, budget, overflow))
        return reference.pack(costs, budget, overflow)  # type: ignore[arg-type]

    def mmr(
        self,
        query_vector: Any,
        vectors: Any,
        k: int | None,
        lambda_: float,
        relevance: Sequence[float] | None,
    ) -> list[int]:
        fn = self._rust("mmr")
        if fn is not None:
            return list(fn(query_vector, vectors, k, lambda_, relevance=relevance))
        return reference.mmr(query_vector, vectors, k, lambda_, relevance=relevance)


@functools.cache
def get_kernels(backend: str) -> Kernels:
    """Return the kernels for ``backend``: "auto" (Rust when built), "rust" or "python"."""
    if backend not in BACKENDS:
        raise InputError(f"backend must be one of 'auto', 'rust', 'python', got {backend!r}")
    if backend == "python":
        return Kernels("python")
    if rust_core() is None:
        if backend == "rust":
            raise InputError(
                "backend='rust' needs the compiled extension briefpack._core, which is not "
                "built; reinstall briefpack (pip install .) or use backend='python'"
            )
        return Kernels("python")
    return Kernels("rust")
