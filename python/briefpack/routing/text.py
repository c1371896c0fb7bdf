"""The form of a question that routing rules and the fallback model read.

Case, width and accents folded, every run of non-word characters one space (``normalize``),
and, for the rules' matched spans, each folded character's index in the original question
(``_normalize_with_offsets``). Word characters are Unicode categories L, M and N.
"""

from __future__ import annotations

import unicodedata

__all__ = ["normalize"]


class _Fold(dict[int, str]):
    """``str.translate`` table: a word character (Unicode category L, M or N) to its folded
    form, anything else to a space; filled on first sight of each character."""

    def __missing__(self, cp: int) -> str:
        ch = chr(cp)
        if unicodedata.category(ch)[0] in "LMN":
            kept = [c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)]
            out = "".join(kept).casefold()  # '' for a combining mark: part of the word
        else:
            out = " "
        if len(self) < 65536:  # bounded: a text of every code point must not grow it for ever
            self[cp] = out
        return out


_FOLD = _Fold({cp: chr(cp).lower() if chr(cp).isalnum() else " " for cp in range(128)})


def _normalize_with_offsets(text: str) -> tuple[str, list[int]]:
    """``normalize(text)`` and, for each of its characters, the index in ``text`` it came from."""
    chars: list[str] = []
    origin: list[int] = []
    pending_space = -1  # index of the separator run seen since the last word character
    fold = _FOLD
    for i, ch in enumerate(text):
        folded = fold[ord(ch)]
        if folded == " ":
            if chars and pending_space < 0:
                pending_space = i
            continue
        if pending_space >= 0:
            chars.append(" ")
            origin.append(pending_space)
            pending_space = -1
        for c in folded:
            chars.append(c)
            origin.append(i)
    return "".join(chars), origin


def normalize(text: str) -> str:
    """The form of a question that routing rules match: case, width and accents folded, words
    separated by single spaces.

    >>> normalize("HOW-MANY  Rezepte enthalten Café-Bohnen?")
    'how many rezepte enthalten cafe bohnen'
    >>> normalize("What's ＮＥＷ in Straße 5?")
    'what s new in strasse 5'
    """
    return " ".join(text.translate(_FOLD).split())
