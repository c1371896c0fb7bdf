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
    from langchain_core.prompt_values import ChatPromptValue
    from langchain_core.runnables import RunnableConfig, RunnableLambda
    from langchain_core.runnables.config import (
        get_async_callback_manager_for_config,
        get_callback_manager_for_config,
    )
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
    budget_from,
    budget_to_dict,
    build,
    check_json_value,
    fold_options,
    merge_keys,
    note_vectors,
    run_timed,
    shown,
    tokenizer_name,
    wire_scorer,
)
from ._langchain_documents import (
    DEFAULT_KEYS,
    EVENT,
    LABEL_KEY,
    _documents_in,
    _event,
    parents_from_store,
    to_chunks,
    to_documents,
    to_history,
    to_messages,
)
from ._trace import Timed
from .chat import CacheTTL, cached_system_block

__all__ = [
    "DEFAULT_KEYS",
    "EVENT",
    "LABEL_KEY",
    "BriefpackCompressor",
    "BriefpackPromptValue",
    "parents_from_store",
    "prompt_runnable",
    "to_chunks",
    "to_documents",
    "to_messages",
]

_NO_VECTORS_HINT = "pass embeddings= to compare by cosine (one embed_documents call per request)"

_OWN_FIELDS = ("budget", "order", "dedupe", "threshold", "max_per_doc", "tokenizer")


def _manager(callbacks: Callbacks | None) -> CallbackManager | None:
    """The callback manager of a compressor call's ``callbacks``, or None without handlers."""
    if callbacks is None:
        return None
    manager = CallbackManager.configure(inheritable_callbacks=callbacks)
    return manager if manager.handlers else None


def _amanager(callbacks: Callbacks | None) -> AsyncCallbackManager | None:
    if callbacks is None:
        return None
    manager = AsyncCallbackManager.configure(inheritable_callbacks=callbacks)
    return manager if manager.handlers else None


def _emit(manager: CallbackManager | None, done: Timed) -> None:
    """Send the request's ``EVENT`` to the handlers (built only when there are some)."""
    if manager is not None and manager.handlers:
        manager.on_custom_event(EVENT, _event(done), run_id=manager.parent_run_id)


async def _aemit(manager: AsyncCallbackManager | None, done: Timed) -> None:
    if manager is not None and manager.handlers:
        await manager.on_custom_event(EVENT, _event(done), run_id=manager.parent_run_id)


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
    dedupes by word Jaccard and needs no model. With ``embeddings``,
    ``options={"compress": "all", "sentence_scorer": "embeddings"}`` scores sentences with the
    same model (``briefpack.sentences.embedding_scorer`` over ``embed_documents``).
    ``keys`` overrides ``DEFAULT_KEYS``.

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
            embed = None if self.embeddings is None else self.embeddings.embed_documents
            self._built = build(
                wire_scorer({**own, **self.options}, embed, "BriefpackCompressor", "embeddings")
            )
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
    ) -> Timed:
        extra = {} if query_vector is None else {"query_vector": query_vector}
        return run_timed(
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
        return self._timed(documents, query, history).assembly

    def _timed(self, documents: Sequence[Document], query: str, history: Any = None) -> Timed:
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
        return (await self._atimed(documents, query, history)).assembly

    async def _atimed(
        self, documents: Sequence[Document], query: str, history: Any = None
    ) -> Timed:
        docs = list(documents)
        vectors = query_vector = None
        if self.embeddings is not None and docs:
            vectors = await self.embeddings.aembed_documents([d.page_content for d in docs])
            if self._wants_query_vector(query):
                query_vector = await self.embeddings.aembed_query(query)
        return self._assemble(docs, query, vectors, query_vector, history)

    def _kept(self, assembly: Assembly, docs: list[Document]) -> list[Document]:
        return to_documents(assembly, docs, annotate=self.annotate)

    def _compress(
        self, documents: Sequence[Document], query: str, manager: CallbackManager | None
    ) -> list[Document]:
        docs = list(documents)
        done = self._timed(docs, query)
        _emit(manager, done)
        return self._kept(done.assembly, docs)

    async def _acompress(
        self, documents: Sequence[Document], query: str, manager: AsyncCallbackManager | None
    ) -> list[Document]:
        docs = list(documents)
        done = await self._atimed(docs, query)
        await _aemit(manager, done)
        return self._kept(done.assembly, docs)

    def compress_documents(
        self,
        documents: Sequence[Document],
        query: str,
        callbacks: Callbacks | None = None,
    ) -> Sequence[Document]:
        """Keep the documents briefpack places, in its order, for ``query``; ``callbacks``
        get the request's ``EVENT``."""
        return self._compress(documents, query, _manager(callbacks))

    async def acompress_documents(
        self,
        documents: Sequence[Document],
        query: str,
        callbacks: Callbacks | None = None,
    ) -> Sequence[Document]:
        """``compress_documents`` with the embeddings' async calls."""
        return await self._acompress(documents, query, _amanager(callbacks))

    def transform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        """Same as ``compress_documents``; pass the query as ``query=`` if there is one (and
        ``callbacks=`` for the ``EVENT``)."""
        manager = _manager(kwargs.get("callbacks"))
        return self._compress(documents, kwargs.get("query", ""), manager)

    async def atransform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        """``transform_documents`` with the embeddings' async calls."""
        manager = _amanager(kwargs.get("callbacks"))
        return await self._acompress(documents, kwargs.get("query", ""), manager)

    def as_runnable(self) -> RunnableLambda[Any, list[Document]]:
        """This compressor as an LCEL step: documents in (a list, or a dict with
        ``"documents"`` and ``"question"`` / ``"query"``), documents out.

        ``retriever | compressor`` builds the same step (the retriever's query is not passed
        on in that form; a compressor only needs it for MMR with embeddings). Either way the
        run's callbacks get the request's ``EVENT``.
        """

        def compress(inputs: Any, config: RunnableConfig) -> list[Document]:
            docs, query = _compress_input(inputs)
            return self._compress(docs, query, get_callback_manager_for_config(config))

        async def acompress(inputs: Any, config: RunnableConfig) -> list[Document]:
            docs, query = _compress_input(inputs)
            manager = get_async_callback_manager_for_config(config)
            return await self._acompress(docs, query, manager)

        return RunnableLambda(compress, afunc=acompress, name="BriefpackCompressor")

    def __call__(self, inputs: Any, config: RunnableConfig | None = None) -> list[Document]:
        """Compress ``inputs`` (what ``as_runnable`` takes); lets ``retriever | compressor``
        coerce the compressor into a runnable step (which passes its ``config`` on)."""
        return self.as_runnable().invoke(inputs, config)


def _compress_input(inputs: Any) -> tuple[list[Document], str]:
    """What ``as_runnable`` takes: a list of documents, or a dict with the documents and the
    question."""
    if isinstance(inputs, Mapping):
        docs = _documents_in(inputs, ("documents", "context"))
        return docs, inputs.get("question", inputs.get("query", inputs.get("input", "")))
    return _documents_in({"documents": inputs}, ("documents",)), ""


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
    cache: bool | CacheTTL = False,
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

    ``cache=True`` (or ``"5m"`` / ``"1h"``, the cache lifetime) gives the system message the
    content-block form with an Anthropic ``cache_control`` breakpoint (see ``to_messages``),
    so ``prompt_runnable(cache=True) | ChatAnthropic(...)`` caches the system prompt; the
    default sends a plain str, which ``ChatAnthropic`` sends uncached.

    >>> from langchain_core.documents import Document
    >>> step = prompt_runnable(budget=200, tokenizer="approx")
    >>> value = step.invoke({"input": "How long?", "context": [Document("14 weeks.")]})
    >>> value.messages[1].content.endswith("Question: How long?"), len(value.assembly.sources)
    (True, 1)
    """
    cached_system_block("", cache)  # checks cache now, not on the first request
    keys = options.pop("keys", None)
    merge_keys(DEFAULT_KEYS, keys)
    opts = build(options)
    q_keys = (question_key,) if isinstance(question_key, str) else tuple(question_key)
    d_keys = (documents_key,) if isinstance(documents_key, str) else tuple(documents_key)
    h_keys = (history_key,) if isinstance(history_key, str) else tuple(history_key)

    def make_prompt(inputs: Mapping[str, Any], config: RunnableConfig) -> BriefpackPromptValue:
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
        done = run_timed(
            opts, question, chunks, history=to_history(history), adapter="prompt_runnable"
        )
        _emit(get_callback_manager_for_config(config), done)
        a = done.assembly
        return BriefpackPromptValue(messages=to_messages(a, cache=cache), assembly=a)

    return RunnableLambda(make_prompt, name="briefpack")
