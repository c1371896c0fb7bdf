"""LlamaIndex nodes to and from briefpack's types, and the docstore resolvers, for ``llamaindex``.

``briefpack.integrations.llamaindex`` imports llama-index-core first (or raises the extra's
``ImportError``) and re-exports every name here.
"""

from collections.abc import Callable, Mapping, Sequence

from llama_index.core.schema import (
    BaseNode,
    MetadataMode,
    NodeRelationship,
    NodeWithScore,
    TextNode,
)
from llama_index.core.storage.docstore.types import BaseDocumentStore

from .._metadata_keys import LLAMAINDEX_KEYS
from ..assembly import Assembly
from ..types import Chunk
from ._common import (
    member_index,
    pick_fields,
    untouched,
)

__all__ = [
    "DEFAULT_KEYS",
    "MAX_CHAIN",
    "chunks_resolver",
    "node_chunk",
    "parent_resolver",
    "to_nodes",
]

DEFAULT_KEYS: Mapping[str, tuple[str, ...]] = LLAMAINDEX_KEYS
"""Where a node's metadata holds each ``Chunk`` field, tried in turn.

Besides metadata: ``id`` is the node id, ``score`` the ``NodeWithScore`` score, ``doc`` the
``ref_doc_id`` (the SOURCE relationship) when no ``doc`` key is set, ``position`` the
``start_char_idx``, ``parent`` the PARENT relationship and ``vector`` the node's embedding.
``file_name`` and ``last_modified_date`` are what ``SimpleDirectoryReader`` sets, and
``page_label`` what its PDF reader sets (so a PDF page shows ``title="report.pdf"
page="14"``).
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
