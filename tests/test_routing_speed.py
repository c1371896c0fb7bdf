"""The shortcuts that make routing fast decide nothing: every question of ``tests/data``
(the labelled, training and blind sets, in every shipped language) is routed exactly as the
plain rules and the plain definition of the model's features route it."""

from __future__ import annotations

import json
import re
import zlib
from itertools import pairwise
from pathlib import Path

import pytest

from briefpack import routing
from briefpack.routing import _compiled, normalize
from briefpack.routing.model import features
from briefpack.routing.ruleset import _needs

DATA = Path(__file__).resolve().parent / "data"


def _questions() -> list[str]:
    out: list[str] = []
    for path in sorted(DATA.glob("routing_*")):
        if path.suffix == ".tsv":
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip() and not line.startswith(("#", "kind\t")):
                    out.append(line.split("\t")[-1])
        elif path.suffix == ".jsonl":
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    out.append(json.loads(line)["question"])
    return out


QUESTIONS = _questions()
TEXTS = [normalize(q)[: routing.MAX_CHARS] for q in QUESTIONS]


def test_the_data_is_there() -> None:
    assert len(QUESTIONS) > 3000


@pytest.mark.parametrize("lang", list(routing.ROUTE_RULE_SETS))
def test_every_question_takes_the_rule_the_whole_patterns_take(lang: str) -> None:
    rules = routing.ROUTE_RULE_SETS[lang]
    plain = [re.compile(r.pattern) for r in rules]
    gated = _compiled(rules)
    for text in TEXTS:
        want = next(((i, m.span()) for i, p in enumerate(plain) if (m := p.search(text))), None)
        got = gated.first(text, text.split(" "))
        assert (None if got is None else (got[0], got[1].span())) == want, text


@pytest.mark.parametrize("lang", list(routing.ROUTE_RULE_SETS))
def test_every_match_has_what_its_alternative_needs(lang: str) -> None:
    # Stronger than the routes agreeing: no match of any alternative lacks one of its needs.
    for _, alternative, needs in _compiled(routing.ROUTE_RULE_SETS[lang]).flat:
        for text in TEXTS:
            m = alternative.search(text)
            if m is not None:
                assert all(any(t in m.group() for t in c) for c in needs), (alternative, text)


def test_needs_are_read_off_literals_groups_repeats_and_alternations() -> None:
    assert _needs(r"\bhow many\b") == (("how many",),)
    assert _needs(r"^(?:please )?count (?:all )?(?:\w+ )?rows\b") == (
        ("count ",),
        ("rows",),  # the space before it is in the optional word
    )
    assert _needs(r"\b(?:a|bc|de) x") == ((" x",),)  # "a" is too short to be a choice
    assert _needs(r"(?:ab)+ (?:cd|ef)") == (("ab",), ("cd", "ef"))
    assert _needs(r"(?=xyz)\w+") == ()  # what a lookahead reads is not consumed
    assert _needs(r"(?i:how) many") == ((" many",),)  # a group with flags breaks the run
    assert _needs(r"how (?<!x)many") == (("how many",),)  # zero width: still adjacent
    assert _needs(r"[ab]c") == ()
    assert _needs(r"(?i)how many") == ()


def _features_by_definition(text: str, buckets: int) -> list[int]:
    """``features`` written out from the module doc, no caches."""
    mask = buckets - 1
    data = text.encode("utf-8")
    if not data:
        return []
    words = data.split(b" ")
    out = [zlib.crc32(a + b" " + b, 2) & mask for a, b in pairwise(words)]
    for w in words:
        out.append(zlib.crc32(w, 1) & mask)
        if len(w) > 5:
            out.append(zlib.crc32(w[:5], 3) & mask)
        padded = b" " + w + b" "
        out += [zlib.crc32(padded[i : i + 4]) & mask for i in range(len(padded) - 3)]
    return out


@pytest.mark.parametrize("buckets", [1 << 15, 1 << 4])
def test_features_are_their_definition(buckets: int) -> None:
    for text in [*TEXTS[::7], "", "a", "a  b", "é ß x" * 3]:
        assert features(text, buckets) == _features_by_definition(text, buckets), text


# A caller's rules are split into gated alternatives as the shipped sets are, where that keeps
# every match: the decisions are those of searching each whole pattern in turn.
CALLER_EXTRA = [
    ("retrieve", r"(?i)^HOW DO I\b|never", "flags: not split"),
    ("filter", r"\b(\w+) and \1\b|\bgluten free\b", "a group reference: not split"),
    ("filter", r"\babc\b|\bvegan (?:cakes|cookies)\b|(?<=x)yz", "split and gated"),
    ("aggregate", r"(?a)\bcount\b|\btally\b", "ASCII: not split"),
    ("recency", r"\b(?P<w>new)(?: \w+)? (?P=w)\b|\bnewest\b", "a named reference: not split"),
]
EDGE = ["xिabc", "कि abc", "vegan  cookies", "ab abc", "salt and salt", "xyz", "COUNT it"]


def _plain_first(
    rules: list[tuple[str, str, str]], text: str
) -> tuple[int, tuple[int, int]] | None:
    for i, (_, pattern, _) in enumerate(rules):
        m = re.search(pattern, text)
        if m is not None:
            return i, m.span()
    return None


@pytest.mark.parametrize("lang", list(routing.ROUTE_RULE_SETS))
def test_caller_rules_take_the_rule_the_whole_patterns_take(lang: str) -> None:
    shipped = routing.ROUTE_RULE_SETS[lang]
    rules = [*CALLER_EXTRA, *(tuple(r) for r in shipped)]  # a copy: a caller's set
    gated = _compiled(rules)
    assert len(gated.flat) > 2 * len(rules)  # split, not one search per rule
    texts = [*TEXTS, *(normalize(q) for q in EDGE)]
    for text in texts:
        got = gated.first(text, text.split(" "))
        want = _plain_first(rules, text)
        assert (None if got is None else (got[0], got[1].span())) == want, text
    # the same decisions as the shipped set where no extra rule fires, through route itself
    for q in QUESTIONS[::5]:
        a = routing.route(q, rules=rules, model=None)
        b = routing.route(q, lang=lang, model=None)
        if a.rule_index is None or a.rule_index >= len(CALLER_EXTRA):
            shifted = None if a.rule_index is None else a.rule_index - len(CALLER_EXTRA)
            assert (a.kind, shifted, a.match) == (b.kind, b.rule_index, b.match), q
