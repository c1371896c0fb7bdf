"""briefpack.integrations.haystack against the real haystack-ai objects (no mocks).

No ``from __future__ import annotations`` here: Haystack 2 reads a component's run()
annotations at runtime and does not resolve strings.
"""

import copy
import json
import os
from typing import Any

import pytest

os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")  # before haystack is imported
pytest.importorskip("haystack")

from haystack import Document, Pipeline, component
from haystack.components.preprocessors import DocumentSplitter
from haystack.components.rankers import LostInTheMiddleRanker
from haystack.components.retrievers.in_memory import (
    InMemoryBM25Retriever,
    InMemoryEmbeddingRetriever,
)
from haystack.components.writers import DocumentWriter
from haystack.dataclasses import ChatMessage
from haystack.document_stores.in_memory import InMemoryDocumentStore

import briefpack as bp
from briefpack.integrations.haystack import BriefpackPromptBuilder, join_documents, to_chunks
from briefpack.prompt import DEFAULT_INSTRUCTIONS, DEFAULT_SYSTEM

TEXTS = [
    "Parental leave in Germany is 14 weeks at full pay.",
    "Parental leave in Germany is 14 weeks at full pay!",
    "The relocation cap for Berlin is 4000 EUR.",
    "Employees may work remotely up to three days a week.",
    "Sick leave needs a doctor's note from the third day.",
    "Travel is booked through the internal portal.",
]


def _docs() -> list[Document]:
    return [
        Document(content=t, id=f"d{i}", score=1.0 - i / 10, meta={"source_id": f"s{i % 3}"})
        for i, t in enumerate(TEXTS)
    ]


@component
class EchoChatGenerator:
    """A chat generator that answers with a fixed, cited reply (a stand-in for an LLM)."""

    @component.output_types(replies=list[ChatMessage])
    def run(self, messages: list[ChatMessage]) -> dict[str, Any]:
        assert [m.role.value for m in messages] == ["system", "user"]
        return {"replies": [ChatMessage.from_assistant("Parental leave is 14 weeks [1].")]}


@component
class EchoTextGenerator:
    """A text generator (``prompt: str``, as ``OpenAIGenerator`` takes), a stand-in for an LLM."""

    @component.output_types(replies=list[str])
    def run(self, prompt: str) -> dict[str, Any]:
        assert prompt.startswith(DEFAULT_SYSTEM)
        return {"replies": ["Parental leave is 14 weeks [1]."]}


def test_run_returns_prompt_messages_documents_and_the_assembly() -> None:
    docs = _docs()
    before = copy.deepcopy(docs)
    out = BriefpackPromptBuilder(budget=1000, tokenizer="approx").run(
        documents=docs, query="How long is parental leave?"
    )
    a = out["assembly"]
    assert isinstance(a, bp.Assembly)
    assert out["text"] == f"{a.system}\n\n{a.user}"
    assert [m.role.value for m in out["prompt"]] == ["system", "user"]
    assert [m.text for m in out["prompt"]] == [a.system, a.user]
    assert out["messages"] == out["prompt"]  # the name pipelines were wired with before
    assert [d.id for d in out["documents"]] == [s.chunk.id for s in a.sources]
    assert "d1" not in [d.id for d in out["documents"]]  # the near duplicate of d0
    for n, d in enumerate(out["documents"], 1):
        assert d.meta["briefpack"]["label"] == n
        assert d.meta["source_id"] == docs[int(d.id[1:])].meta["source_id"]
        assert d.score == docs[int(d.id[1:])].score
    assert docs == before, "the input documents were mutated"


def test_annotate_false_returns_the_very_documents() -> None:
    docs = _docs()
    out = BriefpackPromptBuilder(budget=1000, tokenizer="approx", annotate=False).run(
        documents=docs, query="q"
    )
    assert all(any(o is d for d in docs) for o in out["documents"])


def test_edges_order_is_lost_in_the_middle_rankers_order() -> None:
    docs = [d for d in _docs() if d.id != "d1"]
    ranker = LostInTheMiddleRanker().run(documents=docs)["documents"]
    ours = BriefpackPromptBuilder(budget=1000, tokenizer="approx", annotate=False).run(
        documents=docs, query="q"
    )["documents"]
    assert [d.id for d in ours] == [d.id for d in ranker]


def test_a_token_budget_instead_of_a_word_count() -> None:
    docs = _docs()
    out = BriefpackPromptBuilder(budget=50, tokenizer="approx").run(documents=docs, query="q")
    assert out["assembly"].tokens["sources"] <= 50
    assert 0 < len(out["documents"]) < 5


def test_meta_maps_to_chunk_fields_and_caps_per_document() -> None:
    chunks = to_chunks(_docs())
    assert (chunks[0].id, chunks[0].score, chunks[0].doc) == ("d0", 1.0, "s0")
    capped = BriefpackPromptBuilder(
        budget=1000, tokenizer="approx", max_per_doc=1, order="relevance"
    ).run(documents=_docs(), query="q")
    assert [d.meta["source_id"] for d in capped["documents"]] == ["s0", "s2", "s1"]


def test_embeddings_make_auto_dedupe_cosine() -> None:
    docs = [
        Document(content=t, id=f"e{i}", embedding=[1.0, float(i == 2)])
        for i, t in enumerate(TEXTS[:3])
    ]
    out = BriefpackPromptBuilder(budget=1000, tokenizer="approx").run(documents=docs, query="q")
    assert out["assembly"].settings["dedupe"] == "cosine"
    assert [d.id for d in out["documents"]] == ["e0", "e2"]


def test_history_goes_in_the_user_message() -> None:
    history = [ChatMessage.from_user("Hi"), ChatMessage.from_assistant("Hello! <b>")]
    out = BriefpackPromptBuilder(budget=1000, tokenizer="approx").run(
        documents=_docs(), query="q", history=history
    )
    user = out["messages"][1].text
    assert user.startswith('<history>\n<message role="user">Hi</message>')
    assert "Hello! &lt;b&gt;" in user
    assert out["messages"][0].text == DEFAULT_SYSTEM + "\n\n" + DEFAULT_INSTRUCTIONS


def test_history_turns_are_sent_as_chat_turns() -> None:
    """Under ``history_turns`` the turns are their own messages, between system and user."""
    history = [ChatMessage.from_user("Hi"), ChatMessage.from_assistant("Hello!")]
    out = BriefpackPromptBuilder(
        budget=1000, tokenizer="approx", options={"history_turns": True}
    ).run(documents=_docs(), query="q", history=history)
    roles = [m.role.value for m in out["prompt"]]
    assert roles == ["system", "user", "assistant", "user"]
    assert [m.text for m in out["prompt"][1:3]] == ["Hi", "Hello!"]
    assert "<history>" not in (out["prompt"][-1].text or "")
    assert [m.text for m in out["messages"]] == [m.text for m in out["prompt"]]


def test_bad_options_fail_when_built() -> None:
    with pytest.raises(bp.InputError, match="order must be one of"):
        BriefpackPromptBuilder(order="middle")
    with pytest.raises(bp.InputError, match="unknown assemble option"):
        BriefpackPromptBuilder(options={"top_k": 3})
    with pytest.raises(bp.InputError, match="arguments of BriefpackPromptBuilder"):
        BriefpackPromptBuilder(options={"budget": 3})
    with pytest.raises(bp.InputError, match="not a Chunk field"):
        BriefpackPromptBuilder(keys={"colour": "c"})


def _indexed_store() -> InMemoryDocumentStore:
    store = InMemoryDocumentStore()
    indexing = Pipeline()
    indexing.add_component("splitter", DocumentSplitter(split_by="line", split_length=1))
    indexing.add_component("writer", DocumentWriter(document_store=store))
    indexing.connect("splitter.documents", "writer.documents")
    handbook = "\n".join(TEXTS[0:1] + TEXTS[2:4])
    faq = "\n".join(TEXTS[1:2] + TEXTS[4:])
    indexing.run({"splitter": {"documents": [Document(content=handbook), Document(content=faq)]}})
    return store


def test_in_a_real_pipeline_from_retriever_to_generator() -> None:
    store = _indexed_store()
    rag = Pipeline()
    rag.add_component("retriever", InMemoryBM25Retriever(document_store=store, top_k=10))
    rag.add_component("briefpack", BriefpackPromptBuilder(budget=1000, tokenizer="approx"))
    rag.add_component("llm", EchoChatGenerator())
    rag.connect("retriever.documents", "briefpack.documents")
    rag.connect("briefpack.prompt", "llm.messages")  # as ChatPromptBuilder is wired
    q = "How long is parental leave in Germany?"
    result = rag.run(
        {"retriever": {"query": q}, "briefpack": {"query": q}},
        include_outputs_from={"retriever", "briefpack"},
    )
    a = result["briefpack"]["assembly"]
    retrieved = [d.content for d in result["retriever"]["documents"]]
    placed = [d.content for d in result["briefpack"]["documents"]]
    assert sum("14 weeks" in t for t in retrieved) == 2
    assert sum("14 weeks" in t for t in placed) == 1
    assert len(placed) == len(retrieved) - 1
    assert [d.reason for d in a.dropped] == ["duplicate"]
    assert a.sources[0].chunk.doc == a.sources[0].chunk.meta["source_id"]
    reply = result["llm"]["replies"][0].text
    cited = a.cite(reply)
    assert [src.label for src in cited.sources] == [1]
    assert cited.unknown == []
    assert cited.unsupported_sentences == []


def test_text_feeds_a_text_generator_in_a_pipeline() -> None:
    rag = Pipeline()
    rag.add_component("briefpack", BriefpackPromptBuilder(budget=1000, tokenizer="approx"))
    rag.add_component("llm", EchoTextGenerator())
    rag.connect("briefpack.text", "llm.prompt")
    result = rag.run({"briefpack": {"documents": _docs(), "query": "How long is leave?"}})
    assert result["llm"]["replies"] == ["Parental leave is 14 weeks [1]."]


def test_the_outputs_match_chat_prompt_builders() -> None:
    from haystack.components.builders import ChatPromptBuilder

    pipe = Pipeline()
    pipe.add_component("ours", BriefpackPromptBuilder())
    pipe.add_component("theirs", ChatPromptBuilder(template=[ChatMessage.from_user("x")]))
    outputs = pipe.outputs()
    assert outputs["ours"]["prompt"]["type"] == outputs["theirs"]["prompt"]["type"]
    assert outputs["ours"]["prompt"]["type"] == list[ChatMessage]
    assert outputs["ours"]["text"]["type"] is str


def test_messages_connect_to_a_real_chat_generator() -> None:
    openai_chat = pytest.importorskip("haystack.components.generators.chat")
    from haystack.utils import Secret

    rag = Pipeline()
    rag.add_component("briefpack", BriefpackPromptBuilder(tokenizer="approx"))
    rag.add_component(
        "llm", openai_chat.OpenAIChatGenerator(api_key=Secret.from_token("sk-not-used"))
    )
    rag.connect("briefpack.prompt", "llm.messages")  # type-checked by Haystack, not run
    assert ("briefpack", "llm") in [(a, b) for a, b, *_ in rag.graph.edges]
    old = Pipeline()
    old.add_component("briefpack", BriefpackPromptBuilder(tokenizer="approx"))
    old.add_component(
        "llm", openai_chat.OpenAIChatGenerator(api_key=Secret.from_token("sk-not-used"))
    )
    old.connect("briefpack.messages", "llm.messages")  # the wiring before prompt held messages
    assert ("briefpack", "llm") in [(a, b) for a, b, *_ in old.graph.edges]


def test_pipeline_serialisation_round_trip() -> None:
    rag = Pipeline()
    rag.add_component(
        "briefpack",
        BriefpackPromptBuilder(
            budget=bp.Budget(window=8192, max_output=1024),
            tokenizer="approx",
            options={"supersede": "url"},
            keys={"doc": "file_path"},
            join="score",
            rrf_k=10,
        ),
    )
    try:  # Haystack 3 deserialises only modules it is told to trust
        loaded = Pipeline.loads(rag.dumps(), allowed_modules=["briefpack.integrations.haystack"])
    except TypeError:  # Haystack 2 has no allowlist
        loaded = Pipeline.loads(rag.dumps())
    builder = loaded.get_component("briefpack")
    assert isinstance(builder, BriefpackPromptBuilder)
    assert builder.budget == bp.Budget(window=8192, max_output=1024)
    assert builder.options == {"supersede": "url"}
    assert builder.keys == {"doc": "file_path"}
    assert (builder.join, builder.rrf_k) == ("score", 10)
    assert builder.to_dict() == rag.get_component("briefpack").to_dict()


# ---- what a Haystack user does next ----


def _load(text: str, *modules: str) -> Pipeline:
    try:  # Haystack 3 deserialises only modules it is told to trust
        return Pipeline.loads(text, allowed_modules=["briefpack.integrations.haystack", *modules])
    except TypeError:  # Haystack 2 has no allowlist
        return Pipeline.loads(text)


def word_count(text: str) -> int:
    return len(text.split())


def test_from_dict_leaves_the_callers_dict_alone() -> None:
    data = BriefpackPromptBuilder(budget=bp.Budget(context=500), tokenizer="approx").to_dict()
    before = copy.deepcopy(data)
    builder = BriefpackPromptBuilder.from_dict(data)
    assert data == before
    assert builder.budget == bp.Budget(context=500)


def test_a_module_level_callable_serialises_as_haystack_serialises_callables() -> None:
    rag = Pipeline()
    rag.add_component(
        "briefpack",
        BriefpackPromptBuilder(budget=500, tokenizer=word_count, options={"rerank": None}),
    )
    text = rag.dumps()
    assert f"{__name__}.word_count" in text
    builder = _load(text, __name__).get_component("briefpack")
    assert builder.tokenizer is word_count
    out = builder.run(documents=_docs(), query="Leave?")
    assert out["assembly"].tokens["system"] == word_count(out["assembly"].system)
    with pytest.raises(bp.InputError, match=r"tokenizer: .* cannot be serialised"):
        BriefpackPromptBuilder(tokenizer=lambda t: len(t)).to_dict()


def test_a_documents_without_text_is_left_out() -> None:
    docs = [*_docs()[:3], Document(content=None, meta={"kind": "image"})]
    out = BriefpackPromptBuilder(budget=1000, tokenizer="approx").run(documents=docs, query="?")
    a = out["assembly"]
    assert len(a.fates) == 3
    assert all(d.content for d in out["documents"])
    assert '<source id="4"' not in a.user


def test_tool_calls_and_results_in_history_keep_their_content() -> None:
    from haystack.dataclasses import ToolCall

    call = ToolCall(tool_name="leave_days", arguments={"country": "DE"}, id="c1")
    history = [
        ChatMessage.from_user("How long is leave in Germany?"),
        ChatMessage.from_assistant(tool_calls=[call]),
        ChatMessage.from_tool(tool_result="98 days", origin=call),
    ]
    out = BriefpackPromptBuilder(budget=1000, tokenizer="approx").run(
        documents=_docs(), query="And in weeks?", history=history
    )
    user = out["messages"][1].text
    assert '[tool call leave_days({"country": "DE"})]' in user
    assert "[tool result leave_days] 98 days" in user


def test_run_time_overrides_like_top_k() -> None:
    builder = BriefpackPromptBuilder(budget=1000, tokenizer="approx", order="relevance")
    full = builder.run(documents=_docs(), query="?")
    small = builder.run(documents=_docs(), query="?", budget=30, options={"max_per_doc": 1})
    assert small["assembly"].tokens["context_budget"] == 30
    assert small["assembly"].settings["max_per_doc"] == 1
    assert len(small["documents"]) < len(full["documents"])
    assert (
        builder.run(documents=_docs(), query="?")["assembly"].settings == full["assembly"].settings
    )
    with pytest.raises(bp.InputError, match="budget"):
        builder.run(documents=_docs(), query="?", budget=-1)


@component
class Reader:
    """A downstream component that takes the assembly (where a breakpoint can stop)."""

    @component.output_types(labels=list[int])
    def run(self, assembly: bp.Assembly) -> dict[str, Any]:
        return {"labels": [s.label for s in assembly.sources]}


def test_breakpoints_and_snapshots_keep_the_assembly(monkeypatch: pytest.MonkeyPatch) -> None:
    breakpoints = pytest.importorskip("haystack.dataclasses.breakpoints")
    errors = pytest.importorskip("haystack.core.errors")
    rag = Pipeline()
    rag.add_component("briefpack", BriefpackPromptBuilder(budget=1000, tokenizer="approx"))
    rag.add_component("reader", Reader())
    rag.connect("briefpack.assembly", "reader.assembly")
    snapshots: list[Any] = []
    with pytest.raises(errors.BreakpointException):
        rag.run(
            {"briefpack": {"documents": _docs(), "query": "Leave?"}},
            break_point=breakpoints.Breakpoint(component_name="reader"),
            snapshot_callback=snapshots.append,
        )
    [snapshot] = snapshots
    text = json.dumps(snapshot.to_dict())
    assert "Cannot serialize" not in text
    assert "briefpack.types.Assembly" in text
    # Haystack 3 restores classes only from trusted modules: trust briefpack.types
    monkeypatch.setenv("HAYSTACK_DESERIALIZATION_ALLOWLIST", "briefpack.types")
    restored = type(snapshot).from_dict(json.loads(text))
    result = rag.run(data={}, pipeline_snapshot=restored)
    expected = BriefpackPromptBuilder(budget=1000, tokenizer="approx").run(
        documents=_docs(), query="Leave?"
    )["assembly"]
    assert result["reader"]["labels"] == [s.label for s in expected.sources]


def test_compress_passes_through_to_the_assembly() -> None:
    text = (
        "Billing is monthly. Parental leave is 14 weeks at full pay. Seats are counted "
        "monthly. Invoices arrive by email on the first day of each month."
    )
    docs = [
        Document(content="The relocation cap is 4000 EUR.", id="a"),
        Document(content=text, id="b"),
    ]
    builder = BriefpackPromptBuilder(
        budget=40, order="relevance", tokenizer="approx", options={"compress": "overflow"}
    )
    out = builder.run(documents=docs, query="How long is leave?")
    a = out["assembly"]
    assert a.settings["compress"] == "overflow"
    assert [s.chunk.text for s in a.sources][-1] == "Parental leave is 14 weeks at full pay."
    assert out["documents"][-1].content == "Parental leave is 14 weeks at full pay."
    again = BriefpackPromptBuilder.from_dict(builder.to_dict())
    assert again.run(documents=docs, query="How long is leave?")["assembly"] == a


HYBRID = [
    # (text, embedding): BM25 finds the leave texts; the embedding finds the remote-work ones
    ("Parental leave in Germany is 14 weeks at full pay.", [1.0, 0.0, 0.0]),
    (
        "Leave requests go through the leave portal; leave is approved by the manager.",
        [0.9, 0.1, 0.0],
    ),
    ("Unpaid leave of up to a year is possible after two years.", [0.8, 0.2, 0.0]),
    ("Employees may work from home up to three days a week.", [0.0, 1.0, 0.0]),
    ("Home office equipment is reimbursed up to 500 EUR.", [0.0, 0.9, 0.1]),
]


def _hybrid(builder: BriefpackPromptBuilder) -> dict[str, Any]:
    store = InMemoryDocumentStore()
    store.write_documents(
        [Document(id=f"h{i}", content=t, embedding=e) for i, (t, e) in enumerate(HYBRID)]
    )
    rag = Pipeline()
    rag.add_component("bm25", InMemoryBM25Retriever(document_store=store, top_k=3))
    rag.add_component("dense", InMemoryEmbeddingRetriever(document_store=store, top_k=2))
    rag.add_component("briefpack", builder)
    rag.connect("bm25.documents", "briefpack.documents")
    rag.connect("dense.documents", "briefpack.documents")  # a second sender
    q = "How long is leave?"
    return rag.run(
        {
            "bm25": {"query": q},
            "dense": {"query_embedding": [0.0, 1.0, 0.0]},
            "briefpack": {"query": q},
        },
        include_outputs_from={"bm25", "dense", "briefpack"},
    )


def test_hybrid_retrieval_fuses_both_senders_by_reciprocal_rank() -> None:
    # a budget for about two sources: concatenation would spend it all on BM25's list
    out = _hybrid(BriefpackPromptBuilder(budget=60, tokenizer="approx", order="relevance"))
    bm25 = [d.id for d in out["bm25"]["documents"]]
    dense = [d.id for d in out["dense"]["documents"]]
    assert sorted(bm25) == ["h0", "h1", "h2"]
    assert dense == ["h3", "h4"]
    assert not set(bm25) & set(dense)
    placed = [d.id for d in out["briefpack"]["documents"]]
    assert placed == [bm25[0], "h3"]  # each list's best (rank 1 ties rank 1: BM25 first)
    fused = join_documents([out["bm25"]["documents"], out["dense"]["documents"]])
    assert [d.id for d in fused] == [bm25[0], "h3", bm25[1], "h4", bm25[2]]
    assert [d.score for d in fused] == pytest.approx([1 / 61, 1 / 61, 1 / 62, 1 / 62, 1 / 63])
    a = out["briefpack"]["assembly"]
    assert [d.reason for d in a.dropped] == ["over_budget"] * 3

    concatenated = _hybrid(
        BriefpackPromptBuilder(budget=60, tokenizer="approx", order="relevance", join="concatenate")
    )
    assert [d.id for d in concatenated["briefpack"]["documents"]] == bm25[:2]


def test_join_documents_keeps_each_id_once_at_its_best_rank() -> None:
    a = [Document(id="x", content="x from a"), Document(id="y", content="y")]
    b = [Document(id="z", content="z"), Document(id="x", content="x from b")]
    c = [Document(id="x", content="x from c")]
    fused = join_documents([a, b, c], rrf_k=0)
    # x: 1/1 + 1/2 + 1/1; z: 1/1; y: 1/2
    assert [(d.id, d.score) for d in fused] == [("x", 2.5), ("z", 1.0), ("y", 0.5)]
    assert fused[0].content == "x from a"  # rank 1 in a and in c: the earlier list's copy
    assert a[0].score is None  # the inputs are not changed
    assert [d.id for d in join_documents([a, b, c], "concatenate")] == ["x", "y", "z"]
    scored = [
        [Document(id="p", content="p", score=0.2), Document(id="q", content="q")],
        [Document(id="r", content="r", score=7.0), Document(id="p", content="p2", score=0.9)],
    ]
    joined = join_documents(scored, "score")
    assert [(d.id, d.score) for d in joined] == [("r", 7.0), ("p", 0.9), ("q", None)]
    assert join_documents([], "rrf") == []
    with pytest.raises(bp.InputError, match="join"):
        join_documents([a], "mean")
    with pytest.raises(bp.InputError, match="rrf_k"):
        BriefpackPromptBuilder(rrf_k=-1)
    with pytest.raises(bp.InputError, match="join"):
        BriefpackPromptBuilder(join="union")


def test_a_direct_run_takes_one_list_or_one_list_per_sender() -> None:
    builder = BriefpackPromptBuilder(budget=1000, tokenizer="approx")
    docs = _docs()
    one = builder.run(documents=docs, query="q")
    wrapped = builder.run(documents=[docs], query="q")
    assert one["text"] == wrapped["text"]  # one sender: read as given, scores kept
    two = builder.run(documents=[docs[:3], docs[3:]], query="q")
    assert {d.id for d in two["documents"]} == {d.id for d in one["documents"]}
    assert builder.run(documents=[], query="q")["documents"] == []
    with pytest.raises(bp.InputError, match=r"documents\[1\] must be a list of Documents"):
        builder.run(documents=[docs, "not a list"], query="q")


# ---- tracing: a compact summary by default, the record on request ----


class RecordingTracer:
    """A Haystack tracer that keeps every span's tags, coerced as the real tracers coerce them
    (``coerce_tag_value``: what a tracing backend would receive)."""

    def __init__(self) -> None:
        from haystack.tracing.utils import coerce_tag_value

        self.coerce = coerce_tag_value
        self.spans: list[dict[str, Any]] = []
        self._current: list[Any] = []

    def trace(self, operation_name: str, tags: Any = None, parent_span: Any = None) -> Any:
        import contextlib

        from haystack.tracing import Span

        tracer = self

        class Recorded(Span):
            def __init__(self) -> None:
                self.tags: dict[str, Any] = {"operation": operation_name}

            def set_tag(self, key: str, value: Any) -> None:
                self.tags[key] = tracer.coerce(value)

        @contextlib.contextmanager
        def span() -> Any:
            s = Recorded()
            for k, v in (tags or {}).items():
                s.set_tag(k, v)
            self._current.append(s)
            try:
                yield s
            finally:
                self._current.pop()
                self.spans.append(s.tags)

        return span()

    def current_span(self) -> Any:
        return self._current[-1] if self._current else None


def _thirty() -> list[Document]:
    import random

    rng = random.Random(3)
    words = [f"w{k}" for k in range(2000)]
    return [
        Document(
            content=" ".join(rng.choice(words) for _ in range(150)) + ".",
            id=f"doc-{i}",
            score=1.0 - i / 100,
            meta={"file_path": f"handbook-{i % 4}.pdf", "page_number": i + 1},
        )
        for i in range(30)
    ]


def _traced_run(builder: BriefpackPromptBuilder) -> tuple[dict[str, Any], Any]:
    from haystack import tracing

    tracer = RecordingTracer()
    tracing.enable_tracing(tracer)  # type: ignore[arg-type]
    tracing.tracer.is_content_tracing_enabled = True
    try:
        rag = Pipeline()
        rag.add_component("briefpack", builder)
        out = rag.run({"briefpack": {"documents": _thirty(), "query": "leave?"}})
    finally:
        tracing.tracer.is_content_tracing_enabled = False
        tracing.disable_tracing()
    [span] = [s for s in tracer.spans if s.get("haystack.component.name") == "briefpack"]
    return span, out["briefpack"]["assembly"]


def _supports_trace_hook() -> bool:
    import inspect

    from haystack.tracing import utils

    return "_to_trace_dict" in inspect.getsource(utils)


def test_a_span_carries_the_summary_and_the_assembly_traces_compactly() -> None:
    span, a = _traced_run(BriefpackPromptBuilder(budget=2000, tokenizer="approx"))
    summary = json.loads(span["briefpack.summary"])
    assert summary["adapter"] == "BriefpackPromptBuilder"
    assert summary["candidates"] == 30
    assert summary["placed"] == len(a.sources)
    assert summary["placed"] < 30
    assert summary["dropped"] == {"over_budget": 30 - len(a.sources)}
    assert summary["sources"] == [s.chunk.id for s in a.sources]
    assert summary["tokens"] == a.tokens
    assert summary["prompt_sha256"] == a.record()["prompt_sha256"]
    if _supports_trace_hook():
        traced = json.loads(span["haystack.component.output"])["assembly"]
        assert traced == {**summary, "ms": traced["ms"]}
        assert len(json.dumps(traced)) < 2_000
        assert len(json.dumps(a.to_dict())) > 30_000  # what was traced before


def test_trace_record_traces_the_full_record_and_round_trips() -> None:
    builder = BriefpackPromptBuilder(budget=2000, tokenizer="approx", trace="record")
    span, a = _traced_run(builder)
    assert "briefpack.summary" in span
    if _supports_trace_hook():
        traced = json.loads(span["haystack.component.output"])["assembly"]
        assert traced == json.loads(json.dumps(a.record()))
    assert BriefpackPromptBuilder.from_dict(builder.to_dict()).trace == "record"
    with pytest.raises(bp.InputError, match="trace"):
        BriefpackPromptBuilder(trace="everything")


def test_the_traced_assembly_is_still_equal_and_pickles_as_before() -> None:
    import pickle

    out = BriefpackPromptBuilder(budget=2000, tokenizer="approx").run(
        documents=_thirty(), query="leave?"
    )
    a = out["assembly"]
    plain = bp.Assembly.from_dict(a.to_dict())
    assert a == plain
    assert pickle.loads(pickle.dumps(a)) == plain
    assert not hasattr(pickle.loads(pickle.dumps(a)), "_to_trace_dict")


def test_the_file_name_is_the_title_on_both_paths() -> None:
    docs = [
        Document(content="Caps.", id="a", meta={"file_path": "/srv/report.pdf", "page_number": 14}),
        Document(content="Leave.", id="b", meta={"file_path": "x.pdf", "title": "Handbook"}),
        Document(content="Sick.", id="c", meta={"file_name": "notes.txt"}),
        Document(content="Web.", id="d", meta={"file_path": "https://x.org/a.pdf"}),
    ]
    chunks = to_chunks(docs)
    assert [c.title for c in chunks] == ["report.pdf", "Handbook", "notes.txt", ""]
    assert to_chunks(docs[:1], keys={"title": "heading"})[0].title == ""  # your key only
    opts = {"budget": 1000, "tokenizer": "approx", "order": "relevance"}
    direct = bp.assemble("q?", docs, **opts)
    converted = bp.assemble("q?", chunks, **opts)
    assert direct.user == converted.user
    assert json.dumps(direct.record(), default=str) == json.dumps(converted.record(), default=str)
    assert '<source id="1" title="report.pdf" page="14">' in direct.user
    out = BriefpackPromptBuilder(budget=1000, tokenizer="approx").run(documents=docs, query="q?")
    assert '<source id="1" title="report.pdf" page="14">' in out["text"]


def test_two_senders_give_the_fused_scores_as_join_documents_does() -> None:
    bm25 = _docs()
    dense = list(reversed(_docs()))
    for annotate in (True, False):
        builder = BriefpackPromptBuilder(budget=2000, tokenizer="approx", annotate=annotate)
        out = builder.run(documents=[bm25, dense], query="Leave?")
        fused = {d.id: d.score for d in join_documents([bm25, dense])}
        assert [d.score for d in out["documents"]] == [fused[d.id] for d in out["documents"]]
        assert [s.chunk.score for s in out["assembly"].sources] == [
            fused[d.id] for d in out["documents"]
        ]
    assert [d.score for d in bm25] == [d.score for d in _docs()]  # the inputs are unchanged
