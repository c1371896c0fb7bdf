"""Prompt caching through LangChain: the system message's cache breakpoint reaches Claude."""

from __future__ import annotations

from typing import Any

import pytest

import briefpack as bp
from briefpack.integrations.chat import cached_system_block

pytest.importorskip("langchain_core")

from briefpack.integrations.langchain import prompt_runnable, to_messages

CANDIDATES = [
    bp.Chunk("Parental leave in Germany is 14 weeks at full pay.", id="hr/1", title="Leave"),
    bp.Chunk("The relocation cap for Berlin is 4000 EUR.", id="hr/7", title="Relocation"),
]


def _assembly(**kw: Any) -> bp.Assembly:
    return bp.assemble("How long is leave?", CANDIDATES, budget=500, tokenizer="approx", **kw)


def test_to_messages_is_a_plain_str_by_default_and_blocks_when_cached() -> None:
    a = _assembly()
    assert to_messages(a)[0].content == a.system
    [block] = to_messages(a, cache=True)[0].content
    assert block == {"type": "text", "text": a.system, "cache_control": {"type": "ephemeral"}}
    [block] = to_messages(a, cache="1h")[0].content
    assert block["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    assert to_messages(a, cache="5m")[0].content[0]["cache_control"]["ttl"] == "5m"
    assert to_messages(a, cache=True)[1].content == a.user


def test_an_empty_system_prompt_is_never_an_empty_cached_block() -> None:
    a = _assembly(system="", instructions=None)
    assert to_messages(a, cache=True)[0].content == ""


@pytest.mark.parametrize("cache", ["2h", 1, None, "yes"])
def test_a_bad_cache_is_an_input_error_when_the_step_is_built(cache: object) -> None:
    with pytest.raises(bp.InputError, match="cache must be True, False, '5m' or '1h'"):
        prompt_runnable(budget=200, cache=cache)  # type: ignore[arg-type]
    with pytest.raises(bp.InputError, match="cache must be True, False, '5m' or '1h'"):
        to_messages(_assembly(), cache=cache)  # type: ignore[arg-type]
    with pytest.raises(bp.InputError, match="cache must be True, False, '5m' or '1h'"):
        cached_system_block("x", cache)  # type: ignore[arg-type]


def _payload(value: Any) -> dict[str, Any]:
    """The request body ``ChatAnthropic`` builds for ``value`` (nothing is sent)."""
    chat_models = pytest.importorskip("langchain_anthropic")
    model = chat_models.ChatAnthropic(model="claude-sonnet-4-5", api_key="test", max_tokens=100)
    payload: dict[str, Any] = model._get_request_payload(value)  # the body it would POST
    return payload


def test_chat_anthropic_sends_the_breakpoint_only_when_asked() -> None:
    docs_mod = pytest.importorskip("langchain_core.documents")
    inputs = {"question": "How long is leave?", "documents": [docs_mod.Document("14 weeks.")]}

    plain = prompt_runnable(budget=300, tokenizer="approx").invoke(inputs)
    assert "cache_control" not in str(_payload(plain)["system"])

    cached = prompt_runnable(budget=300, tokenizer="approx", cache="1h").invoke(inputs)
    payload = _payload(cached)
    assert payload["system"] == [
        {
            "type": "text",
            "text": cached.assembly.system,
            "cache_control": {"type": "ephemeral", "ttl": "1h"},
        }
    ]
    assert payload["messages"] == [{"role": "user", "content": cached.assembly.user}]


def test_history_turns_reach_langchain_as_messages() -> None:
    history = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello [1]."}]
    a = _assembly(history=history, history_turns=True)
    messages = to_messages(a)
    assert [type(m).__name__ for m in messages] == [
        *("SystemMessage", "HumanMessage", "AIMessage", "HumanMessage")
    ]
    assert [m.content for m in messages[1:3]] == ["Hi", "Hello &#91;1]."]
    step = prompt_runnable(budget=300, tokenizer="approx", history_turns=True)
    value = step.invoke({"question": "Q?", "documents": [], "history": history})
    assert [m.content for m in value.messages[1:3]] == ["Hi", "Hello &#91;1]."]
