"""``assemble``: the whole pipeline in one call, ``Assembler(**options)(question, ...)``.

The stages live in ``briefpack._stages`` (one module each, in the order the contract fixes);
``Assembler`` runs them; this module keeps the one-call form and the names other modules
import from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ._stages.budget import MESSAGE_OVERHEAD
from .assembler import Assembler
from .assembly import Assembly
from .options import DEDUPE_METHODS, DEFAULT_THRESHOLDS

__all__ = ["DEDUPE_METHODS", "DEFAULT_THRESHOLDS", "MESSAGE_OVERHEAD", "assemble"]


def assemble(
    question: str,
    candidates: Sequence[Any],
    *,
    history: str | Sequence[Mapping[str, str]] | None = None,
    query_vector: Any = None,
    **options: Any,
) -> Assembly:
    """Assemble deduplicated, budgeted, ordered, labelled context into a prompt.

    ``Assembler(**options)(question, candidates, history=..., query_vector=...)``: see
    ``Options`` for every option. ``candidates`` are in rank order (best first): ``Chunk``s,
    mappings with ``Chunk``'s keys, plain strings, or LangChain-style objects with
    ``page_content`` and ``metadata``. The order of the stages is part of the contract.

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
    return Assembler(**options)(question, candidates, history=history, query_vector=query_vector)
