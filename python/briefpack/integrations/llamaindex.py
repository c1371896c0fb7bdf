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
        NodeWithScore,
        QueryBundle,
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
from ._common import (
    DEFAULTS,
    budget_from,
    budget_to_dict,
    build,
    check_json_value,
    fold_options,
    merge_keys,
    note_vectors,
    run,
    tokenizer_name,
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

__all__ = [
    "DEFAULT_KEYS",
    "MAX_CHAIN",
    "BriefpackPostprocessor",
    "chunks_resolver",
    "node_chunk",
    "parent_resolver",
    "to_nodes",
]

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
