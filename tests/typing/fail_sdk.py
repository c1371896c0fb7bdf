"""SDK mistakes that the type checkers must report (each ``# error: CODE`` line, no other)."""

from __future__ import annotations

import anthropic
import openai

import briefpack as bp
from briefpack.integrations import to_anthropic, to_openai, to_openai_responses


def mistakes(a: bp.Assembly, client: openai.OpenAI, claude: anthropic.Anthropic) -> None:
    chat = client.chat.completions
    chat.create(model="gpt-4o", messages=to_openai_responses(a))  # error: arg-type
    client.responses.create(model="gpt-4o", input=to_openai(a))  # error: arg-type
    client.responses.create(model="gpt-4o", input=a.messages)  # error: arg-type
    to_openai(a, system_role="assistant")  # error: arg-type
    to_openai_responses(a, system_role="user")  # error: arg-type
    to_anthropic(a, ttl="2h")  # error: arg-type
    claude.messages.create(model="m", max_tokens=100, messages=a.messages)  # error: arg-type
    request = to_anthropic(a)
    request["sytem"]  # error: typeddict-item
