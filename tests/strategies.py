"""Reusable hypothesis strategies for briefpack's tests (parity between the two backends).

Import from a test module as ``import strategies`` (pytest puts ``tests/`` on ``sys.path``).

* ``unicode_text()``: any valid Unicode (no lone surrogates), biased towards the characters
  that break text kernels: every whitespace kind, combining marks, NUL and controls, ideographs,
  case-mapping specials, astral planes, and characters assigned after Unicode 14.
* ``wordy_text()``: text over a small vocabulary, so word sets overlap and near duplicates
  are common (what Jaccard and MinHash need to be exercised at all).
* ``edit()`` / ``random_edit()``: one small edit of a text (insert, delete, replace or swap
  a word, case, spacing, punctuation, a diacritic).
* ``near_duplicate_texts()``: a list of texts where later items are often exact repeats or
  a few small edits of earlier ones, with empty and whitespace-only texts mixed in.
* ``thresholds()``: floats in [0, 1] with the edges (0, 1) and common values over-weighted.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

__all__ = [
    "ASCII_WHITESPACE",
    "COMBINING",
    "NEWER_THAN_UNICODE_14",
    "NORMALISATION",
    "SPECIAL_CHARS",
    "UNICODE_WHITESPACE",
    "apply_edit",
    "edit",
    "near_duplicate_texts",
    "normalisation_text",
    "random_edit",
    "thresholds",
    "unicode_text",
    "word",
    "wordy_text",
]

ASCII_WHITESPACE = " \t\n\r\x0b\x0c"
# Every character for which str.isspace() is true beyond ASCII, plus the information
# separators U+001C..U+001F that Python also counts as whitespace.
UNICODE_WHITESPACE = (
    "\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
# Look-alikes of whitespace that are *not* whitespace (separators by the table).
NOT_WHITESPACE = "\u200b\u200c\u200d\u2060\ufeff\u180e"
COMBINING = "\u0300\u0301\u0308\u0327\u034f\u0663\u093f\u0e31\u20dd\ufe0f\U000e0100"
# Assigned after Unicode 14 (the table's version), so the table calls them separators without
# a lowercase mapping, whatever a newer Rust or Python says: Kannada U+0CF3 and Kawi (15.0),
# CJK extension H U+31350 (15.0), CJK extension I U+2EBF0 (15.1), Cyrillic TJE U+1C89/U+1C8A
# and Latin ramshorn U+A7CB (16.0, a cased pair), emoji U+1FAE8 (15.0).
NEWER_THAN_UNICODE_14 = (
    "\u0cf3\U00011f04\U00011f50\U00031350\U0002ebf0\u1c89\u1c8a\ua7cb\ua7dc\U0001fae8"
    "\U0001f6dc\U0001e4d0\U0001e4f0"
)
# Case-mapping specials, ideographs and kana, digits of other scripts, emoji, NUL.
SPECIAL_CHARS = (
    "\x00\x01\x7f\u0130\u0131\u03a3\u03c2\u1e9e\xdf\u01c5\u2126\u212a\u0345\u10a0\u13a0"
    "\U00010400\U0001e900\u4e2d\u6587\u3005\u3007\u3042\u30a2\u30fc\uff71\uf900\U00020000"
    "\u0660\u0966\uff10\u00b2\u2460\U0001f600\U0001f1e9\U0001f1ea\u00ad\u2019\u00e9\u0416"
)
# What normalisation touches: marks of several combining classes (220 below, 230 above, 202
# attached, 240 iota subscript, 9 virama, 7 nukta, Hebrew points), precomposed letters and
# their bases, singletons (ANGSTROM, OHM, EN QUAD), composition exclusions (U+0958, U+0F73),
# Hangul jamo and syllables (LV and LVT), compatibility characters (ligatures, full-width,
# superscripts, NBSP, the 18-character U+FDFA, circled and squared letters), and U+105D2 U+0307
# (composed only by Unicode 16).
NORMALISATION = (
    "aeiouAEOcCdDsSn\u00e9\u00e8\u00ea\u00c5\u00e7\u0300\u0301\u0302\u0307\u0308"
    "\u0323\u0327\u0328\u0345\u0313\u03b1\u03c9\u1f00\u0915\u093c\u094d\u0958"
    "\u05d1\u05bc\u05b7\u0f71\u0f72\u0f73\u0f40\u0fb5\u212b\u2126\u2000\u1e0b\u1e63"
    "\u1100\u1161\u1175\u11a8\u11c2\uac00\uac01\ud7a3\u3131\ufb01\ufb00\uff21\uff41"
    "\uff10\u00b2\u2075\u00a0\u00bd\ufdfa\u2460\u3392\u1e9b\u0344\u0340\U000105d2"
)
_INTERESTING = (
    ASCII_WHITESPACE
    + UNICODE_WHITESPACE
    + NOT_WHITESPACE
    + COMBINING
    + NEWER_THAN_UNICODE_14
    + SPECIAL_CHARS
    + NORMALISATION
)

_any_char = st.characters(codec="utf-8")  # every code point except the surrogates
_interesting_char = st.sampled_from(_INTERESTING)
_ascii_char = st.characters(min_codepoint=0x20, max_codepoint=0x7E)


def unicode_text(*, min_size: int = 0, max_size: int = 60) -> st.SearchStrategy[str]:
    """Any valid Unicode text, biased towards characters that break text kernels."""
    return st.text(
        st.one_of(_any_char, _interesting_char, _ascii_char),
        min_size=min_size,
        max_size=max_size,
    )


def normalisation_text(*, max_size: int = 30) -> st.SearchStrategy[str]:
    """Text made mostly of what normalisation reorders, composes and decomposes."""
    return st.text(
        st.one_of(st.sampled_from(NORMALISATION), st.sampled_from(COMBINING), _any_char),
        max_size=max_size,
    )


VOCABULARY = [
    "the",
    "cat",
    "sat",
    "on",
    "mat",
    "a",
    "dog",
    "ran",
    "in",
    "park",
    "Berlin",
    "relocation",
    "cap",
    "is",
    "4000",
    "EUR",
    "apply",
    "within",
    "90",
    "days",
    "of",
    "arrival",
    "parental",
    "leave",
    "14",
    "weeks",
    "Germany",
    "Straße",
    "İstanbul",
    "ΣΟΦΙΑ",
    "σοφία",
    "naïve",
    "café",
    "東",
    "京",
    "日本",
    "データ",
    "数据",
    "Ünïcode",
    "ready",
    "x",
    "y",
    "z",
    "2024",
]
_SEPARATORS = st.sampled_from([" ", " ", " ", "  ", ", ", ". ", "\n", "\t", "\u3000", "-", "! "])
_WORD = st.one_of(
    st.sampled_from(VOCABULARY),
    st.sampled_from([w.upper() for w in VOCABULARY]),
    unicode_text(min_size=1, max_size=6),
)


def word() -> st.SearchStrategy[str]:
    """One word: mostly from a small shared vocabulary, sometimes any Unicode run."""
    return _WORD


def wordy_text(*, max_words: int = 25) -> st.SearchStrategy[str]:
    """Words from a small vocabulary joined by assorted separators (overlapping word sets)."""
    return st.tuples(
        st.sampled_from(["", "", " ", "\n"]),
        st.lists(st.tuples(_WORD, _SEPARATORS), max_size=max_words),
    ).map(lambda t: t[0] + "".join(w + sep for w, sep in t[1]))


EDIT_KINDS = ("insert", "delete", "replace", "swap", "case", "space", "punct", "accent", "none")
_PUNCT = (".", "!", ",", "?", ";", "…")


def apply_edit(text: str, kind: str, i: int, j: int, new_word: str, punct: str = ".") -> str:
    """``text`` after one small edit of ``kind`` at word positions ``i`` (and ``j`` for swap).

    Positions are taken modulo the number of space-separated parts, so any ints are valid.
    """
    parts = text.split(" ")
    i %= len(parts)
    j %= len(parts)
    if kind == "insert":
        parts.insert(i, new_word)
    elif kind == "delete" and len(parts) > 1:
        del parts[i]
    elif kind == "replace":
        parts[i] = new_word
    elif kind == "swap":
        parts[i], parts[j] = parts[j], parts[i]
    elif kind == "case":
        parts[i] = parts[i].swapcase()
    elif kind == "space":
        return "  " + "\n ".join(parts) + "\t"
    elif kind == "punct":
        parts[i] += punct
    elif kind == "accent":
        parts[i] += "\u0301"
    return " ".join(parts)


@st.composite
def edit(draw: st.DrawFn, text: str) -> str:
    """``text`` after one small edit: the kind of change that makes a near duplicate."""
    return apply_edit(
        text,
        draw(st.sampled_from(EDIT_KINDS)),
        draw(st.integers(0, 1000)),
        draw(st.integers(0, 1000)),
        draw(word()),
        draw(st.sampled_from(_PUNCT)),
    )


def random_edit(rng: random.Random, text: str, words: list[str] | None = None) -> str:
    """One small edit drawn from ``rng`` (cheap: no hypothesis draws), new words from ``words``."""
    pool = words or VOCABULARY
    return apply_edit(
        text,
        rng.choice(EDIT_KINDS),
        rng.randrange(1000),
        rng.randrange(1000),
        rng.choice(pool),
        rng.choice(_PUNCT),
    )


_BLANKS = ("", " ", "\n\t", "\u3000\xa0", "...", "!?")


@st.composite
def near_duplicate_texts(
    draw: st.DrawFn, *, min_size: int = 0, max_size: int = 30, max_edits: int = 3
) -> list[str]:
    """A ranked list of texts in which later items are often repeats or edits of earlier ones.

    A few "seed" texts are drawn by hypothesis (``wordy_text`` or full Unicode, so they shrink);
    the list itself is laid out by a seeded ``random.Random`` (many items for few draws): fresh
    vocabulary texts, seed texts, exact repeats, copies with 1..``max_edits`` small edits, and
    empty or whitespace-only texts.
    """
    seeds = draw(
        st.lists(st.one_of(wordy_text(max_words=12), unicode_text()), min_size=1, max_size=3)
    )
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(min_size, max_size))
    words = VOCABULARY + [w for t in seeds for w in t.split()]
    texts: list[str] = []
    for _ in range(n):
        kind = rng.choice(["fresh", "seed", "repeat", "edited", "edited", "edited", "blank"])
        if kind in ("repeat", "edited") and texts:
            text = rng.choice(texts)
            if kind == "edited":
                for _ in range(rng.randint(1, max_edits)):
                    text = random_edit(rng, text, words)
        elif kind == "blank":
            text = rng.choice(_BLANKS)
        elif kind == "seed":
            text = rng.choice(seeds)
        else:
            size = rng.randint(0, 20)
            text = " ".join(rng.choice(words) for _ in range(size))
        texts.append(text)
    return texts


def thresholds() -> st.SearchStrategy[float]:
    """Thresholds in [0, 1], with 0, 1 and the usual settings over-weighted."""
    return st.one_of(
        st.sampled_from([0.0, 1.0, 0.5, 0.7, 0.8, 0.9]),
        st.floats(0.0, 1.0, allow_nan=False),
        st.fractions(0, 1, max_denominator=12).map(float),
    )
