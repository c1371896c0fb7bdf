"""Intake's fast path: candidates that need no conversion, as checked ``Chunk``s in one call.

A request's candidates are almost always ``Chunk``s, or plain dicts (what JSON and the CLI
give), whose values already have the types the full check (``briefpack.candidates.to_chunk``)
returns. ``intake_fast`` takes those: a ``Chunk`` of exactly the class passed is returned as
it is; a ``dict`` whose keys are fields (no page fields) becomes its ``Chunk`` in one
construction. Every str it reads must be valid Unicode (no lone surrogates), ``meta``'s too
(keys and values, through dicts, lists and tuples). Whatever it does not take is a miss, for
the full check to convert or to reject with its message: a subclass, another mapping type, a
value of another type (an int id, a ``None`` title), a page. So a miss is never wrong; what it
takes must equal what the full check returns (tests/test_intake_dicts.py).

When every candidate was taken, those without an id get their automatic id here (the input
index as a str, behind as many ``#`` as it takes to be an id no candidate was given).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, TypeVar

from .._checks import MAX_SIZE

__all__ = ["intake_fast"]

T = TypeVar("T")

_FIELDS = (
    "text", "id", "score", "doc", "position", "parent", "title", "url", "updated", "tokens",
    "vector", "meta", "image", "page",
)  # fmt: skip
"""A ``Chunk``'s fields in declaration order (tests/test_intake_dicts.py holds it)."""
_PLAIN_KEYS = frozenset(_FIELDS[:12])
_EXACT_LEAVES = (type(None), bool, int, float)


def _valid(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _str_ok(value: object) -> bool:
    return type(value) is str and _valid(value)


def _name_ok(value: object) -> bool:
    return value is None or _str_ok(value)


def _count_ok(value: object) -> bool:
    return value is None or (type(value) is int and 0 <= value <= MAX_SIZE)


def _meta_ok(meta: object) -> bool:
    """Whether every str in ``meta`` is valid; ``False`` also for what only the full check may
    decide (a subclass of str, dict, list or tuple, or another mapping type)."""
    stack = [meta]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is str:
            if not _valid(node):  # type: ignore[arg-type]
                return False
        elif kind in _EXACT_LEAVES:
            pass
        elif kind is dict:
            if id(node) not in seen:
                seen.add(id(node))
                for k, v in node.items():  # type: ignore[attr-defined]
                    if type(k) is str:
                        if not _valid(k):
                            return False
                    elif isinstance(k, str):
                        return False
                    stack.append(v)
        elif kind is list or kind is tuple:
            if id(node) not in seen:
                seen.add(id(node))
                stack.extend(node)  # type: ignore[arg-type]
        elif isinstance(node, (str, dict, list, tuple, Mapping)):
            return False
    return True


def _fields_ok(v: tuple[Any, ...]) -> bool:
    text, cid, score, doc, position, parent, title, url, updated, tokens, _, meta, image, page = v
    return (
        _str_ok(text)
        and _name_ok(cid)
        and _name_ok(doc)
        and _name_ok(parent)
        and (score is None or (type(score) is float and math.isfinite(score)))
        and _count_ok(position)
        and _count_ok(tokens)
        and (meta is None or (type(meta) is dict and (not meta or _meta_ok(meta))))
        and _str_ok(title)
        and _str_ok(url)
        and _str_ok(updated)
        and image is None
        and page is None
    )


def _chunk_values(chunk: object) -> tuple[Any, ...] | None:
    values = vars(chunk)
    if not all(f in values for f in _FIELDS):
        return None
    return tuple(values[f] for f in _FIELDS)


def _dict_values(d: dict[Any, Any]) -> tuple[Any, ...] | None:
    if not all(type(k) is str and k in _PLAIN_KEYS for k in d):
        return None
    get = d.get
    return tuple(get(f, "") if f in ("title", "url", "updated") else get(f) for f in _FIELDS)


def _new(chunk_type: type[T], values: tuple[Any, ...]) -> T:
    """A ``chunk_type`` whose ``__dict__`` holds ``values`` (every field, in order), built
    without ``__init__`` (a frozen dataclass without ``__post_init__``: the same object)."""
    chunk = object.__new__(chunk_type)
    object.__setattr__(chunk, "__dict__", dict(zip(_FIELDS, values)))
    return chunk


def intake_fast(candidates: list[Any], chunk_type: type[T]) -> tuple[list[T | None], list[int]]:
    """Each candidate that needs no conversion as its checked ``chunk_type``, ``None`` for the
    others, whose indices come second (ascending); when there are none, candidates without an
    id already carry their automatic id.

    >>> from briefpack import Chunk
    >>> chunks, misses = intake_fast([{"text": "a"}, Chunk("b", id="0"), {"text": 1}], Chunk)
    >>> chunks[0].text, chunks[0].id, chunks[2], misses
    ('a', None, None, [2])
    >>> [c.id for c in intake_fast([{"text": "a"}, Chunk("b", id="0")], Chunk)[0]]
    ['#0', '0']
    """
    out: list[T | None] = []
    misses: list[int] = []
    unnamed: list[tuple[int, tuple[Any, ...]]] = []
    given: set[str] = set()
    for i, c in enumerate(candidates):
        kind = type(c)
        values = (
            _chunk_values(c) if kind is chunk_type else _dict_values(c) if kind is dict else None
        )
        if values is None or not _fields_ok(values):
            misses.append(i)
            out.append(None)
            continue
        out.append(c if kind is chunk_type else _new(chunk_type, values))
        if values[1] is None:
            unnamed.append((i, values))
        else:
            given.add(values[1])
    if not misses and unnamed:
        for i, values in unnamed:
            cid = str(i)
            while cid in given:
                cid = "#" + cid
            out[i] = _new(chunk_type, (values[0], cid, *values[2:]))
    return out, misses
