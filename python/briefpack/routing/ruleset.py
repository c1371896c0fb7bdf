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
from .guard import _GATE_CHARS, _branches, _gate, _groups, _sre, pathological
from .rules import ROUTE_RULE_SETS, Rule

__all__: list[str] = []

_RULE_KINDS = KINDS[:-1]


_MAX_NEEDS = 3
"""At most this many required texts of an alternative are tested (the longest), and at most
this many choices of texts ("one of these")."""
_MAX_CHOICE = 12
"""A choice of more texts than this is not tested (testing it costs about what a search does)."""

_Needs = tuple[tuple[str, ...], ...]


def _needs(pattern: str) -> _Needs:
    """What every match of ``pattern`` contains, as choices: each a tuple of texts one of
    which is in the match (a 1-tuple: a text it always contains). A text that has none of a
    choice's texts cannot match, so the pattern need not run.

    Read off the parse of the pattern's top-level sequence: runs of literal characters (two
    or more), groups read inline, zero-width assertions (``\\b``, ``^``, lookarounds) skipped
    since they consume nothing, the needs of a part repeated at least once, and for an
    alternation the choice of its alternatives' longest needed texts (when each has one).
    Nothing is read off a case-insensitive pattern or a group with flags of its own. The
    longest ``_MAX_NEEDS`` single texts are kept, then the smallest ``_MAX_NEEDS`` choices of
    at most ``_MAX_CHOICE`` texts.

    >>> _needs(r"\\bhow (?:many|much) (?:\\w+ ){0,3}?use(?:s|d)?\\b")
    (('how m',), ('use',), ('any', 'uch'))
    >>> _needs(r"(?i)how many")
    ()
    """
    if re.compile(pattern).flags & re.IGNORECASE:
        return ()
    parser, c = _sre()

    def walk(seq: Any, found: set[str], choices: set[tuple[str, ...]]) -> None:
        run: list[str] = []

        def flush() -> None:
            if len(run) >= 2:
                found.add("".join(run))
            run.clear()

        for op, av in seq:
            if op == c.LITERAL:
                run.append(chr(av))
                continue
            if op in (c.AT, c.ASSERT, c.ASSERT_NOT):
                continue  # zero width: the characters on either side are adjacent
            if op == c.SUBPATTERN and not av[1] and not av[2]:
                # a group's text continues the run: walk it inline
                walk_inline = list(av[-1])
                if all(o == c.LITERAL for o, _ in walk_inline):
                    run.extend(chr(x) for _, x in walk_inline)
                    continue
                flush()
                walk(walk_inline, found, choices)
                continue
            flush()
            if op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[0] >= 1:
                walk(av[2], found, choices)
            elif op == c.BRANCH:
                options = []
                for alt in av[1]:
                    inner: set[str] = set()
                    walk(alt, inner, set())
                    if not inner:
                        break
                    options.append(max(sorted(inner), key=len))
                else:
                    choices.add(tuple(sorted(set(options))))
        flush()

    found: set[str] = set()
    choices: set[tuple[str, ...]] = set()
    walk(parser.parse(pattern), found, choices)
    single = sorted(found, key=lambda t: (-len(t), t))[:_MAX_NEEDS]
    several = sorted(
        (x for x in choices if len(x) <= _MAX_CHOICE and not set(x) & found),
        key=lambda x: (len(x), x),
    )[:_MAX_NEEDS]
    return tuple((t,) for t in single) + tuple(several)


def _splittable(compiled: re.Pattern[str]) -> bool:
    """Whether a caller's pattern can run as its top-level alternatives with the same
    matches: no flags (inline or compiled: they would apply to some alternatives only, and
    ``\\b`` under ``(?a)`` is not a word start of the normalised question) and no
    reference to a group (``\\1``, ``(?P=name)``, ``(?(1)...)``: another alternative's group,
    or a renumbered one)."""
    if compiled.flags != re.UNICODE:
        return False
    parser, c = _sre()
    possessive = getattr(c, "POSSESSIVE_REPEAT", None)  # Python 3.11+
    atomic = getattr(c, "ATOMIC_GROUP", None)

    def refs(seq: Any) -> bool:
        for op, av in seq:
            if op in (c.GROUPREF, c.GROUPREF_EXISTS):
                return True
            bodies = _groups(op, av, c)
            if bodies is None and op in (c.MAX_REPEAT, c.MIN_REPEAT, possessive):
                bodies = [av[2]]
            elif bodies is None and op == atomic:
                bodies = [av]
            if any(refs(body) for body in bodies or []):
                return True
        return False

    return not refs(parser.parse(compiled.pattern))


_WORDS_ONLY = re.compile(r"[\w ]*")
"""A normalised question made of regular-expression word characters and spaces only: then
a ``\\b`` before a letter is exactly the start of one of its space-separated words (a mark
the normaliser keeps, such as a Devanagari vowel sign, is a word character there and not
for ``\\b``)."""


class _RuleSet:
    """Compiled rules, each split into its top-level alternatives, and for speed which
    alternatives a question's words can start a match of.

    A rule matches where its leftmost alternative match is (the first alternative on a tie),
    exactly as the whole pattern would: an alternation tries its alternatives in order at
    each position from the left. An alternative that no word of the question can start is
    not run (``_gate``). A caller's set (``caller=True``) is split the same way where that
    keeps every match (``_splittable``), and its gates are used only when the question is
    made of word characters and spaces (``_WORDS_ONLY``), so its decisions are those of
    searching each whole pattern in turn."""

    def __init__(
        self, rules: tuple[tuple[Rule, re.Pattern[str]], ...], split: bool, caller: bool = False
    ) -> None:
        self.rules = rules
        self.caller = caller
        self.parts: list[list[tuple[int, re.Pattern[str]]]] = []
        self.always = 0
        self.gates: dict[str, int] = {}
        self.flat: list[tuple[int, re.Pattern[str], _Needs]] = []
        bit = 0
        for index, (rule, compiled) in enumerate(rules):
            texts = (
                _branches(rule.pattern)
                if split and (not caller or _splittable(compiled))
                else [rule.pattern]
            )
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
                self.flat.append((index, alternative, _needs(text)))
                bit += 1
            self.parts.append(parts)
        self._always = tuple(i for i in range(bit) if self.always >> i & 1)
        self._bits: dict[str, tuple[int, ...]] = {}

    def _indices(self, words: list[str]) -> list[int]:
        """The alternatives a question made of ``words`` can match, ascending (in rule order):
        the ungated ones, and those gated by a prefix of one of the words (cached per word)."""
        found = set(self._always)
        cache = self._bits
        for w in words:
            hit = cache.get(w)
            if hit is None:
                mask = 0
                for n in range(1, min(len(w), _GATE_CHARS) + 1):
                    mask |= self.gates.get(w[:n], 0)
                hit = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
                if len(cache) < 20_000:  # hostile input must not grow it for ever
                    cache[w] = hit
            found.update(hit)
        return sorted(found)

    def first(self, text: str, words: list[str]) -> tuple[int, re.Match[str]] | None:
        """The index of the first rule that matches ``text`` and its leftmost match."""
        flat = self.flat
        best: re.Match[str] | None = None
        best_rule = -1
        if self.caller and _WORDS_ONLY.fullmatch(text) is None:
            candidates: Sequence[int] = range(len(flat))
        else:
            candidates = self._indices(words)
        for i in candidates:
            rule_index, alternative, needs = flat[i]
            if best is not None and rule_index != best_rule:
                break
            for choice in needs:  # every match has one of a choice's texts
                for need in choice:
                    if need in text:
                        break
                else:
                    break  # none is in the text: no match
            else:
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
        return _RuleSet(_check_rules(rules), split=True, caller=True)  # the check says why
    got = _CALLER.get(key)
    if got is None:
        got = _RuleSet(_check_rules(rules), split=True, caller=True)
        if len(_CALLER) >= 64:
            _CALLER.pop(next(iter(_CALLER)))
        _CALLER[key] = got
    return got
