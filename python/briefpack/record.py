"""The record of an assembly: what context produced an answer, as plain JSON data."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ._checks import shown
from ._version import version
from .errors import InputError
from .pages import decode_page
from .types import AssemblyData, Chunk, Compression, Dropped, Source

if TYPE_CHECKING:
    from .pages import PageImage
    from .types import DropDetail

A = TypeVar("A", bound=AssemblyData)

__all__ = [
    "ASSEMBLY_VERSION",
    "RECORD_VERSION",
    "assembly_from_dict",
    "assembly_to_dict",
    "build_record",
    "image_info",
    "prompt_sha256",
]

RECORD_VERSION = 1
ASSEMBLY_VERSION = 1
"""Version of ``Assembly.to_dict``'s layout."""


def prompt_sha256(
    system: str, user: str, history: Sequence[Mapping[str, str]] | None = None
) -> str:
    """sha256 over the UTF-8 of ``system``, a NUL byte and ``user``; with ``history_turns``'
    turns, each turn's role, NUL, content and NUL between the system's NUL and ``user``, so the
    hash covers every message sent.

    >>> prompt_sha256("s", "u")[:12]
    'f30a8c69aa63'
    >>> prompt_sha256("s", "u", [{"role": "user", "content": "hi"}]) != prompt_sha256("s", "u")
    True
    """
    turns = "".join(f"{t['role']}\x00{t['content']}\x00" for t in history or ())
    return hashlib.sha256(f"{system}\x00{turns}{user}".encode()).hexdigest()


_MAX_INT_BITS = 4000
"""An int of more bits than this (about 1,200 digits) is written as a str: ``json`` cannot
write one past 4,300 digits (Python refuses the conversion), and none is data a record needs."""


_MAX_DEPTH = 100
"""Containers nested deeper than this (or holding themselves) are written as their ``repr``."""


def _jsonable(value: Any, depth: int = 0, path: frozenset[int] = frozenset()) -> Any:
    """``value`` as JSON data: containers copied, anything else as its ``repr``. Never raises:
    an int too long to write (past ``_MAX_INT_BITS``) is a str naming its size, a container
    that holds itself or nests past ``_MAX_DEPTH`` is its ``repr``.

    >>> _jsonable({"n": 10**5000, "k": (1, 2)})
    {'n': 'an int of about 5001 digits', 'k': [1, 2]}
    >>> loop: list[object] = [1]
    >>> loop.append(loop)
    >>> _jsonable(loop)
    [1, '[1, [...]]']
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value.bit_length() <= _MAX_INT_BITS else shown(value)
    if value is None or isinstance(value, (str, float, bool)):
        return value
    if isinstance(value, (dict, list, tuple)):
        if depth >= _MAX_DEPTH or id(value) in path:
            return shown(value, limit=10_000)
        inner = path | {id(value)}
        if isinstance(value, dict):
            return {_key(k): _jsonable(v, depth + 1, inner) for k, v in value.items()}
        return [_jsonable(v, depth + 1, inner) for v in value]
    return shown(value, limit=10**9)  # its repr (never raising)


def _key(key: object) -> str:
    """A mapping's key as a JSON object key: its ``str`` (or how messages show it, when that
    fails: an int too long to convert, a ``__str__`` that raises)."""
    if isinstance(key, str):
        return str(key)
    if isinstance(key, int) and key.bit_length() > _MAX_INT_BITS:
        return shown(key)
    try:
        return str(key)
    except Exception:
        return shown(key)


def _chunk_info(chunk: Chunk) -> dict[str, Any]:
    info: dict[str, Any] = {"id": chunk.id, "doc": chunk.doc}
    for name in ("score", "position", "title", "url", "updated", "page"):
        value = getattr(chunk, name)
        if value not in (None, ""):
            info[name] = value
    if chunk.images:
        info["images"] = [image_info(p) for p in chunk.images]
    return info


def _compression(c: Compression | None) -> dict[str, Any]:
    """A compressed source's ``compressed`` entry (none for a source placed whole): how many
    sentences it had, which were kept (and which of those as bridges, when any), and the
    text of every removed one."""
    if c is None:
        return {}
    out: dict[str, Any] = {
        "sentences": c.sentences,
        "kept": list(c.kept),
        "removed": list(c.removed),
    }
    if c.bridges:
        out["bridges"] = list(c.bridges)
    return {"compressed": out}


def image_info(page: PageImage) -> dict[str, Any]:
    """How the record names a page image: its size, format and the sha256 of its bytes.

    >>> import numpy as np
    >>> from briefpack.pages import decode_page
    >>> sorted(image_info(decode_page(np.zeros((2, 3), dtype=np.uint8))))
    ['height', 'media_type', 'sha256', 'width']
    """
    return {
        "width": page.width,
        "height": page.height,
        "media_type": page.media_type,
        "sha256": hashlib.sha256(page.data).hexdigest(),
    }


def build_record(assembly: AssemblyData, *, include_prompt: bool = False) -> dict[str, Any]:
    """Build ``Assembly.record()``: every candidate's fate, sources, tokens, settings, hash."""
    record: dict[str, Any] = {
        "record_version": RECORD_VERSION,
        "briefpack_version": version(),
        "question": assembly.question,
        "candidates": [_jsonable(f) for f in assembly.fates],
        "sources": [
            {
                "label": s.label,
                **_chunk_info(s.chunk),
                "members": list(s.members),
                "tokens": s.tokens,
                **_compression(s.compression),
            }
            for s in assembly.sources
        ],
        "tokens": dict(assembly.tokens),
        "settings": _jsonable(assembly.settings),
        "prompt_sha256": prompt_sha256(assembly.system, assembly.user, assembly.history),
    }
    if assembly.route is not None:  # only a routed request has the key: other bytes unchanged
        record["route"] = _jsonable(assembly.route)
    if assembly.empty_reason is not None:  # only an empty context has the key
        record["empty_reason"] = assembly.empty_reason
    if include_prompt:
        record["prompt"] = {"system": assembly.system, "user": assembly.user}
        if assembly.history is not None:  # history_turns=True: the turns before the user message
            record["prompt"]["history"] = [dict(t) for t in assembly.history]
    return record


_CHUNK_FIELDS = ("text", "id", "score", "doc", "position", "parent", "title", "url", "updated")


def _chunk_to_dict(chunk: Chunk) -> dict[str, Any]:
    out: dict[str, Any] = {name: getattr(chunk, name) for name in _CHUNK_FIELDS}
    out["tokens"] = chunk.tokens
    vector = chunk.vector
    if vector is not None and hasattr(vector, "tolist"):
        vector = vector.tolist()
    out["vector"] = _jsonable(vector)
    out["meta"] = None if chunk.meta is None else _jsonable(dict(chunk.meta))
    if chunk.page is not None:
        out["page"] = chunk.page
    if chunk.images:  # the encoded bytes in base64, decoded again by from_dict
        out["images"] = [p.base64() for p in chunk.images]
    return out


def _chunk_from_dict(data: Mapping[str, Any]) -> Chunk:
    fields = {k: data[k] for k in (*_CHUNK_FIELDS, "tokens", "vector", "meta", "page") if k in data}
    if data.get("images"):
        images = tuple(decode_page(base64.b64decode(b)) for b in data["images"])
        fields["image"] = images[0] if len(images) == 1 else images
    return Chunk(**fields)


def assembly_to_dict(assembly: AssemblyData) -> dict[str, Any]:
    """Build ``Assembly.to_dict()``: every field, chunks in full, as JSON data."""
    return {
        "assembly_version": ASSEMBLY_VERSION,
        "question": assembly.question,
        "system": assembly.system,
        "user": assembly.user,
        "sources": [
            {
                "label": s.label,
                "chunk": _chunk_to_dict(s.chunk),
                "tokens": s.tokens,
                "members": list(s.members),
                "member_indices": list(s.member_indices),
                **_compression(s.compression),
            }
            for s in assembly.sources
        ],
        "dropped": [
            {"chunk": _chunk_to_dict(d.chunk), "reason": d.reason, "detail": _jsonable(d.detail)}
            for d in assembly.dropped
        ],
        "tokens": dict(assembly.tokens),
        "settings": _jsonable(assembly.settings),
        "fates": [_jsonable(f) for f in assembly.fates],
        **({} if assembly.route is None else {"route": _jsonable(assembly.route)}),
        **({} if assembly.empty_reason is None else {"empty_reason": assembly.empty_reason}),
        **({} if assembly.history is None else {"history": [dict(t) for t in assembly.history]}),
    }


def _compression_from(data: Any) -> Compression | None:
    if data is None:
        return None
    return Compression(
        data["sentences"],
        tuple(data["kept"]),
        tuple(data["removed"]),
        tuple(data.get("bridges", ())),
    )


def assembly_from_dict(data: Mapping[str, Any], cls: type[A]) -> A:
    """Build ``Assembly.from_dict(data)`` as a ``cls``; a layout of another version raises
    ``InputError``."""
    version = data.get("assembly_version") if isinstance(data, Mapping) else None
    if version != ASSEMBLY_VERSION:
        raise InputError(
            f"Assembly.from_dict reads assembly_version {ASSEMBLY_VERSION}, got "
            f"{_key(version)[:20]!r}; pass the output of Assembly.to_dict()"
        )
    try:
        return cls(
            system=data["system"],
            user=data["user"],
            sources=[
                Source(
                    s["label"],
                    _chunk_from_dict(s["chunk"]),
                    s["tokens"],
                    tuple(s["members"]),
                    tuple(s["member_indices"]),
                    _compression_from(s.get("compressed")),
                )
                for s in data["sources"]
            ],
            dropped=[
                Dropped(
                    _chunk_from_dict(d["chunk"]), d["reason"], cast("DropDetail", dict(d["detail"]))
                )
                for d in data["dropped"]
            ],
            tokens=dict(data["tokens"]),
            settings=dict(data["settings"]),
            fates=[dict(f) for f in data["fates"]],
            question=data["question"],
            route=None if data.get("route") is None else dict(data["route"]),
            empty_reason=None if data.get("empty_reason") is None else str(data["empty_reason"]),
            history=None if data.get("history") is None else [dict(t) for t in data["history"]],
        )
    except (KeyError, TypeError) as exc:
        raise InputError(
            f"Assembly.from_dict: the data is not Assembly.to_dict() output ({type(exc).__name__}: "
            f"{str(exc)[:60]})"
        ) from None
