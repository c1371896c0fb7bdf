"""Characters that look like the prompt's markup or do not show: the tables and the rules (a leaf).

``briefpack._escape`` escapes with these (and re-exports every name): a label look-alike
(``[1]`` in another script's brackets and digits), an angle-bracket look-alike that opens one of
the prompt's tag names, and the invisible characters no text or attribute value may hold raw.
Everything here reacts only to characters outside ASCII.
"""

from __future__ import annotations

import re
import unicodedata

# A label look-alike: an opening bracket, then only digits (decimal digits of any script and
# the superscript, subscript, circled, parenthesised and other digit look-alikes), spaces,
# commas, dashes, full stops, carets and invisible format characters (at least one digit), then
# a closing bracket. Brackets: ASCII, full-width, lenticular, tortoise-shell, white, ticked,
# superscript, subscript and other square-ish ones; unpaired on purpose.
_OPEN = "[［【〔〖〘〚⟦⁅⦋⦍⦏⦗⟬⁽₍﹝"
_CLOSE = "]］】〕〗〙〛⟧⁆⦌⦎⦐⦘⟭⁾₎﹞"
_INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\U000e0000-\U000e0fff"
)
_DIGITS = (
    "\\d\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2150-\u2189\u2460-\u249b\u24ea-\u24ff"
    "\u2776-\u2793\u3007\u3021-\u3029\u3251-\u325f\u3280-\u3289\u32b1-\u32bf"
    "\U0001f100-\U0001f10c"
)
_LOOKALIKE = re.compile(
    rf"[{re.escape(_OPEN)}][{_DIGITS}\s,，、;；.．。^＾\-–—－‐‑‒{_INVISIBLE}]*[{re.escape(_CLOSE)}]"
)
_DIGIT = re.compile(f"[{_DIGITS}]")
_HIDDEN = re.compile(f"[{_INVISIBLE}]")  # includes the Hangul fillers, blank yet letters

# Angle-bracket look-alikes (full-width, small, CJK, mathematical, guillemets, modifier letters,
# Canadian syllabics...) that open what reads as one of the prompt's tags: before the name of a
# tag of ours (after an optional ``/``, spaces and invisible characters, in any case and width)
# each is written as a character reference, so ``＜/sources＞`` cannot visually close a block.
_ANGLES = "＜﹤\u2329\u3008⟨‹❮❬⧼ᐸ˂《⦉⦑⧘⸦"
_ANGLE = re.compile(f"[{_ANGLES}]")
_TAG_NAMES = ("sources", "source", "history", "message", "question", "page-image", "system", "user")
_SKIP = re.compile(f"[\\s/{_INVISIBLE}]*")

# What no text may hold raw: bidi embeddings, overrides and isolates (they reorder what is
# shown), the deprecated format characters and interlinear annotation marks, Unicode tag
# characters (invisible ASCII look-alikes that can spell instructions), except in the three
# emoji tag sequences of RGI subdivision flags, and a variation selector that does not directly
# follow a visible character (a run of them can smuggle bytes behind an emoji).
_VS = "\ufe00-\ufe0f\U000e0100-\U000e01ef"
_FLAG = "\U0001f3f4\U000e0067\U000e0062(?:{})\U000e007f".format(
    "|".join("".join(chr(0xE0000 + ord(c)) for c in name) for name in ("eng", "sct", "wls"))
)
_TEXT_HIDDEN = re.compile(
    f"({_FLAG})|([{_VS}]+)|[\u202a-\u202e\u2066-\u206f\ufff9-\ufffb\U000e0000-\U000e007f]"
)
_TEXT_ANY = re.compile(f"[\u202a-\u202e\u2066-\u206f\ufff9-\ufffb{_VS}\U000e0000-\U000e007f]")
# What no attribute value or head part may hold raw: every invisible character, except a joiner
# (ZWNJ, ZWJ) between two visible non-ASCII characters (Persian, Arabic, Indic words and emoji
# sequences), a variation selector directly after a visible character, and a subdivision flag.
_VALUE_HIDDEN = re.compile(f"({_FLAG})|([{_VS}]+)|([\u200c\u200d])|[{_INVISIBLE}]")
# Whitespace (Python's and Unicode's, listed so both backends agree) and invisible characters
# that may stand before a ``brackets`` text's opening parenthesis.
_LEAD = re.compile(
    f"[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
    f"{_INVISIBLE}]*[(（﹙⁽₍]"
)


def _visible(c: str) -> bool:
    """Whether ``c`` shows as something: not whitespace, a control or an invisible character."""
    return c.isprintable() and not c.isspace() and not _HIDDEN.match(c)


def _joined(s: str, a: int) -> bool:
    """Whether the joiner at ``s[a]`` stands between two visible non-ASCII characters (a
    variation selector may stand between the first and the joiner, as in emoji sequences)."""
    b = a - 1
    if b > 0 and "\ufe00" <= s[b] <= "\ufe0f":
        b -= 1
    left, right = s[b] if b >= 0 else "", s[a + 1 : a + 2]
    return all(c and not c.isascii() and _visible(c) for c in (left, right))


def _hide(s: str, *, value: bool) -> str:
    """Write the invisible characters no text (``value=False``) or value (``True``) may hold
    raw as numeric character references (see ``_TEXT_HIDDEN`` and ``_VALUE_HIDDEN``)."""

    def sub(m: re.Match[str]) -> str:
        if m.group(1):
            return m.group()  # a subdivision flag
        a = m.start()
        run = m.group(2)
        if run:
            keep = 1 if a and _visible(s[a - 1]) else 0
            return run[:keep] + "".join(f"&#{ord(c)};" for c in run[keep:])
        if value and m.group(3) and _joined(s, a):
            return m.group()
        return f"&#{ord(m.group())};"

    if not (_HIDDEN if value else _TEXT_ANY).search(s):
        return s  # most texts: one scan of a character class
    return (_VALUE_HIDDEN if value else _TEXT_HIDDEN).sub(sub, s)


def _unangle(s: str) -> str:
    """Write an angle-bracket look-alike that opens one of the prompt's tag names as a numeric
    character reference (``＜/sources＞`` becomes ``&#65308;/sources＞``)."""
    out: list[str] = []
    last = 0
    for m in _ANGLE.finditer(s):
        near = unicodedata.normalize("NFKC", s[m.end() : m.end() + 40]).casefold()
        if near[_SKIP.match(near).end() :].startswith(_TAG_NAMES):  # type: ignore[union-attr]
            out.append(s[last : m.start()])
            out.append(f"&#{ord(m.group())};")
            last = m.end()
    out.append(s[last:])
    return "".join(out)


def _unseen(s: str, *, value: bool) -> str:
    """The look-alike tags and the invisible characters of an escaped text or value, as
    references (everything they react to is outside ASCII)."""
    if s.isascii():
        return s
    return _hide(_unangle(s), value=value)
