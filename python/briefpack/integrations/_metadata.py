"""The adapters' metadata and serialisation helpers: budgets as dicts, JSON checks, ``Chunk``
fields read from a framework's metadata, and what an adapter records about a placed source.

Nothing here imports a framework; ``briefpack.integrations._common`` re-exports every name.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from .._metadata_keys import PAGE_KEYS
from ..candidates import iso_updated
from ..errors import InputError
from ..options import named
from ..types import Budget, Source
from ._base import ASSEMBLE_OPTIONS, shown

__all__ = [
    "PAGE_KEYS",
    "annotation",
    "budget_from",
    "budget_to_dict",
    "check_json_value",
    "fold_options",
    "member_index",
    "merge_keys",
    "pick_fields",
    "untouched",
]


# ---- serialising options ----------------------------------------------------------------------


def budget_to_dict(budget: object) -> object:
    """A ``Budget`` as a plain dict (for a framework's serialiser); anything else unchanged.
    ``images`` is written only when set (so a budget without it serialises as it always did).

    >>> budget_to_dict(Budget(window=8192, max_output=512))
    {'context': None, 'window': 8192, 'max_output': 512, 'margin': 0}
    >>> budget_to_dict(Budget(context=4000, images=3))["images"]
    3
    """
    if not isinstance(budget, Budget):
        return budget
    out = dataclasses.asdict(budget)
    if out["images"] is None:
        del out["images"]
    return out


def budget_from(value: object) -> object:
    """A ``Budget`` back from ``budget_to_dict``'s dict; anything else unchanged (``assemble``
    checks it). Unknown keys raise ``InputError``.

    >>> budget_from({"window": 8192, "max_output": 512})
    Budget(context=None, window=8192, max_output=512, margin=0)
    """
    if not isinstance(value, Mapping):
        return value
    names = [f.name for f in dataclasses.fields(Budget)]
    unknown = [k for k in value if k not in names]
    if unknown:
        raise InputError(
            f"budget: unknown key(s) {', '.join(shown(k) for k in unknown)}; a budget dict "
            f"holds some of {', '.join(names)}"
        )
    return Budget(**value)


def check_json_value(where: str, value: object) -> object:
    """``value`` if it can be written as JSON data; a callable raises a clear ``InputError``.

    Used by the pydantic adapters in JSON mode: a callable tokenizer or ``parents`` cannot be
    written to JSON; pass it again when loading.
    """
    if isinstance(value, Mapping):
        return {k: check_json_value(f"{where}[{k!r}]", v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [check_json_value(f"{where}[{i}]", v) for i, v in enumerate(value)]
    if callable(value):
        raise InputError(
            f"{where}: a callable ({shown(value)}) cannot be written to JSON; give an encoding "
            "or model name instead, or pass the callable again when loading (e.g. "
            "from_json(data, tokenizer=fn) or model_validate({**data, 'tokenizer': fn}))"
        )
    return value


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


def _is_page(v: object) -> bool:
    if isinstance(v, str):
        return bool(v.strip())
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


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
    "page": _is_page,
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
            if name == "updated":  # a loader's date or timestamp, as ISO-8601 text
                value = iso_updated(value)
            if value is not None and ok(value):
                out[name] = str(value) if name in ("id", "doc", "parent") else value
                break
    return out


def fold_options(fields: Collection[str], data: dict[str, Any], adapter: str) -> dict[str, Any]:
    """Keyword arguments of a pydantic adapter with ``assemble`` options folded into ``options``.

    A framework model ignores unknown keywords; here an ``assemble`` option given directly
    (``BriefpackCompressor(compress="overflow")``) joins ``options``, and anything else is an
    ``InputError`` instead of being dropped without a word.

    >>> fold_options({"budget", "options"}, {"budget": 9, "order": "relevance"}, "X")
    {'budget': 9, 'options': {'order': 'relevance'}}
    """
    extra = {k: v for k, v in data.items() if k not in fields}
    if not extra:
        return data
    unknown = [k for k in extra if k not in ASSEMBLE_OPTIONS]
    if unknown:
        raise InputError(
            f"{adapter} has no option {named(unknown, [*fields, *ASSEMBLE_OPTIONS])}; it takes "
            f"its own fields and assemble's options ({', '.join(ASSEMBLE_OPTIONS)})",
            option=str(unknown[0]),
        )
    folded = {k: v for k, v in data.items() if k in fields}
    folded["options"] = {**(data.get("options") or {}), **extra}
    return folded


def merge_keys(
    defaults: Mapping[str, Sequence[str]], overrides: Mapping[str, Any] | None
) -> dict[str, tuple[str, ...]]:
    """Default metadata keys with a caller's overrides (a str or a list of keys per field).
    ``page`` is read from ``PAGE_KEYS`` unless ``defaults`` or the overrides name its keys.

    >>> merge_keys({"doc": ("source",)}, {"page": "pg"})
    {'doc': ('source',), 'page': ('pg',)}
    >>> merge_keys({"doc": ("source",)}, None)["page"]
    ('page_number', 'page_label')
    """
    merged = {k: tuple(v) for k, v in defaults.items()}
    merged.setdefault("page", PAGE_KEYS)
    for field_name, value in (overrides or {}).items():
        if field_name not in _FIELD_CHECKS and field_name != "vector":
            raise InputError(
                f"keys: {shown(field_name)} is not a Chunk field that metadata can set; expected "
                f"some of {', '.join([*_FIELD_CHECKS, 'vector'])}"
            )
        if isinstance(value, str):
            merged[field_name] = (value,)
        elif isinstance(value, Sequence) and all(isinstance(k, str) for k in value):
            merged[field_name] = tuple(value)
        else:
            raise InputError(
                f"keys[{field_name!r}] must be a metadata key (str) or a list of keys, got "
                f"{shown(value)}"
            )
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
    """What an adapter records about a placed source: its label, members and token count,
    and for a source cut by ``compress``, how it was cut (as in the record)."""
    out: dict[str, Any] = {
        "label": source.label,
        "members": list(source.members),
        "tokens": source.tokens,
    }
    c = source.compression
    if c is not None:
        out["compressed"] = {
            "sentences": c.sentences,
            "kept": list(c.kept),
            "removed": list(c.removed),
        }
        if c.bridges:
            out["compressed"]["bridges"] = list(c.bridges)
    return out
