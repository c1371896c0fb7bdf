"""What every stage shares: the item that moves through the plan and the per-call context.

An ``Item`` is a candidate, or the parent / span it expanded to; ``members`` are the input
indices it stands for, best-ranked first. A ``Context`` is built fresh for each call (so one
``Assembler`` serves many threads): the checked options, the kernels, the token counter, the
request (question, history, query vector, checked chunks) and the ``Ledger`` of drops. A stage
is a function ``(items, ctx) -> items`` that may only drop (through the ledger), merge, replace
or reorder items.

Invariant: every candidate index is in the ``members`` of exactly one live item or in the
ledger, after every stage.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from .._backend import KernelsProtocol
from .._checks import count_with
from ..candidates import describe
from ..types import Chunk, Compression, DropDetail, Dropped, Reason

if TYPE_CHECKING:
    from ..options import Options

__all__ = ["Context", "Item", "Ledger", "Names", "Stage", "doc_key"]

Names = Sequence[str] | Callable[[int], str]
"""How a failing caller's tokenizer names what it was counting: a list, or a function of the
position (so that names are built only when a caller's tokenizer is in use)."""


@dataclass(slots=True)
class Item:
    """A unit moving through the pipeline: a candidate, or the parent/span it expanded to."""

    chunk: Chunk
    members: list[int]  # candidate indices it stands for, best-ranked first
    vector: Any = None
    expanded: bool = False
    vector_checked: bool = False  # ``vector`` is already a checked list of floats (or row)
    compression: Compression | None = None  # set when compression cut its text (``compress``)
    # its block as the budget priced it (under the widest label), the chunk it rendered, and
    # the block's exact count when the budget knows it (None: not known, count it)
    priced: tuple[Chunk, str, str, int | None] | None = None  # (chunk, widest, block, count)


class Ledger:
    """Where every dropped candidate is written, with its reason and typed detail.

    Kept as columns: a drop appends the item, its reason and its detail, and ``fate`` builds the
    ``Dropped`` objects only when the result's ``dropped``, ``fates`` or ``record()`` are read
    (most candidates of a large request are dropped, and most callers read only the prompt).
    """

    __slots__ = ("_built", "_details", "_items", "_reasons", "_shared", "chunks")

    def __init__(self, chunks: list[Chunk]) -> None:
        self.chunks = chunks
        self._items: list[Item | Sequence[Item]] = []
        self._reasons: list[Reason] = []
        self._details: list[DropDetail] = []
        self._shared: list[bool] = []  # the entry is a run of items sharing one detail
        self._built: dict[int, Dropped] | None = None

    def drop(self, item: Item, reason: Reason, detail: DropDetail) -> None:
        """Drop every candidate ``item`` stands for (``via`` names the parent or span)."""
        self._items.append(item)
        self._reasons.append(reason)
        self._details.append(detail)
        self._shared.append(False)
        self._built = None

    def drop_all(self, items: Sequence[Item], reason: Reason, detail: DropDetail) -> None:
        """Drop each of ``items`` as ``drop`` does, each with its own copy of ``detail``."""
        if items:
            self._items.append(items)
            self._reasons.append(reason)
            self._details.append(detail)
            self._shared.append(True)
            self._built = None

    @property
    def fate(self) -> dict[int, Dropped]:
        """Each dropped candidate's ``Dropped``, by input index (built on first read)."""
        if self._built is None:
            self._built = self._build()
        return self._built

    def _build(self) -> dict[int, Dropped]:
        chunks = self.chunks
        out: dict[int, Dropped] = {}
        for entry, reason, detail, shared in zip(
            self._items, self._reasons, self._details, self._shared
        ):
            run = cast("Sequence[Item]", entry) if shared else (cast("Item", entry),)
            for item in run:
                if not item.expanded and len(item.members) == 1:  # ~all of a large set
                    m = item.members[0]
                    out[m] = Dropped(
                        chunks[m], reason, cast("DropDetail", dict(detail)) if shared else detail
                    )
                    continue
                for m in item.members:
                    d = dict(detail)
                    if item.expanded and chunks[m].id != item.chunk.id:
                        d["via"] = item.chunk.id
                    out[m] = Dropped(chunks[m], reason, cast("DropDetail", d))
        return out

    def dropped(self) -> list[Dropped]:
        """The drops in input order."""
        fate = self.fate
        return [fate[i] for i in sorted(fate)]


@dataclass(slots=True)
class Context:
    """The state of one call: options, kernels, the request, the ledger, and what the budget,
    order, label and render stages leave for the next one."""

    options: Options
    kernels: KernelsProtocol
    question: str
    history: str | list[dict[str, str]] | None
    query_vector: list[float] | None
    chunks: list[Chunk]
    method: str | None  # dedupe resolved for this request ("auto" -> "cosine" or "jaccard")
    threshold: float
    ledger: Ledger
    pages: bool = False  # some candidate carries a page image (see ``images``)
    page_hashes: dict[int, bytes] = field(default_factory=dict)  # id(PageImage) -> hash
    updated_keys: list[tuple[int, int, str]] = field(default_factory=list)  # supersede, by index
    # set by the budget stage
    system_text: str = ""
    history_block: str = ""
    n_system: int = 0
    n_framing: int = 0
    context_budget: int = 0
    window_left: int | None = None
    placed: list[Item] = field(default_factory=list)  # rank order, for eviction
    # set by the compress stage: each item's sentences and scores, by its best member's index
    sentences: dict[int, Any] = field(default_factory=dict)
    # set by the label and render stages; each block's count when the label stage knows it
    rendered: list[str] = field(default_factory=list)
    relabelled_counts: list[int | None] = field(default_factory=list)
    sources_block: str = ""
    user: str = ""
    n_sources: int = 0
    n_user: int = 0
    n_images: int = 0  # tokens of the placed page images (set with ``n_sources``)
    # each rendered block's count, set with ``n_sources`` (None: the account counts them)
    n_blocks: list[int] | None = None

    def count(self, texts: list[str], names: Names) -> list[int]:
        """Count ``texts`` with the request's tokenizer; a caller's tokenizer that fails is
        reported by ``names``."""
        tokenizer = self.options.tokenizer
        if callable(tokenizer):
            name_of = names if callable(names) else names.__getitem__
            return [count_with(tokenizer, t, name_of(j)) for j, t in enumerate(texts)]
        return self.kernels.count_tokens(texts, tokenizer, segments=True)

    def count_limited(self, texts: list[str], limits: list[int], names: Names) -> list[int]:
        """Like ``count``, but a text may stop being counted once it passes its limit."""
        if callable(self.options.tokenizer):
            return self.count(texts, names)
        return self.kernels.count_tokens_limited(texts, limits, self.options.tokenizer)

    def name(self, item: Item) -> str:
        """How messages name an item: the best-ranked candidate it stands for."""
        first = item.members[0]
        return describe(first, self.chunks[first].id)

    def namer(self, items: list[Item]) -> Callable[[int], str]:
        """Names of ``items`` by position (for messages built only on an error)."""
        return lambda j: self.name(items[j])

    def drop(self, item: Item, reason: Reason, detail: DropDetail) -> None:
        self.ledger.drop(item, reason, detail)

    def drop_all(self, items: Sequence[Item], reason: Reason, detail: DropDetail) -> None:
        self.ledger.drop_all(items, reason, detail)


def doc_key(chunk: Chunk) -> Hashable:
    """What groups a chunk with the others of its document: its ``doc``, or, for a chunk
    without one (a document of its own), a key no named document can equal.

    >>> doc_key(Chunk("x", id="a", doc="a")) == doc_key(Chunk("y", id="a"))
    False
    """
    return chunk.doc if chunk.doc is not None else (None, chunk.id)


Stage = Callable[[list[Item], Context], list[Item]]
"""A step of the plan."""
