"""Stage: render. History, then the sources, then the question last."""

from __future__ import annotations

from stage_kit import start

from briefpack._stages import render


def test_the_user_message_ends_with_the_question(backend: str) -> None:
    items, ctx = start(backend, [], question="Why?")
    ctx.history_block = "<history>\nhi\n</history>"
    ctx.rendered = ["[1] a", "[2] b"]
    render.run(items, ctx)
    assert ctx.sources_block == "[1] a\n\n[2] b"
    assert ctx.user == (
        "<history>\nhi\n</history>\n\n<sources>\n[1] a\n\n[2] b\n</sources>\n\nQuestion: Why?"
    )
