"""briefpack.integrations.langchain against the real langchain-core objects (no mocks)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import re
import warnings
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import BaseDocumentCompressor, BaseDocumentTransformer, Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.fake_chat_models import ParrotFakeChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.prompt_values import ChatPromptValue
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from langchain_core.stores import InMemoryStore
from langchain_core.vectorstores import InMemoryVectorStore
from pydantic import ValidationError
from pydantic_core import PydanticSerializationError

import briefpack as bp
from briefpack.integrations._trace import SUMMARY_ID_CHARS, SUMMARY_IDS
from briefpack.integrations.langchain import (
    EVENT,
    BriefpackCompressor,
    parents_from_store,
    prompt_runnable,
    to_chunks,
    to_messages,
)
from briefpack.sentences import embedding_scorer
from conftest import tiktoken_available


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
        assert meta.pop("source_label") == n
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


def test_bad_options_fail_when_built_as_input_errors() -> None:
    with pytest.raises(bp.InputError, match="order must be one of"):
        BriefpackCompressor(order="middle")
    with pytest.raises(bp.InputError, match="unknown assemble option"):
        BriefpackCompressor(options={"mmr_lambda": 0.5})
    with pytest.raises(bp.InputError, match="fields of BriefpackCompressor"):
        BriefpackCompressor(options={"budget": 10})
    with pytest.raises(bp.InputError, match="not a Chunk field"):
        BriefpackCompressor(keys={"colour": "c"})
    with pytest.raises(bp.InputError, match="must be a metadata key"):
        BriefpackCompressor(keys={"doc": 3})
    # a value of the wrong type for a pydantic field is pydantic's error, first
    with pytest.raises(ValidationError):
        BriefpackCompressor(order=3)


def test_a_field_changed_after_building_is_checked_and_used() -> None:
    c = BriefpackCompressor(budget=1000, tokenizer="approx")
    c.budget = 40
    assert c.assemble(_docs(), "Leave?").tokens["context_budget"] == 40
    c.order = "middle"
    with pytest.raises(bp.InputError, match="order must be one of"):
        c.assemble(_docs(), "Leave?")


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


# ---- what a LangChain user does next (issue: drop-ins in realistic pipelines) ----


def _split_records() -> list[Document]:
    """Loader records with an id in metadata, split into chunks that all copy that id."""
    splitter = pytest.importorskip("langchain_text_splitters").RecursiveCharacterTextSplitter(
        chunk_size=60, chunk_overlap=0, add_start_index=True
    )
    records = [
        Document(
            "Parental leave in Germany is 14 weeks at full pay. It can be split into two "
            "blocks. Fathers get the same leave as mothers.",
            metadata={"id": "rec-1", "source": "hr.pdf"},
        ),
        Document(
            "The relocation cap for Berlin is 4000 EUR. Receipts are needed for every item.",
            metadata={"id": "rec-2", "source": "move.pdf"},
        ),
    ]
    chunks = splitter.split_documents(records)
    assert len(chunks) > 3
    assert all(c.id is None for c in chunks)  # as after EmbeddingsRedundantFilter
    return chunks


def test_chunks_sharing_a_loader_id_fall_back_to_their_index() -> None:
    chunks = _split_records()
    a = BriefpackCompressor(budget=1000, tokenizer="approx").assemble(chunks, "Leave?")
    assert [f["id"] for f in a.fates] == [str(i) for i in range(len(chunks))]
    assert len(a.sources) == len(chunks)
    # the same chunk retrieved twice is still one source (a duplicate by id)
    twice = BriefpackCompressor(budget=1000, tokenizer="approx").assemble(
        [Document("Same.", id="d1"), Document("Same.", id="d1")]
    )
    assert [d.detail["method"] for d in twice.dropped] == ["id"]


def test_a_contextual_compression_retriever_with_split_chunks_and_callbacks() -> None:
    classic = pytest.importorskip("langchain_classic.retrievers")
    from langchain_core.callbacks import BaseCallbackHandler

    events: list[tuple[str, Any]] = []

    class Recorder(BaseCallbackHandler):
        def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
            events.append((name, data))

    chunks = _split_records()
    store = InMemoryVectorStore(BagOfWords())
    store.add_documents([*chunks, chunks[0].model_copy()])
    retriever = classic.ContextualCompressionRetriever(
        base_compressor=BriefpackCompressor(budget=1000, tokenizer="approx"),
        base_retriever=store.as_retriever(search_kwargs={"k": 10}),
    )
    got = retriever.invoke("How long is parental leave?", config={"callbacks": [Recorder()]})
    assert len(got) == len(chunks)
    assert sorted(d.metadata["source_label"] for d in got) == list(range(1, len(chunks) + 1))
    [(name, data)] = events
    assert name == "briefpack"
    assert data["dropped"] == {"duplicate": 1}
    assert isinstance(data["assembly"], bp.Assembly)
    assert [d.reason for d in data["assembly"].dropped] == ["duplicate"]


def test_the_label_is_reachable_from_a_prompt_template() -> None:
    from langchain_core.prompts import PromptTemplate

    kept = BriefpackCompressor(budget=1000, tokenizer="approx").compress_documents(_docs(), "?")
    template = PromptTemplate.from_template("[{source_label}] {page_content}")
    assert template.format(**kept[0].metadata, page_content=kept[0].page_content).startswith(
        "[1] Parental leave"
    )


def test_a_budget_survives_model_dump_and_json() -> None:
    c = BriefpackCompressor(budget=bp.Budget(window=4096, max_output=512), tokenizer="gpt-4o")
    back = BriefpackCompressor.model_validate(c.model_dump())
    assert back.budget == bp.Budget(window=4096, max_output=512)
    again = BriefpackCompressor.model_validate_json(c.model_dump_json())
    assert again.budget == c.budget
    assert again.tokenizer == "gpt-4o"
    assert again.assemble(_docs(), "Leave?").settings["tokenizer"] == "o200k_base"
    with pytest.raises(ValidationError, match="unknown key"):
        BriefpackCompressor.model_validate({"budget": {"context": 10, "windw": 5}})


def word_count(text: str) -> int:
    return len(text.split())


def test_a_callable_option_round_trips_in_python_and_fails_clearly_in_json() -> None:
    c = BriefpackCompressor(
        budget=1000, tokenizer=word_count, options={"rerank": lambda q, cs: [1.0] * len(cs)}
    )
    back = BriefpackCompressor.model_validate(c.model_dump())
    assert back.tokenizer is word_count
    assert back.assemble(_docs(), "Leave?").sources
    with pytest.raises(PydanticSerializationError, match=r"tokenizer: a callable .* to JSON"):
        BriefpackCompressor(tokenizer=word_count).model_dump_json()
    with pytest.raises(PydanticSerializationError, match=r"options\['rerank'\]: a callable"):
        BriefpackCompressor(options={"rerank": word_count}).model_dump_json()


@pytest.mark.skipif(not tiktoken_available(), reason="needs the offline tiktoken files")
def test_a_tokenizer_may_be_a_token_list_callable_an_encoding_or_a_model_name() -> None:
    import tiktoken

    enc = tiktoken.get_encoding("cl100k_base")
    docs = _docs()
    expected = bp.assemble("Leave?", to_chunks(docs), budget=1000, tokenizer="cl100k_base")
    for tokenizer in (enc.encode_ordinary, enc, "gpt-4-turbo"):
        a = BriefpackCompressor(budget=1000, tokenizer=tokenizer).assemble(docs, "Leave?")
        assert a.tokens == expected.tokens, tokenizer


def test_bad_tokenizers_are_named_with_a_bounded_message() -> None:
    # Built once without calling the tokenizer (no vocabulary load, no call of the caller's
    # function at construction); the first request reports it.
    compressor = BriefpackCompressor(tokenizer=lambda text: {"n": text * 50})
    with pytest.raises(bp.InputError) as info:
        compressor.assemble(_docs(), "Leave?")
    assert "must return a token count (int) or the tokens" in str(info.value)
    assert len(str(info.value)) < 300
    with pytest.raises(bp.InputError, match="an OpenAI model name such as 'gpt-4o'"):
        BriefpackCompressor(tokenizer="x" * 500)


def test_prompt_runnable_takes_create_retrieval_chain_input_and_history() -> None:
    from langchain_core.messages import AIMessage

    step = prompt_runnable(budget=1000, tokenizer="approx")
    value = step.invoke(
        {
            "input": "And for fathers?",
            "context": [(d, 1.0 - i / 10) for i, d in enumerate(_docs())],
            "chat_history": [HumanMessage("How long is leave?"), AIMessage("14 weeks [1].")],
        }
    )
    a = value.assembly
    assert isinstance(a, bp.Assembly)
    assert a.sources[0].chunk.score == 1.0
    assert "<history>" in value.messages[1].content
    assert "14 weeks &#91;1]." in value.messages[1].content
    assert value.messages[1].content.endswith("Question: And for fathers?")
    assert a.cite("Leave is 14 weeks [1].").sources


def test_prompt_runnable_input_keys_are_configurable_and_errors_are_clear() -> None:
    step = prompt_runnable(budget=1000, tokenizer="approx", question_key="q", documents_key="hits")
    assert step.invoke({"q": "Leave?", "hits": _docs()}).assembly.question == "Leave?"
    with pytest.raises(bp.InputError, match="takes a dict with the question"):
        step.invoke("Leave?")
    with pytest.raises(bp.InputError, match="expected the question under 'q'"):
        step.invoke({"question": "Leave?", "hits": _docs()})
    with pytest.raises(bp.InputError, match=r"hits\[0\] must be a Document or a \(Document"):
        step.invoke({"q": "Leave?", "hits": ["text"]})


def test_retriever_pipe_compressor_is_a_runnable_step() -> None:
    store = InMemoryVectorStore(BagOfWords())
    store.add_documents(_docs())
    compressor = BriefpackCompressor(budget=1000, tokenizer="approx")
    chain: Any = store.as_retriever(search_kwargs={"k": 5}) | compressor
    got = chain.invoke("How long is parental leave?")
    assert len(got) == 4
    assert all("source_label" in d.metadata for d in got)
    step = compressor.as_runnable()
    by_dict = step.invoke({"documents": _docs(), "question": "Leave?"})
    assert [d.id for d in by_dict] == [d.id for d in compressor.compress_documents(_docs(), "?")]
    assert [d.id for d in asyncio.run(step.ainvoke(_docs()))] == [d.id for d in by_dict]


def test_async_compression_embeds_with_the_async_call() -> None:
    class AsyncOnly(BagOfWords):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            raise AssertionError("the sync call was used")

        async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
            return [self._vector(t) for t in texts]

    c = BriefpackCompressor(budget=1000, tokenizer="approx", embeddings=AsyncOnly())
    got = asyncio.run(c.acompress_documents(_docs(), "Leave?"))
    assert len(got) == 4
    assert asyncio.run(c.aassemble(_docs(), "Leave?")).settings["dedupe"] == "cosine"


def test_the_jaccard_fallback_and_each_request_are_logged_at_debug(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.DEBUG, logger="briefpack"):
        BriefpackCompressor(budget=1000, tokenizer="approx").compress_documents(_docs(), "?")
    messages = [r.getMessage() for r in caplog.records]
    assert any("dedupe='auto' compares by word Jaccard" in m for m in messages)
    assert any("5 candidates -> 4 sources, 1 dropped" in m for m in messages)
    assert all(r.levelno <= logging.DEBUG for r in caplog.records)


def test_compress_passes_through_and_returns_the_cut_text() -> None:
    long = Document(
        "Billing is monthly. Parental leave is 14 weeks at full pay. Seats are counted "
        "monthly. Invoices arrive by email on the first day of each month.",
        id="hr/2",
    )
    docs = [*_docs()[2:4], long]
    options: dict[str, Any] = {"budget": 80, "order": "relevance", "tokenizer": "approx"}
    whole = BriefpackCompressor(**options)
    cut = BriefpackCompressor(**options, options={"compress": "overflow"})
    assert "hr/2" not in [d.id for d in whole.compress_documents(docs, "How long is leave?")]
    out = {d.id: d for d in cut.compress_documents(docs, "How long is leave?")}
    assert out["hr/2"].page_content == "Parental leave is 14 weeks at full pay."
    assert out["hr/2"].metadata["briefpack"]["compressed"]["kept"] == [1]
    assert cut.assemble(docs, "How long is leave?").settings["compress"] == "overflow"


def test_assemble_options_given_directly_join_options_and_typos_are_errors() -> None:
    direct = BriefpackCompressor(budget=1000, tokenizer="approx", scope="document")
    assert direct.options == {"scope": "document"}
    assert direct.assemble(_docs(), "Leave?").settings["scope"] == "document"
    with pytest.raises(bp.InputError, match="BriefpackCompressor has no option 'ordr'"):
        BriefpackCompressor(ordr="relevance")


class _Events(BaseCallbackHandler):
    """Records every custom event a run sends, sync or async."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any], Any]] = []

    def on_custom_event(self, name: str, data: Any, *, run_id: Any, **kwargs: Any) -> None:
        self.events.append((name, data, run_id))


def _one_event(handler: _Events) -> dict[str, Any]:
    [(name, data, run_id)] = handler.events
    assert name == EVENT == "briefpack"
    assert run_id is not None
    return data


def _assert_summary(data: dict[str, Any], adapter: str) -> None:
    a = data["assembly"]
    assert isinstance(a, bp.Assembly)
    assert data["adapter"] == adapter
    assert data["sources"] == [s.chunk.id for s in a.sources]
    assert data["placed"] == len(a.sources) == 4
    assert data["candidates"] == 5
    assert data["dropped"] == {"duplicate": 1}
    assert data["tokens"] == a.tokens
    assert data["tokens"]["context_budget"] == 1000
    assert data["empty_reason"] is None
    assert data["prompt_sha256"] == a.record()["prompt_sha256"]
    assert isinstance(data["ms"], float)
    assert data["ms"] >= 0
    json.dumps({k: v for k, v in data.items() if k != "assembly"})  # plain JSON data


def test_every_runnable_form_sends_the_one_event() -> None:
    compressor = BriefpackCompressor(budget=1000, tokenizer="approx")
    question = {"documents": _docs(), "question": "How long is parental leave?"}
    forms: list[tuple[str, Any, Any]] = [
        ("BriefpackCompressor", compressor.as_runnable(), question),
        ("BriefpackCompressor", RunnableLambda(lambda _: _docs()) | compressor, "Leave?"),
        ("prompt_runnable", prompt_runnable(budget=1000, tokenizer="approx"), question),
    ]
    for adapter, step, given in forms:
        handler = _Events()
        step.invoke(given, config={"callbacks": [handler]})
        _assert_summary(_one_event(handler), adapter)
        handler = _Events()
        asyncio.run(step.ainvoke(given, config={"callbacks": [handler]}))
        _assert_summary(_one_event(handler), adapter)


def test_the_event_reaches_astream_events_and_a_pipeline_without_handlers_pays_nothing() -> None:
    step = BriefpackCompressor(budget=1000, tokenizer="approx").as_runnable()

    async def stream() -> list[Any]:
        return [
            e
            async for e in step.astream_events({"documents": _docs()}, version="v2")
            if e["event"] == "on_custom_event"
        ]

    [event] = asyncio.run(stream())
    assert event["name"] == EVENT
    assert event["data"]["dropped"] == {"duplicate": 1}
    assert len(step.invoke(_docs())) == 4  # no callbacks: no event, same documents


def test_the_summary_is_bounded_for_many_long_ids() -> None:
    docs = [Document(f"passage {i} " * 5, id=f"{i}-" + "x" * 500) for i in range(300)]
    handler = _Events()
    BriefpackCompressor(budget=100_000, tokenizer="approx").compress_documents(
        docs, "?", callbacks=[handler]
    )
    data = _one_event(handler)
    assert data["placed"] == 300
    assert len(data["sources"]) == SUMMARY_IDS
    assert all(len(i) <= SUMMARY_ID_CHARS for i in data["sources"])
    assert len(json.dumps({k: v for k, v in data.items() if k != "assembly"})) < 10_000


def test_assemble_reads_langchain_documents_as_to_chunks_does() -> None:
    from briefpack._metadata_keys import LANGCHAIN_KEYS
    from briefpack.integrations.langchain import DEFAULT_KEYS

    assert DEFAULT_KEYS is LANGCHAIN_KEYS  # one table for both paths
    docs = [
        Document("Caps are 4000 EUR.", id="a", metadata={"source": "/d/report.pdf", "page": 13}),
        Document(
            "Leave is 14 weeks.",
            id="b",
            metadata={"source": "r.pdf", "page_label": "xii", "title": "Handbook"},
        ),
        Document("Sick leave.", id="c", metadata={"source": "https://x.org/a.pdf", "page": 0}),
        Document("Remote work.", id="d", metadata={"start_index": 40, "title": 3, "page": -1}),
    ]
    opts = {"budget": 1000, "tokenizer": "approx", "order": "relevance"}
    direct = bp.assemble("q?", docs, **opts)
    converted = bp.assemble("q?", to_chunks(docs), **opts)
    assert direct.user == converted.user
    assert json.dumps(direct.record(), default=str) == json.dumps(converted.record(), default=str)
    labels = [line for line in direct.user.splitlines() if line.startswith("<source id=")]
    assert labels == [
        '<source id="1" title="report.pdf" page="14">',
        '<source id="2" title="Handbook" page="xii">',
        '<source id="3" page="1">',  # a URL is no title
        '<source id="4">',  # a title that is no str, a page that is no page: skipped
    ]
    assert [s.chunk.position for s in direct.sources] == [None, None, None, 40]


def test_sentence_scorer_embeddings_scores_sentences_with_the_compressors_model() -> None:
    """``options={"sentence_scorer": "embeddings"}`` is ``embedding_scorer`` over the
    compressor's own ``embeddings`` (its ``embed_documents``): the same cut as passing that
    scorer by hand, one extra batched call per request, and the value survives a round trip."""
    docs = [
        Document(
            "Acme sells billing software. Acme was founded in 2009. ARR reached 40 million.",
            id="a",
        ),
        Document("Relocation is capped at 4000 EUR. Leave is 14 weeks.", id="b"),
    ]
    question = "What was the ARR of Acme?"
    emb = BagOfWords()
    wired = BriefpackCompressor(
        budget=1000,
        tokenizer="approx",
        embeddings=emb,
        options={"compress": "all", "sentence_scorer": "embeddings"},
    )
    by_hand = BriefpackCompressor(
        budget=1000,
        tokenizer="approx",
        embeddings=BagOfWords(),
        options={
            "compress": "all",
            "sentence_scorer": embedding_scorer(BagOfWords().embed_documents),
        },
    )
    got, want = wired.assemble(docs, question), by_hand.assemble(docs, question)
    assert [s.compression for s in got.sources] == [s.compression for s in want.sources]
    assert any(s.compression is not None and s.compression.removed for s in got.sources)
    assert emb.document_calls == 2  # the documents' vectors, then the question and sentences
    assert wired.model_dump()["options"]["sentence_scorer"] == "embeddings"  # serialisable
    with pytest.raises(bp.InputError, match=r'sentence_scorer="embeddings".*pass embeddings='):
        BriefpackCompressor(options={"sentence_scorer": "embeddings"})
