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

from collections.abc import Callable
from typing import Any

try:
    from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr, model_validator
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
except ImportError as exc:  # pragma: no cover - exercised by test_missing_extra
    from ._common import missing_extra

    raise missing_extra("llamaindex", "llama-index-core", "llamaindex") from exc

from collections.abc import Mapping, Sequence

from ..assembler import Assembler
from ..kernels import count_tokens
from ..types import Assembly, Chunk
from ._common import build_assembler, member_index, merge_keys, pick_fields, untouched

__all__ = [
    "DEFAULT_KEYS",
    "MAX_CHAIN",
    "BriefpackPostprocessor",
    "chunks_resolver",
    "node_chunk",
    "parent_resolver",
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
) -> Callable[[str], list[Chunk]]:
    """An ``assemble(chunks_of=...)`` callable that walks ``PREVIOUS`` / ``NEXT`` links.

    For a document (a candidate's ``doc``), it returns the chain of nodes through that
    document's best-ranked node among ``nodes``, from the first node to the last, read from
    ``docstore``; a document whose nodes have no links is just that node.
    """
    first: dict[str, BaseNode] = {}
    for node in nodes:
        doc = node_chunk(node, keys=keys).doc
        first.setdefault(str(doc if doc is not None else node.node_id), node)

    def chunks_of(doc: str) -> list[Chunk]:
        start = first.get(doc)
        if start is None:
            return []
        return [node_chunk(n, keys=keys) for n in _chain(docstore, start)]

    return chunks_of


class BriefpackPostprocessor(BaseNodePostprocessor):
    """Dedupe, cap, budget and order retrieved nodes with briefpack.

    Fields ``budget``, ``order``, ``dedupe``, ``threshold``, ``max_per_doc`` and
    ``tokenizer`` are ``assemble``'s; ``options`` takes any other ``assemble`` keyword
    (``mmr``, ``supersede``, ``system``, ``backend``, ...). ``docstore`` with ``parents=True``
    or ``neighbors=n`` expands each hit through the node relationships (see the module).

    ``metadata_mode`` is the node content that is budgeted: ``MetadataMode.LLM`` (default)
    counts the metadata header LlamaIndex's synthesizers put in front of each node's text;
    dedupe always compares the text alone. ``sort=True`` first sorts nodes by score (best
    first, stable, missing scores last), as LlamaIndex's own ``LongContextReorder`` does;
    with ``sort=False`` input order is rank order. ``keys`` overrides ``DEFAULT_KEYS``.

    >>> from llama_index.core.schema import NodeWithScore, TextNode
    >>> nodes = [NodeWithScore(node=TextNode(text="Leave is 14 weeks.", id_="a"), score=0.9),
    ...          NodeWithScore(node=TextNode(text="Leave is 14 weeks.", id_="b"), score=0.8),
    ...          NodeWithScore(node=TextNode(text="Relocation: 4000 EUR.", id_="c"), score=0.7)]
    >>> post = BriefpackPostprocessor(budget=200, tokenizer="approx")
    >>> [(n.node_id, n.score) for n in post.postprocess_nodes(nodes, query_str="Leave?")]
    [('a', 0.9), ('c', 0.7)]
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    budget: Any = 4000
    """Context tokens (int) or a ``briefpack.Budget``."""
    order: str = "edges"
    dedupe: str | None = "auto"
    threshold: float | None = None
    max_per_doc: int | None = None
    tokenizer: Any = "o200k_base"
    docstore: BaseDocumentStore | None = Field(default=None, exclude=True)
    """Holds the nodes' parents and neighbours (not serialised with the postprocessor)."""
    parents: bool = False
    neighbors: int = 0
    metadata_mode: MetadataMode = MetadataMode.LLM
    sort: bool = True
    keys: dict[str, Any] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    _assembler: Assembler = PrivateAttr()
    _per_request: dict[str, Any] = PrivateAttr()

    @classmethod
    def class_name(cls) -> str:
        return "BriefpackPostprocessor"

    @model_validator(mode="after")
    def _check(self) -> "BriefpackPostprocessor":
        merge_keys(DEFAULT_KEYS, self.keys)
        if (self.parents or self.neighbors) and self.docstore is None:
            raise ValueError(
                "parents=True and neighbors need the docstore that holds the nodes' parents and "
                "neighbours: pass docstore=index.docstore (or storage_context.docstore)"
            )
        self._assembler, self._per_request = build_assembler(self._kwargs())
        if self.neighbors:
            self._assembler.replace(neighbors=self.neighbors, chunks_of={})
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
        bad = sorted(set(self.options) & {*own, "parents", "neighbors", "chunks_of"})
        if bad:
            raise ValueError(
                f"options {bad} are fields of BriefpackPostprocessor (parents and neighbors "
                "read the docstore); set them directly"
            )
        return {**own, **self.options}

    def _run(
        self, nodes: Sequence[NodeWithScore], query: str | QueryBundle | None
    ) -> tuple[Assembly, list[NodeWithScore], NodeMap]:
        ranked = list(nodes)
        if self.sort:
            ranked.sort(key=lambda n: (n.score is None, -(n.score or 0.0)))
        bundle = QueryBundle(query) if isinstance(query, str) else query
        keys = merge_keys(DEFAULT_KEYS, self.keys)
        tokens: list[int | None] = [None] * len(ranked)
        tokens_of: Callable[[BaseNode], int] | None = None
        if self.metadata_mode != MetadataMode.NONE:
            mode, tokenizer = self.metadata_mode, self.tokenizer

            def count_shown(node: BaseNode) -> int:
                return count_tokens([node.get_content(metadata_mode=mode)], encoding=tokenizer)[0]

            tokens_of = count_shown
            if ranked:
                shown = [n.node.get_content(metadata_mode=mode) for n in ranked]
                tokens = list(count_tokens(shown, encoding=tokenizer))
        chunks = [node_chunk(n.node, n.score, keys=keys, tokens=t) for n, t in zip(ranked, tokens)]
        kwargs = dict(self._per_request)
        asm = self._assembler
        if (
            asm.options.mmr is not None
            and kwargs.get("query_vector") is None
            and bundle is not None
            and bundle.embedding is not None
        ):
            kwargs["query_vector"] = bundle.embedding
        fetched: NodeMap = {}
        if self.docstore is not None and (self.parents or self.neighbors):
            by_id = {str(n.node.node_id): n.node for n in ranked}
            tables: dict[str, Any] = {}  # the docstore's resolvers hold this request's nodes
            if self.parents:
                tables["parents"] = parent_resolver(
                    self.docstore, by_id, keys=keys, fetched=fetched, tokens_of=tokens_of
                )
            if self.neighbors:
                tables["neighbors"] = self.neighbors
                tables["chunks_of"] = chunks_resolver(
                    self.docstore, [n.node for n in ranked], keys=keys
                )
            asm = asm.replace(**tables)
        question = bundle.query_str if bundle is not None else ""
        return asm(question, chunks, **kwargs), ranked, fetched

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
        assembly, ranked, fetched = self._run(nodes, query_bundle)
        return to_nodes(assembly, ranked, fetched)


def to_nodes(
    assembly: Assembly, ranked: Sequence[NodeWithScore], fetched: NodeMap | None = None
) -> list[NodeWithScore]:
    """The placed sources of ``assembly`` as ``NodeWithScore``s, in the final order.

    ``ranked`` are the nodes in the order they were passed to ``assemble``. A source that is
    one of them, unchanged, is that very object; a parent is the parent node from ``fetched``
    (with the best child's score); a span grown by neighbours is a copy of its best hit's node
    with the span's text.
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
            out.append(NodeWithScore(node=span, score=s.chunk.score))
        else:  # pragma: no cover - only text nodes can be grown
            out.append(NodeWithScore(node=TextNode(text=s.chunk.text, id_=str(s.chunk.id))))
    return out
