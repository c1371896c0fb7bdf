"""briefpack: deduplicated, budgeted, ordered, labelled context for RAG."""

from __future__ import annotations

from .errors import BriefpackError, BudgetError, CitationError, InputError

__all__ = ["BriefpackError", "BudgetError", "CitationError", "InputError"]
