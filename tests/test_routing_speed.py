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
