"""briefpack.integrations.langchain against the real langchain-core objects (no mocks)."""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import warnings
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.documents import BaseDocumentCompressor, BaseDocumentTransformer, Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.fake_chat_models import ParrotFakeChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.prompt_values import ChatPromptValue
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from langchain_core.stores import InMemoryStore
from langchain_core.vectorstores import InMemoryVectorStore

import briefpack as bp
from briefpack.integrations.langchain import (
    BriefpackCompressor,
    parents_from_store,
    prompt_runnable,
    to_chunks,
    to_messages,
)


class BagOfWords(Embeddings):
    """A deterministic stand-in for an embedding model: hashed word counts, L2-normalised."""

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim
        self.document_calls = 0

    def _vector(self, text: str) -> list[float]:
        v = [0.0] * self.dim
        for word in re.findall(r"\w+", text.lower()):
            v[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        norm = math.sqrt(sum(x * x for x in v)) or 1.0
        return [x / norm for x in v] if any(v) else [1.0] + [0.0] * (self.dim - 1)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.document_calls += 1
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


def _docs() -> list[Document]:
    return [
        Document(
            "Parental leave in Germany is 14 weeks at full pay.",
            id="hr/1",
            metadata={"source": "handbook.pdf", "start_index": 0, "title": "Leave", "page": 3},
        ),
        Document(
            "Parental leave in Germany is 14 weeks at full pay!",
            id="faq/3",
            metadata={"source": "faq.md", "relevance_score": 0.8},
        ),
        Document(
            "The relocation cap for Berlin is 4000 EUR.",
            id="hr/7",
            metadata={"source": "handbook.pdf", "start_index": 900, "title": "Relocation"},
        ),
        Document(
            "Employees may work remotely up to three days a week.",
            id="hr/9",
            metadata={"source": "handbook.pdf", "start_index": 1500},
        ),
        Document(
            "Sick leave needs a doctor's note from the third day.",
            id="wiki/2",
            metadata={"source": "wiki", "url": "https://wiki.example/sick"},
        ),
    ]


def test_it_is_a_compressor_and_a_transformer() -> None:
    c = BriefpackCompressor(tokenizer="approx")
    assert isinstance(c, BaseDocumentCompressor)
    assert isinstance(c, BaseDocumentTransformer)


def test_compress_dedupes_orders_and_keeps_ids_and_metadata() -> None:
    docs = _docs()
    before = [d.model_dump() for d in docs]
    compressor = BriefpackCompressor(budget=1000, tokenizer="approx")
    out = compressor.compress_documents(docs, "Leave?")
    # faq/3 is a near duplicate of hr/1; the rest in "edges" order: ranks 1,3,4,2 of 4 kept
    assert [d.id for d in out] == ["hr/1", "hr/9", "wiki/2", "hr/7"]
    by_id = {d.id: d for d in docs}
    for n, d in enumerate(out, 1):
        meta = dict(d.metadata)
        assert meta.pop("briefpack")["label"] == n
        assert meta == by_id[d.id].metadata
        assert d.page_content == by_id[d.id].page_content
    first = compressor.assemble(docs, "Leave?").sources[0]
    assert out[0].metadata["briefpack"] == {"label": 1, "members": ["hr/1"], "tokens": first.tokens}
    assert [d.model_dump() for d in docs] == before, "the input documents were mutated"


def test_annotate_false_returns_the_very_documents() -> None:
    docs = _docs()
    out = BriefpackCompressor(budget=1000, tokenizer="approx", annotate=False).compress_documents(
        docs, "Leave?"
    )
    assert all(any(o is d for d in docs) for o in out)
    assert all("briefpack" not in d.metadata for d in out)


def test_the_budget_is_a_hard_cap() -> None:
    docs = _docs()
    c = BriefpackCompressor(budget=60, order="relevance", tokenizer="approx")
    a = c.assemble(docs, "Leave?")
    assert a.tokens["sources"] <= 60
    out = c.compress_documents(docs, "Leave?")
    assert [d.id for d in out] == [s.chunk.id for s in a.sources]
    assert 0 < len(out) < 4
    assert {d.reason for d in a.dropped} == {"duplicate", "over_budget"}


def test_metadata_maps_to_chunk_fields() -> None:
    docs = [*_docs(), Document("No id here.", metadata={"id": 42, "start_index": "x"})]
    chunks = to_chunks(docs)
    assert (chunks[0].id, chunks[0].doc, chunks[0].position, chunks[0].title) == (
        "hr/1",
        "handbook.pdf",
        0,
        "Leave",
    )
    assert chunks[1].score == 0.8
    assert chunks[4].url == "https://wiki.example/sick"
    assert chunks[5].id == "42"
    assert chunks[5].position is None  # a str start_index is not a position
    assert chunks[0].meta is docs[0].metadata
    custom = to_chunks(docs, keys={"position": "page", "doc": ["nope", "source"]})
    assert custom[0].position == 3
    assert custom[0].doc == "handbook.pdf"


def test_max_per_doc_caps_by_source() -> None:
    c = BriefpackCompressor(budget=1000, max_per_doc=1, order="relevance", tokenizer="approx")
    a = c.assemble(_docs(), "Leave?")
    assert [s.chunk.id for s in a.sources] == ["hr/1", "wiki/2"]
    assert [(d.chunk.id, d.reason) for d in a.dropped] == [
        ("faq/3", "duplicate"),
        ("hr/7", "capped"),
        ("hr/9", "capped"),
    ]


def test_transform_documents_takes_the_query_as_a_keyword() -> None:
    c = BriefpackCompressor(budget=1000, tokenizer="approx", order="relevance")
    without = c.transform_documents(_docs())
    with_query = c.transform_documents(_docs(), query="Leave?")
    assert (
        [d.id for d in without] == [d.id for d in with_query] == ["hr/1", "hr/7", "hr/9", "wiki/2"]
    )


def test_embeddings_switch_dedupe_to_cosine_in_one_call() -> None:
    emb = BagOfWords()
    c = BriefpackCompressor(budget=1000, tokenizer="approx", embeddings=emb)
    a = c.assemble(_docs(), "Leave?")
    assert emb.document_calls == 1
    assert a.settings["dedupe"] == "cosine"
    assert [(d.chunk.id, d.detail["of"]) for d in a.dropped] == [("faq/3", "hr/1")]


def test_mmr_gets_its_query_vector_from_the_embeddings() -> None:
    c = BriefpackCompressor(
        budget=1000, tokenizer="approx", embeddings=BagOfWords(), options={"mmr": 0.5, "mmr_k": 2}
    )
    a = c.assemble(_docs(), "How long is parental leave?")
    assert len(a.sources) == 2
    assert a.sources[0].chunk.id == "hr/1"


def test_bad_options_fail_when_built() -> None:
    with pytest.raises(ValueError, match="order must be one of"):
        BriefpackCompressor(order="middle")
    with pytest.raises(ValueError, match="unknown assemble option"):
        BriefpackCompressor(options={"mmr_lambda": 0.5})
    with pytest.raises(ValueError, match="fields of BriefpackCompressor"):
        BriefpackCompressor(options={"budget": 10})
    with pytest.raises(ValueError, match="not a Chunk field"):
        BriefpackCompressor(keys={"colour": "c"})


def test_to_messages() -> None:
    a = BriefpackCompressor(budget=1000, tokenizer="approx").assemble(_docs(), "Leave?")
    system, human = to_messages(a)
    assert isinstance(system, SystemMessage)
    assert isinstance(human, HumanMessage)
    assert (system.content, human.content) == (a.system, a.user)


def test_in_a_contextual_compression_retriever() -> None:
    retrievers = pytest.importorskip("langchain_classic.retrievers")
    store = InMemoryVectorStore(BagOfWords())
    store.add_documents(_docs())
    retriever = retrievers.ContextualCompressionRetriever(
        base_compressor=BriefpackCompressor(budget=1000, tokenizer="approx", order="relevance"),
        base_retriever=store.as_retriever(search_kwargs={"k": 5}),
    )
    got = retriever.invoke("How long is parental leave in Germany?")
    ids = [d.id for d in got]
    assert ids[0] == "hr/1" or ids[0] == "faq/3"
    assert not {"hr/1", "faq/3"} <= set(ids), "the near duplicate survived"
    assert len(ids) == 4


def test_after_embeddings_redundant_filter_in_a_pipeline() -> None:
    compressors = pytest.importorskip("langchain_classic.retrievers.document_compressors")
    with warnings.catch_warnings():
        # langchain-community warns on import that it is being sunset
        warnings.simplefilter("ignore", DeprecationWarning)
        transformers = pytest.importorskip("langchain_community.document_transformers")
    EmbeddingsRedundantFilter = transformers.EmbeddingsRedundantFilter

    emb = BagOfWords()
    pipeline = compressors.DocumentCompressorPipeline(
        transformers=[
            EmbeddingsRedundantFilter(embeddings=emb),
            BriefpackCompressor(budget=1000, tokenizer="approx", dedupe="cosine"),
        ]
    )
    docs = _docs()
    out = pipeline.compress_documents(docs, "Leave?")
    # briefpack reused the vectors the filter computed: one embedding call in all
    assert emb.document_calls == 1
    text_of = {d.id: d.page_content for d in docs}
    # The filter drops the *higher*-ranked copy of a pair (hr/1, keeping faq/3) and rebuilds
    # each Document without its id; briefpack alone keeps the first copy and the ids.
    assert [d.page_content for d in out] == [
        text_of[i] for i in ("faq/3", "hr/9", "wiki/2", "hr/7")
    ]
    assert [d.id for d in out] == [None] * 4
    alone = BriefpackCompressor(budget=1000, tokenizer="approx", embeddings=BagOfWords())
    assert [d.id for d in alone.compress_documents(docs, "Leave?")] == [
        "hr/1",
        "hr/9",
        "wiki/2",
        "hr/7",
    ]


def test_parents_from_a_docstore() -> None:
    store = InMemoryStore()
    store.mset(
        [
            ("p1", Document("Section 2. Leave. Parental leave is 14 weeks. Sick leave: note.")),
            ("p2", Document("Section 5. Moving. The relocation cap for Berlin is 4000 EUR.")),
        ]
    )
    children = [
        Document("Parental leave is 14 weeks.", id="c1", metadata={"doc_id": "p1"}),
        Document("The relocation cap for Berlin is 4000 EUR.", id="c2", metadata={"doc_id": "p2"}),
        Document("Sick leave: note.", id="c3", metadata={"doc_id": "p1"}),
    ]
    c = BriefpackCompressor(
        budget=1000,
        tokenizer="approx",
        order="relevance",
        keys={"parent": "doc_id"},
        options={"parents": parents_from_store(store)},
    )
    out = c.compress_documents(children, "Leave?")
    assert [d.id for d in out] == ["p1", "p2"]
    assert out[0].page_content.startswith("Section 2.")
    assert out[0].metadata["briefpack"]["members"] == ["c1", "c3"]


def test_prompt_runnable_in_an_lcel_chain() -> None:
    store = InMemoryVectorStore(BagOfWords())
    store.add_documents(_docs())
    retriever = store.as_retriever(search_kwargs={"k": 5})
    chain: Any = (
        {"documents": retriever, "question": RunnablePassthrough()}
        | prompt_runnable(budget=1000, tokenizer="approx")
        | ParrotFakeChatModel()
    )
    reply = chain.invoke("How long is parental leave?")
    assert reply.content.endswith("Question: How long is parental leave?")
    assert reply.content.count("<source id=") == 4


def test_prompt_runnable_returns_a_chat_prompt_value() -> None:
    step = prompt_runnable(budget=1000, tokenizer="approx", keys={"doc": "source"})
    assert isinstance(step, RunnableLambda)
    value = step.invoke({"question": "Leave?", "documents": _docs()})
    assert isinstance(value, ChatPromptValue)
    expected = bp.assemble("Leave?", to_chunks(_docs()), budget=1000, tokenizer="approx")
    assert [m.content for m in value.messages] == [expected.system, expected.user]
    assert value.to_string().startswith("System: ")
    with pytest.raises(bp.InputError, match="budget"):
        prompt_runnable(budget=-1)


def test_a_window_budget_and_the_async_path() -> None:
    budget = bp.Budget(window=4096, max_output=1024, margin=64)
    c = BriefpackCompressor(budget=budget, tokenizer="approx")
    a = c.assemble(_docs(), "Leave?")
    assert a.settings["budget"]["window"] == 4096
    assert a.tokens["total"] + 2 * 4 <= 4096 - 1024 - 64
    sync = c.compress_documents(_docs(), "Leave?")
    got = asyncio.run(c.acompress_documents(_docs(), "Leave?"))
    assert [d.id for d in got] == [d.id for d in sync]
    transformed = asyncio.run(c.atransform_documents(_docs(), query="Leave?"))
    assert [d.id for d in transformed] == [d.id for d in sync]
