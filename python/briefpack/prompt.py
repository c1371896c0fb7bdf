"""Labels, escaping and the prompt layout.

The system prompt is identity + instructions and does not depend on the request, so it is a
stable, cacheable prefix. The user message is, in this order: the history in ``<history>`` tags
(when given), the sources in ``<sources>`` tags, and the question last.

Escaping: text (source text, question, history) is escaped like ``html.escape(s, quote=False)``
and attribute values like ``html.escape(s, quote=True)``, so no input can open or close a tag or
add an attribute; control characters (line breaks, NUL, ...) in attribute values and titles are
written as numeric character references. In both styles, a label look-alike in citation position
(``[3]``, ``［3］``, ``【3】``, ``[\\u200b3]``, ``[2-4]``, ``[1, 2]``; not ``argv[1]``, not in
code) in free text or an attribute value has its opening bracket written as a character reference
(``&#91;3]``), so no text can forge a label; in the ``brackets`` style a head part's ``(``,
``)``, ``[`` and ``;`` (and their look-alikes) are always references, and a text's first visible
``(`` is one, so no text or value can forge a head. Invisible characters in values, and bidi
controls and tag characters in text, are references; an angle-bracket look-alike before one of
our tag names (``＜/sources＞``) is one. ``unescape`` recovers the original exactly
(``html.unescape`` too, except for control characters). The threat model is docs/security.md.
The rules and the block layout live in the leaf ``briefpack._escape`` (the reference kernels
render with them too); this module re-exports them and lays out the whole prompt.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ._escape import (
    IMAGE_PLACEHOLDER,
    _escape_free_text,
    _escape_value,
    escape_attr,
    escape_text,
    neutralise_labels,
    render_source,
    unescape,
)
from ._escape import (
    LabelStyle as LabelStyle,
)
from ._option_rules import DEFAULT_INSTRUCTIONS, DEFAULT_SYSTEM, LABEL_STYLES
from .errors import InputError

__all__ = [
    "DEFAULT_INSTRUCTIONS",
    "DEFAULT_SYSTEM",
    "IMAGE_PLACEHOLDER",
    "LABEL_STYLES",
    "SOURCE_SEPARATOR",
    "escape_attr",
    "escape_text",
    "neutralise_labels",
    "render_history",
    "render_history_turns",
    "render_question",
    "render_source",
    "render_system",
    "render_user",
    "unescape",
]

SOURCE_SEPARATOR = "\n\n"
"""What stands between two source blocks in the sources block."""


def render_system(system: str, instructions: str | None) -> str:
    """Join identity and instructions into the system prompt.

    >>> render_system("You help.", "Cite sources.")
    'You help.\\n\\nCite sources.'
    """
    return f"{system}\n\n{instructions}" if instructions else system


def _free_text(style: LabelStyle) -> Callable[[str], str]:
    """The escaper for free text: the same in both styles (tags and label look-alikes)."""
    return _escape_free_text


def render_history(
    history: str | Sequence[Mapping[str, str]] | None, style: LabelStyle = "xml"
) -> str:
    """Render the conversation so far inside ``<history>`` tags ('' when there is none).

    Citations of an earlier answer (``[2]``) are neutralised like label look-alikes in source
    text (both styles), so they cannot read as this request's labels.

    >>> print(render_history([{"role": "user", "content": "Hi <b>"}]))
    <history>
    <message role="user">Hi &lt;b&gt;</message>
    </history>
    >>> print(render_history("See [2].", "brackets"))
    <history>
    See &#91;2].
    </history>
    """
    if history is None:
        return ""
    text = _free_text(style)
    if isinstance(history, str):
        return f"<history>\n{text(history)}\n</history>" if history else ""
    lines = [
        f'<message role="{_attr(turn["role"], style)}">{text(turn["content"])}</message>'
        for turn in history
    ]
    return "<history>\n" + "\n".join(lines) + "\n</history>" if lines else ""


def render_history_turns(
    history: str | Sequence[Mapping[str, str]] | None, style: LabelStyle = "xml"
) -> list[dict[str, str]]:
    """The history as chat turns (``history_turns=True``): each turn's role and its content
    escaped as in the history block (earlier citations neutralised), so no turn can forge a
    label or a tag. Roles must be ``user`` or ``assistant``; a str history has no turns.

    >>> render_history_turns([{"role": "user", "content": "Hi"}, {"role": "assistant",
    ...                        "content": "See [2]."}])
    [{'role': 'user', 'content': 'Hi'}, {'role': 'assistant', 'content': 'See &#91;2].'}]
    """
    if not history:
        return []
    if isinstance(history, str):
        raise InputError(
            "history_turns=True sends the history as chat turns, which needs role/content "
            "dicts, but history is a str; pass a list of turns or leave history_turns off",
            field="history",
        )
    text = _free_text(style)
    turns = []
    for i, turn in enumerate(history):
        if turn["role"] not in ("user", "assistant"):
            raise InputError(
                f"history[{i}]: history_turns=True sends roles 'user' and 'assistant' only, got "
                f"{turn['role']!r}; leave history_turns off to send other roles in the block",
                field="history",
            )
        turns.append({"role": turn["role"], "content": text(turn["content"])})
    return turns


def _attr(value: str, style: LabelStyle) -> str:
    return _escape_value(value)


def render_question(question: str, style: LabelStyle = "xml") -> str:
    """The question line that ends the user message.

    >>> render_question("Is a < b?")
    'Question: Is a &lt; b?'
    >>> render_question("What does [3] say?", "brackets")
    'Question: What does &#91;3] say?'
    """
    return f"Question: {_free_text(style)(question)}"


def render_user(
    history_block: str, sources_block: str, question: str, style: LabelStyle = "xml"
) -> str:
    """Lay out the user message: history, then sources, then the question last.

    >>> print(render_user("", "[1] x", "Why?"))
    <sources>
    [1] x
    </sources>
    <BLANKLINE>
    Question: Why?
    """
    parts = []
    if history_block:
        parts.append(history_block)
    parts.append(
        f"<sources>\n{sources_block}\n</sources>" if sources_block else "<sources>\n</sources>"
    )
    parts.append(render_question(question, style))
    return "\n\n".join(parts)


def check_label_style(style: object) -> LabelStyle:
    if style not in LABEL_STYLES:
        raise InputError(f"labels must be one of 'xml', 'brackets', got {style!r}")
    return style  # type: ignore[return-value]
