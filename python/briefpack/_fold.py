"""Folding a word for accents, shared by the compress stage's bridges and the reference scorer.

The Rust kernel has its own copy (``src/sentences/mod.rs``, ``fold``); the parity tests hold the
two to the same terms.
"""

from __future__ import annotations

from ._chartable import table as _chartable

DIACRITICS = (
    (0x0300, 0x036F),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x20D0, 0x20FF),
    (0xFE20, 0xFE2F),
)
"""The combining diacritical marks ``fold`` drops (the five "Combining Diacritical Marks"
blocks): the accents of Latin, Greek and Cyrillic letters, not the marks that are part of
other scripts' letters (kana voicing, Indic vowel signs and viramas, Arabic and Hebrew points)."""


def _diacritic(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in DIACRITICS)


def fold(word: str) -> str:
    """A scoring term: ``word`` (a shared word) with its accents dropped: each character whose
    full decomposition by the table (compatibility decompositions) holds a ``DIACRITICS`` mark
    becomes that decomposition without those marks, a lone mark is dropped, every other
    character stays; then all is lowercased by the table. So "fiancée", "FIANCÉE" and
    "fiancee" are one term, and "が" (whose voicing mark is not an accent) stays "が".

    >>> fold("fiancée"), fold("ångström"), fold("über"), fold("東京")
    ('fiancee', 'angstrom', 'uber', '東京')
    """
    if word.isascii():
        return word
    data = _chartable()
    out: list[int] = []
    for ch in word:
        cp = ord(ch)
        if _diacritic(cp):
            continue
        mapped = data.compat.get(cp) or data.canonical.get(cp)
        if mapped is not None and any(_diacritic(ord(c)) for c in mapped):
            out.extend(ord(c) for c in mapped if not _diacritic(ord(c)))
        else:
            out.append(cp)
    return "".join(chr(data.lower.get(c, c)) for c in out)
