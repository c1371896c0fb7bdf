"""LangChain documents and messages to and from briefpack's types, for ``langchain``.

``briefpack.integrations.langchain`` imports langchain-core first (or raises the extra's
``ImportError``) and re-exports every name here.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.documents import Document
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from .._checks import type_name
from .._metadata_keys import LANGCHAIN_IMPLIED, LANGCHAIN_KEYS, Implied, implied_fields
from ..assembly import Assembly
from ..errors import InputError
from ..types import Chunk
from ._common import annotation, member_index, merge_keys, pick_fields, shown, untouched
from ._trace import Timed
from .chat import CacheTTL, cached_system_block

__all__ = [
    "DEFAULT_KEYS",
    "EVENT",
    "LABEL_KEY",
    "parents_from_store",
    "to_chunks",
    "to_documents",
    "to_history",
    "to_messages",
]

DEFAULT_KEYS: Mapping[str, tuple[str, ...]] = LANGCHAIN_KEYS
"""Where a ``Document``'s metadata holds each ``Chunk`` field, tried in turn.

``source`` is what LangChain's loaders set (a file path or URL), ``start_index`` what text
splitters set with ``add_start_index=True`` and ``relevance_score`` what rerankers set.
The page is the PDF loaders' ``page_label`` (the printed label), else ``page_number``
(Unstructured, counted from 1), else their ``page`` plus one (``PyPDFLoader``,
``PyMuPDFLoader`` and ``PDFPlumberLoader`` count ``page`` from 0); ``keys={"page": "page"}``
takes ``page`` as it is. Without a ``title``, a ``source`` that is a file path (not a URL)
gives its file name as the title (``title="report.pdf" page="14"``).
``Document.id`` wins over ``metadata["id"]``. A value of the wrong type is ignored. An id that
several documents share with different texts (a loader's record id, copied by a splitter onto
every chunk) identifies none of them: those documents fall back to their index.
"""

EVENT = "briefpack"
"""The name of the custom callback event every briefpack runnable sends once per request
(``on_custom_event``): the compressor in any form (``compress_documents``, ``retriever |
compressor``, ``as_runnable()``) and ``prompt_runnable``. Its data is ``trace_summary``'s dict
plus ``"assembly"``, the request's ``Assembly``."""

LABEL_KEY = "source_label"
"""Top-level metadata key with each returned document's label (for prompt templates)."""

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
    >>> [c] = to_chunks([Document("Caps.", metadata={"source": "/data/report.pdf", "page": 13})])
    >>> c.title, c.page
    ('report.pdf', 14)
    >>> [c.id for c in to_chunks([Document("a", metadata={"id": "rec-1"}),
    ...                           Document("b", metadata={"id": "rec-1"})])]  # -> the index
    [None, None]
    """
    where = merge_keys(DEFAULT_KEYS, keys)
    implied = Implied(
        page_from_zero=() if keys and "page" in keys else LANGCHAIN_IMPLIED.page_from_zero,
        title_paths=() if keys and "title" in keys else LANGCHAIN_IMPLIED.title_paths,
    )
    picked = []
    for d in documents:
        meta = d.metadata or {}
        fields = pick_fields(meta, where)
        if d.id is not None:
            fields["id"] = str(d.id)
        fields.update(implied_fields(meta, fields, implied))  # a 0-based page, a file's name
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


def to_messages(assembly: Assembly, *, cache: bool | CacheTTL = False) -> list[BaseMessage]:
    """An ``Assembly`` as LangChain chat messages: ``[SystemMessage, HumanMessage]``.

    ``cache=True`` (or a lifetime, ``"5m"`` or ``"1h"``) gives the ``SystemMessage`` the
    content-block form with an Anthropic prompt-cache breakpoint,
    ``[{"type": "text", "text": ..., "cache_control": {"type": "ephemeral"}}]``, which
    ``ChatAnthropic`` passes on as the request's cached system block (a plain str system
    prompt is sent without ``cache_control``, so nothing is cached). Other chat models read
    the block's text. An empty system prompt stays ``""`` (the API rejects empty blocks).
    Under ``history_turns=True`` the history's turns come between the two, as
    ``HumanMessage`` / ``AIMessage``.

    >>> import briefpack as bp
    >>> a = bp.assemble("Why?", ["Because."], budget=100, tokenizer="approx")
    >>> [type(m).__name__ for m in to_messages(a)]
    ['SystemMessage', 'HumanMessage']
    >>> to_messages(a, cache="1h")[0].content[0]["cache_control"]
    {'type': 'ephemeral', 'ttl': '1h'}
    """
    blocks = cached_system_block(assembly.system, cache)
    if "cache_control" not in blocks[0] or not assembly.system:
        system = SystemMessage(content=assembly.system)
    else:
        system = SystemMessage(content=blocks)  # type: ignore[arg-type]
    turns: list[BaseMessage] = [
        HumanMessage(content=t["content"])
        if t["role"] == "user"
        else AIMessage(content=t["content"])
        for t in assembly.history or ()
    ]  # history_turns=True: the conversation so far, between the two
    return [system, *turns, HumanMessage(content=assembly.user)]


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


def _event(done: Timed) -> dict[str, Any]:
    """The data of one request's ``EVENT``: ``trace_summary``'s keys (placed ids, drops
    counted by reason, token counts, ``empty_reason``, wall time) and the ``Assembly`` itself,
    whose ``record()`` is the full account."""
    return {**done.summary(), "assembly": done.assembly}


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
