"""Bad input to ``briefpack.assemble``: the same error class and message on both backends.

Issue 5's table, row by row: bad text, bad scores, repeated ids, bad token counts, bad vectors,
thresholds, budgets, tokenizers, rerank callbacks, parents and unknown option strings. A message
about one candidate names its index and id; a message about an option lists the legal values.
Every case also checks that nothing the caller passed was mutated, whatever happened.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

import briefpack as bp
import briefpack.kernels  # `bp.kernels` below: a submodule is not imported by `import briefpack`
from briefpack import BudgetError, InputError
from pipeline_strategies import as_data

SURROGATE_HINT = "pass valid Unicode (decode with errors='replace')"
DIMENSION = "every vector must have the same dimension"
NOT_FINITE = "vector holds NaN or infinity; vectors must be finite"
ZERO_NORM = "vector has zero norm; cosine is undefined for a zero vector"
TOKENIZER_NAMES = "'o200k_base', 'cl100k_base', 'approx' or a callable str -> int"
PARENT_LOOP = "(a parent cannot be one of the candidates it replaces)"
REPEAT = (
    "id repeats candidate 0 with different text; ids must identify one text (a repeat with the "
    "same text is dropped as a duplicate)"
)


def chunks(*texts_and_ids: tuple[Any, str], **fields: Any) -> list[bp.Chunk]:
    return [bp.Chunk(text, id=cid, **fields) for text, cid in texts_and_ids]


def vec(*vectors: Any, **fields: Any) -> list[bp.Chunk]:
    """Candidates a, b, c, ... with these vectors (and distinct texts)."""
    return [
        bp.Chunk(f"text {chr(97 + i)}", id=chr(97 + i), vector=v, **fields)
        for i, v in enumerate(vectors)
    ]


def boom(text: str) -> int:
    raise ValueError("boom")


def boom_on_bad(text: str) -> int:
    if "bad" in text:
        raise ValueError("boom")
    return len(text) // 4


def negative_on_bad(text: str) -> int:
    return -1 if "bad" in text else 1


TWO = [bp.Chunk("good text", id="a"), bp.Chunk("bad text", id="b")]
SECTION = bp.Chunk("The whole section.", title="Section")

# (options for assemble, expected class, expected message); "candidates" and "question" are
# taken out of the options, everything else is passed as keywords.
CASES: list[Any] = [
    # ---- text ----
    pytest.param(
        {"candidates": [{"id": "a"}]},
        InputError,
        "candidate 0 (id='a'): text is missing",
        id="text-missing",
    ),
    pytest.param(
        {"candidates": ["ok", bp.Chunk(None, id="b")]},  # type: ignore[arg-type]
        InputError,
        "candidate 1 (id='b'): text must be a str, got NoneType",
        id="text-none",
    ),
    pytest.param(
        {"candidates": [{"text": None, "id": "a"}]},
        InputError,
        "candidate 0 (id='a'): text must be a str, got NoneType",
        id="text-none-dict",
    ),
    pytest.param(
        {"candidates": [{"text": 42, "id": "a"}]},
        InputError,
        "candidate 0 (id='a'): text must be a str, got int",
        id="text-not-str",
    ),
    pytest.param(
        {"candidates": ["ok", {"text": "café".encode(), "id": "b"}]},
        InputError,
        "candidate 1 (id='b'): text must be a str, got bytes",
        id="text-bytes",
    ),
    pytest.param(
        {"candidates": ["ok", {"text": "ab\ud800c", "id": "b"}]},
        InputError,
        "candidate 1 (id='b'): text contains a lone surrogate U+D800 at offset 2; "
        + SURROGATE_HINT,
        id="text-lone-surrogate",
    ),
    pytest.param(
        {"candidates": [bp.Chunk("ok", id="a", title="\udc00x")]},
        InputError,
        "candidate 0 (id='a'): title: text contains a lone surrogate U+DC00 at offset 0; "
        + SURROGATE_HINT,
        id="title-lone-surrogate",
    ),
    pytest.param(
        {"candidates": ["ok", bp.Chunk("ok", id="b\ud800")]},
        InputError,
        "candidate 1 (id='b\\ud800'): id: text contains a lone surrogate U+D800 at offset 1; "
        + SURROGATE_HINT,
        id="id-lone-surrogate",
    ),
    pytest.param(
        {"candidates": [{"text": "ok", "id": "a", "doc": "\udc00d"}]},
        InputError,
        "candidate 0 (id='a'): doc: text contains a lone surrogate U+DC00 at offset 0; "
        + SURROGATE_HINT,
        id="doc-lone-surrogate",
    ),
    pytest.param(
        {"candidates": [bp.Chunk("ok", id="a", parent="p\ud83d")]},
        InputError,
        "candidate 0 (id='a'): parent: text contains a lone surrogate U+D83D at offset 1; "
        + SURROGATE_HINT,
        id="parent-lone-surrogate",
    ),
    pytest.param(
        {"candidates": [bp.Chunk("ok", id="a", meta={"tags": ["x", "\ud800"]})]},
        InputError,
        "candidate 0 (id='a'): meta['tags'][1]: text contains a lone surrogate U+D800 at "
        "offset 0; " + SURROGATE_HINT,
        id="meta-value-lone-surrogate",
    ),
    pytest.param(
        {"candidates": [{"text": "ok", "id": "a", "meta": {"source": {"k\udfff": 1}}}]},
        InputError,
        "candidate 0 (id='a'): meta['source'] key: text contains a lone surrogate U+DFFF at "
        "offset 1; " + SURROGATE_HINT,
        id="meta-key-lone-surrogate",
    ),
    pytest.param(
        {"candidates": [bp.Chunk("ok", id="a", url=5)]},  # type: ignore[arg-type]
        InputError,
        "candidate 0 (id='a'): url must be a str, got int",
        id="url-not-str",
    ),
    pytest.param(
        {"question": "why\ud800"},
        InputError,
        f"question: text contains a lone surrogate U+D800 at offset 3; {SURROGATE_HINT}",
        id="question-lone-surrogate",
    ),
    pytest.param(
        {"question": b"why"},
        InputError,
        "question: text must be a str, got bytes",
        id="question-bytes",
    ),
    pytest.param(
        {"history": [{"role": "user", "content": "\ud83d"}]},
        InputError,
        f"history[0]: text contains a lone surrogate U+D83D at offset 0; {SURROGATE_HINT}",
        id="history-lone-surrogate",
    ),
    # ---- scores ----
    pytest.param(
        {"candidates": ["ok", bp.Chunk("x", id="b", score=math.nan)]},
        InputError,
        "candidate 1 (id='b'): score must be a finite number or None, got nan",
        id="score-nan",
    ),
    pytest.param(
        {"candidates": [bp.Chunk("x", id="a", score=math.inf)]},
        InputError,
        "candidate 0 (id='a'): score must be a finite number or None, got inf",
        id="score-inf",
    ),
    pytest.param(
        {"candidates": [{"text": "x", "id": "a", "score": -math.inf}]},
        InputError,
        "candidate 0 (id='a'): score must be a finite number or None, got -inf",
        id="score-minus-inf",
    ),
    pytest.param(
        {"candidates": [{"text": "x", "id": "a", "score": 10**400}]},
        InputError,
        "candidate 0 (id='a'): score must be a finite number or None, got "
        "100000000000000000000000000000000000000000000000000000000000... (401 characters)",
        id="score-too-large-for-a-float",
    ),
    pytest.param(
        {"threshold": 10**400},
        InputError,
        "threshold must be a number in [0, 1], got "
        "100000000000000000000000000000000000000000000000000000000000... (401 characters)",
        id="threshold-too-large-for-a-float",
    ),
    pytest.param(
        {"candidates": [{"text": "x", "id": "a", "score": "0.9"}]},
        InputError,
        "candidate 0 (id='a'): score must be a finite number or None, got '0.9'",
        id="score-str",
    ),
    pytest.param(
        {"candidates": [{"text": "x", "id": "a", "score": True}]},
        InputError,
        "candidate 0 (id='a'): score must be a finite number or None, got True",
        id="score-bool",
    ),
    # ---- ids ----
    pytest.param(
        {"candidates": chunks(("one text", "a"), ("other", "b"), ("another text", "a"))},
        InputError,
        f"candidate 2 (id='a'): {REPEAT}",
        id="repeated-id-different-text",
    ),
    pytest.param(
        {"candidates": [{"text": "x", "id": 1.5}]},
        InputError,
        "candidate 0 (id=1.5): id must be a str (or int), got float",
        id="id-float",
    ),
    # ---- tokens ----
    pytest.param(
        {"candidates": [bp.Chunk("x", id="a", tokens=-1)]},
        InputError,
        "candidate 0 (id='a'): tokens must be an int >= 0 or None, got -1",
        id="tokens-negative",
    ),
    pytest.param(
        {"candidates": [bp.Chunk("x", id="a", tokens=2.0)]},  # type: ignore[arg-type]
        InputError,
        "candidate 0 (id='a'): tokens must be an int >= 0 or None, got 2.0",
        id="tokens-float",
    ),
    pytest.param(
        {"candidates": [{"text": "x", "id": "a", "tokens": "12"}]},
        InputError,
        "candidate 0 (id='a'): tokens must be an int >= 0 or None, got '12'",
        id="tokens-str",
    ),
    pytest.param(
        {"candidates": ["ok", bp.Chunk("x", id="b", tokens=True)]},
        InputError,
        "candidate 1 (id='b'): tokens must be an int >= 0 or None, got True",
        id="tokens-bool",
    ),
    # ---- vectors, when cosine dedupe uses them ----
    pytest.param(
        {"candidates": vec([1.0, 0.0], [1.0, 0.0, 0.0]), "dedupe": "cosine"},
        InputError,
        f"candidate 1 (id='b'): vector has dimension 3 but the first vector has 2; {DIMENSION}",
        id="vectors-mixed-dimensions",
    ),
    pytest.param(
        {
            "candidates": [
                bp.Chunk("x", id="a", doc="d1", vector=[1.0, 0.0]),
                bp.Chunk("y", id="b", doc="d2", vector=[1.0, 0.0, 0.0]),
            ],
            "dedupe": "cosine",
            "scope": "document",
        },
        InputError,
        f"candidate 1 (id='b'): vector has dimension 3 but the first vector has 2; {DIMENSION}",
        id="vectors-mixed-dimensions-across-documents",
    ),
    pytest.param(
        {"candidates": vec(["0.1", "0.2"]), "dedupe": "cosine"},
        InputError,
        "candidate 0 (id='a'): vector must hold numbers, got str",
        id="vector-of-str-single-candidate",
    ),
    pytest.param(
        {"candidates": vec([1.0, 0.0], [True, False]), "dedupe": "cosine"},
        InputError,
        "candidate 1 (id='b'): vector must hold numbers, got bool",
        id="vector-of-bool",
    ),
    pytest.param(
        {"candidates": vec([1.0, 0.0], [1j, 0]), "dedupe": "cosine"},
        InputError,
        "candidate 1 (id='b'): vector must hold numbers, got complex",
        id="vector-of-complex",
    ),
    pytest.param(
        {"candidates": vec([1.0, 0.0], "abc"), "dedupe": "cosine"},
        InputError,
        "candidate 1 (id='b'): vector must be a sequence of numbers, got str",
        id="vector-str",
    ),
    pytest.param(
        {"candidates": vec([1.0, 0.0], []), "dedupe": "cosine"},
        InputError,
        "candidate 1 (id='b'): vector is empty; vectors need at least one dimension",
        id="vector-empty",
    ),
    pytest.param(
        {"candidates": vec([1.0, 0.0], [0.0, 0.0]), "dedupe": "cosine"},
        InputError,
        "candidate 1 (id='b'): vector has zero norm; cosine is undefined for a zero vector",
        id="vector-zero-norm",
    ),
    pytest.param(
        {"candidates": vec([math.nan, 0.0], [1.0, 0.0]), "dedupe": "cosine"},
        InputError,
        f"candidate 0 (id='a'): {NOT_FINITE}",
        id="vector-nan",
    ),
    pytest.param(
        {"candidates": vec([1.0, 0.0], [math.inf, 1.0]), "dedupe": "auto"},
        InputError,
        f"candidate 1 (id='b'): {NOT_FINITE}",
        id="vector-inf-auto-cosine",
    ),
    pytest.param(
        {"candidates": vec([1.0, 0.0], None), "dedupe": "cosine"},
        InputError,
        "candidate 1 (id='b'): dedupe='cosine' needs a vector on every candidate; this one has "
        "none",
        id="vector-missing-cosine",
    ),
    # ---- vectors, when MMR uses them ----
    pytest.param(
        {"candidates": vec([1.0, 0.0], None), "mmr": 0.5, "query_vector": [1.0, 0.0]},
        InputError,
        "candidate 1 (id='b'): mmr needs a vector on every candidate; this one has none",
        id="vector-missing-mmr",
    ),
    pytest.param(
        {
            # the NaN vector belongs to an exact duplicate that dedupe drops before MMR runs:
            # it is still bad input
            "candidates": [
                bp.Chunk("same", id="a", vector=[1.0, 0.0]),
                bp.Chunk("same", id="b", vector=[math.nan, 0.0]),
            ],
            "dedupe": "exact",
            "mmr": 0.5,
            "query_vector": [1.0, 0.0],
        },
        InputError,
        f"candidate 1 (id='b'): {NOT_FINITE}",
        id="vector-nan-mmr-on-a-duplicate",
    ),
    pytest.param(
        {
            "candidates": vec([1.0, 0.0], [1.0, 0.0, 0.0]),
            "dedupe": None,
            "mmr": 0.5,
            "query_vector": [1.0, 0.0],
        },
        InputError,
        f"candidate 1 (id='b'): vector has dimension 3 but the first vector has 2; {DIMENSION}",
        id="vectors-mixed-dimensions-mmr",
    ),
    pytest.param(
        {"candidates": vec([1.0, 0.0]), "mmr": 0.5, "query_vector": [1.0, 0.0, 0.0]},
        InputError,
        "query_vector has dimension 3 but the vectors have 2",
        id="query-vector-dimension",
    ),
    pytest.param(
        {"candidates": vec([1.0, 0.0]), "mmr": 0.5, "query_vector": [math.nan, 1.0]},
        InputError,
        "query_vector holds NaN or infinity; vectors must be finite",
        id="query-vector-nan",
    ),
    pytest.param(
        {"candidates": vec([1.0, 0.0], [0.0, 1.0]), "mmr": 0.5},
        InputError,
        "candidate 0 (id='a'): mmr without query_vector ranks by score, and this candidate has "
        "none; pass query_vector or give every candidate a score",
        id="mmr-without-query-or-score",
    ),
    # ---- thresholds ----
    pytest.param(
        {"threshold": 1.5},
        InputError,
        "threshold must be a number in [0, 1], got 1.5",
        id="threshold-above-one",
    ),
    pytest.param(
        {"threshold": -0.1, "dedupe": "minhash"},
        InputError,
        "threshold must be a number in [0, 1], got -0.1",
        id="threshold-negative",
    ),
    pytest.param(
        {"threshold": math.nan},
        InputError,
        "threshold must be a number in [0, 1], got nan",
        id="threshold-nan",
    ),
    pytest.param(
        {"threshold": "0.7"},
        InputError,
        "threshold must be a number in [0, 1], got '0.7'",
        id="threshold-str",
    ),
    pytest.param(
        {"threshold": 2, "dedupe": None},
        InputError,
        "threshold must be a number in [0, 1], got 2",
        id="threshold-checked-even-when-unused",
    ),
    pytest.param(
        {"mmr": 1.5, "candidates": vec([1.0, 0.0])},
        InputError,
        "mmr must be a number in [0, 1], got 1.5",
        id="mmr-lambda-above-one",
    ),
    # ---- budgets ----
    pytest.param(
        {"budget": -1},
        InputError,
        "budget.context must be an int >= 0, got -1",
        id="budget-negative",
    ),
    pytest.param(
        {"budget": 1000.0},
        InputError,
        "budget must be an int or a Budget, got float",
        id="budget-float",
    ),
    pytest.param(
        {"budget": True},
        InputError,
        "budget must be an int or a Budget, got bool",
        id="budget-bool",
    ),
    pytest.param(
        {"budget": "1000"},
        InputError,
        "budget must be an int or a Budget, got str",
        id="budget-str",
    ),
    pytest.param(
        {"budget": bp.Budget()},
        InputError,
        "budget needs context or window (or both); got neither",
        id="budget-empty",
    ),
    pytest.param(
        {"budget": bp.Budget(window=-8192)},
        InputError,
        "budget.window must be an int >= 0, got -8192",
        id="budget-window-negative",
    ),
    pytest.param(
        {"budget": bp.Budget(window=8192.0)},  # type: ignore[arg-type]
        InputError,
        "budget.window must be an int >= 0, got 8192.0",
        id="budget-window-float",
    ),
    pytest.param(
        {"budget": bp.Budget(context=100, max_output=-1)},
        InputError,
        "budget.max_output must be an int >= 0, got -1",
        id="budget-max-output-negative",
    ),
    pytest.param(
        {"budget": bp.Budget(context=100, margin=True)},  # type: ignore[arg-type]
        InputError,
        "budget.margin must be an int >= 0, got True",
        id="budget-margin-bool",
    ),
    pytest.param(
        {"budget": bp.Budget(context=1.5)},  # type: ignore[arg-type]
        InputError,
        "budget.context must be an int >= 0, got 1.5",
        id="budget-context-float",
    ),
    pytest.param(
        # approx: system "S" * 40 -> 10; framing "<sources>\n</sources>\n\nQuestion: " + 20
        # chars = 52 chars -> 13; 2 messages * 4 = 8: 31 > 100 - 70 - 10 = 20
        {
            "question": "q" * 20,
            "system": "S" * 40,
            "instructions": None,
            "budget": bp.Budget(window=100, max_output=70, margin=10),
        },
        BudgetError,
        "system + history + question need 31 tokens (system 10, user framing 13, message "
        "overhead 8) but the window leaves 20 (window 100 - max_output 70 - margin 10); raise "
        "window or pass a shorter history or system prompt",
        id="window-smaller-than-fixed-parts",
    ),
    pytest.param(
        # the history is part of the framing: "<history>\n" + 100 chars + "\n</history>\n\n"
        # + 52 chars = 175 chars -> 43
        {
            "question": "q" * 20,
            "history": "h" * 100,
            "system": "S" * 40,
            "instructions": None,
            "budget": bp.Budget(window=60),
        },
        BudgetError,
        "system + history + question need 61 tokens (system 10, user framing 43, message "
        "overhead 8) but the window leaves 60 (window 60 - max_output 0 - margin 0); raise "
        "window or pass a shorter history or system prompt",
        id="window-smaller-than-history",
    ),
    pytest.param(
        {
            "question": "q" * 20,
            "system": "S" * 40,
            "instructions": None,
            "budget": bp.Budget(window=100, max_output=200),
        },
        BudgetError,
        "system + history + question need 31 tokens (system 10, user framing 13, message "
        "overhead 8) but the window leaves -100 (window 100 - max_output 200 - margin 0); raise "
        "window or pass a shorter history or system prompt",
        id="max-output-larger-than-window",
    ),
    # ---- tokenizers ----
    pytest.param(
        {"tokenizer": "gpt2"},
        InputError,
        f"tokenizer must be one of {TOKENIZER_NAMES}, got 'gpt2'",
        id="tokenizer-unknown-name",
    ),
    pytest.param(
        {"tokenizer": "O200K_BASE"},
        InputError,
        f"tokenizer must be one of {TOKENIZER_NAMES}, got 'O200K_BASE'",
        id="tokenizer-wrong-case",
    ),
    pytest.param(
        {"tokenizer": None},
        InputError,
        f"tokenizer must be one of {TOKENIZER_NAMES}, got None",
        id="tokenizer-none",
    ),
    pytest.param(
        {"tokenizer": boom},
        InputError,
        "system: the tokenizer callable raised ValueError: boom",
        id="tokenizer-raises",
    ),
    pytest.param(
        {"rerank": lambda q, chunks: boom(q), "candidates": TWO},
        InputError,
        "rerank(question, 2 chunks): the rerank callable raised ValueError: boom",
        id="rerank-raises",
    ),
    pytest.param(
        {"parents": lambda chunk: boom(chunk.text), "candidates": TWO},
        InputError,
        "candidate 0 (id='a'): the parents callable raised ValueError: boom",
        id="parents-raises",
    ),
    pytest.param(
        {"neighbors": 1, "chunks_of": boom, "candidates": [bp.Chunk("x", id="a", doc="kb")]},
        InputError,
        "chunks_of('kb'): the chunks_of callable raised ValueError: boom",
        id="chunks-of-raises",
    ),
    pytest.param(
        {"tokenizer": boom_on_bad, "candidates": TWO},
        InputError,
        "candidate 1 (id='b'): the tokenizer callable raised ValueError: boom",
        id="tokenizer-raises-on-one-candidate",
    ),
    pytest.param(
        {"tokenizer": lambda s: -1},
        InputError,
        "system: the tokenizer callable must return an int >= 0, got -1",
        id="tokenizer-negative",
    ),
    pytest.param(
        {"tokenizer": negative_on_bad, "candidates": TWO},
        InputError,
        "candidate 1 (id='b'): the tokenizer callable must return an int >= 0, got -1",
        id="tokenizer-negative-on-one-candidate",
    ),
    pytest.param(
        {"tokenizer": lambda s: 0.5},
        InputError,
        "system: the tokenizer callable must return an int >= 0, got 0.5",
        id="tokenizer-float",
    ),
    pytest.param(
        {"tokenizer": lambda s: True},
        InputError,
        "system: the tokenizer callable must return an int >= 0, got True",
        id="tokenizer-bool",
    ),
    pytest.param(
        {"tokenizer": lambda s: None},
        InputError,
        "system: the tokenizer callable must return an int >= 0, got None",
        id="tokenizer-none-count",
    ),
    # ---- rerank ----
    pytest.param(
        {"candidates": TWO, "rerank": lambda q, c: [1.0]},
        InputError,
        "rerank returned 1 scores for 2 chunks",
        id="rerank-wrong-length",
    ),
    pytest.param(
        {"candidates": TWO, "rerank": lambda q, c: [1.0, math.nan]},
        InputError,
        "candidate 1 (id='b'): rerank returned nan for it (position 1 of the 2 chunks passed); "
        "scores must be finite numbers",
        id="rerank-nan",
    ),
    pytest.param(
        {"candidates": TWO, "rerank": lambda q, c: [math.inf, 1.0]},
        InputError,
        "candidate 0 (id='a'): rerank returned inf for it (position 0 of the 2 chunks passed); "
        "scores must be finite numbers",
        id="rerank-inf",
    ),
    pytest.param(
        {"candidates": TWO, "rerank": lambda q, c: ["high", "low"]},
        InputError,
        "candidate 0 (id='a'): rerank returned 'high' for it (position 0 of the 2 chunks "
        "passed); scores must be finite numbers",
        id="rerank-str",
    ),
    pytest.param(
        {"candidates": TWO, "rerank": lambda q, c: None},
        InputError,
        "rerank must return a list of floats, got NoneType",
        id="rerank-none",
    ),
    pytest.param(
        {"rerank": "cross-encoder"},
        InputError,
        "rerank must be a callable, got str",
        id="rerank-not-callable",
    ),
    # ---- parents ----
    pytest.param(
        {"candidates": [bp.Chunk("x", id="c1", parent="nope")], "parents": {"sec": SECTION}},
        InputError,
        "candidate 0 (id='c1'): parent 'nope' is not in parents",
        id="parent-missing",
    ),
    pytest.param(
        {
            "candidates": [bp.Chunk("x", id="c1", parent="sec")],
            "parents": {"sec": bp.Chunk("The section.", parent="c1")},
        },
        InputError,
        f"candidate 0 (id='c1'): parent 'sec' points back at a child {PARENT_LOOP}",
        id="parent-points-back-at-its-child",
    ),
    pytest.param(
        {
            "candidates": [bp.Chunk("x", id="c1", parent="c1")],
            "parents": {"c1": SECTION},
        },
        InputError,
        f"candidate 0 (id='c1'): parent 'c1' points back at a child {PARENT_LOOP}",
        id="parent-is-the-child-itself",
    ),
    pytest.param(
        {"candidates": [bp.Chunk("x", id="c1", parent="sec")], "parents": {"sec": 5}},
        InputError,
        "candidate 0 (id='c1'): its parent must be a Chunk, got int",
        id="parent-not-a-chunk",
    ),
    pytest.param(
        {
            # the child is an exact duplicate that dedupe drops first: the mapping is still bad
            "candidates": [bp.Chunk("same", id="a"), bp.Chunk("same", id="c1", parent="nope")],
            "parents": {"sec": SECTION},
            "dedupe": "exact",
        },
        InputError,
        "candidate 1 (id='c1'): parent 'nope' is not in parents",
        id="parent-missing-on-a-duplicate",
    ),
    pytest.param(
        {
            # a parent that is itself one of the candidates
            "candidates": [bp.Chunk("x", id="c1", parent="c2"), bp.Chunk("y", id="c2")],
            "parents": {"c2": SECTION},
        },
        InputError,
        f"candidate 0 (id='c1'): parent 'c2' points back at a child {PARENT_LOOP}",
        id="parent-is-another-candidate",
    ),
    pytest.param(
        {
            "candidates": ["ok", bp.Chunk("x", id="c1", parent="sec")],
            "parents": {"sec": {"title": "Section without text"}},
        },
        InputError,
        "candidate 1 (id='c1'): its parent 'sec': text is missing",
        id="parent-without-text",
    ),
    pytest.param(
        {
            "candidates": [bp.Chunk("x", id="c1")],
            "parents": lambda chunk: bp.Chunk("The section.", id="sec", score=math.nan),
        },
        InputError,
        "candidate 0 (id='c1'): its parent: score must be a finite number or None, got nan",
        id="parent-callable-returns-a-bad-chunk",
    ),
    pytest.param(
        {
            "candidates": [bp.Chunk("x", id="c1", doc="d")],
            "neighbors": 1,
            "chunks_of": {"d": [{"text": "x", "id": "c1"}, {"title": "no text"}]},
        },
        InputError,
        "chunks_of('d')[1]: text is missing",
        id="chunks-of-entry-without-text",
    ),
    pytest.param(
        {"parents": ["sec"]},
        InputError,
        "parents must be a mapping or a callable, got list",
        id="parents-wrong-type",
    ),
    # ---- unknown option strings: the message lists the legal values ----
    pytest.param(
        {"order": "best"},
        InputError,
        "order must be one of 'relevance', 'edges', 'round_robin', 'document', got 'best'",
        id="order-unknown",
    ),
    pytest.param(
        {"labels": "markdown"},
        InputError,
        "labels must be one of 'xml', 'brackets', got 'markdown'",
        id="labels-unknown",
    ),
    pytest.param(
        {"overflow": "truncate"},
        InputError,
        "overflow must be one of 'stop', 'skip', got 'truncate'",
        id="overflow-unknown",
    ),
    pytest.param(
        {"dedupe": "fuzzy"},
        InputError,
        "dedupe must be one of 'auto', 'exact', 'jaccard', 'minhash', 'cosine', None, got 'fuzzy'",
        id="dedupe-unknown",
    ),
    pytest.param(
        {"dedupe": "Jaccard"},
        InputError,
        "dedupe must be one of 'auto', 'exact', 'jaccard', 'minhash', 'cosine', None, got "
        "'Jaccard'",
        id="dedupe-wrong-case",
    ),
    pytest.param(
        {"scope": "doc"},
        InputError,
        "scope must be one of 'global', 'document', got 'doc'",
        id="scope-unknown",
    ),
    pytest.param(
        {"supersede": "updated"},
        InputError,
        "supersede must be one of 'url', 'doc', None, got 'updated'",
        id="supersede-unknown",
    ),
    pytest.param(
        {"backend": "gpu"},
        InputError,
        "backend must be one of 'auto', 'rust', 'python', got 'gpu'",
        id="backend-unknown",
    ),
    pytest.param(
        {"minhash": {"bands": 16}},
        InputError,
        "minhash option must be one of 'num_perm', 'shingle', 'seed', got 'bands'",
        id="minhash-unknown-option",
    ),
    pytest.param(
        {"minhash": 128},
        InputError,
        "minhash must be a mapping of num_perm, shingle, seed, got int",
        id="minhash-not-a-mapping",
    ),
    pytest.param(
        {"minhash": {"num_perm": 0}, "dedupe": "minhash"},
        InputError,
        "num_perm must be an int >= 1, got 0",
        id="minhash-num-perm-zero-one-candidate",
    ),
    pytest.param(
        {"minhash": {"num_perm": 10**8}, "dedupe": "minhash"},
        InputError,
        "num_perm must be an int <= 8192, got 100000000",
        id="minhash-num-perm-too-large",
    ),
    pytest.param(
        {"minhash": {"shingle": 5000}, "dedupe": "minhash"},
        InputError,
        "shingle must be an int <= 1024, got 5000",
        id="minhash-shingle-too-large",
    ),
    pytest.param(
        {"neighbors": 10**6, "chunks_of": {}},
        InputError,
        "neighbors must be an int <= 10000, got 1000000",
        id="neighbors-too-large",
    ),
    pytest.param(
        {"mmr": 0.5, "mmr_k": 2**63, "candidates": vec([1.0, 0.0])},
        InputError,
        "mmr_k must be an int <= 9223372036854775807, got 9223372036854775808",
        id="mmr-k-too-large",
    ),
    pytest.param(
        {"budget": bp.Budget(context=10, window=10**400)},
        InputError,
        "budget.window must be an int <= 9223372036854775807, got an int of 401 digits",
        id="budget-window-too-large",
    ),
    pytest.param(
        {"max_per_doc": 2**64},
        InputError,
        "max_per_doc must be an int <= 9223372036854775807, got 18446744073709551616",
        id="max-per-doc-too-large",
    ),
    pytest.param(
        {"minhash": {"seed": -1}},
        InputError,
        "seed must be an int in [0, 2**64 - 1], got -1",
        id="minhash-seed-negative",
    ),
    # ---- other arguments ----
    pytest.param(
        {"candidates": "just one string"},
        InputError,
        "candidates must be a list, got str",
        id="candidates-str",
    ),
    pytest.param(
        {"candidates": ["ok", 42]},
        InputError,
        "candidate 1 (id=None): a candidate must be a Chunk, a mapping, a str or an object "
        "with page_content, got int",
        id="candidate-wrong-type",
    ),
    pytest.param(
        {"candidates": [{"text": "x", "id": "a", "source": "kb", "meta": "m"}]},
        InputError,
        "candidate 0 (id='a'): meta must be a mapping or None, got str (keys that are not "
        "Chunk's, here 'source', go into meta)",
        id="candidate-unknown-key-with-a-bad-meta",
    ),
    pytest.param(
        {"history": [{"role": "user"}]},
        InputError,
        "history[0] must be a dict with 'role' and 'content'",
        id="history-turn-without-content",
    ),
    pytest.param(
        {"history": {"role": "user", "content": "hi"}},
        InputError,
        "history must be a str or a list of role/content dicts, got dict",
        id="history-dict",
    ),
    pytest.param(
        {"history": b"We talked before."},
        InputError,
        "history must be a str or a list of role/content dicts, got bytes",
        id="history-bytes",
    ),
    pytest.param(
        {"system": None},
        InputError,
        "system must be a str, got NoneType",
        id="system-none",
    ),
    pytest.param(
        {"instructions": 5},
        InputError,
        "instructions must be a str or None, got int",
        id="instructions-int",
    ),
    pytest.param(
        {"neighbors": 1},
        InputError,
        "neighbors needs chunks_of (doc -> that document's chunks in order)",
        id="neighbors-without-chunks-of",
    ),
    pytest.param(
        {"neighbors": -1, "chunks_of": {}},
        InputError,
        "neighbors must be an int >= 0, got -1",
        id="neighbors-negative",
    ),
    pytest.param(
        {"neighbors": 1, "chunks_of": ["a"]},
        InputError,
        "chunks_of must be a mapping or a callable, got list",
        id="chunks-of-wrong-type",
    ),
    pytest.param(
        {"max_per_doc": 0},
        InputError,
        "max_per_doc must be an int >= 1, got 0",
        id="max-per-doc-zero",
    ),
    pytest.param(
        {"minhash": {"num_perm": 64}},
        InputError,
        "minhash configures dedupe='minhash' but dedupe is 'auto'; pass dedupe='minhash' too, "
        "or drop minhash",
        id="minhash-without-dedupe-minhash",
    ),
    pytest.param(
        {"minhash": {"shingle": 2}, "dedupe": "jaccard"},
        InputError,
        "minhash configures dedupe='minhash' but dedupe is 'jaccard'; pass dedupe='minhash' "
        "too, or drop minhash",
        id="minhash-with-jaccard",
    ),
    pytest.param(
        {"threshold": 0.5, "dedupe": None},
        InputError,
        "threshold applies to dedupe='jaccard', 'minhash', 'cosine' or 'auto', but dedupe is "
        "None, which has none; drop threshold or choose one of those",
        id="threshold-without-dedupe",
    ),
    pytest.param(
        {"threshold": 0.9, "dedupe": "exact"},
        InputError,
        "threshold applies to dedupe='jaccard', 'minhash', 'cosine' or 'auto', but dedupe is "
        "'exact', which has none; drop threshold or choose one of those",
        id="threshold-with-exact",
    ),
    pytest.param(
        {"query_vector": [1.0, 0.0], "candidates": vec([1.0, 0.0])},
        InputError,
        "query_vector is read only by mmr, and mmr is None; pass mmr=lambda too, or drop "
        "query_vector",
        id="query-vector-without-mmr",
    ),
    pytest.param(
        {"mmr": 0.5, "mmr_k": 0, "candidates": vec([1.0, 0.0])},
        InputError,
        "mmr_k must be an int >= 1, got 0",
        id="mmr-k-zero",
    ),
]


@pytest.mark.parametrize(("case", "error", "message"), CASES)
def test_bad_input_is_rejected_with_the_same_class_and_message(
    backend: str, case: dict[str, Any], error: type[Exception], message: str
) -> None:
    options = {"tokenizer": "approx", **case}
    question = options.pop("question", "What is the relocation cap?")
    candidates = options.pop("candidates", ["The relocation cap for Berlin is 4000 EUR."])
    if "backend" not in options:
        options["backend"] = backend
    before = as_data((question, candidates, options))
    with pytest.raises(bp.BriefpackError) as info:
        bp.assemble(question, candidates, **options)
    assert type(info.value) is error
    assert str(info.value) == message
    assert as_data((question, candidates, options)) == before  # nothing mutated


def test_errors_are_value_errors_and_briefpack_errors() -> None:
    for cls in (InputError, BudgetError, bp.CitationError):
        assert issubclass(cls, bp.BriefpackError)
        assert issubclass(cls, ValueError)


def test_a_repeated_id_with_the_same_text_is_not_an_error(backend: str) -> None:
    # the same chunk retrieved twice (fusion of several retrievers): dropped later as a duplicate
    cands = [
        {"text": "The cap is 4000 EUR.", "id": "kb/1", "score": 0.9},
        {"text": "Leave is 14 weeks.", "id": "kb/2", "score": 0.8},
        {"text": "The cap is 4000 EUR.", "id": "kb/1", "score": 0.4},
    ]
    before = as_data(cands)
    result = bp.assemble("q", cands, tokenizer="approx", dedupe=None, backend=backend)
    assert [s.chunk.id for s in result.sources] == ["kb/1", "kb/2"]
    assert [(d.chunk.id, d.reason, d.detail["of"]) for d in result.dropped] == [
        ("kb/1", "duplicate", "kb/1")
    ]
    assert result.fates[2] == {
        "index": 2,
        "id": "kb/1",
        "fate": "dropped",
        "reason": "duplicate",
        "detail": {"of": "kb/1", "similarity": 1.0, "method": "id"},
    }
    assert as_data(cands) == before


def test_vectors_are_checked_only_when_a_stage_uses_them(backend: str) -> None:
    # Jaccard dedupe and no MMR: a vector is carried, never read, so it is not an error.
    cands = vec([math.nan, 0.0], "not a vector", [1.0])
    result = bp.assemble("q", cands, dedupe="jaccard", tokenizer="approx", backend=backend)
    assert len(result.sources) == 3


def test_numpy_vectors_are_checked_too(backend: str) -> None:
    np = pytest.importorskip("numpy")
    cases = [
        (np.array([[1.0, 0.0]]), "candidate 1 (id='b'): vector must be 1-D, got 2-D"),
        (np.array(["x", "y"]), "candidate 1 (id='b'): vector must hold numbers, got str"),
        (np.array([np.nan, 1.0]), f"candidate 1 (id='b'): {NOT_FINITE}"),
        (np.zeros(2, dtype=np.float32), f"candidate 1 (id='b'): {ZERO_NORM}"),
    ]
    for bad, message in cases:
        cands = vec(np.array([1.0, 0.0]), bad)
        with pytest.raises(InputError) as info:
            bp.assemble("q", cands, dedupe="cosine", tokenizer="approx", backend=backend)
        assert str(info.value) == message
        assert np.array_equal(cands[1].vector, bad, equal_nan=bad.dtype.kind == "f")


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("tokenizer", boom),
        ("rerank", lambda q, chunks: boom(q)),
        ("parents", lambda chunk: boom(chunk.text)),
        ("chunks_of", boom),
    ],
)
def test_every_callback_that_raises_is_wrapped_and_chained(
    backend: str, option: str, value: Any
) -> None:
    options = {"tokenizer": "approx", option: value, "backend": backend}
    if option == "chunks_of":
        options["neighbors"] = 1
    with pytest.raises(InputError) as info:
        bp.assemble("q", [bp.Chunk("x", doc="kb")], **options)
    assert isinstance(info.value.__cause__, ValueError)
    assert info.value.option == option
    assert f"the {option} callable raised ValueError: boom" in str(info.value)


def test_strict_cite_names_the_unknown_labels() -> None:
    assembly = bp.assemble("q", ["a", "b"], tokenizer="approx", dedupe=None, backend="python")
    with pytest.raises(bp.CitationError) as info:
        bp.cite("Yes [3]. No [1][4].", assembly)
    assert info.value.unknown == [3, 4]
    assert str(info.value) == (
        "the answer cites labels that were never in the context: [3, 4]; "
        "this assembly has labels 1-2"
    )
    with pytest.raises(InputError, match="answer must be a str, got bytes"):
        bp.cite(b"Yes [1].", assembly)  # type: ignore[arg-type]


def test_the_minhash_kernel_bounds_its_sizes_too(backend: str) -> None:
    with pytest.raises(InputError, match=r"^num_perm must be an int <= 8192, got 100000000$"):
        bp.kernels.dedupe_minhash(["a b c"], num_perm=10**8)
    with pytest.raises(InputError, match=r"^shingle must be an int <= 1024, got 1025$"):
        bp.kernels.dedupe_minhash(["a b c"], shingle=1025)


def test_mmr_k_without_mmr_is_an_error(backend: str) -> None:
    with pytest.raises(InputError, match="mmr_k limits MMR's picks but mmr is None"):
        bp.assemble("q", ["a"], mmr_k=2, tokenizer="approx", backend=backend)


def test_valid_unicode_in_ids_and_meta_passes_and_a_cyclic_meta_is_checked_once(
    backend: str,
) -> None:
    meta: dict[str, Any] = {"städte": ["東京", "é"]}
    meta["self"] = meta
    cands = [bp.Chunk("ok", id="東京/1", doc="é", parent=None, meta=meta)]
    result = bp.assemble("q", cands, tokenizer="approx", backend=backend)
    assert [s.chunk.id for s in result.sources] == ["東京/1"]


def test_numpy_numbers_are_numbers(backend: str) -> None:
    # a cross-encoder's float32 scores, numpy positions, token counts and budget fields
    np = pytest.importorskip("numpy")
    cands = [
        bp.Chunk("alpha beta", id="a", score=np.float32(0.9), position=np.int64(2)),
        {"text": "gamma delta", "id": "b", "score": np.float64(0.5), "tokens": np.int32(3)},
    ]
    result = bp.assemble(
        "q",
        cands,
        rerank=lambda q, chunks: np.array([0.25, 0.75], dtype=np.float32),
        budget=bp.Budget(context=np.int64(100), window=np.int64(1000), max_output=np.int16(10)),
        max_per_doc=np.int64(3),
        dedupe="jaccard",
        threshold=np.float32(0.5),
        tokenizer=lambda text: np.int64(len(text)),
        order="relevance",
        backend=backend,
    )
    assert [(s.chunk.id, s.chunk.score) for s in result.sources] == [("b", 0.75), ("a", 0.25)]
    assert result.sources[1].chunk.position == 2
    assert type(result.sources[1].chunk.position) is int
    record = result.record()
    assert record["settings"]["budget"] == {
        "context": 100, "window": 1000, "max_output": 10, "margin": 0,
    }  # fmt: skip
    assert record["settings"]["threshold"] == 0.5
    assert json.loads(json.dumps(record)) == record  # plain numbers, all of it


def test_numpy_options_become_plain_numbers() -> None:
    np = pytest.importorskip("numpy")
    options = bp.Options(
        mmr=np.float32(0.5), mmr_k=np.int64(2), neighbors=np.int64(1), chunks_of={},
        dedupe="minhash", minhash={"num_perm": np.int64(64), "seed": np.uint64(7)},
        budget=np.int64(9),
    )  # fmt: skip
    assert (options.mmr, options.mmr_k, options.neighbors) == (0.5, 2, 1)
    assert [type(v) for v in (options.mmr, options.mmr_k, options.neighbors)] == [float, int, int]
    assert options.minhash == {"num_perm": 64, "seed": 7}
    assert type(options.the_budget.context) is int
