"""Hypothesis generators for the pipeline tests (``assemble`` end to end).

Kernel-level generators live in ``tests/strategies.py``; these build whole requests: candidates
in every accepted form (``Chunk`` and plain dicts), adversarial text made of tag fragments,
entities and label look-alikes, histories, budgets and tokenizers, plus parent and neighbour
tables whose ids line up with the candidates'.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import re
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import briefpack as bp

# Pieces a hostile or unlucky chunk may contain: tag fragments, attribute injections, entities,
# CDATA ends, label look-alikes (ASCII, full-width, other scripts' digits), quotes, line breaks.
ADVERSARIAL_PIECES = (
    "<source",
    "<source>",
    '<source id="9">',
    "</source>",
    "<sources>",
    "</sources>",
    "<history>",
    "</history>",
    '<message role="system">',
    "</message>",
    '" id="7',
    "' onload='x",
    '"',
    "'",
    "=",
    "<",
    ">",
    "&",
    "&amp;",
    "&lt;",
    "&gt;",
    "&quot;",
    "&#91;",
    "&#x3C;",
    "&#60;source",
    "]]>",
    "<![CDATA[",
    "[1]",
    "[3]",
    "[ 2 ]",
    "[1, 2]",
    "[2-4]",
    "[2–4]",
    "[3][5]",
    "[٣]",
    "［3］",
    "【2】",
    "\n[4] (Fake title) ",
    "(",
    ")",
    "[",
    "]",
    "Question: ",
    "\n",
    "\n\n",
    "\r\n",
    "\t",
    " ",
    "\x00",
    "\u2028",
    "\u200b",
    "＜/source＞",
    "﹤source﹥",
    "‹source›",
    "é",
    "東京",
    "🙂",
)

adversarial_text = st.lists(
    st.one_of(st.sampled_from(ADVERSARIAL_PIECES), st.text(max_size=6)), max_size=6
).map("".join)
"""Strings made of hostile pieces and arbitrary (valid) Unicode."""

WORDS = (
    *("relocation", "cap", "berlin", "4000", "eur", "apply", "within", "90", "days"),
    *("parental", "leave", "14", "weeks", "germany", "policy", "section", "guide"),
    *("the", "is", "for", "of", "and", "a"),
)
plain_words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join)
"""Short English-like texts that overlap often, so the dedupe stages have work to do."""

texts = st.one_of(plain_words, adversarial_text, st.text(max_size=30))

UPDATED = ("", "2023-01-01", "2024-06-30", "2024-06-30T12:00:00Z", "2025-01-01")
DOCS = (None, "d0", "d1", "d2")


def _words_tokenizer(text: str) -> int:
    """A caller's tokenizer that is neither approx nor BPE (and not additive)."""
    return len(text.split()) + len(text) // 7 + text.count("<")


TOKENIZERS = ("approx", "o200k_base", "cl100k_base", _words_tokenizer)
tokenizers = st.sampled_from(TOKENIZERS)

# Strategies are built once, at import: building them inside a composite on every draw costs
# more than the pipeline itself.
_scores = st.one_of(st.none(), st.floats(-1, 1))
_docs = st.sampled_from(DOCS)
_updated = st.one_of(st.sampled_from(UPDATED), adversarial_text)
_vectors = st.lists(st.sampled_from([0.0, 0.5, 1.0, -1.0]), min_size=3, max_size=3).filter(any)
_optional = {
    "title": adversarial_text,
    "url": adversarial_text,
    "meta": st.builds(lambda: {"source": ["kb", 1], "tags": {"k": [1, 2]}}),
}


def _fields(text: st.SearchStrategy[str], lying_tokens: bool, vectors: bool) -> Any:
    required: dict[str, Any] = {"text": text, "score": _scores, "doc": _docs, "updated": _updated}
    if vectors:
        required["vector"] = _vectors
    optional = dict(_optional)
    if lying_tokens:
        optional["tokens"] = st.integers(0, 40)  # a precomputed count that may lie
    return st.fixed_dictionaries(required, optional=optional)


_FIELDS = {
    (lying, vec): _fields(texts, lying, vec) for lying in (False, True) for vec in (False, True)
}
_ADVERSARIAL_FIELDS = _fields(adversarial_text, True, False)


@st.composite
def candidates(
    draw: st.DrawFn,
    *,
    max_size: int = 10,
    adversarial: bool = False,
    lying_tokens: bool = True,
    vectors: bool = False,
) -> list[Any]:
    """Candidates in rank order: ``Chunk``s and dicts with unique ids (some ``None``)."""
    fields = _ADVERSARIAL_FIELDS if adversarial else _FIELDS[lying_tokens, vectors]
    rows = draw(st.lists(fields, max_size=max_size))
    forms = draw(st.lists(st.integers(0, 3), min_size=len(rows), max_size=len(rows)))
    out: list[Any] = []
    for i, (row, form) in enumerate(zip(rows, forms)):
        if form & 1:
            row["id"] = f"c{i}"
        out.append(bp.Chunk(**row) if form & 2 else row)
    return out


histories = st.one_of(
    st.none(),
    adversarial_text,
    st.lists(
        st.fixed_dictionaries(
            {
                "role": st.sampled_from(["user", "assistant", 'x" id="3', "[2]"]),
                "content": adversarial_text,
            }
        ),
        max_size=3,
    ),
)

budgets = st.one_of(
    st.integers(0, 300),
    st.builds(
        bp.Budget,
        context=st.one_of(st.none(), st.integers(0, 300)),
        window=st.integers(0, 700),
        max_output=st.integers(0, 200),
        margin=st.integers(0, 50),
    ),
)
"""An int context budget or a ``Budget`` with a window (sometimes too small for the prompt)."""

SMALL_SYSTEM = {"system": "Answer from the sources.", "instructions": "Cite labels."}

_doc_rows = st.lists(
    st.tuples(st.one_of(plain_words, adversarial_text), st.sampled_from([None, "s0", "s1"])),
    min_size=1,
    max_size=6,
)
_section_texts = st.lists(st.one_of(plain_words, adversarial_text), min_size=4, max_size=4)
_expansion_options = st.fixed_dictionaries(
    {},
    optional={
        "parents": st.just(True),
        "neighbors": st.integers(1, 2),
        "max_per_doc": st.integers(1, 3),
        "rerank": st.just(True),
    },
)


@st.composite
def expansion(draw: st.DrawFn) -> tuple[list[Any], dict[str, Any]]:
    """Candidates drawn from a few documents' chunk lists, with parents and neighbour options.

    Returns ``(candidates, options)`` where options may hold ``parents``, ``neighbors`` with
    ``chunks_of``, ``max_per_doc`` and ``rerank``.
    """
    chunks_of: dict[str, list[dict[str, Any]]] = {}
    pool: list[dict[str, Any]] = []
    for d in ("d0", "d1"):
        rows = [
            {
                "text": text,
                "id": f"{d}#{p}",
                "doc": d,
                "position": p,
                "parent": None if parent is None else f"{d}/{parent}",
            }
            for p, (text, parent) in enumerate(draw(_doc_rows))
        ]
        chunks_of[d] = rows
        pool.extend(rows)
    picked = draw(st.permutations(range(len(pool))))[: draw(st.integers(0, len(pool)))]
    cands: list[Any] = [dict(pool[i], score=1.0 - k / 100) for k, i in enumerate(picked)]
    cands += [{"text": t, "id": f"x{k}"} for k, t in enumerate(draw(st.lists(texts, max_size=2)))]
    options = draw(_expansion_options)
    if options.pop("parents", False):
        sections = iter(draw(_section_texts))
        options["parents"] = {
            f"{d}/s{s}": {"text": next(sections), "title": f"{d} {s}"}
            for d in ("d0", "d1")
            for s in (0, 1)
        }
    if "neighbors" in options:
        options["chunks_of"] = chunks_of
    if options.pop("rerank", False):
        options["rerank"] = _rerank_by_length
    return cands, options


def _rerank_by_length(question: str, chunks: list[bp.Chunk]) -> list[float]:
    """A deterministic reranker with many ties (so the stable re-sort matters)."""
    return [float(len(c.text) % 3) for c in chunks]


def backend_settings(max_examples: int | None = None) -> settings:
    """The loaded profile, allowing the ``backend`` fixture, optionally with fewer examples.

    ``backend`` only names which kernels to use, so sharing it across examples is safe.
    """
    n = settings.default.max_examples
    return settings(
        max_examples=n if max_examples is None else min(n, max_examples),
        suppress_health_check=[
            *settings.default.suppress_health_check,
            HealthCheck.function_scoped_fixture,
        ],
    )


# ---- helpers for checking results ----

SOURCE_OPEN = re.compile(r"<source\b(?!s)")
SOURCE_XML = re.compile(
    r'<source id="(?P<id>\d+)"(?: title="(?P<title>[^"]*)")?(?: updated="(?P<updated>[^"]*)")?'
    r'(?: url="(?P<url>[^"]*)")?>\n(?P<text>.*?)\n</source>',
    re.DOTALL,
)


def sources_block(user: str) -> str:
    """The text between the one ``<sources>`` pair of a user message ('' when empty)."""
    start = user.index("<sources>\n") + len("<sources>\n")
    end = user.index("</sources>", start)
    return user[start:end].removesuffix("\n")


def count(text: str, tokenizer: Any) -> int:
    """The count the contract promises, computed independently of briefpack's kernels."""
    if callable(tokenizer):
        return int(tokenizer(text))
    if tokenizer == "approx":
        return max(1, len(text) // 4)
    import tiktoken

    return len(tiktoken.get_encoding(tokenizer).encode_ordinary(text))


def as_data(value: Any) -> Any:
    """A comparable picture of what a caller passed, including fields Chunk's == ignores."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (
            type(value).__name__,
            {f.name: as_data(getattr(value, f.name)) for f in dataclasses.fields(value)},
        )
    if isinstance(value, dict):
        return {k: as_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [as_data(v) for v in value])
    if hasattr(value, "tolist"):
        return ("array", as_data(value.tolist()), str(getattr(value, "dtype", "")))
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)  # so that a NaN compares equal to itself
    return value


def snapshot(*objs: Any) -> Any:
    """A deep copy to compare against after a call (inputs must come back unchanged)."""
    return copy.deepcopy(objs)
