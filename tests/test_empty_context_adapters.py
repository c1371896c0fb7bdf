"""Each adapter, with a top item over its budget, returns a non-empty context (the best item
cut to its most relevant sentences); with ``fallback=None`` it returns nothing, logs a WARNING
with ``empty_reason`` and exposes the Assembly with it. The LangChain
``ParentDocumentRetriever`` recipe (``keys={"parent": "doc_id"}``, parents of 5k-15k tokens,
the adapters' 4,000-token budget) turns 12 child hits into a context, not into nothing."""

from __future__ import annotations

import logging
from typing import Any

import pytest

import briefpack as bp

QUESTION = "What is the relocation cap for Berlin?"


def _page(n: int, seed: int) -> str:
    out = []
    for i in range(n):
        if i % 41 == seed % 41:
            out.append(f"The relocation cap for Berlin is {4000 + i} EUR under rule {seed}.{i}.")
        else:
            out.append(
                f"Clause {seed}.{i} covers office hours, badges and the parking rota in hall {i}."
            )
    return " ".join(out)


PARENTS = {f"p{k}": _page(n, k) for k, n in enumerate((300, 450, 600, 780))}


def test_the_parents_are_5k_to_15k_tokens() -> None:
    counts = bp.count_tokens(list(PARENTS.values()))
    assert min(counts) >= 5000
    assert max(counts) <= 15000


def _warned(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


# ------------------------------------------------------------------- LangChain


def test_langchain_parent_document_retriever_recipe_is_not_empty() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.documents import Document
    from langchain_core.stores import InMemoryStore

    from briefpack.integrations.langchain import BriefpackCompressor, parents_from_store

    store = InMemoryStore()
    store.mset([(pid, Document(text)) for pid, text in PARENTS.items()])
    children = []
    for j in range(12):  # 12 child hits, three per parent
        pid = f"p{j % 4}"
        sentences = bp.split_sentences([PARENTS[pid]])[0]
        children.append(Document(sentences[j * 7], id=f"c{j}", metadata={"doc_id": pid}))
    compressor = BriefpackCompressor(
        budget=4000, keys={"parent": "doc_id"}, options={"parents": parents_from_store(store)}
    )
    out = compressor.compress_documents(children, QUESTION)
    assert out, "the recipe returned no document"
    a = compressor.assemble(children, QUESTION)
    assert a.empty_reason is None
    assert a.sources[0].compression is not None
    assert a.tokens["sources"] <= 4000


def test_langchain_fallback_none_warns(caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.documents import Document

    from briefpack.integrations.langchain import BriefpackCompressor

    docs = [Document(PARENTS["p3"], id="big")]
    compressor = BriefpackCompressor(budget=4000, options={"fallback": None})
    with caplog.at_level(logging.WARNING, logger="briefpack"):
        out = compressor.compress_documents(docs, QUESTION)
    assert out == []
    warned = _warned(caplog)
    assert any("BriefpackCompressor" in w and "empty context" in w for w in warned), warned
    assert compressor.assemble(docs, QUESTION).empty_reason is not None


# ------------------------------------------------------------------- LlamaIndex


def _nodes() -> list[Any]:
    from llama_index.core.schema import NodeWithScore, TextNode

    return [
        NodeWithScore(node=TextNode(text=PARENTS["p2"], id_="big"), score=0.9),
        NodeWithScore(node=TextNode(text=PARENTS["p3"], id_="bigger"), score=0.8),
    ]


def test_llamaindex_top_node_over_budget_is_placed_cut() -> None:
    pytest.importorskip("llama_index.core")
    from briefpack.integrations.llamaindex import BriefpackPostprocessor

    post = BriefpackPostprocessor(budget=4000)
    out = post.postprocess_nodes(_nodes(), query_str=QUESTION)
    assert [n.node.node_id for n in out][:1] == ["big"]
    assert post.last_assembly is not None
    assert post.last_assembly.empty_reason is None
    assert post.last_assembly.sources[0].compression is not None


def test_llamaindex_fallback_none_warns(caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("llama_index.core")
    from briefpack.integrations.llamaindex import BriefpackPostprocessor

    post = BriefpackPostprocessor(budget=4000, options={"fallback": None})
    with caplog.at_level(logging.WARNING, logger="briefpack"):
        out = post.postprocess_nodes(_nodes(), query_str=QUESTION)
    assert out == []
    assert post.last_assembly is not None
    reason = post.last_assembly.empty_reason
    assert reason is not None
    assert any(reason in w for w in _warned(caplog))


# ------------------------------------------------------------------- Haystack


def test_haystack_top_document_over_budget_is_placed_cut(caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("haystack")
    from haystack import Document

    from briefpack.integrations.haystack import BriefpackPromptBuilder

    docs = [Document(content=PARENTS["p1"], id="big"), Document(content=PARENTS["p0"], id="b")]
    out = BriefpackPromptBuilder(budget=4000).run(documents=docs, query=QUESTION)
    assert out["documents"]
    assert out["assembly"].empty_reason is None
    assert out["assembly"].sources[0].compression is not None
    with caplog.at_level(logging.WARNING, logger="briefpack"):
        out = BriefpackPromptBuilder(budget=4000, options={"fallback": None}).run(
            documents=docs, query=QUESTION
        )
    assert out["documents"] == []
    reason = out["assembly"].empty_reason
    assert reason is not None
    assert any("BriefpackPromptBuilder" in w and reason in w for w in _warned(caplog))
