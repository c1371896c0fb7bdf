"""The request's own checks, before any stage runs: question, history, query vector,
candidates (to checked ``Chunk``s), the dedupe method for this request, and the vectors and
parents that later stages will read.

Vectors are checked on every candidate whenever a stage uses them, and a parents mapping for
every candidate that names a parent: the answer (and the error) must not depend on which
candidates an earlier stage happened to drop, or on how ``scope="document"`` groups them.
O(n) plus the vector check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from operator import attrgetter, is_not
from typing import TYPE_CHECKING, Any

from .._checks import check_text, check_vector, type_name
from ..candidates import describe, to_chunks
from ..errors import InputError
from ..options import DEFAULT_THRESHOLDS
from ..pages import DecodeBudget
from ..types import Chunk
from . import parents as parents_stage
from .context import Item, Ledger, Request, Scratch, items_of
from .supersede import FORMS, updated_key
from .vectors import check_vectors_of, dimension_error

if TYPE_CHECKING:
    from .._backend import KernelsProtocol
    from ..options import Options

__all__ = ["check_history", "start"]

_image = attrgetter("image")
_is_not_none = partial(is_not, None)


def check_history(history: object) -> str | list[dict[str, str]] | None:
    """``history`` as a str or a list of role/content dicts (copied), or None."""
    if history is None:
        return None
    if isinstance(history, str):
        check_text("history", history)
        return history
    if isinstance(history, (bytes, bytearray)) or not isinstance(history, Sequence):
        raise InputError(
            f"history must be a str or a list of role/content dicts, got {type_name(history)}",
            field="history",
        )
    turns = []
    for i, turn in enumerate(history):
        if not isinstance(turn, Mapping) or "role" not in turn or "content" not in turn:
            raise InputError(
                f"history[{i}] must be a dict with 'role' and 'content'", field="history"
            )
        role, content = turn["role"], turn["content"]
        if not isinstance(role, str):
            raise InputError(
                f"history[{i}]: role must be a str, got {type_name(role)}", field="history"
            )
        check_text(f"history[{i}]", content)
        check_text(f"history[{i}] role", role)
        turns.append({"role": role, "content": content})
    return turns


def _method(dedupe: str | None, chunks: list[Chunk]) -> str | None:
    if dedupe == "auto":
        return "cosine" if chunks and all(c.vector is not None for c in chunks) else "jaccard"
    return dedupe


def _updated_keys(chunks: list[Chunk]) -> list[tuple[int, int, str]]:
    """Every candidate's ``updated`` as an instant's sort key (supersede compares them)."""
    keys = []
    for i, c in enumerate(chunks):
        key = updated_key(c.updated)
        if key is None:
            shown = c.updated if len(c.updated) <= 40 else c.updated[:40] + "..."
            raise InputError(
                f"{describe(i, c.id)}: updated {shown!r} is not an ISO-8601 date or date-time, "
                f"which supersede needs to compare versions; write it as one of {FORMS} "
                "(no offset means UTC)",
                index=i,
                id=c.id,
                field="updated",
            )
        keys.append(key)
    return keys


def start(
    options: Options,
    kernels: KernelsProtocol,
    question: object,
    candidates: object,
    history: object,
    query_vector: object,
) -> tuple[Request, list[Item]]:
    """Check one request; return it and one item per candidate, in rank order."""
    q = check_text("question", question)
    hist = check_history(history)
    qv = None if query_vector is None else check_vector("query_vector", query_vector)
    if qv is not None and options.mmr is None:
        raise InputError(
            "query_vector is read only by mmr, and mmr is None; pass mmr=lambda too, or drop "
            "query_vector",
            field="query_vector",
        )
    if isinstance(candidates, (str, bytes)) or not isinstance(candidates, Sequence):
        raise InputError(f"candidates must be a list, got {type_name(candidates)}")
    # one budget per request, for every page's pixels (expansions' pages included)
    decode: dict[str, Any] = {
        "max_pixels": options.max_page_pixels,
        "budget": DecodeBudget(options.max_decoded_bytes),
    }
    chunks = to_chunks(candidates, kernels.intake, **decode)
    method = _method(options.dedupe, chunks)
    threshold = 1.0
    if method in DEFAULT_THRESHOLDS:
        given = options.threshold
        threshold = DEFAULT_THRESHOLDS[method] if given is None else given
    scratch = Scratch(decode=decode)
    if options.supersede is not None:
        scratch.updated_keys = _updated_keys(chunks)
    pages = any(map(_is_not_none, map(_image, chunks)))
    req = Request(
        options, kernels, q, hist, qv, chunks, method, threshold, pages, Ledger(chunks), scratch
    )
    items = items_of(chunks)
    uses = "dedupe='cosine'" if method == "cosine" else "mmr" if options.mmr is not None else None
    if uses is not None:
        name_of = lambda i: describe(i, chunks[i].id)  # noqa: E731
        vecs: Any = check_vectors_of(items, name_of, uses, rust=kernels.name == "rust")
        if options.mmr is not None and qv is not None and len(vecs) and len(qv) != len(vecs[0]):
            raise dimension_error(qv, vecs)
    if isinstance(options.parents, Mapping):
        all_ids = {str(c.id) for c in chunks}
        for i, c in enumerate(chunks):
            where = describe(i, c.id)
            parents_stage.parent_of(options.parents, Item(c, [i]), where, all_ids, decode)
    return req, items
