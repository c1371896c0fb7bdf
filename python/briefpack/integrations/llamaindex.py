"""LlamaIndex: briefpack as a node postprocessor, with expansion over the node relationships.

``BriefpackPostprocessor`` is a ``BaseNodePostprocessor``: it goes in ``node_postprocessors=``
where ``SimilarityPostprocessor`` and ``LongContextReorder`` sit, and dedupes, caps per
document, packs a token budget and orders the nodes. Nodes that pass come back as the very
``NodeWithScore`` objects that went in (ids, metadata and scores untouched).

Given the ``docstore`` that holds the nodes, it can also grow each hit before packing:
``parents=True`` replaces a node by its ``NodeRelationship.PARENT`` (children of one parent
collapse into it once, at the best child's position and score), and ``neighbors=n`` joins each
hit with ``n`` nodes either side along ``PREVIOUS`` / ``NEXT`` (overlapping hits merge into one
span). These are briefpack's ``parents=`` and ``neighbors`` / ``chunks_of``; ``parent_resolver``
and ``chunks_resolver`` build them for use with ``assemble`` directly.

Labels reach the model: each node that passes comes back as a copy whose metadata holds its
label (``source_label``) and the key of its ``Assembly`` (``briefpack_assembly``), and whose
LLM rendering is the source tag (``<source id="n">`` or ``[n]``), so a synthesizer's prompt
shows the labels ``cite()`` checks. ``assembly_of(response)`` is the ``Assembly`` of the very
query that produced a response (safe when concurrent queries share one postprocessor), and
``post.qa_template()`` is a ``text_qa_template`` with briefpack's system prompt (the citation
instructions) around the labelled sources.

Needs ``llama-index-core``: ``pip install 'briefpack[llamaindex]'``.
"""

import asyncio
import json
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

try:
    from llama_index.core.base.embeddings.base import BaseEmbedding
    from llama_index.core.base.llms.types import ChatMessage, MessageRole
    from llama_index.core.bridge.pydantic import (
        ConfigDict,
        Field,
        PrivateAttr,
        field_serializer,
        field_validator,
    )
    from llama_index.core.instrumentation import (  # type: ignore[attr-defined]
        get_dispatcher,
    )
    from llama_index.core.instrumentation.event_handlers import NullEventHandler
    from llama_index.core.instrumentation.events import BaseEvent
    from llama_index.core.postprocessor.types import BaseNodePostprocessor
    from llama_index.core.prompts import ChatPromptTemplate
    from llama_index.core.schema import (
        BaseNode,
        MetadataMode,
        NodeWithScore,
        QueryBundle,
        TextNode,
    )
    from llama_index.core.storage.docstore.types import BaseDocumentStore
    from pydantic import FieldSerializationInfo
except ImportError as exc:  # pragma: no cover - exercised by test_missing_extra
    from ._common import missing_extra

    raise missing_extra("llamaindex", "llama-index-core", "llamaindex") from exc

from collections.abc import Sequence

from ..assembly import Assembly
from ..errors import InputError
from ..kernels import count_tokens
from ..prompt import render_question, render_system
from ._common import (
    DEFAULTS,
    Built,
    budget_from,
    budget_to_dict,
    build,
    check_json_value,
    fold_options,
    merge_keys,
    note_vectors,
    run_timed,
    tokenizer_name,
    wire_scorer,
)
from ._llamaindex_nodes import (
    DEFAULT_KEYS,
    MAX_CHAIN,
    NodeMap,
    chunks_resolver,
    node_chunk,
    parent_resolver,
    to_nodes,
)
from ._trace import Timed

__all__ = [
    "ASSEMBLY_KEY",
    "DEFAULT_KEYS",
    "LABEL_KEY",
    "MAX_CHAIN",
    "MAX_HELD",
    "BriefpackAssembled",
    "BriefpackPostprocessor",
    "assembly_of",
    "chunks_resolver",
    "node_chunk",
    "parent_resolver",
    "to_nodes",
]

LABEL_KEY = "source_label"
"""The metadata key of a returned node's label (as in the LangChain adapter's documents)."""
ASSEMBLY_KEY = "briefpack_assembly"
"""The metadata key of the key ``assembly_of`` finds a returned node's ``Assembly`` by."""
MAX_HELD = 1024
"""Assemblies held for ``assembly_of``: the latest this many queries' (older ones are let go)."""


class BriefpackAssembled(BaseEvent):
    """The instrumentation event of one ``BriefpackPostprocessor`` request, sent through
    LlamaIndex's dispatcher (``llama_index.core.instrumentation``) to every event handler
    attached to it or to the root dispatcher.

    ``summary`` is ``briefpack.integrations.trace_summary``'s dict (placed ids, drops counted
    by reason, token counts, ``empty_reason``, wall time: JSON data of bounded size, what
    ``model_dump()`` writes); ``assembly`` is the request's ``Assembly`` (left out of
    ``model_dump``), whose ``record()`` is the full account.
    """

    summary: dict[str, Any]
    assembly: Any = Field(default=None, exclude=True)

    @classmethod
    def class_name(cls) -> str:
        return "BriefpackAssembled"


_dispatcher = get_dispatcher(__name__)


def _listened() -> bool:
    """Whether an event handler (other than the root's null one) would receive an event."""
    d: Any = _dispatcher
    while d is not None:
        if any(not isinstance(h, NullEventHandler) for h in d.event_handlers):
            return True
        d = d.parent if d.propagate else None
    return False


def _emit(done: Timed) -> None:
    if _listened():
        _dispatcher.event(BriefpackAssembled(summary=done.summary(), assembly=done.assembly))


_held: "OrderedDict[str, Assembly]" = OrderedDict()
_held_lock = threading.Lock()


def _hold(assembly: Assembly) -> str:
    key = uuid.uuid4().hex
    with _held_lock:
        _held[key] = assembly
        while len(_held) > MAX_HELD:
            _held.popitem(last=False)
    return key


def assembly_of(nodes: Any) -> Assembly:
    """The ``Assembly`` behind a query engine's response (or its ``source_nodes``, or the nodes
    ``BriefpackPostprocessor`` returned), found by the key in each node's metadata.

    Each query has its own, so concurrent ``aquery`` calls on one engine (one postprocessor)
    each get theirs, unlike ``post.last_assembly``. Nodes of several queries (a sub-question
    engine) give ``Assembly.merge`` of theirs. The latest ``MAX_HELD`` queries' assemblies are
    held; an older one, or nodes that never passed the postprocessor (``label_nodes=False``),
    is an ``InputError``.

    >>> from llama_index.core.schema import NodeWithScore, TextNode
    >>> post = BriefpackPostprocessor(budget=200, tokenizer="approx")
    >>> kept = post.postprocess_nodes(
    ...     [NodeWithScore(node=TextNode(text="Leave is 14 weeks.", id_="a"), score=0.9)],
    ...     query_str="Leave?")
    >>> kept[0].node.metadata[LABEL_KEY], kept[0].node.get_content(metadata_mode=MetadataMode.LLM)
    (1, '<source id="1">\\nLeave is 14 weeks.\\n</source>')
    >>> assembly_of(kept).cite("It is 14 weeks [1].").unknown
    []
    """
    found = getattr(nodes, "source_nodes", nodes)
    if found is None or isinstance(found, (str, bytes)) or not hasattr(found, "__iter__"):
        raise InputError(
            "assembly_of needs a response (with source_nodes) or a list of nodes, "
            f"got {type(nodes).__name__}"
        )
    keys: dict[str, None] = {}
    for n in found:
        node = getattr(n, "node", n)
        key = (getattr(node, "metadata", None) or {}).get(ASSEMBLY_KEY)
        if isinstance(key, str):
            keys.setdefault(key)
    if not keys:
        raise InputError(
            f"no node carries metadata[{ASSEMBLY_KEY!r}]: pass the response or nodes of a query "
            "whose node_postprocessors include BriefpackPostprocessor (label_nodes=True, the "
            "default); an empty response has no nodes (use post.assemble(nodes, query))"
        )
    with _held_lock:
        got = [_held.get(k) for k in keys]
    if any(a is None for a in got):
        raise InputError(
            f"the assembly of these nodes is no longer held (the latest {MAX_HELD} queries' "
            "are); call post.assemble(nodes, query) to keep one"
        )
    assemblies = [a for a in got if a is not None]
    return assemblies[0] if len(assemblies) == 1 else Assembly.merge(*assemblies)


def _labelled(hit: NodeWithScore, label: int, key: str, style: str) -> NodeWithScore:
    """A copy of ``hit`` whose metadata holds its label and assembly key, and whose LLM
    rendering is the source tag around the metadata header and text (the input is not
    changed; neither key is embedded, the assembly key is never shown to the LLM)."""
    node = hit.node
    ours = (LABEL_KEY, ASSEMBLY_KEY)
    meta = {**(node.metadata or {}), LABEL_KEY: label, ASSEMBLY_KEY: key}
    llm = [k for k in node.excluded_llm_metadata_keys if k not in ours] + [ASSEMBLY_KEY]
    embed = [k for k in node.excluded_embed_metadata_keys if k not in ours] + list(ours)
    update: dict[str, Any] = {
        "metadata": meta,
        "excluded_llm_metadata_keys": llm,
        "excluded_embed_metadata_keys": embed,
    }
    if isinstance(node, TextNode):
        shown = [k for k in meta if k not in llm and k not in ours]
        xml = style == "xml"
        if shown:  # the tag, then LlamaIndex's own metadata header and the text
            update["excluded_llm_metadata_keys"] = [*llm, LABEL_KEY]
            head, tail = (f'<source id="{label}">\n', "\n</source>") if xml else (f"[{label}] ", "")
            update["text_template"] = head + "{metadata_str}\n\n{content}" + tail
        else:  # no header: the label is the only metadata shown, rendered as the tag
            update["metadata_template"] = '<source id="{value}">' if xml else "[{value}]"
            update["text_template"] = (
                "{metadata_str}\n{content}\n</source>" if xml else "{metadata_str} {content}"
            )
    return NodeWithScore(node=node.model_copy(update=update), score=hit.score)


_OWN_FIELDS = ("budget", "order", "dedupe", "threshold", "max_per_doc", "tokenizer")
_NO_VECTORS_HINT = (
    "vector-store retrieval returns nodes without embeddings; pass embed_model= (e.g. "
    "Settings.embed_model) to embed them, or keep them in the store's nodes"
)


class BriefpackPostprocessor(BaseNodePostprocessor):
    """Dedupe, cap, budget and order retrieved nodes with briefpack.

    Fields ``budget``, ``order``, ``dedupe``, ``threshold``, ``max_per_doc`` and
    ``tokenizer`` are ``assemble``'s (``tokenizer`` also takes an OpenAI model name, a
    tiktoken ``Encoding`` or a callable returning a token list, such as
    ``Settings.tokenizer``); ``options`` takes any other ``assemble`` keyword (``mmr``,
    ``supersede``, ``system``, ``backend``, ...). ``docstore`` with ``parents=True`` or
    ``neighbors=n`` expands each hit through the node relationships (see the module).

    ``metadata_mode`` is the node content that is budgeted: ``MetadataMode.LLM`` (default)
    counts the metadata header LlamaIndex's synthesizers put in front of each node's text;
    dedupe always compares the text alone. ``sort=True`` first sorts nodes by score (best
    first, stable, missing scores last), as LlamaIndex's own ``LongContextReorder`` does;
    with ``sort=False`` input order is rank order. ``keys`` overrides ``DEFAULT_KEYS``.
    ``embed_model`` (e.g. ``Settings.embed_model``) embeds the nodes that arrive without an
    embedding (vector stores usually strip them), so ``dedupe="auto"`` compares by cosine;
    without it such nodes are compared by word Jaccard. With ``embed_model``,
    ``options={"compress": "all", "sentence_scorer": "embeddings"}`` scores sentences with it
    (``briefpack.sentences.embedding_scorer`` over ``get_text_embedding_batch``).

    ``label_nodes=True`` (default) returns copies of the nodes that pass, each with its label
    in ``metadata["source_label"]``, the key ``assembly_of`` reads in
    ``metadata["briefpack_assembly"]``, and a text template that renders it for the LLM as
    its source tag (``<source id="n">`` or ``[n]``, per ``options={"labels": ...}``), so the
    synthesizer's prompt shows the labels ``cite()`` checks; ``qa_template()`` is the
    matching ``text_qa_template``. ``label_nodes=False`` returns the very input objects,
    unlabelled.

    ``assembly_of(response)`` is the ``Assembly`` of one query (safe under concurrent
    ``aquery``). ``last_assembly`` is the ``Assembly`` of the latest call (drops, tokens,
    ``record()``); with one postprocessor shared by concurrent requests it may be another
    request's, so use ``assembly_of``.

    Options are checked when it is built: briefpack's checks raise ``InputError``; a value of
    the wrong type for a field (``order=3``) is pydantic's ``ValidationError`` first.

    >>> from llama_index.core.schema import NodeWithScore, TextNode
    >>> nodes = [NodeWithScore(node=TextNode(text="Leave is 14 weeks.", id_="a"), score=0.9),
    ...          NodeWithScore(node=TextNode(text="Leave is 14 weeks.", id_="b"), score=0.8),
    ...          NodeWithScore(node=TextNode(text="Relocation: 4000 EUR.", id_="c"), score=0.7)]
    >>> post = BriefpackPostprocessor(budget=200, tokenizer="approx")
    >>> kept = post.postprocess_nodes(nodes, query_str="Leave?")
    >>> [(n.node_id, n.score, n.node.metadata["source_label"]) for n in kept]
    [('a', 0.9, 1), ('c', 0.7, 2)]
    >>> [d.reason for d in assembly_of(kept).dropped]
    ['duplicate']
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    budget: Any = DEFAULTS["budget"]
    """Context tokens (int) or a ``briefpack.Budget`` (serialised as a dict)."""
    order: str = DEFAULTS["order"]
    dedupe: str | None = DEFAULTS["dedupe"]
    threshold: float | None = DEFAULTS["threshold"]
    max_per_doc: int | None = DEFAULTS["max_per_doc"]
    tokenizer: Any = DEFAULTS["tokenizer"]
    docstore: BaseDocumentStore | None = Field(default=None, exclude=True)
    """Holds the nodes' parents and neighbours (not serialised with the postprocessor)."""
    embed_model: BaseEmbedding | None = Field(default=None, exclude=True)
    """Embeds nodes that come without an embedding (not serialised)."""
    parents: bool = False
    neighbors: int = 0
    metadata_mode: MetadataMode = MetadataMode.LLM
    sort: bool = True
    label_nodes: bool = True
    keys: dict[str, Any] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)

    _built: Built | None = PrivateAttr(default=None)
    _last: Assembly | None = PrivateAttr(default=None)

    def __init__(self, **data: Any) -> None:
        super().__init__(**fold_options(type(self).model_fields, data, "BriefpackPostprocessor"))
        self._options()  # check now: a bad option fails here, as InputError

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if not name.startswith("_"):
            self._built = None

    @classmethod
    def class_name(cls) -> str:
        return "BriefpackPostprocessor"

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

    def to_json(self, **kwargs: Any) -> str:
        """JSON of ``to_dict``; a callable tokenizer or option raises a clear error (pass it
        again to ``from_json(data, tokenizer=fn)``)."""
        return json.dumps(self.model_dump(mode="json", **kwargs))

    @property
    def last_assembly(self) -> Assembly | None:
        """The ``Assembly`` of the latest ``postprocess_nodes`` / ``assemble`` call."""
        return self._last

    def _options(self) -> Built:
        """The checked ``assemble`` options, built once (and again after a field changes)."""
        if self._built is None:
            merge_keys(DEFAULT_KEYS, self.keys)
            if (self.parents or self.neighbors) and self.docstore is None:
                raise InputError(
                    "parents=True and neighbors need the docstore that holds the nodes' parents "
                    "and neighbours: pass docstore=index.docstore (or storage_context.docstore)"
                )
            bad = sorted(set(self.options) & {*_OWN_FIELDS, "parents", "neighbors", "chunks_of"})
            if bad:
                raise InputError(
                    f"options {bad} are fields of BriefpackPostprocessor (parents and neighbors "
                    "read the docstore); set them directly"
                )
            own = {name: getattr(self, name) for name in _OWN_FIELDS}
            embed = None if self.embed_model is None else self.embed_model.get_text_embedding_batch
            built = build(
                wire_scorer({**own, **self.options}, embed, "BriefpackPostprocessor", "embed_model")
            )
            if self.neighbors:
                build({"neighbors": self.neighbors, "chunks_of": {}})
            self._built = built
        return self._built

    def _ranked(
        self, nodes: Sequence[NodeWithScore], query: str | QueryBundle | None
    ) -> tuple[list[NodeWithScore], QueryBundle | None]:
        ranked = list(nodes)
        if self.sort:
            ranked.sort(key=lambda n: (n.score is None, -(n.score or 0.0)))
        return ranked, QueryBundle(query) if isinstance(query, str) else query

    def _to_embed(self, ranked: list[NodeWithScore]) -> tuple[list[Any], list[int], list[str]]:
        """The nodes' own embeddings, and which nodes ``embed_model`` embeds (with their text)."""
        vectors = [n.node.embedding for n in ranked]
        missing = [i for i, v in enumerate(vectors) if v is None] if self.embed_model else []
        texts = [ranked[i].node.get_content(metadata_mode=MetadataMode.EMBED) for i in missing]
        return vectors, missing, texts

    def _query_text(self, bundle: QueryBundle | None) -> str | None:
        """The query ``embed_model`` embeds for MMR, when it has to (None: no call)."""
        opts = self._options()
        if opts.get("mmr") is None or opts.get("query_vector") is not None or bundle is None:
            return None
        if bundle.embedding is not None or self.embed_model is None or not bundle.query_str:
            return None
        return bundle.query_str

    def _embedded(
        self, ranked: list[NodeWithScore], bundle: QueryBundle | None
    ) -> tuple[list[Any], Any]:
        """The vectors of the ranked nodes and the query's, with ``embed_model``'s sync calls."""
        vectors, missing, texts = self._to_embed(ranked)
        if missing and self.embed_model is not None:
            for i, v in zip(missing, self.embed_model.get_text_embedding_batch(texts)):
                vectors[i] = v
        query = self._query_text(bundle)
        if query is not None and self.embed_model is not None:
            return vectors, self.embed_model.get_query_embedding(query)
        return vectors, None

    async def _aembedded(
        self, ranked: list[NodeWithScore], bundle: QueryBundle | None
    ) -> tuple[list[Any], Any]:
        """``_embedded`` with the async calls (``aget_text_embedding_batch``,
        ``aget_query_embedding``), for ``aquery`` / ``apostprocess_nodes``."""
        vectors, missing, texts = self._to_embed(ranked)
        if missing and self.embed_model is not None:
            got = await self.embed_model.aget_text_embedding_batch(texts)
            for i, v in zip(missing, got):
                vectors[i] = v
        query = self._query_text(bundle)
        if query is not None and self.embed_model is not None:
            return vectors, await self.embed_model.aget_query_embedding(query)
        return vectors, None

    def _run(
        self,
        nodes: Sequence[NodeWithScore],
        query: str | QueryBundle | None,
        embedded: tuple[list[NodeWithScore], QueryBundle | None, list[Any], Any] | None = None,
    ) -> tuple[Assembly, list[NodeWithScore], NodeMap, dict[str, list[BaseNode]]]:
        opts = self._options()
        if embedded is None:
            ranked, bundle = self._ranked(nodes, query)
            vectors, query_vector = self._embedded(ranked, bundle)
        else:
            ranked, bundle, vectors, query_vector = embedded
        keys = merge_keys(DEFAULT_KEYS, self.keys)
        tokens: list[int | None] = [None] * len(ranked)
        tokens_of: Callable[[BaseNode], int] | None = None
        if self.metadata_mode != MetadataMode.NONE:
            mode, tokenizer = self.metadata_mode, opts["tokenizer"]

            def count_shown(node: BaseNode) -> int:
                return count_tokens([node.get_content(metadata_mode=mode)], encoding=tokenizer)[0]

            tokens_of = count_shown
            if ranked:
                shown = [n.node.get_content(metadata_mode=mode) for n in ranked]
                tokens = list(count_tokens(shown, encoding=tokenizer))
        chunks = [node_chunk(n.node, n.score, keys=keys, tokens=t) for n, t in zip(ranked, tokens)]
        for i, (n, v) in enumerate(zip(ranked, vectors)):
            if v is not n.node.embedding:  # embedded here: a copy (replace costs ~40 us)
                chunks[i] = chunks[i].replace(vector=v)
        note_vectors("BriefpackPostprocessor", self.dedupe, vectors, _NO_VECTORS_HINT)
        extra: dict[str, Any] = {}
        if opts.get("mmr") is not None and opts.get("query_vector") is None and bundle is not None:
            if bundle.embedding is not None:
                extra["query_vector"] = bundle.embedding
            elif query_vector is not None:
                extra["query_vector"] = query_vector
        fetched: NodeMap = {}
        chains: dict[str, list[BaseNode]] = {}
        if self.docstore is not None and (self.parents or self.neighbors):
            by_id = {str(n.node.node_id): n.node for n in ranked}
            if self.parents:
                extra["parents"] = parent_resolver(
                    self.docstore, by_id, keys=keys, fetched=fetched, tokens_of=tokens_of
                )
            if self.neighbors:
                extra["neighbors"] = self.neighbors
                extra["chunks_of"] = chunks_resolver(
                    self.docstore, [n.node for n in ranked], keys=keys, chains=chains
                )
        question = bundle.query_str if bundle is not None else ""
        done = run_timed(opts, question, chunks, adapter="BriefpackPostprocessor", **extra)
        _emit(done)
        a = self._last = done.assembly
        return a, ranked, fetched, chains

    async def _arun(
        self, nodes: Sequence[NodeWithScore], query: str | QueryBundle | None
    ) -> tuple[Assembly, list[NodeWithScore], NodeMap, dict[str, list[BaseNode]]]:
        """``_run`` with the embedding model's async calls; the rest runs in a worker thread
        (as LlamaIndex runs a postprocessor without an async path)."""
        ranked, bundle = self._ranked(nodes, query)
        vectors, query_vector = await self._aembedded(ranked, bundle)
        embedded = (ranked, bundle, vectors, query_vector)
        return await asyncio.to_thread(self._run, nodes, query, embedded)

    def assemble(
        self, nodes: Sequence[NodeWithScore], query: str | QueryBundle | None = None
    ) -> Assembly:
        """The full ``Assembly`` for these nodes: prompt, sources, drops and record."""
        return self._run(nodes, query)[0]

    async def aassemble(
        self, nodes: Sequence[NodeWithScore], query: str | QueryBundle | None = None
    ) -> Assembly:
        """``assemble`` with ``embed_model``'s async calls (``aget_text_embedding_batch``)."""
        return (await self._arun(nodes, query))[0]

    def qa_template(self) -> ChatPromptTemplate:
        """A ``text_qa_template`` whose system message is briefpack's system prompt (this
        postprocessor's ``system`` and ``instructions``: cite sources by label) and whose user
        message is the labelled nodes in briefpack's ``<sources>`` block, question last, as
        ``assemble`` lays out the prompt.

        Use it with the labelled nodes (``label_nodes=True``), e.g.
        ``index.as_query_engine(node_postprocessors=[post], text_qa_template=post.qa_template())``.

        >>> post = BriefpackPostprocessor(tokenizer="approx", options={"labels": "brackets"})
        >>> system, user = post.qa_template().format_messages(context_str="[1] x", query_str="Q?")
        >>> print(user.content)
        <sources>
        [1] x
        </sources>
        <BLANKLINE>
        Question: Q?
        """
        opts = self._options().assembler.options

        def braces(text: str) -> str:  # literal text in a str.format template
            return text.replace("{", "{{").replace("}", "}}")

        system = braces(render_system(opts.system, opts.instructions))
        question = braces(render_question("\0", opts.labels)).replace("\0", "{query_str}")
        user = f"<sources>\n{{context_str}}\n</sources>\n\n{question}"
        return ChatPromptTemplate(
            message_templates=[
                ChatMessage(role=MessageRole.SYSTEM, content=system),
                ChatMessage(role=MessageRole.USER, content=user),
            ]
        )

    def _postprocess_nodes(
        self,
        nodes: list[NodeWithScore],
        query_bundle: QueryBundle | None = None,
    ) -> list[NodeWithScore]:
        return self._nodes_out(*self._run(nodes, query_bundle))

    async def _apostprocess_nodes(
        self,
        nodes: list[NodeWithScore],
        query_bundle: QueryBundle | None = None,
    ) -> list[NodeWithScore]:
        """The async path of ``aquery``: embeds with ``aget_text_embedding_batch``."""
        return self._nodes_out(*await self._arun(nodes, query_bundle))

    def _nodes_out(
        self,
        assembly: Assembly,
        ranked: list[NodeWithScore],
        fetched: NodeMap,
        chains: dict[str, list[BaseNode]],
    ) -> list[NodeWithScore]:
        out = to_nodes(assembly, ranked, fetched, chains=chains, neighbors=self.neighbors)
        if not self.label_nodes or not out:
            return out
        key, style = _hold(assembly), self._options().assembler.options.labels
        return [_labelled(n, s.label, key, style) for n, s in zip(out, assembly.sources)]
