"""Options as a user passes them: must type-check under mypy --strict and pyright strict."""

from __future__ import annotations

from collections.abc import Sequence

import briefpack as bp
from briefpack.options import AssembleOptions


def rerank(question: str, chunks: list[bp.Chunk]) -> Sequence[float]:
    return [float(len(c.text)) for c in chunks]


def main() -> None:
    chunks = [bp.Chunk("Leave is 14 weeks.", id="hr/1"), bp.Chunk("The cap is 4000 EUR.")]
    a = bp.assemble(
        "Leave?",
        chunks,
        budget=bp.Budget(window=8192, max_output=1024),
        order="relevance",
        dedupe="minhash",
        minhash={"num_perm": 64},
        overflow="skip",
        labels="brackets",
        compress="overflow",
        compress_cut=0.5,
        tokenizer="approx",
        rerank=rerank,
        history=[{"role": "user", "content": "Hi"}],
    )
    asm = bp.Assembler(budget=500, tokenizer=len, image_tokens=lambda w, h: w * h // 750)
    asm = asm.replace(order="document", backend="python", fallback=None)
    shared: AssembleOptions = {"budget": 500, "tokenizer": "approx", "supersede": "url"}
    results = bp.assemble_many([("Leave?", chunks)], workers=1, **shared)
    failures = bp.assemble_many([("Leave?", chunks)], return_exceptions=True, history="Hi")
    many = asm.many([("Leave?", chunks)])
    print(a.user, results[0].user, failures[0], many[0].user, bp.Options(**shared).order)
