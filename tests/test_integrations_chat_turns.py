"""history_turns=True: the history as real chat turns, so each request is cached as a prefix."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import briefpack as bp
from briefpack.integrations import to_anthropic, to_openai
from briefpack.prompt import render_user

CANDIDATES = [
    bp.Chunk("Parental leave in Germany is 14 weeks at full pay.", id="hr/1", title="Leave"),
    bp.Chunk("Fathers get the same 14 weeks of leave.", id="hr/2"),
    bp.Chunk("The relocation cap for Berlin is 4000 EUR.", id="hr/7", title="Relocation"),
]
QUESTIONS = ["How long is parental leave?", "And for fathers?", "What about relocation?"]
ANSWERS = ["14 weeks [1].", "The same [2].", "4000 EUR [1]."]


def _turn(n: int, **kw: Any) -> bp.Assembly:
    """Request ``n`` of a conversation: the earlier questions and answers as history."""
    history = []
    for q, ans in zip(QUESTIONS[:n], ANSWERS[:n]):
        history += [{"role": "user", "content": q}, {"role": "assistant", "content": ans}]
    options: dict[str, Any] = {"budget": 500, "tokenizer": "approx", "history_turns": True}
    return bp.assemble(QUESTIONS[n], CANDIDATES, history=history, **{**options, **kw})


def _plain(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages with cache breakpoints taken out (they are markers, not cached content)."""
    out = []
    for m in request["messages"]:
        content = m["content"]
        if isinstance(content, list) and len(content) == 1 and "cache_control" in content[0]:
            content = content[0]["text"]
        out.append({"role": m["role"], "content": content})
    return out


def test_each_request_s_conversation_is_a_prefix_of_the_next() -> None:
    turns = [_turn(n) for n in range(3)]
    for before, after in itertools.pairwise(turns):
        sent, next_sent = to_openai(before), to_openai(after)
        # everything before the user message (system + the conversation so far) is a prefix
        assert next_sent[: len(sent) - 1] == sent[:-1]
        assert before.system == after.system
        old, new = _plain(to_anthropic(before)), _plain(to_anthropic(after))
        assert new[: len(old) - 1] == old[:-1]
    assert [m["role"] for m in to_openai(turns[2])] == [
        *("system", "user", "assistant", "user", "assistant", "user")
    ]


def test_the_breakpoint_sits_on_the_last_history_turn() -> None:
    request = to_anthropic(_turn(2), ttl="1h")
    *history, user = request["messages"]
    assert history[-1]["content"] == [
        {
            "type": "text",
            "text": "The same &#91;2].",
            "cache_control": {"type": "ephemeral", "ttl": "1h"},
        }
    ]
    assert all(isinstance(m["content"], str) for m in history[:-1])
    assert isinstance(user["content"], str)
    assert "<history>" not in user["content"]
    assert "cache_control" not in str(to_anthropic(_turn(2), cache=False))
    assert to_anthropic(_turn(0))["messages"] == [{"role": "user", "content": _turn(0).user}]


def test_the_counts_are_what_is_sent() -> None:
    a = _turn(2)
    contents = [t["content"] for t in a.history or []]
    count = bp.count_tokens
    assert a.tokens["history"] == sum(count(contents, encoding="approx"))
    assert a.tokens["total"] == (
        a.tokens["system"] + a.tokens["history"] + count([a.user], encoding="approx")[0]
    )
    assert a.messages == to_openai(a)
    assert a.settings["history_turns"] is True
    assert "history_turns" not in bp.assemble("Q?", CANDIDATES, tokenizer="approx").settings


def test_each_turn_s_overhead_is_reserved_in_the_window() -> None:
    a = _turn(2, budget=bp.Budget(window=10_000))
    b = _turn(2, budget=bp.Budget(window=10_000), history_turns=False)
    # 4 turns: 4 messages' overhead more than the one block, and the turns' own contents
    framing = bp.count_tokens([render_user("", "", QUESTIONS[2])], encoding="approx")[0]
    fixed_a = a.tokens["system"] + a.tokens["history"] + framing + (2 + 4) * 4
    assert a.tokens["context_budget"] == 10_000 - fixed_a
    assert a.tokens["context_budget"] != b.tokens["context_budget"]
    with pytest.raises(bp.BudgetError, match="history turns"):
        _turn(2, budget=bp.Budget(window=a.tokens["system"] + 30))


def test_the_turns_are_escaped_like_the_block() -> None:
    a = _turn(1)
    assert a.history == [
        {"role": "user", "content": "How long is parental leave?"},
        {"role": "assistant", "content": "14 weeks &#91;1]."},  # an old citation neutralised
    ]
    assert bp.Assembly.from_dict(a.to_dict()) == a
    assert a.record(include_prompt=True)["prompt"]["history"] == a.history


def test_a_str_history_or_another_role_is_an_input_error() -> None:
    with pytest.raises(bp.InputError, match="history is a str"):
        bp.assemble("Q?", CANDIDATES, history="earlier", history_turns=True, tokenizer="approx")
    with pytest.raises(bp.InputError, match="'user' and 'assistant' only, got 'tool'"):
        bp.assemble(
            "Q?", CANDIDATES, history=[{"role": "tool", "content": "x"}], history_turns=True,
            tokenizer="approx",
        )  # fmt: skip


def test_off_by_default_the_history_stays_a_block() -> None:
    a = _turn(1, history_turns=False)
    assert a.history is None
    assert "<history>" in a.user
    assert [m["role"] for m in to_openai(a)] == ["system", "user"]


def test_the_record_s_prompt_hash_covers_the_turns() -> None:
    """Two requests that differ only in an earlier turn send different messages: their
    records' ``prompt_sha256`` differ too (it used to hash system and user only)."""
    a = _turn(2)
    history = [dict(t) for t in a.history or ()]
    history[1]["content"] = "Something else [1]."
    b = bp.assemble(
        QUESTIONS[2],
        CANDIDATES,
        history=history,
        budget=500,
        tokenizer="approx",
        history_turns=True,
    )
    assert (a.system, a.user) == (b.system, b.user)
    assert a.record()["prompt_sha256"] != b.record()["prompt_sha256"]
    plain = bp.assemble(QUESTIONS[0], CANDIDATES, budget=500, tokenizer="approx")
    assert plain.record()["prompt_sha256"] == bp.record.prompt_sha256(plain.system, plain.user)
