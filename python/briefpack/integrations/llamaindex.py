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

Needs ``llama-index-core``: ``pip install 'briefpack[llamaindex]'``.
"""

import json
from collections.abc import Callable
from typing import Any

try:
    from llama_index.core.base.embeddings.base import BaseEmbedding
    from llama_index.core.bridge.pydantic import (
        ConfigDict,
        Field,
        PrivateAttr,
        field_serializer,
        field_validator,
    )
    from llama_index.core.postprocessor.types import BaseNodePostprocessor
    from llama_index.core.schema import (
        BaseNode,
        MetadataMode,
        NodeRelationship,
        NodeWithScore,
        QueryBundle,
        TextNode,
    )
    from llama_index.core.storage.docstore.types import BaseDocumentStore
    from pydantic import FieldSerializationInfo
except ImportError as exc:  # pragma: no cover - exercised by test_missing_extra
    from ._common import missing_extra

    raise missing_extra("llamaindex", "llama-index-core", "llamaindex") from exc

from collections.abc import Mapping, Sequence

from ..assembly import Assembly
from ..errors import InputError
from ..kernels import count_tokens
from ..types import Chunk
from ._common import (
    DEFAULTS,
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
    tokenizer_name,
    untouched,
)

__all__ = [
    "DEFAULT_KEYS",
    "MAX_CHAIN",
    "BriefpackPostprocessor",
    "chunks_resolver",
    "node_chunk",
    "parent_resolver",
    "to_nodes",
]

DEFAULT_KEYS: Mapping[str, tuple[str, ...]] = {
    "doc": ("doc",),
    "position": ("position",),
    "title": ("title", "file_name"),
    "url": ("url",),
    "updated": ("updated", "last_modified_date"),
    "tokens": ("tokens",),
}
"""Where a node's metadata holds each ``Chunk`` field, tried in turn.

Besides metadata: ``id`` is the node id, ``score`` the ``NodeWithScore`` score, ``doc`` the
``ref_doc_id`` (the SOURCE relationship) when no ``doc`` key is set, ``position`` the
``start_char_idx``, ``parent`` the PARENT relationship and ``vector`` the node's embedding.
``file_name`` and ``last_modified_date`` are what ``SimpleDirectoryReader`` sets.
"""

MAX_CHAIN = 100_000
"""Longest PREVIOUS/NEXT chain walked for one document (a guard against a broken store)."""

NodeMap = dict[str, BaseNode]


def node_chunk(
    node: BaseNode,
    score: float | None = None,
    *,
    keys: Mapping[str, Sequence[str]] | None = None,
    tokens: int | None = None,
) -> Chunk:
    """One LlamaIndex node as a briefpack ``Chunk`` (its metadata carried in ``meta``).

    >>> from llama_index.core.schema import TextNode
    >>> c = node_chunk(TextNode(text="Leave is 14 weeks.", id_="n1", start_char_idx=40,
    ...                         metadata={"file_name": "hr.pdf"}), 0.8)
    >>> c.id, c.score, c.position, c.title
    ('n1', 0.8, 40, 'hr.pdf')
    """
    meta = node.metadata or {}
    fields = pick_fields(meta, keys if keys is not None else DEFAULT_KEYS)
    if "doc" not in fields and node.ref_doc_id is not None:
        fields["doc"] = str(node.ref_doc_id)
    start = getattr(node, "start_char_idx", None)
    if "position" not in fields and isinstance(start, int) and start >= 0:
        fields["position"] = start
    parent = node.parent_node
    if parent is not None:
        fields["parent"] = str(parent.node_id)
    if tokens is not None:
        fields["tokens"] = tokens
    return Chunk(
        node.get_content(metadata_mode=MetadataMode.NONE),
        id=str(node.node_id),
        score=score,
        vector=node.embedding,
        meta=meta,
        **fields,
    )


def parent_resolver(
    docstore: BaseDocumentStore,
    nodes: NodeMap,
    *,
    keys: Mapping[str, Sequence[str]] | None = None,
    fetched: NodeMap | None = None,
    tokens_of: Callable[[BaseNode], int] | None = None,
) -> Callable[[Chunk], Chunk | None]:
    """An ``assemble(parents=...)`` callable that follows ``NodeRelationship.PARENT``.

    ``nodes`` maps each candidate's id to its node (to read its relationships); parents are
    read from ``docstore``. Each parent fetched is also stored in ``fetched`` (by id), so a
    caller can turn sources back into nodes. ``tokens_of`` (node -> count), when given, sets
    the parent's token count. A node without a parent, or whose parent is not in the
    docstore, stays as it is.
    """

    def parent_of(chunk: Chunk) -> Chunk | None:
        node = nodes.get(str(chunk.id))
        info = node.relationships.get(NodeRelationship.PARENT) if node is not None else None
        if info is None or isinstance(info, list):
            return None
        parent = docstore.get_node(info.node_id, raise_error=False)
        if parent is None:
            return None
        if fetched is not None:
            fetched[str(parent.node_id)] = parent
        n = tokens_of(parent) if tokens_of is not None else None
        got = node_chunk(parent, keys=keys, tokens=n)
        return got.replace(doc=chunk.doc, parent=None)

    return parent_of


def _chain(docstore: BaseDocumentStore, start: BaseNode) -> list[BaseNode]:
    """The whole PREVIOUS/NEXT chain through ``start``, in document order."""
    seen = {start.node_id}
    back: list[BaseNode] = []
    node = start
    while len(seen) < MAX_CHAIN and node.prev_node is not None:
        prev = docstore.get_node(node.prev_node.node_id, raise_error=False)
        if prev is None or prev.node_id in seen:
            break
        seen.add(prev.node_id)
        back.append(prev)
        node = prev
    forward: list[BaseNode] = []
    node = start
    while len(seen) < MAX_CHAIN and node.next_node is not None:
        nxt = docstore.get_node(node.next_node.node_id, raise_error=False)
        if nxt is None or nxt.node_id in seen:
            break
        seen.add(nxt.node_id)
        forward.append(nxt)
        node = nxt
    return [*reversed(back), start, *forward]


def chunks_resolver(
    docstore: BaseDocumentStore,
    nodes: Sequence[BaseNode],
    *,
    keys: Mapping[str, Sequence[str]] | None = None,
    chains: dict[str, list[BaseNode]] | None = None,
) -> Callable[[str], list[Chunk]]:
    """An ``assemble(chunks_of=...)`` callable that walks ``PREVIOUS`` / ``NEXT`` links.

    For a document (a candidate's ``doc``), it returns the chain of nodes through that
    document's best-ranked node among ``nodes``, from the first node to the last, read from
    ``docstore``; a document whose nodes have no links is just that node. Each chain walked
    is also stored in ``chains`` (by document), so a caller can turn spans back into nodes.
    """
    first: dict[str, BaseNode] = {}
    for node in nodes:
        doc = node_chunk(node, keys=keys).doc
        first.setdefault(str(doc if doc is not None else node.node_id), node)

    def chunks_of(doc: str) -> list[Chunk]:
        start = first.get(doc)
        if start is None:
            return []
        chain = _chain(docstore, start)
        if chains is not None:
            chains[doc] = chain
        return [node_chunk(n, keys=keys) for n in chain]

    return chunks_of


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
    without it such nodes are compared by word Jaccard.

    ``last_assembly`` is the ``Assembly`` of the latest call (drops, tokens, ``record()``),
    so a query engine's drops are reachable without assembling twice; with one postprocessor
    shared by concurrent requests, call ``assemble`` instead.

    Options are checked when it is built: briefpack's checks raise ``InputError``; a value of
    the wrong type for a field (``order=3``) is pydantic's ``ValidationError`` first.

    >>> from llama_index.core.schema import NodeWithScore, TextNode
    >>> nodes = [NodeWithScore(node=TextNode(text="Leave is 14 weeks.", id_="a"), score=0.9),
    ...          NodeWithScore(node=TextNode(text="Leave is 14 weeks.", id_="b"), score=0.8),
    ...          NodeWithScore(node=TextNode(text="Relocation: 4000 EUR.", id_="c"), score=0.7)]
    >>> post = BriefpackPostprocessor(budget=200, tokenizer="approx")
    >>> [(n.node_id, n.score) for n in post.postprocess_nodes(nodes, query_str="Leave?")]
    [('a', 0.9), ('c', 0.7)]
    >>> [d.reason for d in post.last_assembly.dropped]
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
    keys: dict[str, Any] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)

    _built: dict[str, Any] | None = PrivateAttr(default=None)
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

    def _options(self) -> dict[str, Any]:
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
            built = build({**own, **self.options})
            if self.neighbors:
                build({"neighbors": self.neighbors, "chunks_of": {}})
            self._built = built
        return self._built

    def _vectors(self, ranked: list[NodeWithScore]) -> list[Any]:
        vectors = [n.node.embedding for n in ranked]
        missing = [i for i, v in enumerate(vectors) if v is None]
        if self.embed_model is not None and missing:
            texts = [ranked[i].node.get_content(metadata_mode=MetadataMode.EMBED) for i in missing]
            for i, v in zip(missing, self.embed_model.get_text_embedding_batch(texts)):
                vectors[i] = v
        return vectors

    def _run(
        self, nodes: Sequence[NodeWithScore], query: str | QueryBundle | None
    ) -> tuple[Assembly, list[NodeWithScore], NodeMap, dict[str, list[BaseNode]]]:
        opts = self._options()
        ranked = list(nodes)
        if self.sort:
            ranked.sort(key=lambda n: (n.score is None, -(n.score or 0.0)))
        bundle = QueryBundle(query) if isinstance(query, str) else query
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
        vectors = self._vectors(ranked)
        chunks = [
            node_chunk(n.node, n.score, keys=keys, tokens=t).replace(vector=v)
            for n, t, v in zip(ranked, tokens, vectors)
        ]
        note_vectors("BriefpackPostprocessor", self.dedupe, vectors, _NO_VECTORS_HINT)
        extra: dict[str, Any] = {}
        if opts.get("mmr") is not None and opts.get("query_vector") is None and bundle is not None:
            if bundle.embedding is not None:
                extra["query_vector"] = bundle.embedding
            elif self.embed_model is not None and bundle.query_str:
                extra["query_vector"] = self.embed_model.get_query_embedding(bundle.query_str)
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
        a = run(opts, question, chunks, adapter="BriefpackPostprocessor", **extra)
        self._last = a
        return a, ranked, fetched, chains

    def assemble(
        self, nodes: Sequence[NodeWithScore], query: str | QueryBundle | None = None
    ) -> Assembly:
        """The full ``Assembly`` for these nodes: prompt, sources, drops and record."""
        return self._run(nodes, query)[0]

    def _postprocess_nodes(
        self,
        nodes: list[NodeWithScore],
        query_bundle: QueryBundle | None = None,
    ) -> list[NodeWithScore]:
        assembly, ranked, fetched, chains = self._run(nodes, query_bundle)
        return to_nodes(assembly, ranked, fetched, chains=chains, neighbors=self.neighbors)


def _span_links(
    node: TextNode, hits: Sequence[BaseNode], chain: Sequence[BaseNode], n: int
) -> TextNode:
    """Point a grown span's PREVIOUS / NEXT at the nodes just outside it (or drop them)."""
    where = {str(c.node_id): i for i, c in enumerate(chain)}
    positions = [where[str(h.node_id)] for h in hits if str(h.node_id) in where]
    if not positions:
        return node
    lo, hi = max(0, min(positions) - n), min(len(chain) - 1, max(positions) + n)
    links = dict(node.relationships)
    links.pop(NodeRelationship.PREVIOUS, None)
    links.pop(NodeRelationship.NEXT, None)
    if lo > 0:
        links[NodeRelationship.PREVIOUS] = chain[lo - 1].as_related_node_info()
    if hi < len(chain) - 1:
        links[NodeRelationship.NEXT] = chain[hi + 1].as_related_node_info()
    node.relationships = links
    return node


def to_nodes(
    assembly: Assembly,
    ranked: Sequence[NodeWithScore],
    fetched: NodeMap | None = None,
    *,
    chains: Mapping[str, Sequence[BaseNode]] | None = None,
    neighbors: int = 0,
) -> list[NodeWithScore]:
    """The placed sources of ``assembly`` as ``NodeWithScore``s, in the final order.

    ``ranked`` are the nodes in the order they were passed to ``assemble``. A source that is
    one of them, unchanged, is that very object; a parent is the parent node from ``fetched``
    (with the best child's score); a span grown by neighbours is a copy of its best hit's node
    with the span's text, whose ``PREVIOUS`` / ``NEXT`` point at the nodes just outside the
    span when ``chains`` (from ``chunks_resolver``) and ``neighbors`` are given, so a
    ``PrevNextNodePostprocessor`` after it adds no text twice.

    >>> import briefpack as bp
    >>> hits = [NodeWithScore(node=TextNode(text="Leave is 14 weeks.", id_="a"), score=0.9)]
    >>> a = bp.assemble("How long?", [node_chunk(hits[0].node, 0.9)], budget=100,
    ...                 tokenizer="approx")
    >>> to_nodes(a, hits)[0] is hits[0]
    True
    """
    out = []
    for s in assembly.sources:
        hit = ranked[member_index(s)]
        if untouched(s, hit.node.get_content(metadata_mode=MetadataMode.NONE)):
            out.append(hit)
        elif fetched is not None and str(s.chunk.id) in fetched:
            out.append(NodeWithScore(node=fetched[str(s.chunk.id)], score=s.chunk.score))
        elif isinstance(hit.node, TextNode):
            span = hit.node.model_copy(
                update={"text": s.chunk.text, "start_char_idx": None, "end_char_idx": None}
            )
            # a doc-less chunk is a document of its own: no chain (never one named "None")
            chain = None if s.chunk.doc is None else (chains or {}).get(s.chunk.doc)
            if chain and neighbors:
                hits = [ranked[i].node for i in s.member_indices]
                span = _span_links(span, hits, chain, neighbors)
            out.append(NodeWithScore(node=span, score=s.chunk.score))
        else:  # pragma: no cover - only text nodes can be grown
            out.append(NodeWithScore(node=TextNode(text=s.chunk.text, id_=str(s.chunk.id))))
    return out
