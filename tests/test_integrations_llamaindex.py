"""briefpack.integrations.llamaindex against the real llama-index-core objects (no mocks)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import re
from typing import Any

import pytest

pytest.importorskip("llama_index.core")

from llama_index.core import Document, VectorStoreIndex
from llama_index.core.bridge.pydantic import Field
from llama_index.core.embeddings import BaseEmbedding, MockEmbedding
from llama_index.core.instrumentation import get_dispatcher
from llama_index.core.instrumentation.event_handlers import BaseEventHandler
from llama_index.core.llms import MockLLM
from llama_index.core.node_parser import HierarchicalNodeParser, SentenceSplitter, get_leaf_nodes
from llama_index.core.postprocessor import SimilarityPostprocessor
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import (
    MetadataMode,
    NodeRelationship,
    NodeWithScore,
    QueryBundle,
    RelatedNodeInfo,
    TextNode,
)
from llama_index.core.storage.docstore import SimpleDocumentStore
from pydantic import ValidationError
from pydantic_core import PydanticSerializationError

import briefpack as bp
from briefpack.integrations.llamaindex import (
    BriefpackAssembled,
    BriefpackPostprocessor,
    chunks_resolver,
    node_chunk,
    parent_resolver,
)
from briefpack.sentences import embedding_scorer


def _nodes() -> list[NodeWithScore]:
    def n(text: str, id_: str, score: float | None, doc: str, start: int, **meta: str) -> Any:
        node = TextNode(text=text, id_=id_, metadata=meta, start_char_idx=start)
        node.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(node_id=doc)
        return NodeWithScore(node=node, score=score)

    return [
        n("Parental leave in Germany is 14 weeks at full pay.", "hr-1", 0.91, "hr", 0),
        n("Parental leave in Germany is 14 weeks at full pay!", "faq-3", 0.90, "faq", 0),
        n("The relocation cap for Berlin is 4000 EUR.", "hr-7", 0.80, "hr", 900, title="Moving"),
        n("Employees may work remotely up to three days a week.", "hr-9", 0.70, "hr", 1500),
        n("Sick leave needs a doctor's note from the third day.", "wiki-2", 0.60, "wiki", 0),
    ]


def test_it_is_a_node_postprocessor() -> None:
    assert isinstance(BriefpackPostprocessor(tokenizer="approx"), BaseNodePostprocessor)
    assert BriefpackPostprocessor.class_name() == "BriefpackPostprocessor"


def test_postprocess_returns_the_same_objects_deduped_and_ordered() -> None:
    nodes = _nodes()
    before = [n.model_dump() for n in nodes]
    post = BriefpackPostprocessor(budget=1000, tokenizer="approx", label_nodes=False)
    out = post.postprocess_nodes(nodes, query_str="How long is parental leave?")
    assert [n.node_id for n in out] == ["hr-1", "hr-9", "wiki-2", "hr-7"]
    assert all(any(o is n for n in nodes) for o in out), "nodes were copied, not passed through"
    assert [n.score for n in out] == [0.91, 0.70, 0.60, 0.80]
    assert [n.model_dump() for n in nodes] == before, "the input nodes were mutated"


def test_labelled_nodes_are_copies_with_the_label_and_the_inputs_unchanged() -> None:
    nodes = _nodes()
    before = [n.model_dump() for n in nodes]
    post = BriefpackPostprocessor(budget=1000, tokenizer="approx")
    out = post.postprocess_nodes(nodes, query_str="How long is parental leave?")
    assert [n.node_id for n in out] == ["hr-1", "hr-9", "wiki-2", "hr-7"]
    assert [n.score for n in out] == [0.91, 0.70, 0.60, 0.80]
    assert [n.node.metadata["source_label"] for n in out] == [1, 2, 3, 4]
    assert [n.model_dump() for n in nodes] == before, "the input nodes were mutated"
    assert not any(o is n or o.node is n.node for o in out for n in nodes)


def test_unsorted_input_is_sorted_by_score_first() -> None:
    nodes = _nodes()
    shuffled = [nodes[3], nodes[0], nodes[4], nodes[2], nodes[1]]
    post = BriefpackPostprocessor(budget=1000, tokenizer="approx", order="relevance")
    assert [n.node_id for n in post.postprocess_nodes(shuffled)] == [
        "hr-1",
        "hr-7",
        "hr-9",
        "wiki-2",
    ]
    as_given = BriefpackPostprocessor(
        budget=1000, tokenizer="approx", order="relevance", sort=False
    ).postprocess_nodes(shuffled)
    # input order is rank order: hr-9 leads, and faq-3 (ranked below hr-1) is the duplicate
    assert [n.node_id for n in as_given] == ["hr-9", "hr-1", "wiki-2", "hr-7"]


def test_node_fields_map_to_chunk_fields() -> None:
    node = _nodes()[2].node
    node.relationships[NodeRelationship.PARENT] = RelatedNodeInfo(node_id="sec-2")
    c = node_chunk(node, 0.8)
    assert (c.id, c.score, c.doc, c.position, c.parent, c.title) == (
        "hr-7",
        0.8,
        "hr",
        900,
        "sec-2",
        "Moving",
    )
    assert c.meta is node.metadata


def test_the_budget_counts_what_the_llm_sees() -> None:
    meta = {"summary": "a long summary that the synthesizer shows before the text " * 4}
    nodes = [
        NodeWithScore(node=TextNode(text=f"Fact number {i} is here.", id_=f"n{i}", metadata=meta))
        for i in range(4)
    ]
    shown = nodes[0].node.get_content(metadata_mode=MetadataMode.LLM)
    assert len(shown) > 4 * len(nodes[0].node.text)
    llm = BriefpackPostprocessor(budget=150, tokenizer="approx", dedupe=None)
    text_only = BriefpackPostprocessor(
        budget=150, tokenizer="approx", dedupe=None, metadata_mode=MetadataMode.NONE
    )
    assert len(text_only.postprocess_nodes(nodes)) == 4
    assert len(llm.postprocess_nodes(nodes)) < 4
    a = llm.assemble(nodes)
    assert all(s.tokens <= 150 for s in a.sources)
    assert a.sources[0].chunk.tokens == max(1, len(shown) // 4)


def test_parents_from_hierarchical_nodes() -> None:
    text = " ".join(
        f"Section {s}. "
        + " ".join(f"Rule {s}.{r} says item {s * 10 + r} applies." for r in range(8))
        for s in range(3)
    )
    parser = HierarchicalNodeParser.from_defaults(chunk_sizes=[128, 32], chunk_overlap=0)
    all_nodes = parser.get_nodes_from_documents([Document(text=text, id_="rules")])
    docstore = SimpleDocumentStore()
    docstore.add_documents(all_nodes)
    leaves = get_leaf_nodes(all_nodes)
    first_parent = leaves[0].relationships[NodeRelationship.PARENT].node_id
    siblings = [
        n for n in leaves if n.relationships[NodeRelationship.PARENT].node_id == first_parent
    ]
    assert len(siblings) >= 2
    hits = [NodeWithScore(node=siblings[0], score=0.9), NodeWithScore(node=siblings[1], score=0.8)]
    post = BriefpackPostprocessor(
        budget=4000, tokenizer="approx", docstore=docstore, parents=True, label_nodes=False
    )
    out = post.postprocess_nodes(hits, query_str="rule 0.1?")
    assert len(out) == 1
    assert out[0].node_id == first_parent
    assert out[0].node == docstore.get_node(first_parent)
    assert out[0].score == 0.9
    a = post.assemble(hits, "rule 0.1?")
    assert a.sources[0].members == (siblings[0].node_id, siblings[1].node_id)


def test_neighbours_along_previous_and_next() -> None:
    text = " ".join(f"Sentence number {i} talks about topic {i}." for i in range(60))
    splitter = SentenceSplitter(chunk_size=60, chunk_overlap=0)
    nodes = splitter.get_nodes_from_documents([Document(text=text, id_="doc")])
    assert len(nodes) >= 5
    docstore = SimpleDocumentStore()
    docstore.add_documents(nodes)
    hit = NodeWithScore(node=nodes[2], score=0.7)
    post = BriefpackPostprocessor(
        budget=4000, tokenizer="approx", docstore=docstore, neighbors=1, dedupe=None
    )
    [out] = post.postprocess_nodes([hit], query_str="topic?")
    assert out.node_id == nodes[2].node_id
    assert out.score == 0.7
    for n in nodes[1:4]:
        assert n.get_content() in out.node.get_content()
    assert nodes[4].get_content() not in out.node.get_content()
    assert hit.node.get_content() == nodes[2].get_content(), "the hit was mutated"
    chunks = chunks_resolver(docstore, [nodes[2]])("doc")
    assert [c.id for c in chunks] == [n.node_id for n in nodes]


def test_parent_resolver_with_assemble_directly() -> None:
    parent = TextNode(text="The whole leave section: 14 weeks, paid.", id_="sec")
    child = TextNode(text="14 weeks, paid.", id_="c1")
    child.relationships[NodeRelationship.PARENT] = RelatedNodeInfo(node_id="sec")
    docstore = SimpleDocumentStore()
    docstore.add_documents([parent, child])
    fetched: dict[str, Any] = {}
    a = bp.assemble(
        "Leave?",
        [node_chunk(child, 0.5)],
        parents=parent_resolver(docstore, {"c1": child}, fetched=fetched),
        budget=500,
        tokenizer="approx",
    )
    assert [s.chunk.id for s in a.sources] == ["sec"]
    assert fetched == {"sec": docstore.get_node("sec")}


def test_mmr_takes_the_query_bundle_embedding() -> None:
    nodes = _nodes()
    for i, n in enumerate(nodes):
        n.node.embedding = [1.0, float(i)]
    post = BriefpackPostprocessor(
        budget=1000, tokenizer="approx", dedupe=None, options={"mmr": 0.5, "mmr_k": 2}
    )
    out = post.postprocess_nodes(nodes, QueryBundle("q", embedding=[1.0, 0.0]))
    assert len(out) == 2
    with pytest.raises(bp.InputError, match="mmr"):
        post.postprocess_nodes(
            [NodeWithScore(node=TextNode(text="x", id_="x"), score=None)], query_str="q"
        )


def test_bad_settings_fail_when_built_as_input_errors() -> None:
    with pytest.raises(bp.InputError, match="need the docstore"):
        BriefpackPostprocessor(parents=True)
    with pytest.raises(bp.InputError, match="fields of BriefpackPostprocessor"):
        BriefpackPostprocessor(options={"neighbors": 1})
    with pytest.raises(bp.InputError, match="order must be one of"):
        BriefpackPostprocessor(order="middle")
    with pytest.raises(bp.InputError, match="neighbors must be an int"):
        BriefpackPostprocessor(docstore=SimpleDocumentStore(), neighbors=-1)
    with pytest.raises(bp.InputError, match="not a Chunk field"):
        BriefpackPostprocessor(keys={"colour": "c"})
    with pytest.raises(ValidationError):  # the wrong type for a field: pydantic's error first
        BriefpackPostprocessor(neighbors="one")


def test_in_a_query_engine_next_to_the_llamaindex_postprocessors() -> None:
    docs = [
        Document(text="Parental leave in Germany is 14 weeks at full pay.", id_="hr"),
        Document(text="Parental leave in Germany is 14 weeks at full pay!", id_="faq"),
        Document(text="The relocation cap for Berlin is 4000 EUR.", id_="move"),
    ]
    index = VectorStoreIndex.from_documents(docs, embed_model=MockEmbedding(embed_dim=8))
    post = BriefpackPostprocessor(budget=1000, tokenizer="approx")
    engine = RetrieverQueryEngine.from_args(
        index.as_retriever(similarity_top_k=3),
        llm=MockLLM(),
        node_postprocessors=[SimilarityPostprocessor(similarity_cutoff=0.0), post],
    )
    response = engine.query("How long is parental leave?")
    assert sorted(n.node.ref_doc_id for n in response.source_nodes) in (
        ["hr", "move"],
        ["faq", "move"],
    )
    # aquery calls the async path
    response = asyncio.run(engine.aquery("How long is parental leave?"))
    assert len(response.source_nodes) == 2


@pytest.mark.skipif(
    not hasattr(BaseNodePostprocessor, "apostprocess_nodes"),
    reason="this llama-index-core has no async postprocess (added after 0.12.0)",
)
def test_async_postprocess_matches_sync() -> None:
    post = BriefpackPostprocessor(budget=1000, tokenizer="approx")
    sync = post.postprocess_nodes(_nodes(), query_str="Leave?")
    got = asyncio.run(post.apostprocess_nodes(_nodes(), query_str="Leave?"))
    assert [n.node_id for n in got] == [n.node_id for n in sync]


def test_serialises_without_the_docstore() -> None:
    post = BriefpackPostprocessor(
        budget=900, tokenizer="approx", docstore=SimpleDocumentStore(), neighbors=1
    )
    data = post.to_dict()
    assert data["class_name"] == "BriefpackPostprocessor"
    assert (data["budget"], data["neighbors"]) == (900, 1)
    assert "docstore" not in data
    post.to_json()


# ---- what a LlamaIndex user does next ----


class BagOfWords(BaseEmbedding):
    """A deterministic embedding model: hashed word counts, L2-normalised."""

    def _vector(self, text: str) -> list[float]:
        v = [0.0] * 32
        for word in re.findall(r"\w+", text.lower()):
            v[int(hashlib.md5(word.encode()).hexdigest(), 16) % 32] += 1.0
        norm = math.sqrt(sum(x * x for x in v)) or 1.0
        return [x / norm for x in v] if any(v) else [1.0] + [0.0] * 31

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._vector(text)


def word_tokens(text: str) -> list[str]:
    return text.split()


def test_a_budget_survives_to_dict_and_to_json() -> None:
    budget = bp.Budget(window=4096, max_output=512)
    post = BriefpackPostprocessor(budget=budget, tokenizer="gpt-4o")
    assert BriefpackPostprocessor.from_dict(post.to_dict()).budget == budget
    back = BriefpackPostprocessor.from_json(post.to_json())
    assert back.budget == budget
    assert back.assemble(_nodes(), "Leave?").settings["tokenizer"] == "o200k_base"


def test_a_callable_tokenizer_round_trips_in_python_and_fails_clearly_in_json() -> None:
    post = BriefpackPostprocessor(budget=900, tokenizer=word_tokens)
    assert BriefpackPostprocessor.from_dict(post.to_dict()).tokenizer is word_tokens
    with pytest.raises(PydanticSerializationError, match="tokenizer: a callable"):
        post.to_json()
    plain = BriefpackPostprocessor(budget=900).to_json()
    assert BriefpackPostprocessor.from_json(plain, tokenizer=word_tokens).tokenizer is word_tokens


def test_a_token_list_tokenizer_like_settings_tokenizer_counts_its_length() -> None:
    post = BriefpackPostprocessor(budget=1000, tokenizer=word_tokens, sort=False)
    a = post.assemble(_nodes(), "Leave?")
    assert a.settings["tokenizer"] == "callable"
    assert a.tokens["system"] == len(a.system.split())


def test_a_span_links_outside_itself_so_prev_next_adds_no_text_twice() -> None:
    from llama_index.core.postprocessor import PrevNextNodePostprocessor

    text = " ".join(f"Sentence number {i} talks about topic {i}." for i in range(60))
    nodes = SentenceSplitter(chunk_size=60, chunk_overlap=0).get_nodes_from_documents(
        [Document(text=text, id_="doc")]
    )
    docstore = SimpleDocumentStore()
    docstore.add_documents(nodes)
    post = BriefpackPostprocessor(
        budget=4000, tokenizer="approx", docstore=docstore, neighbors=1, dedupe=None
    )
    [span] = post.postprocess_nodes([NodeWithScore(node=nodes[3], score=0.7)], query_str="?")
    assert span.node.prev_node.node_id == nodes[1].node_id
    assert span.node.next_node.node_id == nodes[5].node_id
    assert nodes[3].prev_node.node_id == nodes[2].node_id, "the hit's own links were changed"
    grown = PrevNextNodePostprocessor(docstore=docstore, num_nodes=1, mode="both")
    out = grown.postprocess_nodes([span])
    texts = [n.node.get_content() for n in out]
    for n in nodes[1:6]:
        assert sum(n.get_content() in t for t in texts) == 1, n.node_id
    # a span at the start of the document has no PREVIOUS
    [first] = post.postprocess_nodes([NodeWithScore(node=nodes[0], score=0.7)], query_str="?")
    assert first.node.prev_node is None
    assert first.node.next_node.node_id == nodes[2].node_id


def test_embed_model_embeds_nodes_a_vector_store_stripped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    docs = [
        Document(text="Parental leave in Germany is 14 weeks at full pay.", id_="hr"),
        Document(text="Parental leave in Germany is 14 weeks at full pay, paid.", id_="faq"),
        Document(text="The relocation cap for Berlin is 4000 EUR.", id_="move"),
    ]
    index = VectorStoreIndex.from_documents(docs, embed_model=BagOfWords())
    hits = index.as_retriever(similarity_top_k=3).retrieve("How long is parental leave?")
    assert all(h.node.embedding is None for h in hits)
    with caplog.at_level(logging.DEBUG, logger="briefpack"):
        plain = BriefpackPostprocessor(budget=1000, tokenizer="approx").assemble(hits, "Leave?")
    assert plain.settings["dedupe"] == "jaccard"
    assert any("compares by word Jaccard" in r.getMessage() for r in caplog.records)
    post = BriefpackPostprocessor(
        budget=1000, tokenizer="approx", embed_model=BagOfWords(), threshold=0.9
    )
    a = post.assemble(hits, "Leave?")
    assert a.settings["dedupe"] == "cosine"
    assert [d.reason for d in a.dropped] == ["duplicate"]
    assert "embed_model" not in post.to_dict()


def test_the_drops_are_reachable_after_a_query_engine_ran() -> None:
    docs = [
        Document(text="Parental leave in Germany is 14 weeks at full pay.", id_="hr"),
        Document(text="Parental leave in Germany is 14 weeks at full pay!", id_="faq"),
        Document(text="The relocation cap for Berlin is 4000 EUR.", id_="move"),
    ]
    index = VectorStoreIndex.from_documents(docs, embed_model=MockEmbedding(embed_dim=8))
    post = BriefpackPostprocessor(budget=1000, tokenizer="approx")
    assert post.last_assembly is None
    engine = RetrieverQueryEngine.from_args(
        index.as_retriever(similarity_top_k=3), llm=MockLLM(), node_postprocessors=[post]
    )
    engine.query("How long is parental leave?")
    assert post.last_assembly is not None
    assert [d.reason for d in post.last_assembly.dropped] == ["duplicate"]


def test_compress_passes_through_and_returns_the_cut_text() -> None:
    text = (
        "Billing is monthly. Parental leave is 14 weeks at full pay. Seats are counted "
        "monthly. Invoices arrive by email on the first day of each month."
    )
    nodes = [*_nodes()[2:4], NodeWithScore(node=TextNode(text=text, id_="hr-2"), score=0.5)]
    post = BriefpackPostprocessor(
        budget=70, order="relevance", tokenizer="approx", options={"compress": "overflow"}
    )
    out = post.postprocess_nodes(nodes, query_str="How long is leave?")
    assert "Parental leave is 14 weeks at full pay." in [n.node.get_content() for n in out]
    assert post.last_assembly is not None
    assert post.last_assembly.settings["compress"] == "overflow"


def test_assemble_options_given_directly_join_options_and_typos_are_errors() -> None:
    direct = BriefpackPostprocessor(budget=1000, tokenizer="approx", scope="document")
    assert direct.options == {"scope": "document"}
    with pytest.raises(bp.InputError, match="BriefpackPostprocessor has no option 'ordr'"):
        BriefpackPostprocessor(ordr="relevance")


# ---- the event and the async embedding path ----


class Counting(BagOfWords):
    """``BagOfWords`` that counts each kind of call (a batch call is one call)."""

    calls: dict[str, int] = Field(default_factory=dict)

    def _count(self, kind: str) -> None:
        self.calls[kind] = self.calls.get(kind, 0) + 1

    def get_text_embedding_batch(self, texts: list[str], **kwargs: Any) -> list[list[float]]:
        self._count("sync batch")
        return [self._vector(t) for t in texts]

    async def aget_text_embedding_batch(self, texts: list[str], **kwargs: Any) -> list[list[float]]:
        self._count("async batch")
        return [self._vector(t) for t in texts]

    def get_query_embedding(self, query: str) -> list[float]:
        self._count("sync query")
        return self._vector(query)

    async def aget_query_embedding(self, query: str) -> list[float]:
        self._count("async query")
        return self._vector(query)


def test_the_async_path_embeds_with_the_async_batch_call() -> None:
    model = Counting()
    post = BriefpackPostprocessor(
        budget=1000, tokenizer="approx", embed_model=model, options={"mmr": 0.5}
    )
    got = asyncio.run(post.apostprocess_nodes(_nodes(), query_str="Leave?"))
    assert model.calls == {"async batch": 1, "async query": 1}
    assert post.last_assembly is not None
    assert post.last_assembly.settings["dedupe"] == "cosine"
    sync = post.postprocess_nodes(_nodes(), query_str="Leave?")
    assert model.calls == {"async batch": 1, "async query": 1, "sync batch": 1, "sync query": 1}
    assert [n.node_id for n in got] == [n.node_id for n in sync]
    a = asyncio.run(post.aassemble(_nodes(), "Leave?"))
    assert model.calls["async batch"] == 2
    assert [s.chunk.id for s in a.sources] == [n.node_id for n in sync]


def test_aquery_embeds_with_the_async_batch_call() -> None:
    docs = [
        Document(text="Parental leave in Germany is 14 weeks at full pay.", id_="hr"),
        Document(text="The relocation cap for Berlin is 4000 EUR.", id_="move"),
    ]
    index = VectorStoreIndex.from_documents(docs, embed_model=BagOfWords())
    model = Counting()
    post = BriefpackPostprocessor(budget=1000, tokenizer="approx", embed_model=model)
    engine = RetrieverQueryEngine.from_args(
        index.as_retriever(similarity_top_k=2), llm=MockLLM(), node_postprocessors=[post]
    )
    asyncio.run(engine.aquery("How long is parental leave?"))
    assert model.calls == {"async batch": 1}


class _Collect(BaseEventHandler):
    events: list[Any] = Field(default_factory=list)

    @classmethod
    def class_name(cls) -> str:
        return "Collect"

    def handle(self, event: Any, **kwargs: Any) -> None:
        if isinstance(event, BriefpackAssembled):
            self.events.append(event)


def test_each_request_sends_one_instrumentation_event_with_the_summary() -> None:
    root = get_dispatcher()
    handler = _Collect()
    root.add_event_handler(handler)
    try:
        docs = [
            Document(text="Parental leave in Germany is 14 weeks at full pay.", id_="hr"),
            Document(text="Parental leave in Germany is 14 weeks at full pay!", id_="faq"),
            Document(text="The relocation cap for Berlin is 4000 EUR.", id_="move"),
        ]
        index = VectorStoreIndex.from_documents(docs, embed_model=MockEmbedding(embed_dim=8))
        post = BriefpackPostprocessor(budget=1000, tokenizer="approx")
        engine = RetrieverQueryEngine.from_args(
            index.as_retriever(similarity_top_k=3), llm=MockLLM(), node_postprocessors=[post]
        )
        engine.query("How long is parental leave?")
        asyncio.run(engine.aquery("How long is parental leave?"))
    finally:
        root.event_handlers.remove(handler)
    assert len(handler.events) == 2
    for event in handler.events:
        summary = event.summary
        a = event.assembly
        assert summary["adapter"] == "BriefpackPostprocessor"
        assert summary["candidates"] == 3
        assert summary["placed"] == 2 == len(a.sources)
        assert summary["dropped"] == {"duplicate": 1}
        assert summary["sources"] == [s.chunk.id for s in a.sources]
        assert summary["tokens"] == a.tokens
        assert summary["prompt_sha256"] == a.record()["prompt_sha256"]
        assert event.span_id is not None  # inside the postprocessor's span
        dumped = event.model_dump()
        assert dumped["class_name"] == "BriefpackAssembled"
        assert "assembly" not in dumped
        json.dumps(dumped, default=str)


def test_no_handler_no_event_built() -> None:
    from briefpack.integrations import llamaindex

    assert not llamaindex._listened()
    post = BriefpackPostprocessor(budget=1000, tokenizer="approx")
    assert len(post.postprocess_nodes(_nodes(), query_str="Leave?")) == 4


def test_sentence_scorer_embeddings_scores_sentences_with_the_postprocessors_model() -> None:
    """``options={"sentence_scorer": "embeddings"}`` is ``embedding_scorer`` over the
    postprocessor's ``embed_model`` (its ``get_text_embedding_batch``): the same cut as that
    scorer passed by hand; without an ``embed_model`` it is an ``InputError``."""
    nodes = [
        NodeWithScore(
            node=TextNode(
                text="Acme sells billing software. Acme was founded in 2009. "
                "ARR reached 40 million.",
                id_="a",
            ),
            score=0.9,
        ),
        NodeWithScore(node=TextNode(text="Relocation is capped at 4000 EUR.", id_="b"), score=0.5),
    ]
    question = "What was the ARR of Acme?"
    common = {"budget": 1000, "tokenizer": "approx", "label_nodes": False}
    wired = BriefpackPostprocessor(
        **common,
        embed_model=BagOfWords(),
        options={"compress": "all", "sentence_scorer": "embeddings"},
    )
    scorer = embedding_scorer(BagOfWords().get_text_embedding_batch)
    by_hand = BriefpackPostprocessor(
        **common, options={"compress": "all", "sentence_scorer": scorer}
    )
    got = wired.assemble(nodes, question)
    want = by_hand.assemble(nodes, question)
    assert [s.compression for s in got.sources] == [s.compression for s in want.sources]
    assert any(s.compression is not None and s.compression.removed for s in got.sources)
    with pytest.raises(bp.InputError, match=r'sentence_scorer="embeddings".*pass embed_model='):
        BriefpackPostprocessor(options={"sentence_scorer": "embeddings"})
