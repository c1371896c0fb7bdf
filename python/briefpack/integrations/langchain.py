"""LangChain: briefpack as a document compressor / transformer, and an Assembly as messages.

``BriefpackCompressor`` is both a ``BaseDocumentCompressor`` (for
``ContextualCompressionRetriever`` and ``DocumentCompressorPipeline``) and a
``BaseDocumentTransformer`` (for anything that takes one), so it goes wherever
``EmbeddingsRedundantFilter`` and ``LongContextReorder`` go, and replaces the two of them plus
the budget cap that LangChain leaves to the caller: it dedupes, caps per document, packs a
token budget and orders the kept documents, keeping each ``Document``'s id and metadata.

``to_messages`` turns an ``Assembly`` into ``[SystemMessage, HumanMessage]``, and
``prompt_runnable`` is the whole step as a runnable for LCEL chains.

Needs ``langchain-core``: ``pip install 'briefpack[langchain]'``.
"""

from typing import Any

try:
    from langchain_core.callbacks import AsyncCallbackManager, CallbackManager, Callbacks
    from langchain_core.documents import BaseDocumentCompressor, BaseDocumentTransformer, Document
    from langchain_core.embeddings import Embeddings
    from langchain_core.messages import (
        AIMessage,
        BaseMessage,
        HumanMessage,
        SystemMessage,
        ToolMessage,
    )
    from langchain_core.prompt_values import ChatPromptValue
    from langchain_core.runnables import RunnableLambda
    from pydantic import (
        ConfigDict,
        Field,
        FieldSerializationInfo,
        PrivateAttr,
        field_serializer,
        field_validator,
    )
except ImportError as exc:  # pragma: no cover - exercised by test_missing_extra
    from ._common import missing_extra

    raise missing_extra("langchain", "langchain-core", "langchain") from exc

from collections.abc import Mapping, Sequence

from .._checks import type_name
from ..assembly import Assembly
from ..errors import InputError
from ..types import Chunk
from ._common import (
    DEFAULTS,
    annotation,
    budget_from,
    budget_to_dict,
    build,
    check_json_value,
    fold_options,
    member_index,
    merge_keys,
    note_vectors,
    pick_fields,
    run,
    shown,
    tokenizer_name,
    untouched,
)

__all__ = [
    "DEFAULT_KEYS",
    "LABEL_KEY",
    "BriefpackCompressor",
    "BriefpackPromptValue",
    "parents_from_store",
    "prompt_runnable",
    "to_chunks",
    "to_documents",
    "to_messages",
]

DEFAULT_KEYS: Mapping[str, tuple[str, ...]] = {
    "id": ("id",),
    "score": ("score", "relevance_score"),
    "doc": ("doc", "source"),
    "position": ("position", "start_index"),
    "parent": ("parent",),
    "title": ("title",),
    "url": ("url",),
    "updated": ("updated",),
    "tokens": ("tokens",),
}
"""Where a ``Document``'s metadata holds each ``Chunk`` field, tried in turn.

``source`` is what LangChain's loaders set (a file path or URL), ``start_index`` what text
splitters set with ``add_start_index=True`` and ``relevance_score`` what rerankers set.
``Document.id`` wins over ``metadata["id"]``. A value of the wrong type is ignored. An id that
several documents share with different texts (a loader's record id, copied by a splitter onto
every chunk) identifies none of them: those documents fall back to their index.
"""

LABEL_KEY = "source_label"
"""Top-level metadata key with each returned document's label (for prompt templates)."""

_NO_VECTORS_HINT = "pass embeddings= to compare by cosine (one embed_documents call per request)"

_ANNOTATION_KEY = "briefpack"


def _state_vector(document: Document) -> Any:
    """The embedding an ``EmbeddingsRedundantFilter`` earlier in a pipeline left on a document."""
    state = getattr(document, "state", None)
    return state.get("embedded_doc") if isinstance(state, dict) else None


def to_chunks(
    documents: Sequence[Document],
    *,
    keys: Mapping[str, Any] | None = None,
    vectors: Sequence[Any] | None = None,
) -> list[Chunk]:
    """Turn LangChain ``Document``s into briefpack ``Chunk``s (metadata carried in ``meta``).

    Args:
        documents: the retrieved documents, best first.
        keys: overrides of ``DEFAULT_KEYS``, e.g. ``{"parent": "doc_id"}`` for a
            ``ParentDocumentRetriever``'s children.
        vectors: one embedding per document (else an embedding that LangChain's
            ``EmbeddingsRedundantFilter`` cached on the document, else none).

    >>> from langchain_core.documents import Document
    >>> [c] = to_chunks([Document("Leave is 14 weeks.", id="hr/1",
    ...                           metadata={"source": "hr.pdf", "start_index": 300})])
    >>> c.id, c.doc, c.position, c.meta["source"]
    ('hr/1', 'hr.pdf', 300, 'hr.pdf')
    >>> [c.id for c in to_chunks([Document("a", metadata={"id": "rec-1"}),
    ...                           Document("b", metadata={"id": "rec-1"})])]  # -> the index
    [None, None]
    """
    where = merge_keys(DEFAULT_KEYS, keys)
    picked = []
    for d in documents:
        fields = pick_fields(d.metadata or {}, where)
        if d.id is not None:
            fields["id"] = str(d.id)
        picked.append(fields)
    texts_of: dict[str, set[str]] = {}
    for d, fields in zip(documents, picked):
        if "id" in fields:
            texts_of.setdefault(fields["id"], set()).add(d.page_content)
    out = []
    for i, (d, fields) in enumerate(zip(documents, picked)):
        if "id" in fields and len(texts_of[fields["id"]]) > 1:
            del fields["id"]  # shared by different texts: not an id of this chunk
        vector = vectors[i] if vectors is not None else _state_vector(d)
        out.append(Chunk(d.page_content, vector=vector, meta=d.metadata or {}, **fields))
    return out


def _document(source_chunk: Chunk, extra: dict[str, Any] | None) -> Document:
    meta = dict(source_chunk.meta or {})
    if extra is not None:
        meta[_ANNOTATION_KEY] = extra
        meta[LABEL_KEY] = extra["label"]
    return Document(page_content=source_chunk.text, id=source_chunk.id, metadata=meta)


def to_documents(
    assembly: Assembly, documents: Sequence[Document], *, annotate: bool = True
) -> list[Document]:
    """The placed sources of ``assembly`` as ``Document``s, in the assembly's final order.

    A source that is exactly one input document comes back as that document (a copy with
    ``metadata["briefpack"] = {"label", "members", "tokens"}`` and ``metadata["source_label"]``
    when ``annotate``, else the very object); a parent or a grown span becomes a new
    ``Document`` with its own text. ``documents`` are the ones the assembly was built from.

    >>> import briefpack as bp
    >>> docs = [Document("Leave is 14 weeks."), Document("Leave is 14 weeks.")]
    >>> a = bp.assemble("How long?", to_chunks(docs), budget=100, tokenizer="approx")
    >>> [d.metadata["source_label"] for d in to_documents(a, docs)]
    [1]
    """
    out = []
    for s in assembly.sources:
        original = documents[member_index(s)]
        extra = annotation(s) if annotate else None
        if untouched(s, original.page_content):
            if extra is None:
                out.append(original)
            else:
                meta = {
                    **(original.metadata or {}),
                    _ANNOTATION_KEY: extra,
                    LABEL_KEY: extra["label"],
                }
                out.append(original.model_copy(update={"metadata": meta}))
        else:
            out.append(_document(s.chunk, extra))
    return out


def to_messages(assembly: Assembly) -> list[BaseMessage]:
    """An ``Assembly`` as LangChain chat messages: ``[SystemMessage, HumanMessage]``.

    >>> import briefpack as bp
    >>> a = bp.assemble("Why?", ["Because."], budget=100, tokenizer="approx")
    >>> [type(m).__name__ for m in to_messages(a)]
    ['SystemMessage', 'HumanMessage']
    """
    return [SystemMessage(content=assembly.system), HumanMessage(content=assembly.user)]


_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}


def _turn(message: Any, i: int) -> dict[str, str]:
    """One history turn as ``{"role", "content"}`` (a LangChain message, a dict or a tuple)."""
    if isinstance(message, BaseMessage):
        role = _ROLES.get(message.type, message.type)
        got: Any = message.text  # a str (a callable str in langchain-core 1.x, a method in 0.3)
        text = str(got) if isinstance(got, str) else str(got())
        if isinstance(message, AIMessage) and message.tool_calls:
            calls = "; ".join(f"{c['name']}({c['args']})" for c in message.tool_calls)
            text = f"{text}\n[tool calls: {calls}]" if text else f"[tool calls: {calls}]"
        if isinstance(message, ToolMessage):
            text = f"[tool result {message.name or message.tool_call_id}] {text}"
        return {"role": role, "content": text}
    if isinstance(message, Mapping):
        return {"role": message.get("role"), "content": message.get("content")}  # type: ignore[dict-item]
    if isinstance(message, tuple) and len(message) == 2:
        return {"role": _ROLES.get(message[0], message[0]), "content": message[1]}
    raise InputError(
        f"history[{i}] must be a LangChain message, a role/content dict or a (role, text) "
        f"tuple, got {type_name(message)}"
    )


def to_history(messages: Any) -> list[dict[str, str]] | str | None:
    """Chat history (LangChain messages, dicts, tuples or a str) in ``assemble``'s form.

    >>> to_history([HumanMessage("Hi"), AIMessage("Hello!")])
    [{'role': 'user', 'content': 'Hi'}, {'role': 'assistant', 'content': 'Hello!'}]
    """
    if messages is None or isinstance(messages, str):
        return messages
    return [_turn(m, i) for i, m in enumerate(messages)]


def parents_from_store(store: Any) -> Any:
    """A ``parents=`` callable that fetches each chunk's parent from a LangChain ``BaseStore``.

    For a ``ParentDocumentRetriever`` / ``MultiVectorRetriever``: its children carry the parent
    id under ``id_key`` (``"doc_id"``), so build the compressor with ``keys={"parent":
    "doc_id"}`` and ``options={"parents": parents_from_store(retriever.docstore)}``.
    """

    def parent_of(chunk: Chunk) -> Chunk | None:
        if chunk.parent is None:
            return None
        [parent] = store.mget([chunk.parent])
        if parent is None:
            return None
        [c] = to_chunks([parent])
        return c.replace(id=chunk.parent, doc=chunk.doc)

    return parent_of


_OWN_FIELDS = ("budget", "order", "dedupe", "threshold", "max_per_doc", "tokenizer")


class BriefpackCompressor(BaseDocumentCompressor, BaseDocumentTransformer):
    """Dedupe, cap, budget and order retrieved ``Document``s with briefpack.

    A drop-in for ``EmbeddingsRedundantFilter`` + ``LongContextReorder`` (plus the token cap
    they leave out): as a compressor in ``ContextualCompressionRetriever`` /
    ``DocumentCompressorPipeline``, as a transformer (``transform_documents``, where the
    query, if any, is passed as ``query=``), or as a runnable step (``retriever | compressor``,
    or ``compressor.as_runnable()``). Documents come back in briefpack's final order, each the
    input ``Document`` with its id and metadata kept (plus ``metadata["briefpack"]`` and
    ``metadata["source_label"]`` with its label, when ``annotate``). Nothing passed in is
    mutated. Callbacks get a ``"briefpack"`` custom event per request with the drops.

    Fields ``budget``, ``order``, ``dedupe``, ``threshold``, ``max_per_doc`` and ``tokenizer``
    are ``assemble``'s (``tokenizer`` also takes an OpenAI model name, a tiktoken ``Encoding``
    or a callable returning a token list); ``options`` takes any other ``assemble`` keyword
    (``mmr``, ``supersede``, ``parents``, ``system``, ``backend``, ...). ``embeddings``, when
    given, embeds the documents in one call so that ``dedupe="auto"`` compares them by cosine,
    as ``EmbeddingsRedundantFilter`` does (and gives MMR its query vector); otherwise briefpack
    dedupes by word Jaccard and needs no model. ``keys`` overrides ``DEFAULT_KEYS``.

    Options are checked when it is built: briefpack's checks raise ``InputError``; a value of
    the wrong type for a field (``order=3``) is pydantic's ``ValidationError`` first.

    >>> from langchain_core.documents import Document
    >>> docs = [Document("Parental leave is 14 weeks.", id="a"),
    ...         Document("Parental leave is 14 weeks.", id="b"),
    ...         Document("Relocation is capped at 4000 EUR.", id="c")]
    >>> kept = BriefpackCompressor(budget=200, tokenizer="approx").compress_documents(
    ...     docs, "How long is leave?")
    >>> [(d.id, d.metadata["source_label"]) for d in kept]
    [('a', 1), ('c', 2)]
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    budget: Any = DEFAULTS["budget"]
    """Context tokens (int) or a ``briefpack.Budget`` (serialised as a dict)."""
    order: str = DEFAULTS["order"]
    dedupe: str | None = DEFAULTS["dedupe"]
    threshold: float | None = DEFAULTS["threshold"]
    max_per_doc: int | None = DEFAULTS["max_per_doc"]
    tokenizer: Any = DEFAULTS["tokenizer"]
    embeddings: Embeddings | None = None
    keys: dict[str, Any] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    annotate: bool = True

    _built: dict[str, Any] | None = PrivateAttr(default=None)

    def __init__(self, **data: Any) -> None:
        super().__init__(**fold_options(type(self).model_fields, data, "BriefpackCompressor"))
        self._options()  # check now: a bad option fails here, as InputError

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if not name.startswith("_"):
            self._built = None

    @field_validator("budget", mode="before")
    @classmethod
    def _budget_in(cls, value: Any) -> Any:
        return budget_from(value)

    @field_serializer("budget")
    def _budget_out(self, value: Any) -> Any:
        return budget_to_dict(value)

    @field_serializer("tokenizer", "options")
    def _callables_out(self, value: Any, info: FieldSerializationInfo) -> Any:
        if info.field_name == "tokenizer" and info.mode_is_json():
            value = tokenizer_name(value)  # a built-in vocabulary by its name
        return check_json_value(info.field_name, value) if info.mode_is_json() else value

    def _options(self) -> dict[str, Any]:
        """The checked ``assemble`` options, built once (and again after a field changes)."""
        if self._built is None:
            merge_keys(DEFAULT_KEYS, self.keys)
            clash = sorted(set(_OWN_FIELDS) & set(self.options))
            if clash:
                raise InputError(
                    f"options {clash} are fields of BriefpackCompressor; set them directly"
                )
            own = {name: getattr(self, name) for name in _OWN_FIELDS}
            self._built = build({**own, **self.options})
        return self._built

    def _chunks(self, documents: Sequence[Document], vectors: Sequence[Any] | None) -> list[Chunk]:
        chunks = to_chunks(documents, keys=self.keys, vectors=vectors)
        note_vectors(
            "BriefpackCompressor", self.dedupe, [c.vector for c in chunks], _NO_VECTORS_HINT
        )
        return chunks

    def _assemble(
        self,
        documents: Sequence[Document],
        query: str,
        vectors: Sequence[Any] | None,
        query_vector: Any,
        history: Any,
    ) -> Assembly:
        extra = {} if query_vector is None else {"query_vector": query_vector}
        return run(
            self._options(),
            query,
            self._chunks(documents, vectors),
            history=to_history(history),
            adapter="BriefpackCompressor",
            **extra,
        )

    def _wants_query_vector(self, query: str) -> bool:
        opts = self._options()
        return bool(query) and opts.get("mmr") is not None and opts.get("query_vector") is None

    def assemble(
        self, documents: Sequence[Document], query: str = "", *, history: Any = None
    ) -> Assembly:
        """The full ``Assembly`` for these documents: prompt, sources, drops and record.

        ``history``: earlier turns (LangChain messages, role/content dicts or a str).
        """
        docs = list(documents)
        vectors = query_vector = None
        if self.embeddings is not None and docs:
            vectors = self.embeddings.embed_documents([d.page_content for d in docs])
            if self._wants_query_vector(query):
                query_vector = self.embeddings.embed_query(query)
        return self._assemble(docs, query, vectors, query_vector, history)

    async def aassemble(
        self, documents: Sequence[Document], query: str = "", *, history: Any = None
    ) -> Assembly:
        """``assemble`` with the embeddings' async calls (``aembed_documents``)."""
        docs = list(documents)
        vectors = query_vector = None
        if self.embeddings is not None and docs:
            vectors = await self.embeddings.aembed_documents([d.page_content for d in docs])
            if self._wants_query_vector(query):
                query_vector = await self.embeddings.aembed_query(query)
        return self._assemble(docs, query, vectors, query_vector, history)

    def _kept(self, assembly: Assembly, docs: list[Document]) -> list[Document]:
        return to_documents(assembly, docs, annotate=self.annotate)

    def compress_documents(
        self,
        documents: Sequence[Document],
        query: str,
        callbacks: Callbacks | None = None,
    ) -> Sequence[Document]:
        """Keep the documents briefpack places, in its order, for ``query``."""
        docs = list(documents)
        a = self.assemble(docs, query)
        if callbacks is not None:
            CallbackManager.configure(inheritable_callbacks=callbacks).on_custom_event(
                "briefpack", _event(a)
            )
        return self._kept(a, docs)

    async def acompress_documents(
        self,
        documents: Sequence[Document],
        query: str,
        callbacks: Callbacks | None = None,
    ) -> Sequence[Document]:
        """``compress_documents`` with the embeddings' async calls."""
        docs = list(documents)
        a = await self.aassemble(docs, query)
        if callbacks is not None:
            await AsyncCallbackManager.configure(inheritable_callbacks=callbacks).on_custom_event(
                "briefpack", _event(a)
            )
        return self._kept(a, docs)

    def transform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        """Same as ``compress_documents``; pass the query as ``query=`` if there is one."""
        docs = list(documents)
        return self._kept(self.assemble(docs, kwargs.get("query", "")), docs)

    async def atransform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        """``transform_documents`` with the embeddings' async calls."""
        docs = list(documents)
        return self._kept(await self.aassemble(docs, kwargs.get("query", "")), docs)

    def as_runnable(self) -> RunnableLambda[Any, list[Document]]:
        """This compressor as an LCEL step: documents in (a list, or a dict with
        ``"documents"`` and ``"question"`` / ``"query"``), documents out.

        ``retriever | compressor`` builds the same step (the retriever's query is not passed
        on in that form; a compressor only needs it for MMR with embeddings).
        """

        def compress(inputs: Any) -> list[Document]:
            if isinstance(inputs, Mapping):
                docs = _documents_in(inputs, ("documents", "context"))
                query = inputs.get("question", inputs.get("query", inputs.get("input", "")))
                return list(self.compress_documents(docs, query))
            return list(
                self.transform_documents(_documents_in({"documents": inputs}, ("documents",)))
            )

        async def acompress(inputs: Any) -> list[Document]:
            if isinstance(inputs, Mapping):
                docs = _documents_in(inputs, ("documents", "context"))
                query = inputs.get("question", inputs.get("query", inputs.get("input", "")))
                return list(await self.acompress_documents(docs, query))
            docs = _documents_in({"documents": inputs}, ("documents",))
            return list(await self.atransform_documents(docs))

        return RunnableLambda(compress, afunc=acompress, name="BriefpackCompressor")

    def __call__(self, inputs: Any) -> list[Document]:
        """Compress ``inputs`` (what ``as_runnable`` takes); lets ``retriever | compressor``
        coerce the compressor into a runnable step."""
        return self.as_runnable().invoke(inputs)


def _event(assembly: Assembly) -> dict[str, Any]:
    """The custom callback event of one request: counts, drops, why the context is empty
    (``empty_reason``, None when it is not) and the assembly."""
    return {
        "sources": [s.chunk.id for s in assembly.sources],
        "empty_reason": assembly.empty_reason,
        "dropped": [
            {"id": d.chunk.id, "reason": d.reason, "detail": dict(d.detail)}
            for d in assembly.dropped
        ],
        "tokens": dict(assembly.tokens),
        "assembly": assembly,
    }


def _documents_in(inputs: Mapping[str, Any], names: Sequence[str]) -> list[Document]:
    """The documents under the first of ``names``; ``(Document, score)`` pairs take the score."""
    for name in names:
        if name in inputs:
            got = inputs[name]
            break
    else:
        raise InputError(
            f"expected the documents under {' or '.join(map(repr, names))}; the input has "
            f"keys {shown(sorted(map(str, inputs)))}"
        )
    if isinstance(got, (str, bytes, Document)) or not isinstance(got, Sequence):
        raise InputError(
            f"{names[0]} must be a list of Documents (or (Document, score) pairs), got "
            f"{type_name(got)}"
        )
    out = []
    for i, item in enumerate(got):
        if isinstance(item, Document):
            out.append(item)
        elif (
            isinstance(item, tuple)
            and len(item) == 2
            and isinstance(item[0], Document)
            and isinstance(item[1], (int, float))
        ):
            doc, score = item
            out.append(doc.model_copy(update={"metadata": {**doc.metadata, "score": score}}))
        else:
            raise InputError(
                f"{names[0]}[{i}] must be a Document or a (Document, score) pair, got "
                f"{type_name(item)}"
            )
    return out


class BriefpackPromptValue(ChatPromptValue):
    """A ``ChatPromptValue`` (system + human message) that also carries the ``Assembly``.

    Chat models and LLMs take it like any prompt value; ``value.assembly`` has the sources,
    the drops, ``record()`` and ``cite()``.
    """

    assembly: Any = Field(default=None, exclude=True)


def prompt_runnable(
    *,
    question_key: str | Sequence[str] = ("question", "input"),
    documents_key: str | Sequence[str] = ("documents", "context"),
    history_key: str | Sequence[str] = ("history", "chat_history"),
    **options: Any,
) -> RunnableLambda[Mapping[str, Any], BriefpackPromptValue]:
    """briefpack as a prompt step in an LCEL chain: ``{"question", "documents"}`` in.

    The input keys are configurable and default to what LangChain's chains use: the question
    under ``"question"`` or ``"input"`` (``create_retrieval_chain``), the documents under
    ``"documents"`` or ``"context"``, as ``Document``s or ``(Document, score)`` pairs (what
    ``similarity_search_with_score`` returns), and optional history under ``"history"`` or
    ``"chat_history"`` (LangChain messages, role/content dicts, ``(role, text)`` pairs or a
    str; it goes in the user message, so the system prompt stays a cacheable prefix).

    Returns a ``BriefpackPromptValue``: a ``ChatPromptValue`` (system + human message), which
    chat models and LLMs both take, carrying the ``Assembly`` as ``.assembly``. ``options``
    are ``assemble``'s keywords; ``keys`` (metadata mapping, see ``DEFAULT_KEYS``) may be
    among them. Bad options raise ``InputError`` here, not on the first request.

    >>> from langchain_core.documents import Document
    >>> step = prompt_runnable(budget=200, tokenizer="approx")
    >>> value = step.invoke({"input": "How long?", "context": [Document("14 weeks.")]})
    >>> value.messages[1].content.endswith("Question: How long?"), len(value.assembly.sources)
    (True, 1)
    """
    keys = options.pop("keys", None)
    merge_keys(DEFAULT_KEYS, keys)
    opts = build(options)
    q_keys = (question_key,) if isinstance(question_key, str) else tuple(question_key)
    d_keys = (documents_key,) if isinstance(documents_key, str) else tuple(documents_key)
    h_keys = (history_key,) if isinstance(history_key, str) else tuple(history_key)

    def make_prompt(inputs: Mapping[str, Any]) -> BriefpackPromptValue:
        if not isinstance(inputs, Mapping):
            raise InputError(
                f"prompt_runnable takes a dict with the question ({' or '.join(q_keys)}) and "
                f"the documents ({' or '.join(d_keys)}), got {type_name(inputs)}; e.g. "
                '{"question": RunnablePassthrough(), "documents": retriever} | prompt_runnable()'
            )
        question = next((inputs[k] for k in q_keys if k in inputs), None)
        if question is None:
            raise InputError(
                f"expected the question under {' or '.join(map(repr, q_keys))}; the input has "
                f"keys {shown(sorted(map(str, inputs)))}"
            )
        docs = _documents_in(inputs, d_keys)
        history = next((inputs[k] for k in h_keys if k in inputs), None)
        chunks = to_chunks(docs, keys=keys)
        a = run(opts, question, chunks, history=to_history(history), adapter="prompt_runnable")
        return BriefpackPromptValue(messages=to_messages(a), assembly=a)

    return RunnableLambda(make_prompt, name="briefpack")
