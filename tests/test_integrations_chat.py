"""briefpack.integrations.chat (no dependency) and the adapters' missing-extra errors."""

from __future__ import annotations

import importlib
import json
import sys

import pytest

import briefpack as bp
from briefpack.integrations import CacheReport, cache_report, to_anthropic, to_openai
from briefpack.integrations.chat import CACHE_MINIMUM
from conftest import tiktoken_available

CANDIDATES = [
    bp.Chunk("Parental leave in Germany is 14 weeks at full pay.", id="hr/1", title="Leave"),
    bp.Chunk("Parental leave in Germany is 14 weeks at full pay!", id="faq/3"),
    bp.Chunk("The relocation cap for Berlin is 4000 EUR.", id="hr/7", title="Relocation"),
]


def _assembly(question: str = "How long is parental leave?", **kw: object) -> bp.Assembly:
    options: dict[str, object] = {"budget": 500, "tokenizer": "approx", **kw}
    return bp.assemble(question, CANDIDATES, **options)  # type: ignore[arg-type]


def test_to_openai_is_the_assembly_messages() -> None:
    a = _assembly()
    msgs = to_openai(a)
    assert msgs == a.messages
    assert msgs == [{"role": "system", "content": a.system}, {"role": "user", "content": a.user}]
    json.dumps(msgs)


def test_to_anthropic_puts_a_cache_breakpoint_after_the_system_prompt() -> None:
    a = _assembly()
    assert to_anthropic(a) == {
        "system": [{"type": "text", "text": a.system, "cache_control": {"type": "ephemeral"}}],
        "messages": [{"role": "user", "content": a.user}],
    }
    assert to_anthropic(a, cache=False) == {
        "system": [{"type": "text", "text": a.system}],
        "messages": [{"role": "user", "content": a.user}],
    }
    json.dumps(to_anthropic(a))


def test_the_cached_prefix_is_identical_across_requests() -> None:
    first = to_anthropic(_assembly("How long is parental leave?"))
    second = to_anthropic(bp.assemble("Relocation cap?", CANDIDATES[2:], tokenizer="approx"))
    assert first["system"] == second["system"]
    assert first["messages"] != second["messages"]
    assert "Question: Relocation cap?" in second["messages"][0]["content"]


def test_cache_report_reuses_the_assembly_count_by_default() -> None:
    a = _assembly()
    report = cache_report(a)
    assert report == CacheReport(prefix_tokens=a.tokens["system"], minimum=1024, tokenizer="approx")
    assert report.too_short
    assert not report.cacheable
    assert "will not be cached" in str(report)
    assert str(1024 - a.tokens["system"]) in str(report)


def test_cache_report_counts_with_the_given_tokenizer() -> None:
    a = _assembly()
    assert cache_report(a, tokenizer="approx").prefix_tokens == max(1, len(a.system) // 4)
    words = cache_report(a, tokenizer=lambda s: len(s.split()))
    assert words.prefix_tokens == len(a.system.split())
    assert words.tokenizer == "callable"


@pytest.mark.skipif(not tiktoken_available(), reason="needs the offline tiktoken files")
def test_cache_report_with_o200k_matches_tiktoken() -> None:
    import tiktoken

    a = _assembly()
    enc = tiktoken.get_encoding("o200k_base")
    report = cache_report(a, tokenizer="o200k_base")
    assert report.prefix_tokens == len(enc.encode_ordinary(a.system))
    assert report.tokenizer == "o200k_base"


def test_a_long_enough_prefix_is_cacheable() -> None:
    rules = " ".join(f"Rule {i}: cite the label of every source you use." for i in range(200))
    a = _assembly(instructions=rules)
    report = cache_report(a)
    assert report.prefix_tokens >= CACHE_MINIMUM
    assert report.cacheable
    assert not report.too_short
    assert "can be cached" in str(report)
    assert cache_report(a, minimum=10**6).too_short


def test_cache_report_rejects_a_bad_minimum() -> None:
    with pytest.raises(bp.InputError, match="minimum must be an int >= 0"):
        cache_report(_assembly(), minimum=-1)


@pytest.mark.parametrize(
    ("module", "framework", "package", "extra"),
    [
        ("langchain", "langchain_core", "langchain-core", "langchain"),
        ("llamaindex", "llama_index", "llama-index-core", "llamaindex"),
        ("haystack", "haystack", "haystack-ai", "haystack"),
    ],
)
def test_an_adapter_without_its_framework_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, framework: str, package: str, extra: str
) -> None:
    # Hide the framework even where it is installed: None in sys.modules makes import fail.
    for name in list(sys.modules):
        if name == framework or name.startswith(framework + "."):
            monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, framework, None)
    monkeypatch.delitem(sys.modules, f"briefpack.integrations.{module}", raising=False)
    expected = f"briefpack.integrations.{module} needs {package}: pip install 'briefpack[{extra}]'"
    with pytest.raises(ImportError) as info:
        importlib.import_module(f"briefpack.integrations.{module}")
    assert str(info.value) == expected
    assert isinstance(info.value.__cause__, ImportError)
