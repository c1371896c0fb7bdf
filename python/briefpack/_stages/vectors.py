"""Vectors, checked once per request: one dimension, finite, non-zero norm.

Cosine dedupe and MMR read the same checked vectors. A 1-D numpy array per item is checked and
stacked as one matrix without a Python loop over the floats (the Rust kernels read it in
place). Lists of floats (how frameworks deliver embeddings) are checked and converted to one
float64 matrix by the Rust core in one call (``_core.vector_matrix``) when the request runs on
it and numpy is installed; anything else is checked item by item in Python, naming the first
bad candidate. Both ways raise the same errors. O(n·dim).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

from .._backend import rust_core
from .._checks import check_vector
from ..errors import InputError
from .context import Item

__all__ = ["as_matrix", "check_vectors_of", "dimension_error"]


def check_vectors_of(
    items: list[Item], name_of: Callable[[int], str], why: str, *, rust: bool = False
) -> Any:
    """Every item's vector, checked; all must share one dimension.

    Returns a 2-D numpy array when every vector is a 1-D numpy array of numbers, or when
    ``rust`` (the request runs on the Rust core) and numpy is installed, else a list of lists of
    floats. ``name_of`` gives an item's name by position (only called on an error).
    """
    mat = as_matrix(items)
    if mat is None and rust and items:
        mat = _core_matrix(items, name_of)
    if mat is not None:
        for item, row in zip(items, mat):
            item.vector, item.vector_checked = row, True
        return mat
    out: list[Any] = []
    dim = None
    for j, item in enumerate(items):
        if item.vector is None:
            raise InputError(
                f"{name_of(j)}: {why} needs a vector on every candidate; this one has none",
                field="vector",
            )
        if not item.vector_checked:
            item.vector = check_vector(f"{name_of(j)}: vector", item.vector)
            item.vector_checked = True
        v = item.vector
        if dim is None:
            dim = len(v)
        elif len(v) != dim:
            raise InputError(
                f"{name_of(j)}: vector has dimension {len(v)} but the first vector has {dim}; "
                "every vector must have the same dimension",
                field="vector",
            )
        out.append(v)
    return out


def _core_matrix(items: list[Item], name_of: Callable[[int], str]) -> Any:
    """The items' vectors checked and stacked by ``_core.vector_matrix`` (float64, the values
    as Python's ``float()`` reads them), or None where that is unavailable or an item has no
    vector (the Python loop then raises the error it always has)."""
    convert = _vector_matrix()
    if convert is None or any(it.vector is None for it in items):
        return None
    return convert([it.vector for it in items], lambda j: f"{name_of(j)}: vector")


@functools.cache
def _vector_matrix() -> Callable[..., Any] | None:
    core = rust_core()
    fn = getattr(core, "vector_matrix", None)
    if fn is None:
        return None
    try:
        import numpy  # noqa: F401  (the core hands back a numpy array)
    except ImportError:
        return None
    convert: Callable[..., Any] = fn
    return convert


def dimension_error(query_vector: list[float], vectors: Any) -> InputError:
    return InputError(
        f"query_vector has dimension {len(query_vector)} but the vectors have {len(vectors[0])}",
        field="query_vector",
    )


def as_matrix(items: list[Item]) -> Any:
    """The items' vectors as one checked 2-D float array, or None to check them one by one.

    Only when every vector is a 1-D numpy array of ints or floats of one length: finite, with a
    non-zero norm (the same rules as ``check_vector``, applied to the whole matrix at once).
    float32 and float64 stay as they are; other number types become float64 (exactly, as
    ``float()`` would convert them).
    """
    if not items:
        return None
    first = items[0].vector
    if type(first).__module__ != "numpy":
        return None
    np = sys.modules["numpy"]
    vs = [it.vector for it in items]
    if not all(type(v) is np.ndarray and v.ndim == 1 for v in vs):
        return None
    dtype = vs[0].dtype
    if dtype.kind not in "iuf" or any(v.dtype != dtype for v in vs):
        return None
    try:
        mat = np.stack(vs)
    except ValueError:  # lengths differ
        return None
    if mat.shape[1] == 0:
        return None
    if dtype not in (np.float32, np.float64):
        mat = mat.astype(np.float64)
    if all(it.vector_checked for it in items):
        return mat
    if not np.isfinite(mat).all() or not mat.any(axis=1).all():
        return None
    return mat
