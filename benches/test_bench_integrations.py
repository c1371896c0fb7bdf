"""What the framework drop-ins save against the frameworks' own components, on the same input.

Each group runs one framework's usual chain and briefpack's drop-in on the same ranked
candidates (a quarter of them near duplicates: a copy of a better-ranked passage with one
word changed) under the same token budget (``approx`` counts, ``len(text) // 4``, on both
sides; the frameworks' components have no budget, so their chain ends with a greedy cap in
rank order, the cheapest honest stand-in):

* LangChain: ``EmbeddingsRedundantFilter`` + cap + ``LongContextReorder`` against
  ``BriefpackCompressor`` (word Jaccard, no model) and ``BriefpackCompressor(embeddings=...)``
  (cosine over the same vectors the filter uses).
* LlamaIndex: ``SimilarityPostprocessor`` + cap + ``LongContextReorder`` against
  ``BriefpackPostprocessor``.
* Haystack: ``LostInTheMiddleRanker`` + ``ChatPromptBuilder`` against
  ``BriefpackPromptBuilder``.

``extra_info`` records what each side hands the model: documents, near duplicates that got
through, and tokens. The embeddings are a deterministic bag-of-words stand-in that costs
microseconds; a real embedding model costs far more, so the filter's times here are a floor.
Run: ``pytest benches/test_bench_integrations.py --benchmark-enable``.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import re
import warnings
from collections.abc import Callable
from typing import Any

import pytest

os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")

SIZES = [100, 1000]
BUDGET = 3000
DUP_EVERY = 4

_WORDS = (  # noqa: SIM905 - a word list reads best as words
    "leave relocation salary office remote travel policy contract benefit pension insurance "
    "holiday training laptop expense visa parental sick notice probation bonus equity review "
    "manager team onboarding security badge parking meal gym health dental vision retirement "
    "overtime shift weekend payroll tax invoice receipt budget approval deadline quarter"
).split()


def _corpus(n: int, seed: int = 7) -> list[dict[str, Any]]:
    """``n`` ranked passages; every ``DUP_EVERY``-th is a one-word edit of an earlier one."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for i in range(n):
        if i % DUP_EVERY == DUP_EVERY - 1 and out:
            src = out[rng.randrange(len(out))]
            words = src["text"].split()
            words[rng.randrange(len(words))] = rng.choice(_WORDS)
            text, dup_of = " ".join(words), src["id"]
        else:
            text = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(40, 80))) + "."
            dup_of = None
        out.append(
            {
                "id": f"p{i}",
                "text": text,
                "doc": f"doc{rng.randrange(max(1, n // 5))}",
                "score": round(1.0 - i / (n + 1), 6),
                "dup_of": dup_of,
            }
        )
    return out


def _approx(text: str) -> int:
    """The side-by-side script's ``approx`` count."""
    n: int = _side_by_side().approx(text)
    return n


def _cap(items: list[Any], text: Callable[[Any], str]) -> list[Any]:
    """The side-by-side script's greedy cap, at this module's budget."""
    kept: list[Any] = _side_by_side().cap(items, text, BUDGET)
    return kept


def _bow(text: str, dim: int = 256) -> list[float]:
    v = [0.0] * dim
    for word in re.findall(r"\w+", text.lower()):
        v[int(hashlib.md5(word.encode()).hexdigest(), 16) % dim] += 1.0
    norm = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / norm for x in v]


def _leaked(ids: list[str], corpus: list[dict[str, Any]]) -> int:
    """Near duplicates handed to the model together with the passage they copy."""
    dup_of = {c["id"]: c["dup_of"] for c in corpus}
    chosen = set(ids)
    return sum(1 for i in ids if dup_of.get(i) in chosen)


def _info(benchmark: Any, ids: list[str], texts: list[str], corpus: list[dict[str, Any]]) -> None:
    benchmark.extra_info.update(
        {
            "documents": len(ids),
            "near_duplicates": _leaked(ids, corpus),
            "tokens": sum(map(_approx, texts)),
        }
    )


# ---------------------------------------------------------------- LangChain


@pytest.fixture(scope="module")
def lc() -> Any:
    pytest.importorskip("langchain_core")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # langchain-community is sunsetting
        transformers = pytest.importorskip("langchain_community.document_transformers")
    from langchain_core.documents import Document
    from langchain_core.embeddings import Embeddings

    class BagOfWords(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [_bow(t) for t in texts]

        def embed_query(self, text: str) -> list[float]:
            return _bow(text)

    return {"Document": Document, "BagOfWords": BagOfWords, "t": transformers}


@pytest.mark.parametrize("n", SIZES)
def test_langchain_filter_and_reorder(benchmark: Any, lc: Any, n: int) -> None:
    corpus = _corpus(n)
    docs = [lc["Document"](c["text"], id=c["id"], metadata={"source": c["doc"]}) for c in corpus]
    ids_of = {c["text"]: c["id"] for c in corpus}  # the filter drops Document.id
    dedupe = lc["t"].EmbeddingsRedundantFilter(embeddings=lc["BagOfWords"]())
    reorder = lc["t"].LongContextReorder()
    benchmark.group = f"langchain n={n}"

    def run() -> list[Any]:
        kept = dedupe.transform_documents(docs)
        return list(reorder.transform_documents(_cap(list(kept), lambda d: d.page_content)))

    out = benchmark(run)
    _info(benchmark, [ids_of[d.page_content] for d in out], [d.page_content for d in out], corpus)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("variant", ["jaccard", "cosine"])
def test_langchain_briefpack(benchmark: Any, lc: Any, n: int, variant: str) -> None:
    from briefpack.integrations.langchain import BriefpackCompressor

    corpus = _corpus(n)
    docs = [lc["Document"](c["text"], id=c["id"], metadata={"source": c["doc"]}) for c in corpus]
    emb = lc["BagOfWords"]() if variant == "cosine" else None
    compressor = BriefpackCompressor(budget=BUDGET, tokenizer="approx", embeddings=emb)
    benchmark.group = f"langchain n={n}"
    out = benchmark(compressor.compress_documents, docs, "What is the relocation policy?")
    _info(benchmark, [d.id for d in out], [d.page_content for d in out], corpus)


# ---------------------------------------------------------------- LlamaIndex


def _nodes(corpus: list[dict[str, Any]]) -> list[Any]:
    from llama_index.core.schema import NodeWithScore, TextNode

    return [
        NodeWithScore(node=TextNode(text=c["text"], id_=c["id"]), score=c["score"]) for c in corpus
    ]


@pytest.mark.parametrize("n", SIZES)
def test_llamaindex_similarity_and_reorder(benchmark: Any, n: int) -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core.postprocessor import LongContextReorder, SimilarityPostprocessor

    corpus = _corpus(n)
    nodes = _nodes(corpus)
    cutoff, reorder = SimilarityPostprocessor(similarity_cutoff=0.2), LongContextReorder()
    benchmark.group = f"llamaindex n={n}"

    def run() -> list[Any]:
        kept = cutoff.postprocess_nodes(nodes, query_str="relocation policy")
        return reorder.postprocess_nodes(_cap(kept, lambda x: x.node.get_content()))

    out = benchmark(run)
    _info(benchmark, [x.node_id for x in out], [x.node.get_content() for x in out], corpus)


@pytest.mark.parametrize("n", SIZES)
def test_llamaindex_briefpack(benchmark: Any, n: int) -> None:
    pytest.importorskip("llama_index.core")
    from briefpack.integrations.llamaindex import BriefpackPostprocessor

    corpus = _corpus(n)
    nodes = _nodes(corpus)
    post = BriefpackPostprocessor(budget=BUDGET, tokenizer="approx")
    benchmark.group = f"llamaindex n={n}"
    out = benchmark(post.postprocess_nodes, nodes, query_str="relocation policy")
    _info(benchmark, [x.node_id for x in out], [x.node.get_content() for x in out], corpus)


# ---------------------------------------------------------------- Haystack

_TEMPLATE = (
    '{% for doc in documents %}<source id="{{ loop.index }}">\n{{ doc.content }}\n</source>\n'
    "{% endfor %}\nQuestion: {{ query }}"
)


def _haystack_docs(corpus: list[dict[str, Any]]) -> list[Any]:
    from haystack import Document

    return [
        Document(content=c["text"], id=c["id"], score=c["score"], meta={"source_id": c["doc"]})
        for c in corpus
    ]


@pytest.mark.parametrize("n", SIZES)
def test_haystack_ranker_and_prompt_builder(benchmark: Any, n: int) -> None:
    pytest.importorskip("haystack")
    from haystack.components.builders import ChatPromptBuilder
    from haystack.components.rankers import LostInTheMiddleRanker
    from haystack.dataclasses import ChatMessage

    corpus = _corpus(n)
    docs = _haystack_docs(corpus)
    # The ranker caps words, not tokens: give it this corpus's words per approx token. It
    # stops only once the threshold is reached, so it overshoots by up to one document.
    per_token = sum(len(c["text"].split()) for c in corpus) / sum(
        _approx(c["text"]) for c in corpus
    )
    ranker = LostInTheMiddleRanker(word_count_threshold=int(BUDGET * per_token))
    builder = ChatPromptBuilder(
        template=[
            ChatMessage.from_system("Answer from the sources."),
            ChatMessage.from_user(_TEMPLATE),
        ],
        required_variables=["documents", "query"],
    )
    benchmark.group = f"haystack n={n}"

    def run() -> tuple[list[Any], Any]:
        ranked = ranker.run(documents=docs)["documents"]
        return ranked, builder.run(documents=ranked, query="relocation policy?")["prompt"]

    ranked, _ = benchmark(run)
    _info(benchmark, [d.id for d in ranked], [d.content for d in ranked], corpus)


@pytest.mark.parametrize("n", SIZES)
def test_haystack_briefpack(benchmark: Any, n: int) -> None:
    pytest.importorskip("haystack")
    from briefpack.integrations.haystack import BriefpackPromptBuilder

    corpus = _corpus(n)
    docs = _haystack_docs(corpus)
    builder = BriefpackPromptBuilder(budget=BUDGET, tokenizer="approx", annotate=False)
    benchmark.group = f"haystack n={n}"
    out = benchmark(builder.run, documents=docs, query="relocation policy?")
    placed = out["documents"]
    _info(benchmark, [d.id for d in placed], [d.content for d in placed], corpus)


# ---------------------------------------------------------------- the adapters' own cost


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("framework", ["langchain", "llamaindex", "haystack"])
def test_assemble_alone(benchmark: Any, framework: str, n: int) -> None:
    """``assemble`` on ready-made Chunks: the drop-in's time minus this is the adapter's."""
    import briefpack as bp

    corpus = _corpus(n)
    chunks = [bp.Chunk(c["text"], id=c["id"], score=c["score"], doc=c["doc"]) for c in corpus]
    benchmark.group = f"{framework} n={n}"
    a = benchmark(bp.assemble, "relocation policy?", chunks, budget=BUDGET, tokenizer="approx")
    _info(benchmark, [s.chunk.id for s in a.sources], [s.chunk.text for s in a.sources], corpus)


# ---------------------------------------------------------------- side by side (the script)
# ``benches/integrations_side_by_side.py`` measures these pairs in turns and reports medians
# (docs/integrations.md, "Side by side"); here each side of each case runs once (timing off),
# 40 hits, with and without the 1536-d seeded vectors.


def _side_by_side() -> Any:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import integrations_side_by_side

    return integrations_side_by_side


@pytest.mark.parametrize("dims", [0, 1536])
@pytest.mark.parametrize("framework", ["langchain", "llamaindex", "haystack"])
def test_side_by_side(benchmark: Any, framework: str, dims: int) -> None:
    sbs = _side_by_side()
    pytest.importorskip(
        {"langchain": "langchain_core", "llamaindex": "llama_index.core"}.get(framework, framework)
    )
    if dims:
        pytest.importorskip("numpy")
    case = sbs.CASES[framework](sbs.hits(40, dims))
    native, ours = case.sides
    benchmark.group = f"side by side {framework} vectors={dims}"
    got = benchmark(ours.call)
    handed = sbs.handed(got)
    assert handed["exact"] == 0  # briefpack hands no text twice
    assert 0 < handed["tokens"] <= sbs.BUDGET
    assert sbs.handed(native.call())["documents"] > 0
    [row_native, row_ours] = sbs.measure(case, runs=1, inner=1)
    assert (row_native["side"], row_ours["side"]) == (native.name, ours.name)


def test_side_by_side_trace_bytes() -> None:
    pytest.importorskip("haystack")
    got = _side_by_side().trace_bytes(30)
    assert got["summary"] < 2_000 < got["record"] < got["to_dict"]
