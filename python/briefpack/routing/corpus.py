"""The whole-corpus check: a corpus that fits the window needs no retrieval at all.

With ``corpus``, ``route`` asks ``assemble`` itself (no deduplication, document order, the
default system prompt and xml labels) whether every text fits the budget; if it does, a question
that would otherwise be retrieved (or one the rules send to ``exhaustive`` or
``corpus_analysis``, whose trouble is that top-k reads only a sample) routes to
``"whole_corpus"``. ``aggregate``, ``filter`` and ``recency`` keep their kind: a query over
structured data answers them exactly, however small the corpus.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._route import RouteKind
from ..pipeline import assemble
from ..types import Budget
from .rules import Rule

__all__: list[str] = []

_SAMPLED = ("retrieve", "exhaustive", "corpus_analysis")
"""Kinds that a corpus fitting the budget turns into ``whole_corpus``."""


def _fit(
    question: str, corpus: Sequence[Any], budget: int | Budget | None, tokenizer: Any
) -> tuple[bool, int | None, int]:
    """Whether ``corpus`` rendered as sources fits the budget, by ``assemble``'s own arithmetic.

    Returns (fits, sources tokens or None when it does not fit, context budget).
    """
    options: dict[str, Any] = {
        "dedupe": None, "order": "document", "tokenizer": tokenizer,
        "fallback": None,  # a corpus that does not fit whole is not cut to fit
    }  # fmt: skip
    if budget is not None:
        options["budget"] = budget
    result = assemble(question, corpus, **options)
    fits = not any(d.reason == "over_budget" for d in result.dropped)
    return fits, result.tokens["sources"] if fits else None, result.tokens["context_budget"]


def _whole_corpus(
    question: str,
    corpus: Sequence[Any],
    budget: int | Budget | None,
    tokenizer: Any,
    decided: tuple[RouteKind, str, Rule | None, int | None],
) -> tuple[RouteKind, str, int | None, int]:
    """The route's (kind, why, sources tokens, context budget) once the corpus is measured;
    ``decided`` is the (kind, why, rule, rule index) the rules and the model chose."""
    kind, why, hit, index = decided
    fits, tokens, context_budget = _fit(question, corpus, budget, tokenizer)
    if fits and kind in _SAMPLED:
        why = (
            f"the whole corpus ({len(corpus)} texts, {tokens} tokens as sources) fits the "
            f"context budget of {context_budget}: read it all instead of retrieving"
            + ("" if hit is None else f"; overrides rule {index} ({hit.kind})")
        )
        kind = "whole_corpus"
    return kind, why, tokens, context_budget
