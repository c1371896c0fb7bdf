"""The record of an assembly: what context produced an answer, as plain JSON data."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .types import Assembly, Chunk

__all__ = ["RECORD_VERSION", "build_record", "prompt_sha256"]

RECORD_VERSION = 1


def prompt_sha256(system: str, user: str) -> str:
    """sha256 over the UTF-8 of ``system``, a NUL byte and ``user``.

    >>> prompt_sha256("s", "u")[:12]
    'f30a8c69aa63'
    """
    return hashlib.sha256(f"{system}\x00{user}".encode()).hexdigest()


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return repr(value)


def _chunk_info(chunk: Chunk) -> dict[str, Any]:
    info: dict[str, Any] = {"id": chunk.id, "doc": chunk.doc}
    for name in ("score", "position", "title", "url", "updated"):
        value = getattr(chunk, name)
        if value not in (None, ""):
            info[name] = value
    return info


def build_record(assembly: Assembly, *, include_prompt: bool = False) -> dict[str, Any]:
    """Build ``Assembly.record()``: every candidate's fate, sources, tokens, settings, hash."""
    from . import __version__

    record: dict[str, Any] = {
        "record_version": RECORD_VERSION,
        "briefpack_version": __version__,
        "question": assembly.question,
        "candidates": [_jsonable(f) for f in assembly.fates],
        "sources": [
            {
                "label": s.label,
                **_chunk_info(s.chunk),
                "members": list(s.members),
                "tokens": s.tokens,
            }
            for s in assembly.sources
        ],
        "tokens": dict(assembly.tokens),
        "settings": _jsonable(assembly.settings),
        "prompt_sha256": prompt_sha256(assembly.system, assembly.user),
    }
    if include_prompt:
        record["prompt"] = {"system": assembly.system, "user": assembly.user}
    return record
