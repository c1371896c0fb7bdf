"""What every stage shares: the item that moves through the plan, and the request.

An ``Item`` is a candidate, or the parent / span it expanded to; ``members`` are the input
indices it stands for, best-ranked first. A ``Request`` is built by intake for each call (so
one ``Assembler`` serves many threads) and is frozen: the checked options, the kernels, the
question, history, query vector and checked chunks, the dedupe method and threshold resolved
for it, and whether a candidate carries a page image. It holds the two mutable parts of a
call, each with one purpose: the ``Ledger`` of drops and the ``Scratch`` of per-request caches.
What a stage computes for the next one is its return value (``phases``), never a field here.

Invariant: every candidate index is in the ``members`` of exactly one live item or in the
ledger, after every stage.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import TYPE_CHECKING, Any

from .._backend import KernelsProtocol
from .._checks import count_with
from ..candidates import describe
from ..types import Chunk, Compression
from .ledger import Ledger

if TYPE_CHECKING:
    from ..options import Options

__all__ = ["Item", "Ledger", "Names", "Request", "Scratch", "Stage", "doc_key", "items_of"]

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


def items_of(chunks: list[Chunk]) -> list[Item]:
    """One item per checked candidate, ``Item(c, [i], c.vector)`` for each, without a Python
    call per candidate (the slots are set in one loop; tests/stages/test_context.py holds it
    equal to the constructor).

    >>> [(it.chunk.text, it.members) for it in items_of([Chunk("a"), Chunk("b")])]
    [('a', [0]), ('b', [1])]
    """
    items: list[Item] = list(map(_object_new, repeat(Item, len(chunks))))
    for i, (it, c) in enumerate(zip(items, chunks)):
        it.chunk = c
        it.members = [i]
        it.vector = c.vector
        it.expanded = it.vector_checked = False
        it.compression = None
    return items


_object_new = object.__new__


@dataclass(slots=True)
class Scratch:
    """The caches of one call, filled by whichever stage first needs them."""

    page_hashes: dict[int, bytes] = field(default_factory=dict)  # id(PageImage) -> hash
    # a page the second look kept apart from a kept page, by input index (the record's note)
    second_look: dict[int, dict[str, Any]] = field(default_factory=dict)
    updated_keys: list[tuple[int, int, str]] = field(default_factory=list)  # supersede, by index
    sentences: dict[int, Any] = field(default_factory=dict)  # compress: by best member's index
    # an expansion (parents, neighbours) made an item that carries a page image
    expanded_pages: bool = False
    # how the request decodes page images (max_pixels, and its one DecodeBudget), so that the
    # pages an expansion brings count against the same limits as the candidates' own
    decode: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Request:
    """One call, checked: what every stage reads (see the module doc)."""

    options: Options
    kernels: KernelsProtocol
    question: str
    history: str | list[dict[str, str]] | None
    query_vector: list[float] | None
    chunks: list[Chunk]
    method: str | None  # dedupe resolved for this request ("auto" -> "cosine" or "jaccard")
    threshold: float
    pages: bool  # some candidate carries a page image (see ``images``)
    ledger: Ledger
    scratch: Scratch

    @property
    def has_pages(self) -> bool:
        """Whether an item of this request carries a page image: a candidate, or what an
        expansion made of one (the page hooks of dedupe, budget and account apply)."""
        return self.pages or self.scratch.expanded_pages

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


def doc_key(chunk: Chunk) -> Hashable:
    """What groups a chunk with the others of its document: its ``doc``, or, for a chunk
    without one (a document of its own), a key no named document can equal.

    >>> doc_key(Chunk("x", id="a", doc="a")) == doc_key(Chunk("y", id="a"))
    False
    """
    return chunk.doc if chunk.doc is not None else (None, chunk.id)


Stage = Callable[[list[Item], Request], list[Item]]
"""A selection step of the plan (repeated ids to compress): items in rank order in and out."""
