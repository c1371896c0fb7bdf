"""Each framework's own components against briefpack's drop-in: same hits, same budget, one run.

For every installed framework and every case (candidate count, with or without 1536-d
embeddings), both sides get the very same ranked hits and the same token budget, and take
turns: each run times a few calls of one side (about 0.2 s of them, at most ``--inner``), then
of the other (the order swaps every run), and the table shows the median of ``--runs`` runs,
per call. The budget is the drop-ins' default, 12,000 tokens. Both sides count tokens with
``approx`` (``len(text) // 4``); the frameworks' components have no token budget, so their
chain caps greedily in rank order, the cheapest honest stand-in.

* LangChain: ``EmbeddingsRedundantFilter`` (with embeddings) + cap + ``LongContextReorder``
  (langchain-community, when installed; else the same cap and reorder written by hand), against
  ``BriefpackCompressor`` (word Jaccard without embeddings, cosine with them).
* LlamaIndex: ``SimilarityPostprocessor`` + cap + ``LongContextReorder``, against
  ``BriefpackPostprocessor``.
* Haystack: two retrievers' lists (the hits, and the same hits in a second order) through
  ``DocumentJoiner`` (reciprocal rank fusion) + ``LostInTheMiddleRanker`` + ``ChatPromptBuilder``,
  against ``BriefpackPromptBuilder`` fed both lists.

The hits are real passages (``benches/workload.py``: ``../shared/corpus`` or
``BRIEFPACK_CORPUS``, else text it makes) with about 10% exact copies, 10% near copies and 20%
overlapping windows. The 1536-d embeddings are random but seeded (numpy, seed 0), an exact
copy's a small perturbation of its original's: no embedding model runs, so the times are the
components' own, and a model's cost would come on top of both sides alike. The columns after
the time say what each side hands the model: documents, exact copies among them (a text
placed twice), near copies (a pair of placed documents whose word sets overlap by Jaccard >= 0.8,
exact copies included) and tokens.

The last table is what Haystack's tracing writes for the ``assembly`` output of one run of 30
documents, with content tracing on: the whole ``Assembly.to_dict()`` (what it traced before),
the summary (the default now) and the record (``trace="record"``).

    python benches/integrations_side_by_side.py               # 50 and 200 hits, 7 runs
    python benches/integrations_side_by_side.py --quick       # 50 hits, 3 runs
    python benches/integrations_side_by_side.py --json        # rows as JSON too

``pytest benches/test_bench_integrations.py`` runs one small case of each as a smoke test.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")
sys.path.insert(0, str(Path(__file__).resolve().parent))

BUDGET = 12_000
"""The drop-ins' default budget (``assemble``'s), given to both sides."""
DIMS = 1536
QUESTION = "How do I configure the network interface?"


def approx(text: str) -> int:
    """``approx``'s count, the same on both sides."""
    return max(1, len(text) // 4)


def cap(items: Sequence[Any], text: Callable[[Any], str], budget: int = BUDGET) -> list[Any]:
    """Greedy in rank order; stop at the first item that does not fit (briefpack's default)."""
    kept, used = [], 0
    for it in items:
        cost = approx(text(it))
        if used + cost > budget:
            break
        kept.append(it)
        used += cost
    return kept


def edges(items: Sequence[Any]) -> list[Any]:
    """``LongContextReorder``'s order, by hand: best at the ends, worst in the middle."""
    out: list[Any] = []
    for i, it in enumerate(reversed(list(items))):
        if i % 2 == 1:
            out.append(it)
        else:
            out.insert(0, it)
    return out


@dataclass
class Hits:
    """One case: ranked hits (id, doc, text, score, and a vector when ``dims``)."""

    n: int
    dims: int
    rows: list[dict[str, Any]]

    @property
    def by_text(self) -> dict[str, Any]:
        return {str(r["text"]): r.get("vector") for r in self.rows}


def hits(n: int, dims: int, seed: int = 0) -> Hits:
    """``n`` ranked hits from the workload; ``dims`` > 0 adds seeded random vectors."""
    from workload import candidates

    rows = candidates(n, seed=seed, vectors=dims or None)
    for r in rows:
        if "vector" in r:
            r["vector"] = [float(x) for x in r["vector"]]  # as the frameworks hold them
    return Hits(n, dims, rows)


def words(text: str) -> set[str]:
    return set(text.lower().split())


def handed(texts: list[str]) -> dict[str, int]:
    """What one side hands the model: documents, exact and near copies, tokens."""
    exact = len(texts) - len(set(texts))
    sets = [words(t) for t in texts]
    near = 0
    for i in range(len(sets)):
        for j in range(i):
            a, b = sets[i], sets[j]
            if a and b and len(a & b) / len(a | b) >= 0.8:
                near += 1
                break
    return {
        "documents": len(texts),
        "exact": exact,
        "near": near,
        "tokens": sum(map(approx, texts)),
    }


@dataclass
class Side:
    """One contender: a name and a call that returns the texts it hands the model."""

    name: str
    call: Callable[[], list[str]]


@dataclass
class Case:
    framework: str
    hits: Hits
    sides: list[Side] = field(default_factory=list)
    note: str = ""


# ---- LangChain ------------------------------------------------------------------------------


def langchain_case(h: Hits) -> Case | None:
    try:
        from langchain_core.documents import Document
        from langchain_core.embeddings import Embeddings
    except ImportError:
        return None
    from briefpack.integrations.langchain import BriefpackCompressor

    table = h.by_text

    class Lookup(Embeddings):
        """The hits' own vectors (no model runs): a dict lookup per text."""

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [table[t] for t in texts]

        def embed_query(self, text: str) -> list[float]:
            return next(iter(table.values()))

    docs = [
        Document(str(r["text"]), id=str(r["id"]), metadata={"source": r["doc"]}) for r in h.rows
    ]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from langchain_community.document_transformers import (
                EmbeddingsRedundantFilter,
                LongContextReorder,
            )
        reorder: Callable[[list[Any]], list[Any]] = lambda d: list(  # noqa: E731
            LongContextReorder().transform_documents(d)
        )
        native = "EmbeddingsRedundantFilter + cap + LongContextReorder"
        redundant = EmbeddingsRedundantFilter(embeddings=Lookup()) if h.dims else None
        note = ""
    except ImportError:
        reorder, redundant = edges, None
        native = "cap + reorder (by hand)"
        note = "langchain-community not installed: the native side is cap + reorder by hand"
    if not h.dims:
        native = native.replace("EmbeddingsRedundantFilter + ", "")

    def lc_native() -> list[str]:
        kept = list(redundant.transform_documents(docs)) if redundant is not None else docs
        return [d.page_content for d in reorder(cap(kept, lambda d: d.page_content))]

    compressor = BriefpackCompressor(
        budget=BUDGET, tokenizer="approx", embeddings=Lookup() if h.dims else None
    )

    def lc_briefpack() -> list[str]:
        return [d.page_content for d in compressor.compress_documents(docs, QUESTION)]

    return Case(
        "LangChain", h, [Side(native, lc_native), Side("BriefpackCompressor", lc_briefpack)], note
    )


# ---- LlamaIndex -----------------------------------------------------------------------------


def llamaindex_case(h: Hits) -> Case | None:
    try:
        from llama_index.core.postprocessor import LongContextReorder, SimilarityPostprocessor
        from llama_index.core.schema import NodeWithScore, TextNode
    except ImportError:
        return None
    from briefpack.integrations.llamaindex import BriefpackPostprocessor

    nodes = [
        NodeWithScore(
            node=TextNode(text=str(r["text"]), id_=str(r["id"]), embedding=r.get("vector")),
            score=float(r["score"]),
        )
        for r in h.rows
    ]
    cutoff, reorder = SimilarityPostprocessor(similarity_cutoff=0.0), LongContextReorder()

    def li_native() -> list[str]:
        kept = cutoff.postprocess_nodes(nodes, query_str=QUESTION)
        out = reorder.postprocess_nodes(cap(kept, lambda x: x.node.get_content()))
        return [x.node.get_content() for x in out]

    post = BriefpackPostprocessor(budget=BUDGET, tokenizer="approx", label_nodes=False)

    def li_briefpack() -> list[str]:
        return [x.node.get_content() for x in post.postprocess_nodes(nodes, query_str=QUESTION)]

    native = "SimilarityPostprocessor + cap + LongContextReorder"
    return Case(
        "LlamaIndex", h, [Side(native, li_native), Side("BriefpackPostprocessor", li_briefpack)]
    )


# ---- Haystack -------------------------------------------------------------------------------

_TEMPLATE = (
    '{% for doc in documents %}<source id="{{ loop.index }}">\n{{ doc.content }}\n</source>\n'
    "{% endfor %}\nQuestion: {{ query }}"
)


def haystack_lists(h: Hits) -> list[list[Any]]:
    """The hits as two retrievers return them: in rank order, and in a second (seeded) order
    that keeps the first half's best near the top."""
    from haystack import Document

    docs = [
        Document(
            content=str(r["text"]),
            id=str(r["id"]),
            score=float(r["score"]),
            embedding=r.get("vector"),
            meta={"source_id": r["doc"]},
        )
        for r in h.rows
    ]
    rng = random.Random(1)
    second = sorted(docs, key=lambda d: (d.score or 0.0) + rng.random() * 0.5, reverse=True)
    return [docs, second]


def haystack_case(h: Hits) -> Case | None:
    try:
        from haystack.components.builders import ChatPromptBuilder
        from haystack.components.joiners import DocumentJoiner
        from haystack.components.rankers import LostInTheMiddleRanker
        from haystack.dataclasses import ChatMessage
    except ImportError:
        return None
    from briefpack.integrations.haystack import BriefpackPromptBuilder

    lists = haystack_lists(h)
    # the ranker caps words, not tokens: give it these hits' words per approx token (it stops
    # once the threshold is reached, so it may overshoot by one document)
    per_token = sum(len(str(r["text"]).split()) for r in h.rows) / sum(
        approx(str(r["text"])) for r in h.rows
    )
    joiner = DocumentJoiner(join_mode="reciprocal_rank_fusion")
    ranker = LostInTheMiddleRanker(word_count_threshold=int(BUDGET * per_token))
    builder = ChatPromptBuilder(
        template=[
            ChatMessage.from_system("Answer from the sources."),
            ChatMessage.from_user(_TEMPLATE),
        ],
        required_variables=["documents", "query"],
    )

    def hs_native() -> list[str]:
        joined = joiner.run(documents=lists)["documents"]
        ranked = ranker.run(documents=joined)["documents"]
        builder.run(documents=ranked, query=QUESTION)
        return [d.content for d in ranked]

    ours = BriefpackPromptBuilder(budget=BUDGET, tokenizer="approx", annotate=False)

    def hs_briefpack() -> list[str]:
        return [d.content for d in ours.run(documents=lists, query=QUESTION)["documents"]]

    native = "DocumentJoiner + LostInTheMiddleRanker + ChatPromptBuilder"
    return Case(
        "Haystack", h, [Side(native, hs_native), Side("BriefpackPromptBuilder", hs_briefpack)]
    )


CASES: dict[str, Callable[[Hits], Case | None]] = {
    "langchain": langchain_case,
    "llamaindex": llamaindex_case,
    "haystack": haystack_case,
}


# ---- timing ---------------------------------------------------------------------------------


def measure(case: Case, runs: int, inner: int) -> list[dict[str, Any]]:
    """Median ms per call of each side over ``runs`` interleaved runs of up to ``inner`` calls
    (fewer for a slow side: about 0.2 s of calls per run, at least one)."""
    calls: dict[str, int] = {}
    for side in case.sides:
        side.call()  # warm-up: imports, caches, the assembler's first build
        start = time.perf_counter()
        side.call()
        took = time.perf_counter() - start
        calls[side.name] = max(1, min(inner, int(0.2 / max(took, 1e-6))))
    times: dict[str, list[float]] = {s.name: [] for s in case.sides}
    for r in range(runs):
        order = case.sides if r % 2 == 0 else list(reversed(case.sides))
        for side in order:
            k = calls[side.name]
            start = time.perf_counter()
            for _ in range(k):
                side.call()
            times[side.name].append((time.perf_counter() - start) * 1e3 / k)
    rows = []
    for side in case.sides:
        rows.append(
            {
                "framework": case.framework,
                "hits": case.hits.n,
                "vectors": case.hits.dims,
                "side": side.name,
                "ms": statistics.median(times[side.name]),
                **handed(side.call()),
                "note": case.note,
            }
        )
    return rows


def trace_bytes(n: int = 30) -> dict[str, int] | None:
    """Bytes Haystack's tracers write for the ``assembly`` output of one run of ``n`` hits."""
    try:
        from haystack.tracing.utils import coerce_tag_value
    except ImportError:
        return None
    import briefpack as bp
    from briefpack.integrations.haystack import BriefpackPromptBuilder

    [docs, _] = haystack_lists(hits(n, 0))
    out = {}
    for trace in ("summary", "record"):
        run = BriefpackPromptBuilder(budget=BUDGET, tokenizer="approx", trace=trace).run(
            documents=docs, query=QUESTION
        )
        out[trace] = len(str(coerce_tag_value(run["assembly"])).encode())
        plain = bp.Assembly.from_dict(run["assembly"].to_dict())  # no trace hook: as before
        out["to_dict"] = len(str(coerce_tag_value(plain)).encode())
        out["outputs_" + trace] = len(str(coerce_tag_value(run)).encode())
    out["documents"] = n
    return out


def table(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| framework | hits | vectors | side | ms per call (median) | documents | exact copies "
        "| near copies | tokens |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        vec = f"{r['vectors']}-d" if r["vectors"] else "none"
        lines.append(
            f"| {r['framework']} | {r['hits']} | {vec} | {r['side']} | {r['ms']:.2f} "
            f"| {r['documents']} | {r['exact']} | {r['near']} | {r['tokens']:,} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hits", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--runs", type=int, default=7, help="interleaved runs (median)")
    parser.add_argument("--inner", type=int, default=20, help="most calls per side per run")
    parser.add_argument("--quick", action="store_true", help="50 hits, 3 runs, 3 calls")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON too")
    args = parser.parse_args()
    if args.quick:
        args.hits, args.runs, args.inner = [50], 3, 3
    rows: list[dict[str, Any]] = []
    notes: set[str] = set()
    for name, make in CASES.items():
        for n in args.hits:
            for dims in (0, DIMS):
                case = make(hits(n, dims))
                if case is None:
                    notes.add(f"{name} not installed: skipped")
                    break
                print(f"{case.framework} {n} hits, vectors={dims}", file=sys.stderr, flush=True)
                rows += measure(case, args.runs, args.inner)
                if case.note:
                    notes.add(case.note)
    print("\n".join(table(rows)))
    for note in sorted(notes):
        print(f"\n{note}")
    traced = trace_bytes()
    if traced is not None:
        print(
            f"\nHaystack, {traced['documents']} documents, content tracing on: the `assembly` "
            f"output traces as {traced['to_dict']:,} bytes as to_dict() (before), "
            f"{traced['summary']:,} as the summary (default), {traced['record']:,} as the "
            f'record (trace="record"); all outputs of the run: '
            f"{traced['outputs_summary']:,} / {traced['outputs_record']:,} bytes"
        )
    if args.json:
        print("ROWS " + json.dumps({"rows": rows, "trace_bytes": traced}))


if __name__ == "__main__":
    main()
