"""Realistic candidate sets for the benchmarks and the stress script.

Built from the real passage corpus in ``../shared/corpus/`` when it is there, else from text this
module makes itself (so the benches run anywhere). The mix follows what retrieval returns:
about 10% exact copies, 10% near copies (a few words changed), 20% overlapping windows (a
passage's second half joined to the next one's first half), the rest distinct passages.
"""

from __future__ import annotations

import gzip
import json
import os
import random
from functools import cache
from pathlib import Path

CORPUS = Path(
    os.environ.get("BRIEFPACK_CORPUS")
    or Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "passages.jsonl.gz"
)
"""The corpus of passages; ``BRIEFPACK_CORPUS`` names another place (a checkout that is not
next to ``shared``, such as a git worktree)."""

_WORDS = [
    "the",
    "a",
    "of",
    "to",
    "and",
    "in",
    "is",
    "for",
    "on",
    "with",
    "as",
    "by",
    "that",
    "this",
    "from",
    "at",
    "or",
    "be",
    "are",
    "it",
    "was",
    "which",
    "an",
    "system",
    "file",
    "user",
    "data",
    "value",
    "option",
    "command",
    "process",
    "memory",
    "network",
    "server",
    "client",
    "package",
    "install",
    "configure",
    "module",
    "function",
    "return",
    "error",
    "default",
    "path",
    "string",
    "number",
    "list",
    "table",
    "Berlin",
    "relocation",
    "policy",
    "leave",
    "weeks",
    "budget",
    "token",
    "context",
    "source",
    "answer",
    "model",
    "question",
]


@cache
def corpus_rows(limit: int | None = None) -> tuple[dict[str, object], ...]:
    """The corpus rows (id, doc, text, score, ...), or synthetic rows when it is absent."""
    if CORPUS.is_file():
        rows = []
        with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
            for line in fh:
                rows.append(json.loads(line))
                if limit is not None and len(rows) >= limit:
                    break
        return tuple(rows)
    rng = random.Random(7)
    n = limit or 21_517
    out = []
    for i in range(n):
        text = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(120, 320)))
        out.append({"id": f"s{i}", "doc": f"doc{i // 8}", "text": text, "score": 1.0})
    return tuple(out)


def _near_copy(text: str, rng: random.Random) -> str:
    words = text.split()
    for _ in range(max(1, len(words) // 40)):
        words[rng.randrange(len(words))] = rng.choice(_WORDS)
    return " ".join(words)


def candidates(n: int, *, seed: int = 0, vectors: int | None = None) -> list[dict[str, object]]:
    """``n`` candidate dicts in rank order with the duplicate mix; optional ``vectors`` dims.

    Vectors (float32 lists via numpy) are random unit directions per distinct passage, with
    small perturbations for near copies, so cosine dedupe has real work.
    """
    rng = random.Random(seed)
    rows = corpus_rows()
    base = [rows[(seed * 7919 + i * 104729) % len(rows)] for i in range(n)]
    out: list[dict[str, object]] = []
    for i in range(n):
        row = base[i]
        text = str(row["text"])
        roll = rng.random()
        if out and roll < 0.10:
            text = str(out[rng.randrange(len(out))]["text"])
        elif out and roll < 0.20:
            text = _near_copy(str(out[rng.randrange(len(out))]["text"]), rng)
        elif roll < 0.40:
            nxt = str(base[(i + 1) % n]["text"])
            text = text[len(text) // 2 :] + " " + nxt[: len(nxt) // 2]
        out.append(
            {
                "id": f"c{i}",
                "doc": str(row["doc"]),
                "text": text,
                "score": round(1.0 - i / (n + 1), 6),
            }
        )
    if vectors:
        import numpy as np

        gen = np.random.default_rng(seed)
        mat = gen.standard_normal((n, vectors)).astype(np.float32)
        texts: dict[str, int] = {}
        for i, c in enumerate(out):
            j = texts.setdefault(str(c["text"]), i)
            if j != i:
                mat[i] = mat[j] + gen.standard_normal(vectors).astype(np.float32) * 0.01
        for i, c in enumerate(out):
            c["vector"] = mat[i]
    return out


def texts(n: int, *, seed: int = 0) -> list[str]:
    """Just the texts of ``candidates(n)``."""
    return [str(c["text"]) for c in candidates(n, seed=seed)]
