"""The phase results: what one stage of the plan's tail hands to the next, typed and frozen.

The selection stages pass items in rank order (``list[Item]``); from the budget on, each stage
returns one of these, and the next reads only that and the ``Request``::

    budget -> Packed (with its Framing) -> order -> label -> render -> Layout
    -> evict -> Fitted -> account (the Assembly)

Per item they hold parallel lists (one entry per placed item), never an object per item;
a result's lists are not changed after it is made (a later stage makes a new one).
"""

from __future__ import annotations

from dataclasses import dataclass

from .context import Item

__all__ = ["Fitted", "Framing", "Layout", "Packed"]


@dataclass(frozen=True, slots=True)
class Framing:
    """The prompt around the sources, counted, and the context budget it leaves (budget)."""

    system: str  # the system prompt
    history_block: str  # the history as the user message shows it ("" without history)
    n_system: int
    n_framing: int  # the user message with an empty sources block
    context_budget: int
    window_left: int | None  # window - max_output - margin (None without a window)
    turns: tuple[dict[str, str], ...] = ()  # history_turns=True: the history as chat turns
    n_turns: int = 0  # the turns' contents, counted (their message overhead not included)


@dataclass(frozen=True, slots=True)
class Packed:
    """The placed items in rank order, with each one's block as the budget priced it (budget).

    ``blocks[j]`` is ``placed[j]``'s source block rendered under the label ``widest`` (None
    when the budget did not render its text: a caller's ``tokens``, or a compression cut), and
    ``counts[j]`` that block's exact count when the budget knows it (else None). The label
    stage relabels a priced block instead of rendering it again (``label``).
    """

    framing: Framing
    placed: list[Item]
    blocks: list[str | None]
    counts: list[int | None]
    widest: str

    def without_last(self) -> Packed:
        """The same packing with its lowest-ranked placed item taken out (evict)."""
        return Packed(
            self.framing, self.placed[:-1], self.blocks[:-1], self.counts[:-1], self.widest
        )


@dataclass(frozen=True, slots=True)
class Layout:
    """The placed items as the prompt shows them (order, label, render).

    ``items`` in the final order, label ``j + 1`` each; ``blocks[j]`` its labelled source
    block, ``counts[j]`` that block's count when the label stage derived it (else None);
    ``sources`` the blocks joined, ``user`` the whole user message.
    """

    items: list[Item]
    blocks: list[str]
    counts: list[int | None]
    sources: str
    user: str


@dataclass(frozen=True, slots=True)
class Fitted:
    """What fits, counted (evict): the packing and layout that survived eviction.

    ``n_blocks`` is each block's count (None for a caller's tokenizer: the account counts
    them), ``n_images`` the placed page images' tokens (part of the sources' cost).
    """

    packed: Packed
    layout: Layout
    n_sources: int
    n_user: int
    n_images: int
    n_blocks: list[int] | None
