"""The guard on caller rules, and the gates that let a rule set skip patterns that cannot match.

**Caller patterns are guarded.** They run on the same capped, normalised question as the
shipped ones, and one with nested unbounded repeats (``pathological``: ``(a+)+``,
``(\\w+ ?)*``) is an ``InputError``: backtracking through it can take time exponential in the
question's length. It is a syntactic test over the standard library's own parse of the
pattern.

**Gates.** A pattern whose every top-level alternative starts with ``\\b`` or ``^`` and then
literal text can only match where a word of the normalised question starts with that text
(``_gate``); a rule set splits its patterns into alternatives (``_branches``) and runs only
those some word of the question can start.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["pathological"]


def _sre() -> tuple[Any, Any]:
    """The standard library's regular-expression parser and its constants."""
    try:
        from re import _constants, _parser  # type: ignore[attr-defined]  # Python 3.11+
    except ImportError:  # pragma: no cover (Python 3.10)
        import sre_constants as _constants
        import sre_parse as _parser
    return _parser, _constants


def _groups(op: Any, av: Any, c: Any) -> list[Any] | None:
    """The parsed sequences inside one node of a parsed pattern that groups others (a group,
    an alternation, a lookaround), or None for any other node."""
    if op == c.SUBPATTERN:
        return [av[-1]]
    if op == c.BRANCH:
        return list(av[1])
    if op in (c.ASSERT, c.ASSERT_NOT):
        return [av[1]]
    return None


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
        for body in _groups(op, av, c) or []:
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
