"""What the framework adapters share: the missing-extra error, option checks, metadata mapping.

Nothing here imports a framework, so every adapter can use it before its own imports.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..assembler import Assembler
from ..errors import InputError
from ..options import FIELDS
from ..types import Source

__all__ = [
    "ASSEMBLE_OPTIONS",
    "annotation",
    "build_assembler",
    "member_index",
    "merge_keys",
    "missing_extra",
    "pick_fields",
    "untouched",
]

PER_REQUEST = ("history", "query_vector")
ASSEMBLE_OPTIONS = (*PER_REQUEST, *FIELDS)
"""Every keyword ``assemble`` takes; adapters pass these through unchanged."""


def missing_extra(module: str, package: str, extra: str) -> ImportError:
    """The error an adapter raises when its framework is not installed.

    >>> str(missing_extra("langchain", "langchain-core", "langchain"))
    "briefpack.integrations.langchain needs langchain-core: pip install 'briefpack[langchain]'"
    """
    return ImportError(
        f"briefpack.integrations.{module} needs {package}: pip install 'briefpack[{extra}]'",
        name=f"briefpack.integrations.{module}",
    )


def build_assembler(options: Mapping[str, Any]) -> tuple[Assembler, dict[str, Any]]:
    """Check ``assemble`` keywords once, when an adapter is built, not on the first request.

    Returns the ``Assembler`` for the options and the per-request keywords among them
    (``history``, ``query_vector``). Unknown names and bad values raise ``InputError``.
    """
    opts = dict(options)
    unknown = [k for k in opts if k not in ASSEMBLE_OPTIONS]
    if unknown:
        raise InputError(
            f"unknown assemble option(s) {', '.join(map(repr, unknown))}; "
            f"expected some of {', '.join(ASSEMBLE_OPTIONS)}",
            option=str(unknown[0]),
        )
    per_request = {k: opts.pop(k) for k in PER_REQUEST if k in opts}
    return Assembler(**opts), per_request


def _is_count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _is_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _is_id(v: object) -> bool:
    return isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool))


def _is_str(v: object) -> bool:
    return isinstance(v, str)


def _is_set(v: object) -> bool:
    return v is not None


_FIELD_CHECKS: dict[str, Callable[[object], bool]] = {
    "id": _is_id,
    "doc": _is_id,
    "parent": _is_id,
    "score": _is_number,
    "position": _is_count,
    "tokens": _is_count,
    "title": _is_str,
    "url": _is_str,
    "updated": _is_str,
}


def pick_fields(meta: Mapping[str, Any], keys: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """Read ``Chunk`` fields from a framework's metadata dict.

    ``keys`` maps a ``Chunk`` field to the metadata keys tried in turn; the first present value
    of the right type wins (a loader's ``"page": "iv"`` is not a position). Values of another
    type are skipped rather than rejected, since metadata is the framework's, not the caller's
    promise to briefpack. ``id``, ``doc`` and ``parent`` become strings.

    >>> pick_fields({"source": "a.pdf", "start_index": 120, "title": 3},
    ...             {"doc": ("doc", "source"), "position": ("start_index",), "title": ("title",)})
    {'doc': 'a.pdf', 'position': 120}
    """
    out: dict[str, Any] = {}
    for name, candidates in keys.items():
        ok = _FIELD_CHECKS.get(name, _is_set)
        for key in (candidates,) if isinstance(candidates, str) else candidates:
            value = meta.get(key)
            if value is not None and ok(value):
                out[name] = str(value) if name in ("id", "doc", "parent") else value
                break
    return out


def merge_keys(
    defaults: Mapping[str, Sequence[str]], overrides: Mapping[str, Any] | None
) -> dict[str, tuple[str, ...]]:
    """Default metadata keys with a caller's overrides (a str or a list of keys per field)."""
    merged = {k: tuple(v) for k, v in defaults.items()}
    for field_name, value in (overrides or {}).items():
        if field_name not in _FIELD_CHECKS and field_name != "vector":
            raise ValueError(
                f"keys: {field_name!r} is not a Chunk field that metadata can set; expected "
                f"some of {', '.join([*_FIELD_CHECKS, 'vector'])}"
            )
        merged[field_name] = (value,) if isinstance(value, str) else tuple(value)
    return merged


def member_index(source: Source) -> int:
    """The input index of the best-ranked candidate a source stands for."""
    return source.member_indices[0]


def untouched(source: Source, text: str) -> bool:
    """Whether a source is exactly one input item (``text``), neither replaced nor grown."""
    return (
        len(source.member_indices) == 1
        and source.chunk.id == source.members[0]
        and source.chunk.text == text
    )


def annotation(source: Source) -> dict[str, Any]:
    """What an adapter records about a placed source: its label, members and token count."""
    return {
        "label": source.label,
        "members": list(source.members),
        "tokens": source.tokens,
    }
