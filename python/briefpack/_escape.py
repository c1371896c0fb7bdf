"""How a source becomes a block of the prompt: the escaping rules and the block's layout.

A leaf (it imports only ``briefpack.types`` and its tables, ``briefpack._lookalikes``):
``briefpack.prompt`` lays out the prompt with these rules, the reference kernel ``price_pack``
renders blocks with them, and the Rust core asks ``escape_as`` (through
``briefpack.core_callbacks``) for the values it does not escape itself. ``code_regions`` is
here because the label look-alike rule leaves code alone, as ``briefpack.cite`` does.

Text (source text, question, history) is escaped like ``html.escape(s, quote=False)`` and
attribute values like ``html.escape(s, quote=True)``, so no input can open or close a tag or add
an attribute; control and invisible characters in attribute values and ``brackets`` head parts
are written as numeric character references (bidi controls and tag characters in text too); a
label look-alike in citation position, and an angle-bracket look-alike before one of our tag
names, has its opening bracket written as a character reference (``&#91;3]``); a ``brackets``
head's separators are references in its parts, and a ``brackets`` text never starts with
``(``. The rules in full: docs/semantics.md, "Labels and escaping".
"""

from __future__ import annotations

import functools
import html
import re
from typing import Literal

from ._lookalikes import (  # noqa: F401  (re-exported: the look-alike tables and rules)
    _ANGLE,
    _ANGLES,
    _CLOSE,
    _DIGIT,
    _DIGITS,
    _FLAG,
    _HIDDEN,
    _INVISIBLE,
    _LEAD,
    _LOOKALIKE,
    _OPEN,
    _SKIP,
    _TAG_NAMES,
    _TEXT_ANY,
    _TEXT_HIDDEN,
    _VALUE_HIDDEN,
    _VS,
    _hide,
    _joined,
    _unangle,
    _unseen,
    _visible,
)
from .types import Chunk

__all__ = [
    "IMAGE_PLACEHOLDER",
    "code_regions",
    "code_spans",
    "escape_as",
    "escape_attr",
    "escape_text",
    "fenced_lines",
    "neutralise_labels",
    "render_source",
    "unescape",
]

LabelStyle = Literal["xml", "brackets"]

IMAGE_PLACEHOLDER = "<page-image/>"
"""Where a page image goes: a line of its own inside its source block, one per image, right
after the label. No input can write it (``<`` is always escaped), so the chat formats put the
k-th image at the k-th placeholder."""

# The separators of a ``brackets`` head (and their look-alikes), written as references in every
# head part; a reference already written is kept.
_HEAD_SEPARATOR = re.compile(r"(&(?:#[0-9]+|#x27|amp|lt|gt|quot);)|[;()\[；（）﹙﹚⁽⁾₍₎﹔]")


def escape_text(s: str) -> str:
    """Escape text so it cannot open or close a tag (``&``, ``<``, ``>``).

    >>> escape_text("</source><source id=\\"9\\">")
    '&lt;/source&gt;&lt;source id="9"&gt;'
    """
    return html.escape(s, quote=False)


# C0 and C1 controls, DEL, and the line and paragraph separators: line breaks and invisible
# bytes have no place inside an attribute value or a head line
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _ref(m: re.Match[str]) -> str:
    return f"&#{ord(m.group())};"


def escape_attr(s: str) -> str:
    """Escape an attribute value: ``&``, ``<``, ``>``, ``"`` and ``'``, and control characters
    (line breaks, NUL, ...) as numeric character references.

    >>> escape_attr('a" onload="x')
    'a&quot; onload=&quot;x'
    >>> escape_attr("two\\nlines\\x00")
    'two&#10;lines&#0;'
    """
    return _CONTROL.sub(_ref, html.escape(s, quote=True))


_REF = re.compile(r"&(?:#([0-9]{1,7})|#x27|(amp|lt|gt|quot));")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"'}


def _unref(m: re.Match[str]) -> str:
    if m.group(2):
        return _NAMED[m.group(2)]
    if m.group(1) is None:
        return "'"
    n = int(m.group(1))
    return chr(n) if n <= 0x10FFFF else m.group()


def unescape(s: str) -> str:
    """The exact inverse of the escaping of every text and attribute value briefpack renders.

    ``html.unescape`` recovers everything too, except control characters: HTML maps ``&#0;``
    to U+FFFD and drops or remaps other control references.

    >>> unescape(escape_attr("a\\x00 & \\"b\\"\\n"))
    'a\\x00 & "b"\\n'
    """
    return _REF.sub(_unref, s)


_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _starts_line(s: str, a: int) -> bool:
    """Whether only whitespace and invisible characters stand between ``s[a]`` and the start
    of its line (any line break ``str.splitlines`` knows), where a ``brackets`` head stands."""
    i = a - 1
    while i >= 0 and s[i] not in _LINE_BREAKS and (s[i].isspace() or _HIDDEN.match(s[i])):
        i -= 1
    return i < 0 or s[i] in _LINE_BREAKS


def neutralise_labels(s: str, *, code: bool = True, anywhere: bool = False) -> str:
    """Write the opening bracket of every label look-alike in citation position as a reference.

    A look-alike (see docs/semantics.md, "Labels and escaping") is in citation position unless
    the character before it is a visible letter or digit, ``_`` or ``)`` (indexing: ``argv[1]``,
    ``f(x)[0]``), or a closing bracket that did not end a neutralised look-alike (``m[1][2]``
    stays whole, ``[1][2]`` is neutralised whole), or (with ``code=True``) it lies in an inline
    code span or a fenced code block, unless it starts its line (only whitespace before it
    there), where it would read as a ``brackets`` head. With ``anywhere=True`` (titles and
    dates, which hold no code) every look-alike is neutralised. ``unescape`` recovers the original.

    >>> neutralise_labels("Cap [7]. See ［3］【4】 and [1][2].")
    'Cap &#91;7]. See &#65339;3］&#12304;4】 and &#91;1]&#91;2].'
    >>> neutralise_labels("sys.argv[1], m[1][2], `a [9]`")
    'sys.argv[1], m[1][2], `a [9]`'
    """
    regions: list[tuple[int, int]] | None = None  # found at the first look-alike: most texts
    out: list[str] = []  # have none, and finding code regions costs a pass over every line
    last = 0
    chained = -1  # where the last neutralised look-alike ended
    r = 0
    for m in _LOOKALIKE.finditer(s):
        a = m.start()
        if not _DIGIT.search(m.group()):
            continue
        if regions is None:
            regions = code_regions(s) if code else []
        while r < len(regions) and regions[r][1] <= a:
            r += 1
        if r < len(regions) and regions[r][0] <= a and not _starts_line(s, a):
            continue  # code, not where a brackets head stands
        before = s[a - 1] if a and not anywhere else " "
        if before in _CLOSE:
            if a != chained:
                continue  # indexing after an index: m[1][2]
        elif (before.isalnum() and not _HIDDEN.match(before)) or before in "_)":
            continue  # indexing: argv[1]
        out.append(s[last:a])
        out.append(f"&#{ord(s[a])};")
        last = a + 1
        chained = m.end()
    out.append(s[last:])
    return "".join(out)


def _escape_free_text(s: str) -> str:
    if len(s) > _RECENT_LONGEST:
        return _unseen(neutralise_labels(escape_text(s)), value=False)
    return _escape_recent(s)


@functools.lru_cache(maxsize=1024)
def _escape_recent(s: str) -> str:
    """The escaped free text of a recent chunk: a chunk that recurs across requests (or is
    priced and placed in one) is escaped once. A str caches its hash, so a hit costs one
    lookup; at most 1,024 texts of up to ``_RECENT_LONGEST`` characters are kept."""
    return _unseen(neutralise_labels(escape_text(s)), value=False)


_RECENT_LONGEST = 4096


def _escape_value(s: str, *, anywhere: bool = False) -> str:
    return _unseen(neutralise_labels(escape_attr(s), code=False, anywhere=anywhere), value=True)


def _head_separator(m: re.Match[str]) -> str:
    return m.group(1) or f"&#{ord(m.group())};"


def _escape_brackets_title(s: str) -> str:
    s = neutralise_labels(_CONTROL.sub(_ref, escape_text(s)), code=False, anywhere=True)
    return _HEAD_SEPARATOR.sub(_head_separator, _unseen(s, value=True))


def _guard_lead(body: str) -> str:
    """A ``brackets`` text whose first visible character is an opening parenthesis (or a
    look-alike) has it written as a reference, so no text reads as the head's ``(title)``."""
    m = _LEAD.match(body)
    if m is None:
        return body
    a = m.end() - 1
    return f"{body[:a]}&#{ord(body[a])};{body[a + 1 :]}"


def escape_as(role: str, s: str) -> str:
    """``s`` escaped as a source block shows it in ``role``: ``"text"`` (free text), ``"value"``
    (an ``xml`` title, page or date), ``"url"`` (an ``xml`` url) or ``"title"`` (a part of a
    ``brackets`` head). The Rust core's ``price_pack`` escapes every other value itself and asks
    here (through ``briefpack.core_callbacks``) only for values that hold a character these
    rules react to and it does not model: an opening bracket of a label look-alike, an
    angle-bracket look-alike, an invisible character (see ``needs_caller`` in the core).

    >>> escape_as("title", "[3] (a)"), escape_as("url", "x?[1]")
    ('&#91;3] &#40;a&#41;', 'x?&#91;1]')
    """
    if role == "text":
        return _escape_free_text(s)
    if role == "title":
        return _escape_brackets_title(s)
    return _escape_value(s, anywhere=role == "value")


def render_source(label: int | str, chunk: Chunk, style: LabelStyle = "xml") -> str:
    """Render one source block with its label.

    >>> print(render_source(1, Chunk("Caps are 4000 EUR.", title="Relocation", url="https://x/y")))
    <source id="1" title="Relocation" url="https://x/y">
    Caps are 4000 EUR.
    </source>
    >>> render_source(2, Chunk("See [1].", title="FAQ"), "brackets")
    '[2] (FAQ) See &#91;1].'

    A page (a chunk with an ``image`` or a ``page``) adds ``page`` after ``title``; each image is
    an ``IMAGE_PLACEHOLDER`` line before the text; the brackets style names title, page, date
    and url, separated by ``; ``:

    >>> from briefpack.pages import decode_page
    >>> import numpy as np
    >>> img = decode_page(np.zeros((2, 2), dtype=np.uint8))
    >>> print(render_source(3, Chunk(image=img, page=14, title="Annual report", updated="2024")))
    <source id="3" title="Annual report" page="14" updated="2024">
    <page-image/>
    </source>
    >>> render_source(3, Chunk("Revenue", image=img, page=14, url="https://x/r"), "brackets")
    '[3] (page 14; https://x/r) <page-image/>\\nRevenue'
    """
    images = chunk.images
    page = "" if chunk.page is None else str(chunk.page)
    body = _escape_free_text(chunk.text)
    if style == "brackets":
        body = _guard_lead(body)
    if images:
        body = "\n".join([IMAGE_PLACEHOLDER] * len(images) + ([body] if chunk.text else []))
    if style == "xml":
        attrs = [f'id="{escape_attr(str(label))}"']
        for name in ("title", "page", "updated", "url"):
            value = page if name == "page" else getattr(chunk, name)
            if value:
                attrs.append(f'{name}="{_escape_value(value, anywhere=name != "url")}"')
        return f"<source {' '.join(attrs)}>\n{body}\n</source>"
    head = f"[{label}]"
    if page or images:  # a page: title, page, date and url, the way the xml style has them
        parts = [chunk.title, f"page {page}" if page else "", chunk.updated, chunk.url]
        shown = "; ".join(_escape_brackets_title(p) for p in parts if p)
        head += f" ({shown})" if shown else ""
    elif chunk.title:
        head += f" ({_escape_brackets_title(chunk.title)})"
    return f"{head} {body}"


_FENCE = re.compile(r" {0,3}(`{3,}(?=[^`]*$)|~{3,})")
_TICKS = re.compile(r"`+")


def code_spans(line: str) -> list[tuple[int, int]]:
    """Where the inline code spans of ``line`` are, backticks included (CommonMark's rule).

    A run of n backticks opens a span that the next run of exactly n backticks closes; a run
    with no partner is literal. Linear: each length's list of runs is walked once.

    >>> code_spans("a `x[1]` b ``y ` z`` c `d")
    [(2, 8), (11, 20)]
    """
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(line)]
    by_len: dict[int, list[int]] = {}
    for k, (a, b) in enumerate(runs):
        by_len.setdefault(b - a, []).append(k)
    seen = dict.fromkeys(by_len, 0)
    spans: list[tuple[int, int]] = []
    k = 0
    while k < len(runs):
        n = runs[k][1] - runs[k][0]
        same, p = by_len[n], seen[n]
        while p < len(same) and same[p] <= k:
            p += 1
        seen[n] = p
        if p < len(same):
            spans.append((runs[k][0], runs[same[p]][1]))
            k = same[p] + 1
        else:
            k += 1
    return spans


def fenced_lines(text: str) -> list[tuple[int, str, bool]]:
    """Each line of ``text`` with its offset and whether it belongs to a fenced code block.

    A fence opens with 3 or more backticks or tildes (at most 3 spaces in; a backtick fence's
    info string holds no backtick) and closes with a line of at least as many of the same
    character and nothing else; an unclosed fence runs to the end (CommonMark). Fence lines
    belong to the block.
    """
    out: list[tuple[int, str, bool]] = []
    pos = 0
    fence = ""
    for raw in text.splitlines(keepends=True):
        line = raw.splitlines()[0]
        m = _FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = "" if not line[m.end() :].strip() else fence
            out.append((pos, line, True))
        elif m:
            fence = m.group(1)
            out.append((pos, line, True))
        else:
            out.append((pos, line, False))
        pos += len(raw)
    return out


def code_regions(text: str) -> list[tuple[int, int]]:
    """Where ``text`` is code: fenced blocks (whole lines) and inline code spans, in order.

    The prompt leaves bracketed numbers inside code as they are, as ``cite`` ignores them.

    >>> code_regions("a `x[1]` b\\n```\\ny[2]\\n```\\nc")
    [(2, 8), (11, 14), (15, 19), (20, 23)]
    """
    out: list[tuple[int, int]] = []
    for pos, line, code in fenced_lines(text):
        if code:
            out.append((pos, pos + len(line)))
        else:
            out.extend((pos + a, pos + b) for a, b in code_spans(line))
    return out
