"""What retrieved text, titles, urls, dates and history can and cannot do to the prompt.

The threat model is docs/security.md; each test pins one of its guarantees, in both label
styles where the style matters.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import briefpack as bp
from briefpack.prompt import escape_attr, render_history, render_source, unescape

# ------------------------------------------------------------------ control characters


def test_xml_attributes_hold_no_raw_line_break_or_control_character() -> None:
    chunk = bp.Chunk("body", title="a\nb\rc\x00d\x1be\x85f\u2028g", url="u\tv", updated="2024\x7f")
    assert render_source(1, chunk, "xml").splitlines()[0] == (
        '<source id="1" title="a&#10;b&#13;c&#0;d&#27;e&#133;f&#8232;g" '
        'updated="2024&#127;" url="u&#9;v">'
    )
    assert render_history([{"role": "user\nx", "content": "hi"}]) == (
        '<history>\n<message role="user&#10;x">hi</message>\n</history>'
    )


def test_a_brackets_title_holds_no_line_break_of_any_kind() -> None:
    head = render_source(1, bp.Chunk("body", title="a\x0bb\x0cc\u2029d\x00"), "brackets")
    assert head == "[1] (a&#11;b&#12;c&#8233;d&#0;) body"
    assert len(head.splitlines()) == 1


@given(st.text())
def test_unescape_inverts_attribute_escaping_exactly(value: str) -> None:
    escaped = escape_attr(value)
    assert not any(c in escaped for c in "<>\"'\n\r\x00")
    assert unescape(escaped) == value
