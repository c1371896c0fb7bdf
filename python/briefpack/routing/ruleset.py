"""Rule sets, checked and compiled: ``_compiled(rules)`` is the matcher ``route`` runs.

A rule set is an ordered sequence of ``Rule(kind, pattern, why)``; the first rule whose regular
expression is found in the normalised question decides. The shipped sets compile on first use;
a caller's set is checked once (``_check_rules``: shape, kind, a valid and not ``pathological``
pattern) and the last 64 distinct ones are kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .._checks import type_name
from .._route import KINDS
from ..errors import InputError
from .guard import _GATE_CHARS, _branches, _gate, pathological
from .rules import ROUTE_RULE_SETS, Rule

__all__: list[str] = []

_RULE_KINDS = KINDS[:-1]


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
