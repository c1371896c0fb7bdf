"""``assemble``: the whole pipeline in one call, ``Assembler(**options)(question, ...)``.

The stages live in ``briefpack._stages`` (one module each, in the order the contract fixes);
``Assembler`` runs them; this module keeps the one-call form and the names other modules
import from here.

``assemble`` keeps the last ``CACHE_SIZE`` Assemblers it built, keyed by their options, so a
caller who passes the same options every time pays for checking them once, as with a prebuilt
``Assembler``. A key is exact: each value by its type and value (a float by its ``repr``, so
``-0.0`` and ``0.0``, ``1`` and ``1.0`` and ``True`` differ, as they do in the record), a
``Budget`` by its fields, a function or bound method by itself, any other callable by
identity (the entry holds it, so its identity cannot be reused while the entry lives). A value
of any other kind (a mapping, a numpy scalar, a str subclass) is not cached: that call builds
its Assembler as before. The cache is shared by threads (a lock around each look-up).
"""

from __future__ import annotations

import dataclasses
import threading
import types
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ._stages.budget import MESSAGE_OVERHEAD
from .assembler import Assembler
from .assembly import Assembly
from .options import DEDUPE_METHODS, DEFAULT_THRESHOLDS
from .types import Budget

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .options import AssembleOptions

__all__ = ["CACHE_SIZE", "DEDUPE_METHODS", "DEFAULT_THRESHOLDS", "MESSAGE_OVERHEAD", "assemble"]

CACHE_SIZE = 32
"""How many Assemblers ``assemble`` keeps (least recently used out first)."""

_BUDGET_FIELDS = tuple(f.name for f in dataclasses.fields(Budget))
_BY_VALUE = (types.FunctionType, types.BuiltinFunctionType, types.MethodType)
_UNCACHED: Any = object()
_cache: OrderedDict[tuple[Any, ...], tuple[Assembler, tuple[Any, ...]]] = OrderedDict()
_lock = threading.Lock()


def _part(value: object) -> Any:
    """``value`` as part of an exact key, or ``_UNCACHED``."""
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return (kind, value)
    if kind is float:
        return (kind, repr(value))
    if kind is Budget:
        fields = tuple(_part(getattr(value, name)) for name in _BUDGET_FIELDS)
        return _UNCACHED if _UNCACHED in fields else (kind, fields)
    if isinstance(value, _BY_VALUE):
        return (kind, value)  # equal when the same function (bound to the same object)
    if callable(value) and not isinstance(value, Mapping):
        return ("id", id(value))
    return _UNCACHED


def _key(options: Mapping[str, Any]) -> tuple[Any, ...] | None:
    parts = []
    for name in sorted(options):
        part = _part(options[name])
        if part is _UNCACHED:
            return None
        parts.append((name, part))
    return tuple(parts)


def cached_assembler(options: Mapping[str, Any]) -> Assembler:
    """The Assembler of ``options``: a kept one, or a new one (kept when its options can be
    keyed exactly). Raises what ``Assembler(**options)`` raises.

    >>> asm = cached_assembler({"budget": 500, "order": "relevance"})
    >>> asm is cached_assembler({"order": "relevance", "budget": 500})
    True
    >>> asm is cached_assembler({"order": "relevance", "budget": Budget(context=500)})
    False
    """
    key = _key(options)
    if key is not None:
        with _lock:
            hit = _cache.get(key)
            if hit is not None:
                _cache.move_to_end(key)
                return hit[0]
    asm = Assembler(**options)
    if key is not None:
        with _lock:
            _cache[key] = (asm, tuple(options.values()))  # the values: identities stay taken
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    return asm


def assemble(
    question: str,
    candidates: Sequence[Any],
    *,
    history: str | Sequence[Mapping[str, str]] | None = None,
    query_vector: Any = None,
    **options: Unpack[AssembleOptions],
) -> Assembly:
    """Assemble deduplicated, budgeted, ordered, labelled context into a prompt.

    ``Assembler(**options)(question, candidates, history=..., query_vector=...)``: see
    ``Options`` for every option (the Assembler is kept for the next call with the same
    options). ``candidates`` are in rank order (best first): ``Chunk``s, mappings with
    ``Chunk``'s keys, plain strings, or LangChain-style objects with ``page_content`` and
    ``metadata``. The order of the stages is part of the contract.

    Raises:
        InputError: an option or a candidate is invalid (options are reported first; nothing
            is done, nothing is mutated).
        BudgetError: system, history and question alone do not fit the window.

    >>> import briefpack as bp
    >>> result = bp.assemble(
    ...     "What is the relocation cap?",
    ...     [bp.Chunk("The relocation cap for Berlin is 4000 EUR.", id="hr/1", score=0.94),
    ...      bp.Chunk("The relocation cap for Berlin is 4000 EUR.", id="faq/7", score=0.90)],
    ...     budget=500, tokenizer="approx", backend="python")
    >>> [s.chunk.id for s in result.sources], [(d.chunk.id, d.reason) for d in result.dropped]
    (['hr/1'], [('faq/7', 'duplicate')])
    """
    asm = cached_assembler(options)
    return asm(question, candidates, history=history, query_vector=query_vector)
