"""Routing one question: rules, then the fallback model when no rule fires.

    python -m pytest benches/bench_routing.py --benchmark-enable \
        --benchmark-columns=min,median,max,rounds

One benchmark per language and path (and two with a caller's ``rules=``, a copy of the
English set behind one rule of its own): ``fallback`` questions are ordinary ones that no rule
matches, so the whole route runs (normalise, detect the language, the candidate rules, the
model); ``rule`` questions are decided by a rule (no model). The target is a median under
50 µs with the fallback. The model and the compiled rules are loaded before timing (first use
reads the weights file, about 15 ms, once per process). To compare with an older tree in the
same process (and check that every question of ``tests/data`` is routed the same), run
``python benches/routing_side_by_side.py <older python/ directory>``.
"""

from __future__ import annotations

from typing import Any

import pytest

import briefpack as bp
from briefpack.routing import default_model

CASES = {
    ("en", "fallback"): "What temperature should I bake sourdough bread at?",
    ("de", "fallback"): "Wie lange dauert die Elternzeit in Deutschland?",
    ("fr", "fallback"): "Quelle est la politique de remboursement pour les abonnements annuels ?",
    ("es", "fallback"): "¿Cuál es la política de reembolso de los planes anuales?",
    ("en", "rule"): "How many recipes use anchovies?",
    ("de", "rule"): "Wie viele Rezepte enthalten Sardellen?",
}

CALLER_RULES = [
    ("filter", r"\bgluten free\b", "a dietary tag is metadata"),
    *(tuple(rule) for rule in bp.routing.ROUTE_RULES_EN),
]
"""A caller's set: one rule of its own, then a copy of the English rules (not the shipped
object, so it is checked and compiled as the caller's)."""
CALLER_CASES = {
    ("custom", "fallback"): "What temperature should I bake sourdough bread at?",
    ("custom", "rule"): "How many recipes use anchovies?",
}


@pytest.mark.parametrize(("lang", "path"), list(CASES), ids=[f"{a}-{b}" for a, b in CASES])
def test_bench_route_one_question(benchmark: Any, lang: str, path: str) -> None:
    question = CASES[lang, path]
    default_model().predict("warm up")
    first = bp.route(question)
    assert first.lang == lang
    assert (first.decided_by == "rule") == (path == "rule")
    if path == "fallback":
        assert first.model_kind is not None  # the model ran
    benchmark.group = "route one question"
    benchmark.extra_info["question"] = question
    result = benchmark(bp.route, question)
    assert result.kind == first.kind


@pytest.mark.parametrize(
    ("lang", "path"), list(CALLER_CASES), ids=[f"{a}-{b}" for a, b in CALLER_CASES]
)
def test_bench_route_with_caller_rules(benchmark: Any, lang: str, path: str) -> None:
    question = CALLER_CASES[lang, path]
    default_model().predict("warm up")
    first = bp.route(question, rules=CALLER_RULES)
    assert first.rule_set == lang
    assert (first.decided_by == "rule") == (path == "rule")
    benchmark.group = "route one question, caller rules"
    benchmark.extra_info["question"] = question
    result = benchmark(bp.route, question, rules=CALLER_RULES)
    assert result.kind == first.kind
