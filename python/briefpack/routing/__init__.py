"""``route``: decide, before assembling, whether top-k retrieval is the right tool at all.

Some questions are answered badly by retrieval whatever the assembly: a count over the corpus
("How many recipes use anchovies?") is a database query, "List every recipe with nuts" is a
filter that must not be answered from a sample, "Recipes under 30 minutes" is a metadata
filter, "What was added this week?" is a sort by time, "What is the most common technique
across all bread recipes?" is an offline job over the whole corpus, and a corpus that fits the
window needs no retrieval at all. ``route`` names the right tool, what decided and why.

**Steps.** Normalise the question (``.text``; at most ``MAX_CHARS`` characters of it are read);
choose the rules (the caller's, or the shipped set of ``lang``, or of the language ``detect``
reads in the question: English, German, French, Spanish; other languages go to retrieval); the
first rule that matches decides (``.ruleset``); if none does, the fallback ``Model`` (hashed
n-grams, a linear model, weights in ``briefpack/data/routing_model.bin``, see ``.model``)
decides when it is sure enough, else the question is for retrieval. With ``corpus``, a corpus
that fits the budget turns a sampled kind into ``whole_corpus`` (``.corpus``).
``Route.decided_by`` says which.

**Rules are data** (``.rules``): ``ROUTE_RULE_SETS`` maps ``"en"``, ``"de"``, ``"fr"`` and
``"es"`` to the shipped sets; users extend one (``[Rule(...), *ROUTE_RULES_EN]``) or replace
it. A rule of kind ``"retrieve"`` is an exception that stops the rules below it from firing.
Caller patterns are checked (``pathological``, ``.guard``). Patterns compile on the first call.
docs/routing.md has the full account: normalisation, the guard, the model, the numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from .._checks import check_text, shown, type_name
from .._route import KINDS, Route, RouteKind
from ..errors import InputError
from ..types import Budget, Chunk
from .corpus import _whole_corpus
from .guard import _branches as _branches  # kept importable from here (the tests' names)
from .guard import _gate as _gate
from .guard import pathological
from .lang import SUPPORTED, UNSUPPORTED, detect
from .model import MAX_CHARS, MODEL_KINDS, Model, default_model, load_rows, train
from .rules import (
    ROUTE_RULE_SETS,
    ROUTE_RULES_DE,
    ROUTE_RULES_EN,
    ROUTE_RULES_ES,
    ROUTE_RULES_FR,
    Rule,
)
from .ruleset import _COMPILED as _COMPILED  # the shipped sets compiled so far
from .ruleset import _compiled
from .text import _normalize_with_offsets, normalize

__all__ = [
    "KINDS",
    "MAX_CHARS",
    "MODEL_KINDS",
    "ROUTE_RULES_DE",
    "ROUTE_RULES_EN",
    "ROUTE_RULES_ES",
    "ROUTE_RULES_FR",
    "ROUTE_RULE_SETS",
    "SUPPORTED",
    "UNSUPPORTED",
    "Model",
    "Route",
    "Rule",
    "default_model",
    "detect",
    "load_rows",
    "normalize",
    "pathological",
    "route",
    "train",
]


def route(
    question: str,
    *,
    rules: Sequence[Rule | tuple[str, str, str]] | None = None,
    lang: str | None = None,
    model: Model | str | Path | None = "default",
    corpus: Sequence[str | Chunk | Any] | None = None,
    budget: int | Budget | None = None,
    tokenizer: Any = "o200k_base",
) -> Route:
    """Decide whether ``question`` is for top-k retrieval or for another tool, and why.

    Steps: normalise the question (at most ``MAX_CHARS`` characters of it are read); choose the
    rules (``rules``, or the shipped set of ``lang``, or of the detected language); the first
    rule whose pattern is found decides; if none is, the fallback ``model`` gives its most
    probable kind and probability, and decides when the kind is not ``retrieve`` and the
    probability is at least its threshold; otherwise the question is for retrieval.

    Args:
        question: the user's question.
        rules: an ordered rule set (``Rule`` or ``(kind, pattern, why)`` triples); caller
            patterns are checked for nested unbounded repeats (``InputError``).
        lang: ``"en"``, ``"de"``, ``"fr"``, ``"es"``, or ``None``/``"auto"`` (default) to
            detect it; ignored with ``rules``. A question detected in another language (``it``,
            ``pt``, ``nl``, a non-Latin script) goes to retrieval: no rules, no model.
        model: the fallback: ``"default"`` (the shipped model), a ``Model`` (``train``,
            ``Model.load``), a path to a weights file (read once, then kept by path), or
            ``None`` for rules only.
        corpus: the whole corpus (texts, ``Chunk``s or anything ``assemble`` accepts), to check
            whether it fits the budget as sources; then retrieval is unnecessary.
        budget, tokenizer: as for ``assemble`` (budget default: ``assemble``'s); used only with
            ``corpus``.

    Raises:
        InputError: the question is not a str, a rule or ``lang`` is malformed, the model file
            cannot be read, or the corpus or budget is invalid (as ``assemble`` reports it).
        BudgetError: with ``corpus`` and a window budget, system prompt and question alone do
            not fit the window (as ``assemble`` reports it).

    >>> import briefpack as bp
    >>> r = bp.route("HOW MANY recipes use anchovies?")
    >>> r.kind, r.matched, r.decided_by
    ('aggregate', 'HOW MANY recipes use', 'rule')
    >>> bp.route("How many weeks of parental leave do fathers get?").kind
    'retrieve'
    >>> r = bp.route("Wie viele Rezepte enthalten Sardellen?")
    >>> r.kind, r.lang, r.lang_source
    ('aggregate', 'de', 'detected')
    >>> bp.route("Is SSO in Pro?", corpus=["SSO is in Pro."], budget=500, tokenizer="approx").kind
    'whole_corpus'
    """
    question = check_text("question", question)
    if corpus is not None and (
        isinstance(corpus, (str, bytes)) or not isinstance(corpus, Sequence)
    ):
        raise InputError(f"corpus must be a list of texts or chunks, got {type_name(corpus)}")
    chosen_model = None if model == "default" else _resolve_model(model)
    text = normalize(question[: MAX_CHARS * 4])[:MAX_CHARS]
    words = text.split(" ")
    chosen, code, lang_source, rule_set = _choose_rules(question, words, rules, lang)

    kind: RouteKind = "retrieve"
    hit: Rule | None = None
    index: int | None = None
    span: tuple[int, int] | None = None
    decided_by: Literal["rule", "model", "default"] = "default"
    model_kind: str | None = None
    score: float | None = None
    threshold: float | None = None
    if chosen is None:
        why = (
            f"the question reads as language {code!r}, which has no rule set "
            f"(supported: {', '.join(SUPPORTED)}): top-k retrieval"
        )
    else:
        why = "no rule matched: an ordinary question for top-k retrieval"
        found = _by_rule(question, text, words, chosen)
        if found is not None:
            hit, index, span, why = found
            kind, decided_by = hit.kind, "rule"  # type: ignore[assignment]
        if hit is None and model == "default":
            chosen_model = default_model()  # read on first need: a rule decides most routes
        if hit is None and chosen_model is not None:
            model_kind, score, threshold, sure, why = _by_model(chosen_model, text, why)
            if sure:
                kind, decided_by = model_kind, "model"  # type: ignore[assignment]

    def made(kind: RouteKind, why: str, tokens: int | None, context: int | None) -> Route:
        return Route(
            kind, hit, index, span, why, question, rule_set, tokens, context, code,
            lang_source, decided_by, model_kind, score, threshold,
        )  # fmt: skip

    if corpus is None:
        return made(kind, why, None, None)
    kind, why, tokens, context_budget = _whole_corpus(
        question, corpus, budget, tokenizer, (kind, why, hit, index)
    )
    return made(kind, why, tokens, context_budget)


def _choose_rules(
    question: str, words: list[str], rules: Sequence[Any] | None, lang: str | None
) -> tuple[Sequence[Any] | None, str | None, str | None, str]:
    """(the rules to run or None, language code, how it was found, the record's rule set)."""
    if rules is not None:
        rule_set = next((k for k, v in ROUTE_RULE_SETS.items() if v is rules), "custom")
        return rules, None, None, rule_set
    if lang is None or lang == "auto":
        code, lang_source = detect(question, words), "detected"
    elif isinstance(lang, str) and lang in ROUTE_RULE_SETS:
        code, lang_source = lang, "given"
    else:
        raise InputError(
            f"lang must be one of {', '.join(repr(k) for k in ROUTE_RULE_SETS)} or 'auto', "
            f"got {shown(lang)}"
        )
    chosen = ROUTE_RULE_SETS.get(code)
    return chosen, code, lang_source, code if chosen is not None else "none"


def _by_rule(
    question: str, text: str, words: list[str], rules: Sequence[Any]
) -> tuple[Rule, int, tuple[int, int] | None, str] | None:
    """The first rule that matches: (rule, its index, its span in ``question``, why), or None."""
    compiled = _compiled(rules)
    found = compiled.first(text, words)
    if found is None:
        return None
    i, m = found
    rule = compiled.rules[i][0]
    span: tuple[int, int] | None = None
    # a guarded shipped rule reads the whole question and names the part it reports
    start, end = m.span(_SHOWN) if _SHOWN in m.re.groupindex else m.span()
    if end > start:
        _, origin = _normalize_with_offsets(question[: MAX_CHARS * 4])
        span = (origin[start], origin[end - 1] + 1)
    shown = question[span[0] : span[1]] if span else ""
    return rule, i, span, f"{rule.why} (rule {i} matched {shown!r})"


_SHOWN = "shown_part"
"""The group name a shipped rule gives the part of its match it reports (``rules._not_news``)."""


def _by_model(model: Model, text: str, why: str) -> tuple[str, float, float, bool, str]:
    """The fallback's (kind, probability, threshold, whether it decides, why); ``why`` is kept
    when the model reads the question as one for retrieval."""
    model_kind, score = model.predict(text)
    threshold = model.threshold
    if model_kind != "retrieve" and score >= threshold:
        why = (
            f"no rule matched; the fallback model reads it as {model_kind} "
            f"(probability {score:.2f} >= {threshold:.2f})"
        )
        return model_kind, score, threshold, True, why
    if model_kind != "retrieve":
        why = (
            f"no rule matched and the fallback model is not sure enough ({model_kind} "
            f"at {score:.2f} < {threshold:.2f}): an ordinary question for top-k "
            "retrieval"
        )
    return model_kind, score, threshold, False, why


_MODELS: dict[str, Model] = {}


def _resolve_model(model: object) -> Model | None:
    if model is None:
        return None
    if isinstance(model, Model):
        return model
    if model == "default":
        return default_model()
    if isinstance(model, (str, Path)):
        key = str(model)
        if key not in _MODELS:
            _MODELS.clear()  # one caller file at a time is cached
            _MODELS[key] = Model.load(key)
        return _MODELS[key]
    raise InputError(
        f"model must be 'default', a briefpack.routing.Model, a path or None, got "
        f"{type_name(model)}"
    )
