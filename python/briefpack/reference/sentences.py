"""Sentences: splitting, lexical scoring with learned aliases, and selection (reference).

The rules are written out in ``docs/semantics.md`` ("Sentences"); the Rust core
(``src/sentences/``) implements the same ones and the parity tests hold the two identical.
Character classes come from the committed table (``reference.text``) or from the explicit lists
below, never from the interpreter's Unicode tables.

* ``split_sentences(texts)``: each text's sentences as character spans ``(start, end)``, flat
  with ``offsets`` (sentence ``j`` of text ``i`` for ``offsets[i] <= j < offsets[i + 1]``).
* ``sentence_aliases(texts)``: the abbreviations the texts define, "single sign-on (SSO)" or
  "SSO (single sign-on)", as ``(short, long)`` word forms.
* ``score_sentences(question, sentences, alias_texts)``: BM25 over the sentences as the
  collection, with each learned long form read as its short form.
* ``select_sentences(sentences, scores, threshold, offsets)``: the sentences scoring at least
  ``threshold``, plus their neighbours that continue them (led by "it", "however", "and", ...).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from .._checks import check_offsets, check_scores, check_text, check_texts, check_threshold
from .._fold import fold
from .._types import SentenceSpans
from .text import CLASSES, LOWER, WHITESPACE, WORD, words

__all__ = [
    "BRACKETS",
    "CLOSERS",
    "CONTINUATIONS",
    "FIRM_STOPS",
    "K1",
    "LINE_BREAKS",
    "LOWER_LETTERS",
    "MAYBE_END",
    "NEVER_END",
    "OPENERS",
    "SPACED_STOPS",
    "STOPWORDS",
    "B",
    "fold",
    "score_sentences",
    "select_sentences",
    "sentence_aliases",
    "spans",
    "split_sentences",
]

LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
"""Characters that end a line (those of ``str.splitlines``): a line break always ends a unit."""

SPACED_STOPS = frozenset(".!?\u2026\u203c\u2047\u2048\u2049\u203d")
"""``. ! ? … ‼ ⁇ ⁈ ⁉ ‽``: end a sentence only before whitespace or the end of the text."""

FIRM_STOPS = frozenset("\u3002\uff01\uff1f\uff61\u0964\u0965\u061f\u06d4")
"""``。 ！ ？ ｡ । ॥ ؟ ۔``: end a sentence wherever they stand (CJK text has no spaces)."""

FULLWIDTH_STOP = "\uff0e"
"""``．`` is a firm stop, except directly before a digit (``３．１４``)."""

DIGITS = frozenset("0123456789\uff10\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18\uff19")
ASCII_DIGITS = frozenset("0123456789")
ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

CLOSERS = frozenset(
    "\"')]}\u00bb\u203a\u201d\u2019\u300d\u300f\uff09\uff3d\uff5d\u3009\u300b\u3011\u3015"
    "\u3017\u3019\u301b\uff02\uff07"
)
"""Closing quotes and brackets: after a stop they belong to the sentence it ends."""

OPENERS = frozenset(
    "\"'([{\u00ab\u2039\u201c\u2018\u201e\u300c\u300e\uff08\uff3b\uff5b\u3008\u300a\u3010"
    "\u3014\u3016\u3018\u301a\u00bf\u00a1"
)
"""Opening quotes and brackets: skipped before an abbreviation and before the next word."""

# fmt: off
NEVER_END = frozenset([
    "Mr", "Mrs", "Ms", "Mx", "Dr", "Prof", "Rev", "Hon", "St", "Mt", "Gen", "Col", "Capt", "Lt",
    "Sgt", "Gov", "Sen", "Rep", "e.g", "E.g", "i.e", "I.e", "cf", "Cf", "vs", "Vs", "viz",
    "approx", "Approx", "ca", "Fig", "Figs", "fig", "figs", "No", "Nos", "Vol", "Vols", "vol",
    "Ch", "ch", "Sec", "Eq", "Eqs", "eq", "Ref", "Refs", "ref", "pp", "Art",
    "Co", "Cos", "Inc", "Ltd", "Corp", "LLC", "LLP", "LP", "GmbH", "plc", "Plc", "Pty",
])
# fmt: on
"""Abbreviations after which a sentence never ends (compared case-sensitively): titles, and
company forms ("KKR & Co. L.P.", "Acme Inc. Ltd."); so do single upper-case letters ("J. R. R.
Tolkien") and upper-case initialisms ("U.S", "L.P", "S.A")."""

MAYBE_END = frozenset(["etc", "Jr", "Sr", "al", "Bros", "Ph.D"])
"""Abbreviations that end a sentence only when the next word starts with an upper-case letter;
so do the other initialisms, such as "p.m" and "S.p.A" (single letters joined by dots, not all
upper-case)."""
#: Single lower-case letters ("c. 80 - c. 150 AD", "p. 12"): they end a sentence only before a
#: capital, like "etc".
LOWER_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
#: Opening brackets: after an abbreviation they continue the sentence.
BRACKETS = frozenset("([\uff08\uff3b")

# fmt: off
CONTINUATIONS = frozenset([
    "it", "its", "this", "these", "that", "those", "they", "them", "their", "he", "she", "his",
    "her", "such", "and", "but", "or", "so", "yet", "also", "however", "then", "thus",
    "therefore", "hence", "otherwise", "instead", "still", "although", "though", "moreover",
    "furthermore", "additionally", "besides", "nevertheless", "nonetheless", "consequently",
    "accordingly", "likewise", "similarly", "meanwhile", "except", "unless",
])
# fmt: on
"""First words (lowercased) that make a sentence continue the one before it."""

# fmt: off
STOPWORDS = frozenset([
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does",
    "did", "done", "has", "have", "had", "having", "of", "in", "on", "at", "to", "for", "from",
    "by", "with", "as", "into", "onto", "about", "over", "than", "and", "or", "but", "nor", "not",
    "no", "if", "so", "it", "its", "this", "that", "these", "those", "there", "here", "what",
    "which", "who", "whom", "whose", "when", "where", "why", "how", "i", "me", "my", "we", "us",
    "our", "you", "your", "he", "him", "his", "she", "her", "they", "them", "their", "can",
    "could", "will", "would", "shall", "should", "may", "might", "must", "also", "just", "only",
    "very",
])
# fmt: on
"""Words that carry no relevance on their own: not query terms (they still count in lengths)."""

K1 = 1.2
"""BM25 term-frequency saturation."""

B = 0.75
"""BM25 length normalisation."""


def _space(ch: str) -> bool:
    return CLASSES[ord(ch)] == WHITESPACE


def _upper(ch: str) -> bool:
    """Whether the table gives ``ch`` a lowercase mapping (upper-case and title-case letters)."""
    return ord(ch) in LOWER


def _is_stop(text: str, i: int) -> bool:
    ch = text[i]
    if ch in SPACED_STOPS or ch in FIRM_STOPS:
        return True
    return ch == FULLWIDTH_STOP and not (i + 1 < len(text) and text[i + 1] in DIGITS)


def _skip_marker(text: str, i: int) -> int:
    """After a list marker ("1.", "12)", "a.") that opens a sentence and is followed by
    whitespace (or the end), return the index past its "." or ")"; else ``i``."""
    n = len(text)
    m = i
    while m < n and m - i < 3 and text[m] in ASCII_DIGITS:
        m += 1
    if m == i:
        if text[i] not in ASCII_LETTERS:
            return i
        m = i + 1
    elif m < n and text[m] in ASCII_DIGITS:
        return i  # four digits or more: a year or a number, not a marker
    if m < n and text[m] in ".)" and (m + 1 == n or _space(text[m + 1])):
        return m + 1
    return i


def _word_before(text: str, start: int, i: int) -> str:
    """The non-whitespace run that ends at ``i`` (within the sentence), openers stripped."""
    b = i
    while b > start and not _space(text[b - 1]):
        b -= 1
    while b < i and text[b] in OPENERS:
        b += 1
    return text[b:i]


def _is_initialism(word: str) -> bool:
    """Single letters joined by dots: "U.S", "e.g", "p.m" (at least two letters)."""
    if len(word) < 3 or len(word) % 2 == 0:
        return False
    letters, dots = word[0::2], word[1::2]
    return all(d == "." for d in dots) and all(
        CLASSES[ord(c)] == WORD and c not in DIGITS for c in letters
    )


def _is_upper_initialism(word: str) -> bool:
    """An initialism whose letters are all upper-case: "U.S", "L.P", "S.A" (not "p.m")."""
    return _is_initialism(word) and all(_upper(c) for c in word[0::2])


def _skip_line_spaces(text: str, k: int) -> int:
    """The index of the first character at or after ``k`` that is not a space on this line."""
    n = len(text)
    m = k
    while m < n and _space(text[m]) and text[m] not in LINE_BREAKS:
        m += 1
    return m


def _next_is_upper(text: str, k: int) -> bool:
    """Whether the next word on this line (past spaces and openers) starts upper-case; the end
    of the line counts as yes."""
    n = len(text)
    m = _skip_line_spaces(text, k)
    if m == n or text[m] in LINE_BREAKS:
        return True
    while m < n and text[m] in OPENERS:
        m += 1
    return m < n and _upper(text[m])


def _next_starts_sentence(text: str, k: int) -> bool:
    """After an abbreviation that may end a sentence: whether the next word on this line starts
    one. Like ``_next_is_upper``, except that a word opening with a bracket continues the
    sentence ("Edward Wood Jr. (October 10, 1924 - ...)", "the U.S. (as of 2020)")."""
    m = _skip_line_spaces(text, k)
    if m < len(text) and text[m] in BRACKETS:
        return False
    return _next_is_upper(text, m)


def _ends(text: str, start: int, i: int, j: int, k: int) -> bool:
    """Whether the stops ``text[i:j]`` and the closers ``text[j:k]`` end the sentence."""
    run = text[i:j]
    if any(c in FIRM_STOPS or c == FULLWIDTH_STOP for c in run):
        return True
    if k < len(text) and not _space(text[k]):
        return False
    if run == "." and k == j:
        word = _word_before(text, start, i)
        if word in NEVER_END or (len(word) == 1 and _upper(word)) or _is_upper_initialism(word):
            return False
        if word in MAYBE_END or _is_initialism(word) or word in LOWER_LETTERS:
            return _next_starts_sentence(text, k)
        return True
    if all(c in ".\u2026" for c in run):  # an ellipsis: "..." or "…"
        return _next_is_upper(text, k)
    return True


def spans(text: str) -> list[tuple[int, int]]:
    """One text's sentences as ``(start, end)`` character offsets (no checks).

    >>> spans("Dr. Who arrived. It was 3.14 p.m. Then KKR & Co. L.P. left.")
    [(0, 16), (17, 33), (34, 59)]
    """
    out: list[tuple[int, int]] = []
    n = len(text)
    i = 0
    while i < n:
        if _space(text[i]):
            i += 1
            continue
        start = i
        i = _skip_marker(text, i)
        while i < n:
            if text[i] in LINE_BREAKS:
                break
            if _is_stop(text, i):
                j = i
                while j < n and _is_stop(text, j):
                    j += 1
                k = j
                while k < n and text[k] in CLOSERS:
                    k += 1
                if _ends(text, start, i, j, k):
                    i = k
                    break
                i = j
                continue
            i += 1
        end = i
        while _space(text[end - 1]):
            end -= 1
        out.append((start, end))
    return out


def split_sentences(texts: Sequence[str]) -> SentenceSpans:
    """Every text's sentence spans, flat: ``(starts, ends, offsets)``.

    Sentence ``j`` of text ``i`` (for ``offsets[i] <= j < offsets[i + 1]``) is
    ``texts[i][starts[j]:ends[j]]``; offsets are in characters (code points).

    >>> split_sentences(["A b. C d.", "", "1. Step one.\\n2. Step two"])
    SentenceSpans(starts=[0, 5, 0, 13], ends=[4, 9, 12, 24], offsets=[0, 2, 2, 4])
    """
    texts = check_texts(texts)
    starts: list[int] = []
    ends: list[int] = []
    offsets = [0]
    for text in texts:
        for s, e in spans(text):
            starts.append(s)
            ends.append(e)
        offsets.append(len(starts))
    return SentenceSpans(starts, ends, offsets)


def _strip(text: str) -> str:
    a, b = 0, len(text)
    while a < b and _space(text[a]):
        a += 1
    while b > a and _space(text[b - 1]):
        b -= 1
    return text[a:b]


def _is_acronym(token: str) -> bool:
    """2 to 10 word characters, at least two of them upper-case: "SSO", "IdP", "B2B"."""
    return (
        2 <= len(token) <= 10
        and all(CLASSES[ord(c)] == WORD for c in token)
        and sum(1 for c in token if _upper(c)) >= 2
    )


def _matches(short: str, long: list[str]) -> bool:
    return len(long) == len(short) and all(w[0] == s for w, s in zip(long, short, strict=True))


def _definition(before: str, inner: str) -> tuple[str, str] | None:
    """A definition "long (SHORT)" or "SHORT (long)" as ``(short, long)`` word forms."""
    b = _strip(before)
    if not b or CLASSES[ord(b[-1])] != WORD:
        return None
    inside = _strip(inner)
    if _is_acronym(inside):
        short = words(inside)[0]
        long = words(b)[-len(short) :]
        if _matches(short, long):
            return short, " ".join(long)
    t = len(b)
    while t > 0 and CLASSES[ord(b[t - 1])] == WORD:
        t -= 1
    if _is_acronym(b[t:]):
        short = words(b[t:])[0]
        long = words(inside)
        if _matches(short, long):
            return short, " ".join(long)
    return None


def _definitions(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    n = len(text)
    seg = 0  # the text before a "(" starts after the previous bracket
    i = 0
    while i < n:
        ch = text[i]
        if ch == "(":
            q = i + 1
            while q < n and text[q] not in "()":
                q += 1
            if q < n and text[q] == ")":
                found = _definition(text[seg:i], text[i + 1 : q])
                if found is not None:
                    out.append(found)
                seg = i = q + 1
                continue
            seg = i + 1
        elif ch == ")":
            seg = i + 1
        i += 1
    return out


def sentence_aliases(texts: Sequence[str]) -> list[tuple[str, str]]:
    """The abbreviations ``texts`` define, as ``(short, long)`` word forms, first definition of
    each long form wins, in order of appearance.

    >>> sentence_aliases(["Pro includes single sign-on (SSO).", "SAML (Security Assertion "
    ...                   "Markup Language) and SSO (single sign-on)"])
    [('sso', 'single sign on'), ('saml', 'security assertion markup language')]
    """
    texts = check_texts(texts, "alias_texts")
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for text in texts:
        for short, long in _definitions(text):
            if long not in seen:
                seen.add(long)
                out.append((short, long))
    return out


def _terms(text: str, aliases: dict[tuple[str, ...], str], longest: int) -> list[str]:
    """``words(text)``, each folded (``fold``), with every learned long form replaced by its
    short form (longest first)."""
    ws = [fold(w) for w in words(text)]
    out: list[str] = []
    i = 0
    while i < len(ws):
        for size in range(min(longest, len(ws) - i), 1, -1):
            short = aliases.get(tuple(ws[i : i + size]))
            if short is not None:
                out.append(short)
                i += size
                break
        else:
            out.append(ws[i])
            i += 1
    return out


STEM = 5
"""Scoring terms longer than this, all ASCII ``a``-``z``, are cut to their first ``STEM``
letters."""


FORMS = {
    "born": "birth",
    "die": "death",
    "died": "death",
    "dies": "death",
    "dead": "death",
    "dying": "death",
}
"""Word forms no truncation joins, read as one term: "born" is "birth"'s, "died" and "dead"
are "death"'s (the relations a biographical question asks for most: "the place of birth of"
is answered by "was born in", "when did X die" by "X died in"). Every key is at most ``STEM``
letters, so no key is cut first."""


def stem(term: str) -> str:
    """``term`` cut to its first ``STEM`` letters when it is longer and all ASCII ``a``-``z``
    (a truncation stemmer: word forms share a term), else ``term`` unchanged; a word form of
    ``FORMS`` is its term there.

    >>> stem("contribution"), stem("contribute"), stem("sso"), stem("zürich"), stem("2024abc")
    ('contr', 'contr', 'sso', 'zürich', '2024abc')
    >>> stem("born"), stem("births"), stem("died"), stem("deaths")
    ('birth', 'birth', 'death', 'death')
    """
    form = FORMS.get(term)
    if form is not None:
        return form
    if len(term) > STEM and all("a" <= c <= "z" for c in term):
        return term[:STEM]
    return term


def score_sentences(
    question: str, sentences: Sequence[str], alias_texts: Sequence[str] = ()
) -> list[float]:
    """BM25 relevance of each sentence to ``question``, the sentences being the collection.

    Terms are the shared words (``reference.text.words``) folded for accents (``fold``: the
    question's "fiancee" matches a sentence's "fiancée"); an abbreviation defined anywhere in
    ``alias_texts`` ("single sign-on (SSO)") makes its long form and its short form one term;
    then a long all-ASCII-letter term is cut to its first five letters (``stem``: "contribute"
    matches "contribution"), the question's stopwords being dropped before that cut.

    >>> s = score_sentences("Is single sign-on in Pro?", ["Pro has SSO.", "Billing is monthly."],
    ...                     ["Pro includes single sign-on (SSO)."])
    >>> s[0] > s[1] == 0.0
    True
    """
    question = check_text("question", question)
    sentences = check_texts(sentences, "sentences")
    table: dict[tuple[str, ...], str] = {}
    for short, long in sentence_aliases(alias_texts):
        table[tuple(fold(w) for w in long.split(" "))] = fold(short)
    longest = max((len(k) for k in table), default=0)
    docs = [[stem(t) for t in _terms(s, table, longest)] for s in sentences]
    n = len(docs)
    if n == 0:
        return []
    query = list(
        dict.fromkeys(stem(t) for t in _terms(question, table, longest) if t not in STOPWORDS)
    )
    avgdl = float(sum(len(d) for d in docs)) / float(n)
    df = Counter(t for d in docs for t in set(d))
    idf = {
        t: math.log(1.0 + (float(n - df[t]) + 0.5) / (float(df[t]) + 0.5)) for t in query if df[t]
    }
    scores: list[float] = []
    for d in docs:
        tf = Counter(d)
        dl = float(len(d))
        s = 0.0
        for t in query:
            f = float(tf.get(t, 0))
            if f > 0.0:
                s += idf[t] * (f * (K1 + 1.0)) / (f + K1 * (1.0 - B + B * (dl / avgdl)))
        scores.append(s)
    return scores


def _continues(sentence: str) -> bool:
    ws = words(sentence)
    return bool(ws) and ws[0] in CONTINUATIONS


def select_sentences(
    sentences: Sequence[str],
    scores: Sequence[float],
    threshold: float,
    offsets: Sequence[int] | None = None,
) -> list[int]:
    """Indices of the sentences to keep, ascending: those scoring ``>= threshold``, then, within
    each group (``offsets``, as ``split_sentences`` gives them; ``None``: one group), the
    neighbours that continue a kept sentence: the next sentence when it is led by a word of
    ``CONTINUATIONS``, and the previous one when the kept sentence itself is (repeatedly).

    >>> select_sentences(["SSO is on Pro.", "It needs an add-on.", "Billing.", "But not here."],
    ...                  [2.0, 0.0, 0.0, 0.0], 1.0)
    [0, 1]
    """
    sentences = check_texts(sentences, "sentences")
    n = len(sentences)
    values = check_scores(scores, n)
    limit = check_threshold(threshold)
    bounds = check_offsets(offsets, n)
    keep = [v >= limit for v in values]
    cont = [_continues(s) for s in sentences]
    for g in range(len(bounds) - 1):
        lo, hi = bounds[g], bounds[g + 1]
        for i in range(lo, hi - 1):
            if keep[i] and cont[i + 1]:
                keep[i + 1] = True
        for i in range(hi - 1, lo, -1):
            if keep[i] and cont[i]:
                keep[i - 1] = True
    return [i for i in range(n) if keep[i]]
