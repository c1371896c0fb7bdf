"""``Route``: where ``briefpack.route`` sends a question, and why (data only).

It lives below the pipeline so that ``Assembler`` can take a route without importing the router
(``briefpack.routing`` sits above the pipeline and re-exports it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

__all__ = ["KINDS", "Route", "RouteKind", "Rule"]

RouteKind = Literal[
    "retrieve", "aggregate", "exhaustive", "filter", "recency", "corpus_analysis", "whole_corpus"
]
KINDS: tuple[RouteKind, ...] = (
    "retrieve",
    "aggregate",
    "exhaustive",
    "filter",
    "recency",
    "corpus_analysis",
    "whole_corpus",
)
"""Every kind a route can have; a rule may have any of them except ``whole_corpus``."""


class Rule(NamedTuple):
    """One routing rule: if ``pattern`` (a regular expression) is found in the normalised
    question, the route is ``kind``, and ``why`` says what kind of question it is.

    >>> Rule("filter", r"\\bgluten free\\b", "a dietary tag is metadata").kind
    'filter'
    """

    kind: str
    pattern: str
    why: str


@dataclass(frozen=True)
class Route:
    """Where a question should go, and why.

    Attributes:
        kind: ``"retrieve"`` (the default), ``"aggregate"``, ``"exhaustive"``, ``"filter"``,
            ``"recency"``, ``"corpus_analysis"`` or ``"whole_corpus"``.
        rule: the rule that fired (``None`` when none did); with ``whole_corpus`` it is the rule
            the fitting corpus overrode, if any.
        rule_index: its position in the rule set.
        match: ``(start, end)`` of the part of the question the rule matched (``None`` if none).
        why: one sentence a log can show.
        question: the question as given.
        rule_set: ``"en"``, ``"de"``, ``"fr"`` or ``"es"`` for a shipped set, ``"custom"`` for
            the caller's rules, ``"none"`` when the language has no rule set.
        corpus_tokens, context_budget: the rendered corpus' token count and the context budget
            it was compared with (``None`` when no corpus was given, or for ``corpus_tokens``
            when the corpus did not fit: counting stops once it cannot).
        lang: the language code the rules were chosen by (``None`` with the caller's rules).
        lang_source: ``"detected"``, ``"given"`` or ``None`` (the caller's rules).
        decided_by: ``"rule"`` (a rule fired), ``"model"`` (no rule fired and the fallback
            model was confident enough) or ``"default"`` (neither: retrieval).
        model_kind, model_score: the fallback model's most probable kind and its probability
            when the model ran (``None`` when a rule decided or no model was used).
        threshold: the probability the model needed to decide (``None`` when it did not run).

    >>> import briefpack as bp
    >>> r = bp.route("How many recipes use anchovies?")
    >>> isinstance(r, bp.Route), r.kind
    (True, 'aggregate')
    """

    kind: RouteKind
    rule: Rule | None
    rule_index: int | None
    match: tuple[int, int] | None
    why: str
    question: str
    rule_set: str = "en"
    corpus_tokens: int | None = None
    context_budget: int | None = None
    lang: str | None = "en"
    lang_source: str | None = "given"
    decided_by: Literal["rule", "model", "default"] = "rule"
    model_kind: str | None = None
    model_score: float | None = None
    threshold: float | None = None

    @property
    def matched(self) -> str | None:
        """The text of the question that the rule matched."""
        return None if self.match is None else self.question[self.match[0] : self.match[1]]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable account of the decision, for ``Assembly.record()``.

        >>> from briefpack.routing import route
        >>> d = route("How many recipes use anchovies?").to_dict()
        >>> d["match"], d["decided_by"]
        ({'start': 0, 'end': 20, 'text': 'How many recipes use'}, 'rule')
        """
        return {
            "kind": self.kind,
            "why": self.why,
            "rule_set": self.rule_set,
            "lang": self.lang,
            "lang_source": self.lang_source,
            "decided_by": self.decided_by,
            "rule": None
            if self.rule is None
            else {
                "index": self.rule_index,
                "kind": self.rule.kind,
                "pattern": self.rule.pattern,
                "why": self.rule.why,
            },
            "match": None
            if self.match is None
            else {"start": self.match[0], "end": self.match[1], "text": self.matched},
            "model": None
            if self.model_kind is None
            else {
                "kind": self.model_kind,
                "score": round(self.model_score or 0.0, 4),
                "threshold": self.threshold,
            },
            "corpus": None
            if self.context_budget is None
            else {
                "fits": self.kind == "whole_corpus",
                "sources_tokens": self.corpus_tokens,
                "context_budget": self.context_budget,
            },
        }
