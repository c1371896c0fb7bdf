"""Stage: render. History, then the sources, then the question last."""

from __future__ import annotations

from stage_kit import start

from briefpack._stages import render
from briefpack._stages.framing import frame


def test_the_user_message_ends_with_the_question(backend: str) -> None:
    items, req = start(backend, [], question="Why?", history="hi")
    framing = frame(req)
    assert framing.history_block == "<history>\nhi\n</history>"
    layout = render.run(req, framing, items, ["[1] a", "[2] b"], [None, None])
    assert layout.sources == "[1] a\n\n[2] b"
    assert layout.user == (
        "<history>\nhi\n</history>\n\n<sources>\n[1] a\n\n[2] b\n</sources>\n\nQuestion: Why?"
    )
