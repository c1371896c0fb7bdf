"""``route``: decide, before assembling, whether top-k retrieval is the right tool at all.

Some questions are answered badly by retrieval whatever the assembly: a count over the corpus
("How many recipes use anchovies?") is a database query, "List every recipe with nuts" is a
filter that must not be answered from a sample, "Recipes under 30 minutes" is a metadata
filter, "What was added this week?" is a sort by time, "What is the most common technique
across all bread recipes?" is an offline job over the whole corpus, and a corpus that fits the
window needs no retrieval at all. ``route`` names the right tool, what decided and why.

**Steps.** Normalise the question (at most ``MAX_CHARS`` characters of it are read); choose the
rules (the caller's, or the shipped set of ``lang``, or of the language ``detect`` reads in the
question: English, German, French, Spanish; other languages go to retrieval); the first rule
that matches decides; if none does, the fallback ``Model`` (hashed n-grams, a linear model,
weights shipped in ``briefpack/data/routing_model.bin``, see ``.model``) decides when it is
sure enough, else the question is for retrieval. ``Route.decided_by`` says which.

**Rules are data.** A rule set is an ordered sequence of ``Rule(kind, pattern, why)``; the first
rule whose regular expression is found in the normalised question decides. Users extend a set
(``[Rule(...), *ROUTE_RULES_EN]``) or replace it. A rule of kind ``"retrieve"`` is an exception
that stops the rules below it from firing. ``ROUTE_RULE_SETS`` maps ``"en"``, ``"de"``, ``"fr"``
and ``"es"`` to the shipped sets (``.rules``). Caller patterns run on the same capped text, and
one with nested unbounded repeats (``pathological``) is an ``InputError``. Patterns compile on
the first call.

**Normalisation** (``normalize``), applied to the question, never to the patterns: a word
character is one of Unicode's letters, marks and digits (general category L, M or N, the classes
of briefpack's shared character table), everything else separates words; each word character is
folded with the standard library's ``unicodedata``: compatibility decomposition (NFKD: full-
width "ＨＯＷ" and the ligature "ﬁ" become "HOW" and "fi"), combining marks dropped (accents: "é"
-> "e", "ü" -> "u"), then ``str.casefold`` ("ß" -> "ss"). Every run of separators (spaces,
hyphens, apostrophes, punctuation) becomes one space, none at the ends. So "HOW MANY", "how
many" and "how-many" all read ``how many``, and "What's" reads ``what s``: write patterns in
that form (lowercase, unaccented, one space between words). The folding follows the
interpreter's Unicode version; only rare characters differ between versions.

**Whole corpus.** With ``corpus``, ``route`` asks ``assemble`` itself (no deduplication, document
order, the default system prompt and xml labels) whether every text fits the budget; if it
does, a question that would otherwise be retrieved (or one the rules send to ``exhaustive`` or
``corpus_analysis``, whose trouble is that top-k reads only a sample) routes to
``"whole_corpus"``. ``aggregate``, ``filter`` and ``recency`` keep their kind: a query over
structured data answers them exactly, however small the corpus.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from .._checks import check_text, type_name
from .._route import KINDS, Route, RouteKind
from ..errors import InputError
from ..pipeline import assemble
from ..types import Budget, Chunk
from .lang import SUPPORTED, UNSUPPORTED, detect
from .model import MAX_CHARS, MODEL_KINDS, Model, default_model, load_rows, train
from .rules import ROUTE_RULES_DE, ROUTE_RULES_EN, ROUTE_RULES_ES, ROUTE_RULES_FR, Rule
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

_RULE_KINDS = KINDS[:-1]
_SAMPLED = ("retrieve", "exhaustive", "corpus_analysis")
"""Kinds that a corpus fitting the budget turns into ``whole_corpus``."""


ROUTE_RULE_SETS: dict[str, tuple[Rule, ...]] = {
    "en": ROUTE_RULES_EN,
    "de": ROUTE_RULES_DE,
    "fr": ROUTE_RULES_FR,
    "es": ROUTE_RULES_ES,
}
"""The shipped rule sets by language code."""


def _sre() -> tuple[Any, Any]:
    """The standard library's regular-expression parser and its constants."""
    try:
        from re import _constants, _parser  # type: ignore[attr-defined]  # Python 3.11+
    except ImportError:  # pragma: no cover (Python 3.10)
        import sre_constants as _constants
        import sre_parse as _parser
    return _parser, _constants


def _repeats(node: Any, c: Any) -> tuple[bool, bool]:
    """(has an unbounded repeat, has an unbounded repeat of something that itself has one)
    in a parsed pattern. Possessive repeats and atomic groups never backtrack into their body
    and do not count."""
    unbounded = nested = False
    for op, av in node:
        if op in (c.MAX_REPEAT, c.MIN_REPEAT):
            inner_unbounded, inner_nested = _repeats(av[2], c)
            if av[1] == c.MAXREPEAT:
                unbounded = True
                nested = nested or inner_unbounded
            unbounded = unbounded or inner_unbounded
            nested = nested or inner_nested
            continue
        if op == c.SUBPATTERN:
            bodies = [av[-1]]
        elif op == c.BRANCH:
            bodies = list(av[1])
        elif op in (c.ASSERT, c.ASSERT_NOT):
            bodies = [av[1]]
        else:
            continue
        for body in bodies:
            u, n = _repeats(body, c)
            unbounded, nested = unbounded or u, nested or n
    return unbounded, nested


def pathological(pattern: str) -> bool:
    """Whether ``pattern`` repeats without bound a part that itself repeats without bound
    (``(a+)+``, ``(\\w+ ?)*``, ``(?:x|y+)*``): backtracking through such a pattern can take time
    exponential in the text's length. Bounded repeats (``{0,5}``), possessive repeats
    (``*+``) and atomic groups (``(?>...)``) are fine. Raises ``re.error`` for a pattern that
    is not a regular expression.

    >>> pathological(r"(a+)+$"), pathological(r"\\bhow many (?:\\w+ ){0,3}?use\\b")
    (True, False)
    """
    parser, constants = _sre()
    return _repeats(parser.parse(pattern), constants)[1]


_GATE_CHARS = 4


def _literal_starts(seq: list[Any], c: Any) -> set[str] | None:
    """The texts, one of which every match of the parsed sequence ``seq`` starts with (each
    cut at ``_GATE_CHARS`` characters or the first that is not a letter or digit), or ``None``
    when no such set can be read off (the sequence starts with a class, a ``\\w``...)."""
    prefix = ""
    for k, (op, av) in enumerate(seq):
        if op == c.LITERAL and len(prefix) < _GATE_CHARS and chr(av).isalnum():
            prefix += chr(av)
            continue
        if prefix:
            return {prefix}
        if op in (c.ASSERT, c.ASSERT_NOT):
            continue  # zero width: the rest starts at the same place
        if op == c.SUBPATTERN:
            if av[1] or av[2]:  # flags inside the group: give up
                return None
            return _literal_starts(list(av[-1]) + seq[k + 1 :], c)
        if op == c.BRANCH:
            out: set[str] = set()
            for alt in av[1]:
                got = _literal_starts(list(alt) + seq[k + 1 :], c)
                if got is None:
                    return None
                out |= got
            return out
        if op in (c.MAX_REPEAT, c.MIN_REPEAT):
            body = _literal_starts(list(av[2]), c)
            if body is None:
                return None
            if av[0] >= 1:
                return body
            rest = _literal_starts(seq[k + 1 :], c)
            return None if rest is None else body | rest
        return None
    return {prefix} if prefix else None


def _gate(pattern: str) -> frozenset[str] | None:
    """Word starts, at least one of which any match of ``pattern`` begins with, when every
    top-level alternative starts with ``\\b`` or ``^`` and then literal text; else ``None``.

    Such a match starts at the start of a word of the normalised question, with that text, so
    a question none of whose words begins with one of these cannot match: the rule need not
    run. (Case-insensitive patterns are never gated: the question is lowercase anyway.)

    >>> sorted(_gate(r"\\b(?:average|mean) of|^(?:please )?how many\\b"))
    ['aver', 'how', 'mean', 'plea']
    >>> _gate(r"\\b\\w+s by\\b") is None
    True
    """
    parser, c = _sre()
    if re.compile(pattern).flags & (re.IGNORECASE | re.VERBOSE):
        return None
    tree = list(parser.parse(pattern))
    alternatives = tree[0][1][1] if len(tree) == 1 and tree[0][0] == c.BRANCH else [tree]
    out: set[str] = set()
    for alt in alternatives:
        seq = list(alt)
        if not seq or seq[0] not in ((c.AT, c.AT_BOUNDARY), (c.AT, c.AT_BEGINNING)):
            return None
        got = _literal_starts(seq[1:], c)
        if got is None:
            return None
        out |= got
    return frozenset(out)


def _branches(pattern: str) -> list[str]:
    """The top-level alternatives of a pattern, as text (``a|(b|c)|d`` -> ``a``, ``(b|c)``,
    ``d``); the pattern itself when it has inline flags, which apply to every alternative."""
    if pattern.startswith("(?") and re.match(r"\(\?[aiLmsux]+\)", pattern):
        return [pattern]
    out, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            i += 1
            if pattern[i : i + 1] == "^":
                i += 1
            if pattern[i : i + 1] == "]":
                i += 1  # a "]" first in a class is a literal
            continue
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    out.append(pattern[start:])
    return out


class _RuleSet:
    """Compiled rules, each split into its top-level alternatives, and for speed which
    alternatives a question's words can start a match of.

    A rule matches where its leftmost alternative match is (the first alternative on a tie),
    exactly as the whole pattern would: an alternation tries its alternatives in order at
    each position from the left. An alternative that no word of the question can start is
    not run (``_gate``)."""

    def __init__(self, rules: tuple[tuple[Rule, re.Pattern[str]], ...], split: bool) -> None:
        self.rules = rules
        self.parts: list[list[tuple[int, re.Pattern[str]]]] = []
        self.always = 0
        self.gates: dict[str, int] = {}
        self._words: dict[str, int] = {}
        self.flat: list[tuple[int, re.Pattern[str]]] = []
        bit = 0
        for index, (rule, compiled) in enumerate(rules):
            texts = _branches(rule.pattern) if split else [rule.pattern]
            if len(texts) == 1:
                texts, alternatives = [rule.pattern], [compiled]
            else:
                alternatives = [re.compile(t) for t in texts]
            parts = []
            for text, alternative in zip(texts, alternatives):
                gate = _gate(text)
                if gate is None:
                    self.always |= 1 << bit
                else:
                    for start in gate:
                        self.gates[start] = self.gates.get(start, 0) | 1 << bit
                parts.append((bit, alternative))
                self.flat.append((index, alternative))
                bit += 1
            self.parts.append(parts)

    def candidates(self, words: list[str]) -> int:
        """A bit mask of the alternatives that can match a question made of ``words``."""
        mask = self.always
        cache = self._words
        for w in words:
            hit = cache.get(w)
            if hit is None:
                hit = 0
                for n in range(1, min(len(w), _GATE_CHARS) + 1):
                    hit |= self.gates.get(w[:n], 0)
                if len(cache) < 20_000:
                    cache[w] = hit
            mask |= hit
        return mask

    def first(self, text: str, words: list[str]) -> tuple[int, re.Match[str]] | None:
        """The index of the first rule that matches ``text`` and its leftmost match."""
        mask = self.candidates(words)
        flat = self.flat
        best: re.Match[str] | None = None
        best_rule = -1
        while mask:  # the candidate alternatives in rule order (bits rise with the rules)
            low = mask & -mask
            mask ^= low
            rule_index, alternative = flat[low.bit_length() - 1]
            if best is not None and rule_index != best_rule:
                break
            m = alternative.search(text)
            if m is not None and (best is None or m.start() < best.start()):
                best, best_rule = m, rule_index
        return None if best is None else (best_rule, best)


def _check_rules(rules: object, trusted: bool = False) -> tuple[tuple[Rule, re.Pattern[str]], ...]:
    if isinstance(rules, (str, bytes)) or not isinstance(rules, Sequence):
        raise InputError(
            f"rules must be a list of (kind, pattern, why) rules, got {type_name(rules)}"
        )
    out = []
    for i, row in enumerate(rules):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != 3:
            raise InputError(
                f"rules[{i}] must be a (kind, pattern, why) triple, got {row!r}; e.g. "
                "Rule('filter', r'\\bgluten free\\b', 'a dietary tag is metadata')"
            )
        kind, pattern, why = row
        if kind not in _RULE_KINDS:
            legal = ", ".join(repr(k) for k in _RULE_KINDS)
            raise InputError(
                f"rules[{i}]: kind must be one of {legal}, got {kind!r} (whole_corpus is "
                "decided by corpus and budget, not by a rule)"
            )
        if not isinstance(pattern, str) or not isinstance(why, str):
            raise InputError(f"rules[{i}]: pattern and why must be str, got {row!r}")
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            raise InputError(
                f"rules[{i}]: pattern {pattern!r} is not a valid regular expression ({exc})"
            ) from None
        if not trusted and pathological(pattern):
            raise InputError(
                f"rules[{i}]: pattern {pattern!r} repeats without bound a part that itself "
                "repeats without bound (like (a+)+): matching it can take time exponential in "
                "the question's length; bound the outer repeat ({0,5}) or make it possessive "
                "(*+, ++)"
            )
        out.append((Rule(kind, pattern, why), compiled))
    return tuple(out)


_COMPILED: dict[int, _RuleSet] = {}
_CALLER: dict[tuple[Any, ...], _RuleSet] = {}


def _compiled(rules: Sequence[Any]) -> _RuleSet:
    """The compiled rules of a shipped set (compiled on first use) or of the caller's (checked
    once per distinct set; the last 64 are kept)."""
    got = _COMPILED.get(id(rules))
    if got is not None:
        return got
    if any(v is rules for v in ROUTE_RULE_SETS.values()):
        got = _COMPILED[id(rules)] = _RuleSet(_check_rules(rules, trusted=True), split=True)
        return got
    try:
        key = tuple(tuple(row) for row in rules)
        hash(key)
    except TypeError:
        return _RuleSet(_check_rules(rules), split=False)  # the check says what is wrong
    got = _CALLER.get(key)
    if got is None:
        got = _RuleSet(_check_rules(rules), split=False)
        if len(_CALLER) >= 64:
            _CALLER.pop(next(iter(_CALLER)))
        _CALLER[key] = got
    return got


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
    lang_source: str | None
    if rules is not None:
        chosen: Sequence[Any] | None = rules
        code: str | None = None
        lang_source = None
        rule_set = next((k for k, v in ROUTE_RULE_SETS.items() if v is rules), "custom")
    else:
        if lang is None or lang == "auto":
            code, lang_source = detect(question, words), "detected"
        elif lang in ROUTE_RULE_SETS:
            code, lang_source = lang, "given"
        else:
            raise InputError(
                f"lang must be one of {', '.join(repr(k) for k in ROUTE_RULE_SETS)} or 'auto', "
                f"got {lang!r}"
            )
        chosen = ROUTE_RULE_SETS.get(code)
        rule_set = code if chosen is not None else "none"

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
        compiled = _compiled(chosen)
        found = compiled.first(text, words)
        if found is not None:
            i, m = found
            rule = compiled.rules[i][0]
            kind, hit, index, decided_by = rule.kind, rule, i, "rule"  # type: ignore[assignment]
            if m.end() > m.start():
                _, origin = _normalize_with_offsets(question[: MAX_CHARS * 4])
                span = (origin[m.start()], origin[m.end() - 1] + 1)
            shown = question[span[0] : span[1]] if span else ""
            why = f"{rule.why} (rule {i} matched {shown!r})"
        if hit is None and model == "default":
            chosen_model = default_model()  # read on first need: a rule decides most routes
        if hit is None and chosen_model is not None:
            model_kind, score = chosen_model.predict(text)
            threshold = chosen_model.threshold
            if model_kind != "retrieve" and score >= threshold:
                kind, decided_by = model_kind, "model"  # type: ignore[assignment]
                why = (
                    f"no rule matched; the fallback model reads it as {model_kind} "
                    f"(probability {score:.2f} >= {threshold:.2f})"
                )
            elif model_kind != "retrieve":
                why = (
                    f"no rule matched and the fallback model is not sure enough ({model_kind} "
                    f"at {score:.2f} < {threshold:.2f}): an ordinary question for top-k "
                    "retrieval"
                )

    def made(kind: RouteKind, why: str, tokens: int | None, context: int | None) -> Route:
        return Route(
            kind, hit, index, span, why, question, rule_set, tokens, context, code,
            lang_source, decided_by, model_kind, score, threshold,
        )  # fmt: skip

    if corpus is None:
        return made(kind, why, None, None)
    fits, tokens, context_budget = _fit(question, corpus, budget, tokenizer)
    if fits and kind in _SAMPLED:
        why = (
            f"the whole corpus ({len(corpus)} texts, {tokens} tokens as sources) fits the "
            f"context budget of {context_budget}: read it all instead of retrieving"
            + ("" if hit is None else f"; overrides rule {index} ({hit.kind})")
        )
        kind = "whole_corpus"
    return made(kind, why, tokens, context_budget)


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
