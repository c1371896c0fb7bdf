"""Check the citations a model wrote against the labels it was given.

Markers: ``[3]``, ``[3, 5]``, ``[3][5]`` and ranges ``[2-4]`` (also with an en dash), in ASCII,
full-width (``［3］``) or lenticular (``【3】``) brackets, with any decimal digits. Sentences
end at ``.``, ``!`` or ``?`` followed by whitespace, a marker or the end of the answer, and at line
breaks, but not at the dot of a numbered-list marker (``1.``) or an abbreviation (``Mr.``,
``e.g.``); markers right after a sentence's end (``... 4000 EUR. [1]`` or ``... 4000 EUR.[1]``)
belong to that sentence. A marker
whose number is not a label of the assembly is *unknown* (an invented citation is worse than
none); a sentence with no known marker is *unsupported*. Code is not citation: inline code spans
(between equal runs of backticks) and fenced code blocks (```` ``` ```` or ``~~~``) are skipped,
and a fenced block's lines are not sentences.
"""

from __future__ import annotations

import operator
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ._checks import shown
from ._escape import code_regions, code_spans, fenced_lines
from .errors import CitationError, InputError
from .types import AssemblyData

__all__ = ["MAX_EXPANDED", "Citations", "Label", "cite", "code_regions", "parse_markers"]

Label = int | str
"""A cited label: an int, or a str of ASCII digits for a number too long to convert (never a
label of any assembly, so always unknown)."""

_DASH = "-–－"  # hyphen-minus, en dash, full-width hyphen-minus
_COMMA = ",，"  # comma, full-width comma
_ITEM = rf"\d+(?:\s*[{_DASH}]\s*\d+)?"
_INNER = rf"\s*({_ITEM}(?:\s*[{_COMMA}]\s*{_ITEM})*)\s*"
# the brackets of a marker: ASCII, full-width and lenticular (a pair must match)
_MARKER = re.compile(rf"\[{_INNER}\]|［{_INNER}］|【{_INNER}】")
_RANGE = re.compile(rf"(\d+)\s*[{_DASH}]\s*(\d+)")
_SPLIT = re.compile(rf"[{_COMMA}]")
_MAX_RANGE = 1000  # a range of more labels than this is read as its two ends only


@dataclass(frozen=True)
class Citations:
    """What ``cite`` found.

    Attributes:
        sources: the cited sources, in order of first citation.
        unknown: cited labels that were never in the context, in order of first appearance
            (ints; a number of more than 4,300 digits is given as its digits, a str).
        uncited: sources the answer never cites, in label order.
        unsupported_sentences: sentences with no citation of a real label.

    >>> import briefpack as bp
    >>> a = bp.assemble("Cap?", ["The cap is 4000 EUR.", "Leave is 14 weeks."], budget=300,
    ...     tokenizer="approx")
    >>> found = bp.cite("The cap is 4000 EUR [1]. Nothing else is known.", a)
    >>> [s.label for s in found.sources], [s.label for s in found.uncited]
    ([1], [2])
    >>> found.unsupported_sentences
    ['Nothing else is known.']
    """

    sources: list[Any]
    unknown: list[Label]
    uncited: list[Any]
    unsupported_sentences: list[str]


_MAX_DIGITS = 4300  # Python's default limit for int(str); no assembly has a label this long


def _number(digits: str) -> Label:
    """A marker's number: an int, or its digits (a str) when too long to be an int.

    Leading zeros do not count. Converting more than 4,300 digits is refused by Python (and
    would take quadratic time), and no assembly has such a label: it is an unknown label,
    reported as its ASCII digits.
    """
    if len(digits) <= _MAX_DIGITS:
        try:
            return int(digits)
        except ValueError:  # the interpreter's limit was set lower than the default
            pass
    plain = "".join(str(unicodedata.digit(c)) for c in digits).lstrip("0") or "0"
    if len(plain) <= _MAX_DIGITS:
        try:
            return int(plain)
        except ValueError:
            pass
    return plain


MAX_EXPANDED = 100_000
"""Labels that ranges may add per answer (``cite``) or per call (``parse_markers``): past it, a
range is read as its two ends only, as a range of more than 1,000 labels always is. A marker
``[1-999, 1-999, ...]`` then costs memory linear in the answer, not 999 labels per 7 bytes."""


class _Expander:
    """Reads the labels of markers, with one budget of ``MAX_EXPANDED`` labels added by ranges
    shared by every marker it reads (so by the whole answer)."""

    def __init__(self, limit: int = MAX_EXPANDED) -> None:
        self.left = limit

    def labels(self, inner: str) -> list[Label]:
        out: list[Label] = []
        for part in _SPLIT.split(inner):
            m = _RANGE.fullmatch(part.strip())
            if not m:
                out.append(_number(part.strip()))
                continue
            a, b = _number(m.group(1)), _number(m.group(2))
            if isinstance(a, int) and isinstance(b, int) and a <= b:
                added = b - a - 1  # the labels between the two ends
                if b - a < _MAX_RANGE and added <= self.left:
                    self.left -= max(0, added)
                    out.extend(range(a, b + 1))
                    continue
            out.extend([a, b])
        return out

    def markers(self, text: str) -> list[Label]:
        """Every label of every marker in ``text``, in order."""
        return [n for m in _MARKER.finditer(text) for n in self.labels(m.group(m.lastindex or 0))]


def parse_markers(text: str) -> list[Label]:
    """Every label cited in ``text``, in order, repeats kept.

    A range stands for every label from one end to the other, up to ``MAX_EXPANDED`` labels
    added by ranges in all; a range of more than 1,000 labels, or one past that total, is
    read as its two ends only (so the result is never much longer than ``text``).

    >>> parse_markers("A [3, 5]. B [3][5]. C [2-4].")
    [3, 5, 3, 5, 2, 3, 4]
    >>> parse_markers("D ［1］【2】 [３，４]. E [1】.")
    [1, 2, 3, 4]
    >>> len(parse_markers("[" + ", ".join(["1-1000"] * 200) + "]"))  # 100 ranges in full
    100200
    """
    return _Expander().markers(text)


def _prose(answer: str) -> list[tuple[str, str]]:
    """The answer's lines outside fenced code blocks, each with a copy whose code is masked.

    Code is not citation: fenced blocks are left out, and inside a line every inline code span
    is replaced by ``_`` in the masked copy (same length, so a sentence found in the copy is
    cut from the original at the same place).
    """
    out: list[tuple[str, str]] = []
    for _, line, code in fenced_lines(answer):
        if code:
            continue
        parts: list[str] = []
        last = 0
        for a, b in code_spans(line):
            parts += [line[last:a], "_" * (b - a)]
            last = b
        parts.append(line[last:])
        out.append((line, "".join(parts)))
    return out


_LIST_ITEM = re.compile(r"\s*\d{1,9}[.)](?=\s)")  # "1." / "2)" starting a numbered list item
_ABBREVIATIONS = frozenset(
    {
        "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs",
        "cf", "approx", "fig", "eq", "vol", "inc", "ltd", "corp", "dept",
    }
)  # fmt: skip
_LONGEST = 16  # more characters than any abbreviation above, with its dot and an opening quote
_DOTTED = re.compile(r"(?:[^\W\d_]\.){2,}")  # e.g. i.e. u.s. z.B.


def _ends_sentence(line: str, i: int, item_end: int) -> bool:
    """Whether the ``.``, ``!`` or ``?`` at ``line[i]`` ends a sentence (``item_end``: where
    the line's numbered-list marker ends, 0 without one).

    It does when followed by whitespace, a marker or the end of the line, unless it is the dot
    of a numbered-list marker that starts the line (``1.``) or of an abbreviation (``Mr.``,
    ``e.g.``; ``etc.`` does end a sentence, as it usually does).
    """
    if not (i + 1 == len(line) or line[i + 1].isspace() or _MARKER.match(line, i + 1)):
        return False
    if line[i] != ".":
        return True
    if i < item_end:
        return False
    lo = max(0, i + 1 - _LONGEST)  # look back a bounded way: linear time on any line
    word = line[lo : i + 1].rsplit(None, 1)[-1]
    if lo > 0 and len(word) == i + 1 - lo:
        return True  # a word too long to be an abbreviation
    word = word.lstrip("([{\"'“‘«")
    return word[:-1].lower() not in _ABBREVIATIONS and not _DOTTED.fullmatch(word)


def _sentences(line: str) -> list[tuple[int, int]]:
    """Where the sentences of one line are: ``(start, end)`` pairs, markers after an end kept.

    This and ``_ends_sentence`` are the whole sentence rule of ``cite``, in one place.

    >>> line = "1. Mr. Li pays e.g. 40 EUR [1]. Bikes are free.[2] Ok"
    >>> [line[a:b] for a, b in _sentences(line)]
    ['1. Mr. Li pays e.g. 40 EUR [1].', ' Bikes are free.[2]', ' Ok']
    """
    item = _LIST_ITEM.match(line)
    item_end = item.end() if item else 0
    out: list[tuple[int, int]] = []
    start = 0
    i = 0
    while i < len(line):
        if line[i] in ".!?" and _ends_sentence(line, i, item_end):
            end = i + 1
            # markers right after the end belong to this sentence
            while True:
                j = end
                while j < len(line) and line[j].isspace():
                    j += 1
                m = _MARKER.match(line, j)
                if not m:
                    break
                end = m.end()
            out.append((start, end))
            start = i = end
            continue
        i += 1
    out.append((start, len(line)))
    return out


_SHOWN = 10  # unknown labels named in a CitationError's message; the rest are counted


def _show(label: Label) -> str:
    digits = label if isinstance(label, str) else str(label)
    return digits if len(digits) <= 20 else f"{digits[:8]}...({len(digits)} digits)"


def _some(labels: list[Label]) -> str:
    """The first few labels, then how many more: a message stays short whatever the answer.

    >>> _some([7, 9])
    '[7, 9]'
    >>> _some(list(range(100, 125)))
    '[100, 101, 102, 103, 104, 105, 106, 107, 108, 109] and 15 more'
    >>> _some([3, "1" * 5000])
    '[3, 11111111...(5000 digits)]'
    """
    shown = "[" + ", ".join(_show(n) for n in labels[:_SHOWN]) + "]"
    return shown if len(labels) <= _SHOWN else f"{shown} and {len(labels) - _SHOWN} more"


def _record_label(source: object, i: int) -> int:
    where = f"record.sources[{i}]"
    if not isinstance(source, Mapping):
        raise InputError(
            f"{where} must be an object with a 'label', got {type(source).__name__}; "
            "pass the Assembly or its record() unchanged"
        )
    if "label" not in source:
        raise InputError(f"{where}.label is missing; pass the Assembly or its record() unchanged")
    label = source["label"]
    try:
        n = operator.index(label) if not isinstance(label, bool) else None
    except TypeError:
        n = None
    if n is None or n < 1:
        raise InputError(
            f"{where}.label must be an int >= 1, got {shown(label, 200)}; "
            "pass the Assembly or its record() unchanged"
        )
    return n


def _ranges(labels: list[int]) -> str:
    """Sorted labels as runs, as an error names them (an offset or merged assembly need not
    start at 1 or be contiguous).

    At most ``_MAX_RUNS`` runs are named; a number too long to print is named by its size.

    >>> _ranges([1, 2, 3]), _ranges([4, 5, 9]), _ranges([7])
    ('1-3', '4-5, 9', '7')
    >>> _ranges(list(range(1, 40, 2)))
    '1, 3, 5, 7, 9, 11, 13, 15, ... (20 runs)'
    """
    runs: list[list[int]] = []
    for n in labels:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    named = ", ".join(
        shown(a, 20) if a == b else f"{shown(a, 20)}-{shown(b, 20)}" for a, b in runs[:_MAX_RUNS]
    )
    return named if len(runs) <= _MAX_RUNS else f"{named}, ... ({len(runs)} runs)"


_MAX_RUNS = 8
"""How many runs of labels an unknown-label error names."""


def _source_table(assembly: AssemblyData | Mapping[str, Any]) -> dict[int, Any]:
    """Label -> source; a record is checked first, so a bad one is an ``InputError``."""
    if isinstance(assembly, AssemblyData):
        return {s.label: s for s in assembly.sources}
    if not isinstance(assembly, Mapping):
        raise InputError(
            "cite needs an Assembly or a record dict (Assembly.record()), "
            f"got {type(assembly).__name__}"
        )
    sources = assembly.get("sources")
    if not isinstance(sources, list):
        got = "missing" if sources is None else f"a {type(sources).__name__}"
        raise InputError(
            f"record.sources must be a list, got {got}; "
            "cite needs an Assembly or a record dict (Assembly.record())"
        )
    table: dict[int, Any] = {}
    for i, source in enumerate(sources):
        n = _record_label(source, i)
        if n in table:
            raise InputError(
                f"record.sources[{i}].label: label {n} appears twice; "
                "pass the Assembly or its record() unchanged"
            )
        table[n] = source
    return table


_NATIVE_INDEX = {
    "search_result_location": "search_result_index",
    "char_location": "document_index",
    "page_location": "document_index",
    "content_block_location": "document_index",
}
"""The index field of each kind of Anthropic citation that points into the request."""


_OR_RESPONSE = " (or an Anthropic Message, or its content blocks)"


def _field(item: object, name: str) -> Any:
    """``item[name]`` of a dict, ``item.name`` of an SDK object; None when absent."""
    if isinstance(item, Mapping):
        return item.get(name)
    return getattr(item, name, None)


def _native_answer(answer: object, labels: list[int]) -> tuple[str, dict[Label, None]]:
    """An Anthropic response (an SDK ``Message``, its ``content`` list, or their dicts) as
    answer text with each native citation written as a marker after every sentence of the text
    block it cites, and the labels of citations that point past the sources (unknown).

    A citation's index ``i`` (``search_result_index``, or ``document_index``) is the ``i``-th
    search result or document of the request: ``labels[i]``, as ``to_anthropic(...,
    native_citations=True)`` sends them (label order).
    """
    content = answer if isinstance(answer, (list, tuple)) else _field(answer, "content")
    if isinstance(content, str):
        return content, {}
    if not isinstance(content, (list, tuple)):
        raise InputError(f"answer must be a str, got {type(answer).__name__}{_OR_RESPONSE}")
    unknown: dict[Label, None] = {}
    parts: list[str] = []
    for i, block in enumerate(content):
        if _field(block, "type") != "text":
            continue  # tool use, thinking, ...: not answer text
        text = _field(block, "text")
        if not isinstance(text, str):
            raise InputError(f"answer content[{i}] is a text block without a str text")
        cited: dict[int, None] = {}
        for j, citation in enumerate(_field(block, "citations") or ()):
            kind = _field(citation, "type")
            index = _field(citation, _NATIVE_INDEX.get(kind, "")) if kind else None
            if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                raise InputError(
                    f"answer content[{i}].citations[{j}] has no index into the request's "
                    f"search results or documents (type {shown(kind)}); briefpack reads "
                    f"{', '.join(_NATIVE_INDEX)}"
                )
            if index < len(labels):
                cited.setdefault(labels[index])
            else:
                unknown.setdefault(index + 1)
        parts.append(_with_markers(text, list(cited)) if cited else text)
    return "".join(parts), unknown


def _with_markers(text: str, labels: list[int]) -> str:
    """``text`` with the marker of ``labels`` after each of its sentences (blank ones left)."""
    marker = "[" + ", ".join(map(str, labels)) + "]"
    lines = []
    for line in text.split("\n"):
        pieces = []
        for a, b in _sentences(line):
            piece = line[a:b]
            stripped = piece.rstrip()
            pieces.append(
                f"{stripped}{marker}{piece[len(stripped) :]}" if stripped.strip() else piece
            )
        lines.append("".join(pieces))
    return "\n".join(lines)


def cite(
    answer: str | Any, assembly: AssemblyData | Mapping[str, Any], *, strict: bool = True
) -> Citations:
    """Resolve the citations in ``answer`` to the sources of ``assembly``.

    ``assembly`` is an ``Assembly`` or its ``record()``. With ``strict=True`` (the default) a
    citation of a label that was never in the context raises ``CitationError`` naming every
    unknown label; with ``strict=False`` they are reported in ``unknown``.

    ``answer`` may also be an Anthropic response to a request built with
    ``to_anthropic(a, native_citations=True)``: the SDK's ``Message``, its ``content`` list, or
    the same as dicts. Its text blocks are the answer; a block's ``citations`` (a
    ``search_result_location``'s ``search_result_index``, or a document location's
    ``document_index``) cite the source at that position of the request (index ``i`` is label
    ``i + 1``) and support every sentence of the block; an index past the sources is unknown
    (as label ``i + 1``). ``[n]`` markers in the text count as well.

    >>> import briefpack as bp
    >>> a = bp.assemble("Cap?", ["Cap is 4000 EUR.", "Leave is 14 weeks."], tokenizer="approx",
    ...                 order="relevance", backend="python")
    >>> c = bp.cite("The cap is 4000 EUR [1]. Nothing else.", a)
    >>> [s.label for s in c.sources], [s.label for s in c.uncited], c.unsupported_sentences
    ([1], [2], ['Nothing else.'])
    """
    if answer is None or isinstance(answer, (bytes, bytearray, int, float)):
        raise InputError(f"answer must be a str, got {type(answer).__name__}{_OR_RESPONSE}")
    table = _source_table(assembly)
    # dicts keep first-appearance order and make each check O(1): linear in the labels read
    cited: dict[int, None] = {}
    unknown: dict[Label, None] = {}
    if not isinstance(answer, str):
        answer, unknown = _native_answer(answer, sorted(table))
    unsupported: list[str] = []
    expander = _Expander()  # one budget of range labels for the whole answer
    for line, masked in _prose(answer):
        for start, end in _sentences(masked):
            sentence = line[start:end].strip()
            if not sentence:
                continue
            supported = False
            for n in expander.markers(masked[start:end]):
                if isinstance(n, int) and n in table:
                    supported = True
                    cited.setdefault(n)
                else:
                    unknown.setdefault(n)
            if not supported:
                unsupported.append(sentence)
    if strict and unknown:
        have = _ranges(sorted(table)) if table else "none"
        raise CitationError(
            f"the answer cites labels that were never in the context: {_some(list(unknown))}; "
            f"this assembly has labels {have}",
            list(unknown),
        )
    return Citations(
        sources=[table[n] for n in cited],
        unknown=list(unknown),
        uncited=[s for n, s in sorted(table.items()) if n not in cited],
        unsupported_sentences=unsupported,
    )
