"""The byte snapshot: today's output for thousands of seeded requests, pinned by sha256.

Every request comes from a seeded ``random.Random`` (no hypothesis, no clock), so the same
seed always builds the same request. Each one is stored as the sha256 of its full record
(``record(include_prompt=True)``, the backend's name normalised) or of its error (class and
message), once per backend (each backend's own bytes are pinned; their equality is the parity
tests' job); ``briefpack demo`` is stored in every ``--format``. ``tests/snapshot/test_snapshot.py``
checks all of them. To accept a deliberate change of output, regenerate the file and commit it
with the change (and a CHANGELOG line saying why)::

    python tests/snapshot/make.py            # rewrites snapshot.json, prints what changed
    python tests/snapshot/make.py --check    # prints what changed, writes nothing (exit 1 if any)

It prints the seeds whose hash changed, so a reviewer sees how much output moved.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import random
import sys
from pathlib import Path
from typing import Any

import briefpack as bp
import briefpack.reference

HERE = Path(__file__).resolve().parent
SNAPSHOT = HERE / "snapshot.json"
COUNT = 3000
PYTHON_EVERY = 3
PYTHON_SEEDS = range(0, COUNT, PYTHON_EVERY)
"""The reference backend answers every 3rd request (it is slower; Rust answers them all)."""
DEMO_FORMATS = ("text", "json", "messages")

WORDS = (
    *("relocation", "cap", "berlin", "4000", "eur", "apply", "within", "90", "days"),
    *("parental", "leave", "14", "weeks", "germany", "policy", "section", "guide"),
    *("the", "is", "for", "of", "and", "a"),
)
ODD_PIECES = ("<source>", "</source>", "[1]", "[2-4]", "&amp;", '"', "'", "\n", "東京", "é", "(")
UPDATED = ("", "2023-01-01", "2024-06-30", "2024-06-30T12:00:00+02:00", "2025-01-01", "soon")
VECTORS = ([1.0, 0.0, 0.0], [0.9, 0.1, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, -1.0], [1.0, 1.0, 1.0])


def words_tokenizer(text: str) -> int:
    """A caller's tokenizer: neither approx nor BPE."""
    return len(text.split()) + len(text) // 7 + text.count("<")


def rerank_by_length(question: str, chunks: list[bp.Chunk]) -> list[float]:
    """A deterministic reranker with ties."""
    return [float(len(c.text) % 3) for c in chunks]


def parent_of(chunk: bp.Chunk) -> dict[str, Any] | None:
    """A parents callable: chunks of doc d0 roll up into one section."""
    if chunk.doc != "d0":
        return None
    return {"text": "Section d0: relocation and leave policy.", "id": "d0/section", "title": "S"}


def _text(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(0, 10))]
    if rng.random() < 0.15:
        words.insert(rng.randint(0, len(words)), rng.choice(ODD_PIECES))
    return " ".join(words)


def _candidates(rng: random.Random, vectors: bool) -> list[Any]:
    out: list[Any] = []
    texts: list[str] = []
    for i in range(rng.randint(0, 7)):
        text = rng.choice(texts) if texts and rng.random() < 0.25 else _text(rng)
        texts.append(text)
        row: dict[str, Any] = {"text": text}
        if rng.random() < 0.7:
            row["id"] = f"c{rng.randint(0, 9) if rng.random() < 0.03 else i}"
        if rng.random() < 0.8:
            row["score"] = round(1.0 - i / 10 - rng.random() / 20, 3)
        if rng.random() < 0.7:
            row["doc"] = rng.choice(("d0", "d1", "d2"))
        if rng.random() < 0.5:
            row["position"] = rng.randint(0, 6)
        if rng.random() < 0.3:
            row["parent"] = rng.choice(("p0", "p1"))
        if rng.random() < 0.3:
            row["updated"] = rng.choice(UPDATED)
        if rng.random() < 0.3:
            row["url"] = rng.choice(("https://a/1", "https://a/2"))
        if rng.random() < 0.3:
            row["title"] = rng.choice(("Policy", "FAQ [3]", "A (b)"))
        if rng.random() < 0.1:
            row["tokens"] = rng.randint(0, 30)
        if vectors or rng.random() < 0.1:
            row["vector"] = list(rng.choice(VECTORS))
        out.append(bp.Chunk(**row) if rng.random() < 0.5 else (row if len(row) > 1 else text))
    return out


def _options(rng: random.Random, vectors: bool) -> dict[str, Any]:
    o: dict[str, Any] = {
        "tokenizer": rng.choice(("approx", "approx", "o200k_base", "cl100k_base", words_tokenizer)),
        "order": rng.choice(("relevance", "edges", "round_robin", "document")),
        "labels": rng.choice(("xml", "brackets")),
        "overflow": rng.choice(("stop", "skip")),
        "dedupe": rng.choice(("auto", "exact", "jaccard", "minhash", None)),
    }
    if rng.random() < 0.5:
        o["budget"] = rng.randint(0, 250)
    else:
        o["budget"] = bp.Budget(
            context=rng.choice((None, rng.randint(0, 250))),
            window=rng.randint(0, 700),
            max_output=rng.randint(0, 150),
            margin=rng.randint(0, 30),
        )
    if vectors and rng.random() < 0.5:
        o["dedupe"] = "cosine"
    if rng.random() < 0.3:
        threshold = rng.choice((0.0, 0.5, 0.8, 1.0))
        if o["dedupe"] not in (None, "exact"):  # which have no threshold (an error)
            o["threshold"] = threshold
    if rng.random() < 0.2:
        o["scope"] = "document"
    if rng.random() < 0.2:
        o["supersede"] = rng.choice(("url", "doc"))
    if rng.random() < 0.2:
        o["parents"] = (
            parent_of
            if rng.random() < 0.5
            else {"p0": {"text": "Parent zero text.", "title": "P0"}, "p1": {"text": "Parent one."}}
        )
    if rng.random() < 0.2:
        o["neighbors"] = rng.randint(1, 2)
        o["chunks_of"] = {
            d: [
                {"text": _text(rng), "id": f"c{k}", "position": k} for k in range(rng.randint(0, 5))
            ]
            for d in ("d0", "d1")
        }
    if rng.random() < 0.15:
        o["rerank"] = rerank_by_length
    if rng.random() < 0.2:
        o["max_per_doc"] = rng.randint(1, 3)
    if rng.random() < (0.5 if vectors else 0.03):
        o["mmr"] = rng.choice((0.0, 0.5, 1.0))
        if rng.random() < 0.5:
            o["mmr_k"] = rng.randint(1, 4)
    if o["dedupe"] == "minhash" and rng.random() < 0.5:
        o["minhash"] = {"num_perm": rng.choice((8, 16, 32)), "shingle": rng.randint(1, 3)}
    if rng.random() < 0.2:
        o["history"] = rng.choice(("Earlier: see [2].", [{"role": "user", "content": "Hi <b>"}]))
    if rng.random() < 0.3:
        o["system"], o["instructions"] = "Answer from the sources.", rng.choice((None, "Cite."))
    return o


_BAD_OPTIONS: tuple[tuple[str, Any], ...] = (
    ("order", "random"),
    ("labels", "html"),
    ("overflow", "cut"),
    ("dedupe", "fuzzy"),
    ("threshold", 1.5),
    ("scope", "doc"),
    ("supersede", "title"),
    ("budget", -1),
    ("budget", "big"),
    ("tokenizer", "gpt2"),
    ("backend", "gpu"),
    ("neighbors", -1),
    ("max_per_doc", 0),
    ("mmr", 2.0),
    ("mmr_k", 0),
    ("minhash", {"bands": 3}),
    ("rerank", "yes"),
    ("parents", 3),
    ("system", 3),
    ("instructions", 3),
)
_BAD_DATA: tuple[tuple[str, Any], ...] = (
    ("question", 3),
    ("question", "\ud800"),
    ("history", 5),
    ("history", [{"role": "x"}]),
    ("query_vector", [0.0, 0.0, 0.0]),
    ("candidates", "text"),
    ("candidate", {"text": "x", "score": float("nan")}),
    ("candidate", {"txt": "x"}),
    ("candidate", 7),
)


def request(seed: int) -> tuple[str, Any, dict[str, Any]]:
    """The request for ``seed``: ``(question, candidates, options)``; some are invalid."""
    rng = random.Random(seed)
    vectors = rng.random() < 0.3
    cands = _candidates(rng, vectors)
    options = _options(rng, vectors)
    if vectors and rng.random() < 0.5:
        query_vector = list(rng.choice(VECTORS))
        if "mmr" in options:  # only mmr reads it (an error without)
            options["query_vector"] = query_vector
    question: Any = rng.choice(("What is the relocation cap?", "Leave [2]?", "a < b & c"))
    if rng.random() < 0.06:
        name, value = rng.choice(_BAD_OPTIONS)
        options[name] = value
    if rng.random() < 0.06:
        name, value = rng.choice(_BAD_DATA)
        if name == "question":
            question = value
        elif name == "candidates":
            cands = value
        elif name == "candidate":
            cands = [*cands, value]
        else:
            options[name] = value
    if isinstance(options.get("chunks_of"), dict) and isinstance(cands, list):
        _agree(cands, options["chunks_of"])
    return question, cands, options


def _agree(cands: list[Any], chunks_of: dict[str, list[dict[str, Any]]]) -> None:
    """Give a neighbour list's chunk a hit's text where it has the hit's id (an id names one
    text; a list that disagrees is an error, which would hide the neighbour expansion)."""
    for c in cands:
        cid, doc, text = (
            (c.id, c.doc, c.text) if isinstance(c, bp.Chunk)
            else (c.get("id"), c.get("doc"), c.get("text")) if isinstance(c, dict)
            else (None, None, c)
        )  # fmt: skip
        for entry in chunks_of.get(doc, []) if cid is not None else []:
            if entry["id"] == cid and isinstance(text, str):
                entry["text"] = text


def outcome(seed: int, backend: str) -> str:
    """sha256 of the request's full record (backend name normalised), or of its error."""
    question, cands, options = request(seed)
    try:
        result = bp.assemble(question, cands, **{"backend": backend, **options})
    except bp.BriefpackError as exc:
        text = f"{type(exc).__name__}: {exc}"
    else:
        record = result.record(include_prompt=True)
        record["settings"]["backend"] = "*"
        text = json.dumps(record, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def demo(fmt: str) -> str:
    """sha256 of ``briefpack demo --tokenizer approx --format FMT`` (stdout and exit code)."""
    from briefpack import cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["demo", "--tokenizer", "approx", "--format", fmt])
    return hashlib.sha256(f"{code}\n{out.getvalue()}".encode()).hexdigest()


def build() -> dict[str, Any]:
    """Every stored hash: Rust on every seed, the reference on every ``PYTHON_EVERY``-th."""
    return {
        "rust": {str(seed): outcome(seed, "rust") for seed in range(COUNT)},
        "python": {str(seed): outcome(seed, "python") for seed in PYTHON_SEEDS},
        "demo": {fmt: demo(fmt) for fmt in DEMO_FORMATS},
    }


def main() -> int:
    try:  # the reference counts BPE tokens with tiktoken: without its files every hash would move
        bp.reference.count_tokens(["briefpack"], "o200k_base")
    except bp.BriefpackError as exc:
        print(f"not written: {exc}", file=sys.stderr)
        return 1
    old: dict[str, dict[str, str]] = json.loads(SNAPSHOT.read_text()) if SNAPSHOT.exists() else {}
    new = build()
    changed = [
        f"{part} {name}"
        for part, hashes in new.items()
        for name, digest in hashes.items()
        if old.get(part, {}).get(name) != digest
    ]
    check = "--check" in sys.argv[1:]
    if not check:
        SNAPSHOT.write_text(json.dumps(new, indent=0, sort_keys=True) + "\n")
    total = sum(map(len, new.values()))
    print(f"{len(changed)} of {total} stored outputs changed")
    for name in changed:
        print(f"  {name}")
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
