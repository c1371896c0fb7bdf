"""briefpack.integrations.chat (no dependency) and the adapters' missing-extra errors."""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import briefpack as bp
from briefpack.integrations import CacheReport, cache_report, to_anthropic, to_openai
from briefpack.integrations.chat import CACHE_MINIMUM
from conftest import tiktoken_available
from sdk_capture import captured_body

ROOT = Path(__file__).resolve().parents[1]

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


# ---- the SDKs: request bodies built by the real clients (a mock transport; nothing is sent) ----


def test_openai_sdk_sends_to_openai_unchanged() -> None:
    openai = pytest.importorskip("openai")
    a = _assembly()

    def call(http: Any) -> None:
        client = openai.OpenAI(api_key="test", http_client=http, max_retries=0)
        client.chat.completions.create(model="gpt-4o", messages=to_openai(a))

    assert captured_body(call)["messages"] == a.messages


def test_to_openai_can_use_the_developer_role() -> None:
    a = _assembly()
    msgs = to_openai(a, system_role="developer")
    assert msgs == [{"role": "developer", "content": a.system}, a.messages[1]]
    with pytest.raises(bp.InputError, match="system_role must be 'system' or 'developer'"):
        to_openai(a, system_role="assistant")  # type: ignore[arg-type]


def test_anthropic_sdk_sends_to_anthropic_unchanged() -> None:
    anthropic = pytest.importorskip("anthropic")
    a = _assembly()
    request = to_anthropic(a, ttl="1h")

    def call(http: Any) -> None:
        client = anthropic.Anthropic(api_key="test", http_client=http, max_retries=0)
        client.messages.create(model="claude-sonnet-4-5", max_tokens=100, **request)

    body = captured_body(call, "httpx2" if importlib.util.find_spec("httpx2") else "httpx")
    assert body["system"] == [
        {"type": "text", "text": a.system, "cache_control": {"type": "ephemeral", "ttl": "1h"}}
    ]
    assert body["messages"] == [{"role": "user", "content": a.user}]


def test_an_empty_system_prompt_sends_no_empty_block_and_no_breakpoint() -> None:
    a = _assembly(system="", instructions=None)
    assert a.system == ""
    assert to_anthropic(a) == {"messages": [{"role": "user", "content": a.user}]}


@pytest.mark.parametrize("cache", [1, "yes", None])
def test_to_anthropic_cache_must_be_a_bool(cache: object) -> None:
    with pytest.raises(bp.InputError, match="cache must be True or False"):
        to_anthropic(_assembly(), cache=cache)  # type: ignore[arg-type]


def test_to_anthropic_ttl_is_checked() -> None:
    with pytest.raises(bp.InputError, match="ttl must be '5m', '1h' or None"):
        to_anthropic(_assembly(), ttl="2h")  # type: ignore[arg-type]
    with pytest.raises(bp.InputError, match="cache=False"):
        to_anthropic(_assembly(), cache=False, ttl="5m")


TYPED_USE = """
import anthropic
import openai

import briefpack as bp
from briefpack.integrations import to_anthropic, to_openai

a = bp.assemble("Why?", ["Because."], budget=100, tokenizer="approx")
client = openai.OpenAI(api_key="test")
client.chat.completions.create(model="gpt-4o", messages=to_openai(a))
client.chat.completions.create(model="o3", messages=to_openai(a, system_role="developer"))
claude = anthropic.Anthropic(api_key="test")
claude.messages.create(model="claude-sonnet-4-5", max_tokens=100, **to_anthropic(a))
role: str = a.messages[0]["role"]
text: str = a.messages[1]["content"]
"""


def test_the_documented_sdk_calls_type_check(tmp_path: Path) -> None:
    pytest.importorskip("openai")
    pytest.importorskip("anthropic")
    api = pytest.importorskip("mypy.api")
    (tmp_path / "use.py").write_text(TYPED_USE, encoding="utf-8")
    # The project's own mypy settings (strict) and cache, so a prior `mypy` run makes this quick.
    out, err, status = api.run(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
            str(tmp_path / "use.py"),
        ]
    )
    assert status == 0, out + err


def test_cache_report_says_what_it_counted_and_what_it_leaves_out() -> None:
    a = _assembly()
    text = str(cache_report(a))
    assert "counted with approx" in text
    assert "tools and the provider's framing not counted" in text
    assert cache_report(a, tokenizer=str.split).tokenizer == "split"


def test_cache_report_takes_a_model_name_and_a_token_list_tokenizer() -> None:
    a = _assembly()
    words = cache_report(a, tokenizer=str.split)
    assert words.prefix_tokens == len(a.system.split())
    assert (
        cache_report(a, tokenizer="gpt-4o").prefix_tokens
        == bp.count_tokens([a.system], encoding="o200k_base")[0]
    )


# ---- Assembly.to_dict / from_dict ----


def test_assembly_round_trips_through_json() -> None:
    chunks = [*CANDIDATES, bp.Chunk("x " * 400, id="big", meta={"k": [1, 2]}, vector=[1.0, 0.0])]
    a = bp.assemble("How long?", chunks, budget=60, tokenizer="approx", dedupe="jaccard")
    assert {d.reason for d in a.dropped} == {"duplicate", "over_budget"}
    back = bp.Assembly.from_dict(json.loads(json.dumps(a.to_dict())))
    assert back == a
    assert back.record() == a.record()
    assert back.messages == a.messages
    assert back.dropped[-1].chunk.meta == {"k": [1, 2]}
    assert back.dropped[-1].chunk.vector == [1.0, 0.0]
    assert back.cite("Leave is 14 weeks [1].").sources == a.cite("Leave is 14 weeks [1].").sources


def test_assembly_from_dict_rejects_other_data() -> None:
    with pytest.raises(bp.InputError, match="assembly_version 1"):
        bp.Assembly.from_dict(_assembly().record())
    broken = _assembly().to_dict()
    del broken["sources"]
    with pytest.raises(bp.InputError, match=r"not Assembly\.to_dict"):
        bp.Assembly.from_dict(broken)
