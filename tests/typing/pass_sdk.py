"""The chat SDKs as a user calls them with briefpack's messages: must type-check, unchanged."""

from __future__ import annotations

import anthropic
import openai
from openai.types.chat import ChatCompletionMessageParam

import briefpack as bp
from briefpack.integrations import to_anthropic, to_openai, to_openai_responses
from briefpack.integrations.chat import AnthropicRequest, Message


def chat(client: openai.OpenAI, a: bp.Assembly) -> None:
    client.chat.completions.create(model="gpt-4o", messages=a.messages)
    client.chat.completions.create(model="gpt-4o", messages=to_openai(a))
    client.chat.completions.create(model="o3", messages=to_openai(a, system_role="developer"))
    follow_up: list[ChatCompletionMessageParam] = [
        *a.messages,
        {"role": "assistant", "content": "It is 14 weeks [1]."},
        {"role": "user", "content": "And in France?"},
    ]
    client.chat.completions.create(model="gpt-4o", messages=follow_up)


def responses(client: openai.OpenAI, a: bp.Assembly) -> None:
    client.responses.create(model="gpt-4o", input=to_openai_responses(a))
    client.responses.create(
        model="o3", input=to_openai_responses(a, system_role="developer"), max_output_tokens=500
    )


def messages_api(claude: anthropic.Anthropic, a: bp.Assembly) -> None:
    claude.messages.create(model="claude-sonnet-4-5", max_tokens=100, **to_anthropic(a))
    request: AnthropicRequest = to_anthropic(a, ttl="1h", native_citations=True)
    claude.messages.create(model="claude-sonnet-4-5", max_tokens=100, messages=request["messages"])
    if "system" in request:
        cache = request["system"][0].get("cache_control")
        assert cache is None or cache["type"] == "ephemeral"


def reading(a: bp.Assembly) -> str:
    first: Message = a.messages[0]
    role: str = first["role"]
    user = a.messages[-1]
    if user["role"] == "user":
        text: str = user["content"]
        return role + text
    return a.user


def main() -> None:
    a = bp.assemble("Why?", ["Because."], budget=100, tokenizer="approx")
    client = openai.OpenAI(api_key="test")
    chat(client, a)
    responses(client, a)
    messages_api(anthropic.Anthropic(api_key="test"), a)
    reading(a)
