"""The difference guard of near-duplicate dedupe (reference): why two similar texts both stay.

A pair the method already calls duplicates (``a`` the kept, earlier item, ``b`` the later one)
goes to :func:`kept_because`. It returns ``None`` (a duplicate, as without the guard) or the
reason the pair is *not* a duplicate: the words that differ include a number, a date, a
version, a code identifier or a negation (``"differs in 'insort_left' / 'insort_right'"``).
The rule, the data it was designed on and its measurements: ``docs/dedupe_guard.md``; the Rust
core (``src/dedupe/guard.rs``) implements the same rule and the parity tests hold the two
identical.

* **Copies pass**: texts whose :func:`~briefpack.reference.text.words` (in order, repeats
  kept) are equal are never kept apart.
* **Raw tokens** of ``nfkc(text)``: maximal runs of WORD characters and the joiners
  ``_ . - ' ’``, joiners stripped from both ends. The key is the table's lowercase; per key the
  text keeps the first form and character offset, the occurrences and the marked occurrences
  (a call ``x(``, a backtick next to it, a ``$ `` / ``>>> `` command line, all ASCII capitals, an
  option ``-x`` / ``--x`` after whitespace).
* **Classes**: *shape* (an ASCII digit; a negation word; ``_``; camelCase; a dotted name; a
  ``-``) compares occurrences, *marked* (a plain word with a mark) compares marked occurrences;
  a plain word never keeps a pair, except by the **name swap** clause: when nothing of a class
  differs, each side has 1 or 2 keys the other lacks, and the first of each are more than 2
  edits apart (``'gettextize' / 'msgcmp'``).
* **Quoting** of a form in the reason: ``'form'``, or ``"form"`` when the form holds a ``'``
  (forms never hold ``"`` or ``\\``: this is Python's ``repr`` of the form).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .text import CLASSES, LOWER, WHITESPACE, WORD, nfkc, words

__all__ = ["NEGATIONS", "Guard", "Profile", "Token", "kept_because", "profile", "quote"]

JOINERS = frozenset("_.-'\u2019")
NEGATIONS = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nor",
        "cannot",
        "without",
        "nothing",
        "nobody",
        "neither",
        "nicht",
        "kein",
        "keine",
        "keinen",
        "keinem",
        "keiner",
        "keines",
        "nie",
        "niemals",
        "ohne",
        "ne",
        "pas",
        "jamais",
        "sans",
        "aucun",
        "aucune",
        "rien",
        "nunca",
        "sin",
        "ningún",
        "ninguna",
        "ninguno",
        "jamás",
        "tampoco",
    ]
)
"""Negation words (en, de, fr, es); a key ending in ``n't`` or ``n’t`` is one too."""

SWAP_MAX = 2
"""The name swap clause: at most this many keys on each side that the other lacks."""
SWAP_DISTANCE = 2
"""...and the first of each more than this many edits apart (a typo fix is 2 or fewer)."""

_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]{2}")
_CAPS = re.compile(r"[A-Z]{2,}")
_LOWER_TRANS = {cp: chr(low) for cp, low in LOWER.items()}


@dataclass(frozen=True)
class Token:
    """One key of a text: its first form and offset, occurrences and marked occurrences."""

    form: str
    first: int
    count: int
    marked: int


@dataclass(frozen=True)
class Profile:
    """What the guard reads of a text: its words in order and its raw tokens by key."""

    words: tuple[str, ...]
    tokens: dict[str, Token]


def _is_word(c: str) -> bool:
    return CLASSES[ord(c)] == WORD


def profile(text: str) -> Profile:
    """The guard's view of ``text``.

    >>> p = profile("Use `insort_left(a, x)`; see bisect.insort_right. Don't!")
    >>> sorted(p.tokens)
    ['a', 'bisect.insort_right', "don't", 'insort_left', 'see', 'use', 'x']
    >>> p.tokens["insort_left"]
    Token(form='insort_left', first=5, count=1, marked=1)
    """
    text = nfkc(text)
    out: dict[str, Token] = {}
    n = len(text)
    i = 0
    prompt = _prompt(text, 0)
    while i < n:
        c = text[i]
        if c == "\n":
            prompt = _prompt(text, i + 1)
        if not (_is_word(c) or c in JOINERS):
            i += 1
            continue
        j = i
        while j < n and (_is_word(text[j]) or text[j] in JOINERS):
            j += 1
        s, e = i, j
        while s < e and text[s] in JOINERS:
            s += 1
        while e > s and text[e - 1] in JOINERS:
            e -= 1
        if s < e:
            form = text[s:e]
            key = form.translate(_LOWER_TRANS)
            before = text[i - 1] if i > 0 else ""
            after = text[e] if e < n else ""
            mark = (
                after == "("
                or before == "`"
                or after == "`"
                or (j < n and text[j] == "`")
                or prompt
                or bool(_CAPS.fullmatch(form))
                or (
                    text[i] == "-"
                    and (i == 0 or CLASSES[ord(before)] == WHITESPACE)
                    and not ("0" <= form[0] <= "9")
                )
            )
            old = out.get(key)
            if old is None:
                out[key] = Token(form, s, 1, int(mark))
            else:
                out[key] = Token(old.form, old.first, old.count + 1, old.marked + int(mark))
        i = j
    return Profile(tuple(words(text)), out)


def _prompt(text: str, start: int) -> bool:
    """The line starting at ``start`` is a command line: after spaces/tabs, ``$ `` or ``>>> ``."""
    k = start
    while k < len(text) and text[k] in " \t":
        k += 1
    return text.startswith(("$ ", ">>> "), k)


def _shape(key: str, form: str) -> bool:
    """A number, negation or identifier (its occurrences count), from the first form."""
    if any("0" <= c <= "9" for c in form):
        return True
    if key in NEGATIONS or key.endswith(("n't", "n\u2019t")):
        return True
    if "_" in form or "-" in form or _CAMEL.search(form):
        return True
    if "." in form:
        parts = [p for p in form.split(".") if p]
        return len(parts) >= 2 and any(len(p) >= 2 for p in parts)
    return False


def _compound(key: str, form: str) -> bool:
    """A shape only by its hyphens ("sign-on", "built-in"): it counts by presence (and marks),
    not by occurrences, so a copy that adds a heading with one more "sign-on" is a copy.
    A ``-``, and no digit, ``_``, camel case (of the form as written), negation or dotted name.
    """
    if "-" not in form or "_" in form or any("0" <= c <= "9" for c in form):
        return False
    if _CAMEL.search(form):
        return False
    bare = key.replace("-", "")
    if bare in NEGATIONS or bare.endswith(("n't", "n\u2019t")):
        return False
    parts = [p for p in bare.split(".") if p]
    return not ("." in bare and len(parts) >= 2 and any(len(p) >= 2 for p in parts))


def _differs(x: dict[str, Token], y: dict[str, Token]) -> list[tuple[int, str]]:
    """``(offset, form)`` of the keys of ``x`` of a class that differ from ``y``, by offset."""
    out = []
    for key, t in x.items():
        shape = _shape(key, t.form)
        if not shape and t.marked == 0:
            continue  # a plain word
        o = y.get(key)
        counted = shape and not _compound(key, t.form)
        # numbers, negations and code names count by occurrences; a compound and a marked
        # word by presence (marked once in ``y`` covers any marks in ``x``)
        if o is not None and ((o.count >= t.count) if counted else (o.marked >= min(t.marked, 1))):
            continue
        out.append((t.first, t.form))
    out.sort()
    return out


def levenshtein(x: str, y: str) -> int:
    """Edit distance over characters (insertions, deletions, substitutions).

    >>> levenshtein("recieve", "receive"), levenshtein("gettextize", "msgcmp")
    (2, 10)
    """
    prev = list(range(len(y) + 1))
    for i, cx in enumerate(x, 1):
        cur = [i]
        for j, cy in enumerate(y, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (cx != cy)))
        prev = cur
    return prev[-1]


def quote(form: str) -> str:
    """A form in the reason: ``'form'``, or ``"form"`` when it holds a ``'`` (its ``repr``).

    >>> quote("insort_left"), quote("don't")
    ("'insort_left'", '"don\\'t"')
    """
    return f'"{form}"' if "'" in form else f"'{form}'"


def kept_because(a: Profile, b: Profile) -> str | None:
    """Why the near duplicates ``a`` (kept, earlier) and ``b`` are both kept, or ``None``.

    >>> kept_because(profile("Call insort_left(a, x)."), profile("Call insort_right(a, x)."))
    "differs in 'insort_left' / 'insort_right'"
    >>> kept_because(profile("The cache is shared."), profile("The cache is not shared."))
    "differs in 'not'"
    >>> kept_because(profile("The  Cache is shared."), profile("the cache is shared")) is None
    True
    """
    if a.words == b.words:
        return None
    ta, tb = a.tokens, b.tokens
    da, db = _differs(ta, tb), _differs(tb, ta)
    if da and db:
        return f"differs in {quote(da[0][1])} / {quote(db[0][1])}"
    if da or db:
        return f"differs in {quote((da or db)[0][1])}"
    only_a = [(t.first, k, t.form) for k, t in ta.items() if k not in tb]
    only_b = [(t.first, k, t.form) for k, t in tb.items() if k not in ta]
    if 1 <= len(only_a) <= SWAP_MAX and 1 <= len(only_b) <= SWAP_MAX:
        x, y = min(only_a), min(only_b)
        if levenshtein(x[1], y[1]) > SWAP_DISTANCE:
            return f"differs in {quote(x[2])} / {quote(y[2])}"
    return None


class Guard:
    """The guard over one batch of texts: profiles built on first use, once per text.

    Cost: O(len(a) + len(b)) for the tokens, once per text (profiles are cached), then
    O(keys) per pair.

    >>> g = Guard(["Pro plan: $49 per month.", "Pro plan: $59 per month."])
    >>> g(0, 1)
    "differs in '49' / '59'"
    """

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = texts
        self._profiles: dict[int, Profile] = {}

    def profile(self, i: int) -> Profile:
        """The profile of text ``i`` (built once)."""
        p = self._profiles.get(i)
        if p is None:
            p = self._profiles[i] = profile(self.texts[i])
        return p

    def __call__(self, kept: int, item: int) -> str | None:
        """:func:`kept_because` of texts ``kept`` and ``item``."""
        if self.texts[kept] == self.texts[item]:
            return None
        return kept_because(self.profile(kept), self.profile(item))
