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
    from langchain_core.callbacks import Callbacks
    from langchain_core.documents import BaseDocumentCompressor, BaseDocumentTransformer, Document
    from langchain_core.embeddings import Embeddings
    from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
    from langchain_core.prompt_values import ChatPromptValue
    from langchain_core.runnables import RunnableLambda
    from pydantic import ConfigDict, Field, PrivateAttr, model_validator
except ImportError as exc:  # pragma: no cover - exercised by test_missing_extra
    from ._common import missing_extra

    raise missing_extra("langchain", "langchain-core", "langchain") from exc

from collections.abc import Mapping, Sequence

from ..assembler import Assembler
from ..types import Assembly, Chunk
from ._common import annotation, build_assembler, member_index, merge_keys, pick_fields, untouched

__all__ = [
    "DEFAULT_KEYS",
    "BriefpackCompressor",
    "parents_from_store",
    "prompt_runnable",
    "to_chunks",
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
``Document.id`` wins over ``metadata["id"]``. A value of the wrong type is ignored.
"""

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
    """
    where = merge_keys(DEFAULT_KEYS, keys)
    out = []
    for i, d in enumerate(documents):
        meta = d.metadata or {}
        fields = pick_fields(meta, where)
        if d.id is not None:
            fields["id"] = str(d.id)
        vector = vectors[i] if vectors is not None else _state_vector(d)
        out.append(Chunk(d.page_content, vector=vector, meta=meta, **fields))
    return out


def _document(source_chunk: Chunk, extra: dict[str, Any] | None) -> Document:
    meta = dict(source_chunk.meta or {})
    if extra is not None:
        meta[_ANNOTATION_KEY] = extra
    return Document(page_content=source_chunk.text, id=source_chunk.id, metadata=meta)


def to_documents(
    assembly: Assembly, documents: Sequence[Document], *, annotate: bool = True
) -> list[Document]:
    """The placed sources of ``assembly`` as ``Document``s, in the assembly's final order.

    A source that is exactly one input document comes back as that document (a copy with
    ``metadata["briefpack"] = {"label", "members", "tokens"}`` when ``annotate``, else the
    very object); a parent or a grown span becomes a new ``Document`` with its own text.
    """
    out = []
    for s in assembly.sources:
        original = documents[member_index(s)]
        extra = annotation(s) if annotate else None
        if untouched(s, original.page_content):
            if extra is None:
                out.append(original)
            else:
                meta = {**(original.metadata or {}), _ANNOTATION_KEY: extra}
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


class BriefpackCompressor(BaseDocumentCompressor, BaseDocumentTransformer):
    """Dedupe, cap, budget and order retrieved ``Document``s with briefpack.

    A drop-in for ``EmbeddingsRedundantFilter`` + ``LongContextReorder`` (plus the token cap
    they leave out): as a compressor in ``ContextualCompressionRetriever`` /
    ``DocumentCompressorPipeline``, or as a transformer (``transform_documents``, where the
    query, if any, is passed as ``query=``). Documents come back in briefpack's final order,
    each the input ``Document`` with its id and metadata kept (plus ``metadata["briefpack"]``
    with its label, when ``annotate``). Nothing passed in is mutated.

    Fields ``budget``, ``order``, ``dedupe``, ``threshold``, ``max_per_doc`` and ``tokenizer``
    are ``assemble``'s; ``options`` takes any other ``assemble`` keyword (``mmr``,
    ``supersede``, ``parents``, ``system``, ``backend``, ...). ``embeddings``, when given,
    embeds the documents in one call so that ``dedupe="auto"`` compares them by cosine, as
    ``EmbeddingsRedundantFilter`` does (and gives MMR its query vector); otherwise briefpack
    dedupes by word Jaccard and needs no model. ``keys`` overrides ``DEFAULT_KEYS``.

    >>> from langchain_core.documents import Document
    >>> docs = [Document("Parental leave is 14 weeks.", id="a"),
    ...         Document("Parental leave is 14 weeks.", id="b"),
    ...         Document("Relocation is capped at 4000 EUR.", id="c")]
    >>> kept = BriefpackCompressor(budget=200, tokenizer="approx").compress_documents(
    ...     docs, "How long is leave?")
    >>> [(d.id, d.metadata["briefpack"]["label"]) for d in kept]
    [('a', 1), ('c', 2)]
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    budget: Any = 4000
    """Context tokens (int) or a ``briefpack.Budget``."""
    order: str = "edges"
    dedupe: str | None = "auto"
    threshold: float | None = None
    max_per_doc: int | None = None
    tokenizer: Any = "o200k_base"
    embeddings: Embeddings | None = None
    keys: dict[str, Any] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    annotate: bool = True
    _assembler: Assembler = PrivateAttr()
    _per_request: dict[str, Any] = PrivateAttr()

    @model_validator(mode="after")
    def _check(self) -> "BriefpackCompressor":
        merge_keys(DEFAULT_KEYS, self.keys)
        self._assembler, self._per_request = build_assembler(self._kwargs())
        return self

    def _kwargs(self) -> dict[str, Any]:
        own = {
            "budget": self.budget,
            "order": self.order,
            "dedupe": self.dedupe,
            "threshold": self.threshold,
            "max_per_doc": self.max_per_doc,
            "tokenizer": self.tokenizer,
        }
        clash = sorted(set(own) & set(self.options))
        if clash:
            raise ValueError(
                f"options {clash} are fields of BriefpackCompressor; set them directly"
            )
        return {**own, **self.options}

    def assemble(self, documents: Sequence[Document], query: str = "") -> Assembly:
        """The full ``Assembly`` for these documents: prompt, sources, drops and record."""
        vectors = None
        kwargs = dict(self._per_request)
        if self.embeddings is not None and documents:
            vectors = self.embeddings.embed_documents([d.page_content for d in documents])
            if (
                self._assembler.options.mmr is not None
                and kwargs.get("query_vector") is None
                and query
            ):
                kwargs["query_vector"] = self.embeddings.embed_query(query)
        chunks = to_chunks(documents, keys=self.keys, vectors=vectors)
        return self._assembler(query, chunks, **kwargs)

    def compress_documents(
        self,
        documents: Sequence[Document],
        query: str,
        callbacks: Callbacks | None = None,
    ) -> Sequence[Document]:
        """Keep the documents briefpack places, in its order, for ``query``."""
        docs = list(documents)
        return to_documents(self.assemble(docs, query), docs, annotate=self.annotate)

    def transform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        """Same as ``compress_documents``; pass the query as ``query=`` if there is one."""
        query = kwargs.get("query", "")
        docs = list(documents)
        return to_documents(self.assemble(docs, query), docs, annotate=self.annotate)


def prompt_runnable(**options: Any) -> RunnableLambda[Mapping[str, Any], ChatPromptValue]:
    """briefpack as a prompt step in an LCEL chain: ``{"question", "documents"}`` in.

    Returns a ``ChatPromptValue`` (system + human message), which chat models and LLMs both
    take, like the output of a ``ChatPromptTemplate``. ``options`` are ``assemble``'s keywords;
    ``keys`` (metadata mapping, see ``DEFAULT_KEYS``) may be among them.

    >>> from langchain_core.documents import Document
    >>> step = prompt_runnable(budget=200, tokenizer="approx")
    >>> value = step.invoke({"question": "How long?", "documents": [Document("14 weeks.")]})
    >>> value.messages[1].content.endswith("Question: How long?")
    True
    """
    keys = options.pop("keys", None)
    merge_keys(DEFAULT_KEYS, keys)
    asm, per_request = build_assembler(options)

    def build(inputs: Mapping[str, Any]) -> ChatPromptValue:
        chunks = to_chunks(list(inputs["documents"]), keys=keys)
        return ChatPromptValue(messages=to_messages(asm(inputs["question"], chunks, **per_request)))

    return RunnableLambda(build, name="briefpack")
