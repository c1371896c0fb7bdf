"""Stage 6, the budget's last step, evict: the rendered text fits, whatever the tokenizer.

After order, label and render, the sources block and the user message are counted as the
model will read them; while the sources (with their page images' tokens) are over the context
budget, or the prompt over the window, the lowest-ranked placed item is dropped
(``over_budget``, ``evicted``) and the survivors are laid out again (``layout.lay_out``). The
result is ``Fitted``: the layout that fits and its counts.

The counts are exact arithmetic, not counts of the whole texts: for ``o200k_base`` and
``cl100k_base`` a text splits after a newline before an ASCII graphic character other than
``/`` with counts adding up (the lemma in the Rust core's ``tokens::segments``). An ``xml``
block starts with ``<`` and ends in ``\\n</source>``, and blocks are joined by ``\\n\\n``, so the
sources block counts ``sum(count(block)) + (m - 1) * (count("</source>\\n\\n") -
count("</source>"))``. The user message is ``... <sources>\\n`` + sources block +
``\\n</sources>\\n\\nQuestion: ...`` and the framing the same without the block and its line
break, cut at the same places, so it counts ``n_framing + n_sources + count("</source>\\n") -
count("</source>")``. ``approx`` is a function of the length. A caller's tokenizer counts the
whole texts (it promises nothing about splits), and so does the ``brackets`` style: a block's
last segment is its text after its last line break the lemma cuts at, often most of the
block, and counting it again costs more than the whole texts.

Rejected: trusting the sum of per-item costs (BPE merges across block boundaries, and a
caller's ``tokens`` may lie).
"""

from __future__ import annotations

from itertools import repeat

from ..prompt import SOURCE_SEPARATOR
from . import images
from .context import Request
from .framing import MESSAGE_OVERHEAD
from .layout import lay_out
from .phases import Fitted, Layout, Packed

__all__ = ["run"]

_XML_END = "\n</source>"


def run(req: Request, packed: Packed, layout: Layout) -> Fitted:
    """While the rendered text is over, drop the lowest-ranked placed item and lay out again."""
    framing = packed.framing
    budget, window_left = framing.context_budget, framing.window_left
    overhead = 2 * MESSAGE_OVERHEAD
    while True:
        fitted = _counted(req, packed, layout)
        fits = fitted.n_sources + fitted.n_images <= budget
        if window_left is not None:
            n_prompt = framing.n_system + fitted.n_user + fitted.n_images + overhead
            fits = fits and n_prompt <= window_left
        if fits or not packed.placed:
            return fitted
        req.ledger.drop(
            packed.placed[-1],
            "over_budget",
            {
                "evicted": True,
                "sources_tokens": fitted.n_sources + fitted.n_images,
                "context_budget": budget,
            },
        )
        packed = packed.without_last()
        layout = lay_out(req, packed)


def _counted(req: Request, packed: Packed, layout: Layout) -> Fitted:
    """``layout`` counted: the sources block, the user message, each block, the images."""
    n_images = images.total(packed.placed, req)  # the page hook (0 without pages)
    if not packed.placed:
        return Fitted(packed, layout, 0, packed.framing.n_framing, n_images, [])
    n_sources, n_user, n_blocks = _final_counts(req, packed, layout)
    return Fitted(packed, layout, n_sources, n_user, n_images, n_blocks)


def _final_counts(
    req: Request, packed: Packed, layout: Layout
) -> tuple[int, int, list[int] | None]:
    """``n_sources``, ``n_user`` and each block's count (None for a caller's tokenizer) from
    the blocks' counts and three short ones where the split lemma makes that exact (see the
    module docstring); else the sources block and the user message counted whole."""
    encoding, blocks = req.options.tokenizer, layout.blocks
    whole = [layout.sources, layout.user]
    if callable(encoding):  # a caller's tokenizer: count the whole texts, the account the blocks
        n_sources, n_user = req.count(whole, ["sources block", "user message"])
        return n_sources, n_user, None
    n_blocks = _block_counts(req, layout)
    if encoding == "approx":  # max(1, code points // 4): only the lengths matter
        return max(1, len(layout.sources) // 4), max(1, len(layout.user) // 4), n_blocks
    if (
        req.options.labels == "xml"
        and all(map(str.startswith, blocks, repeat("<")))
        and all(map(str.endswith, blocks, repeat(_XML_END)))
    ):  # each block's last segment is "</source>"
        end, between, last = req.count(
            [_XML_END[1:], _XML_END[1:] + SOURCE_SEPARATOR, _XML_END[1:] + "\n"],
            ["</source>", "</source> + separator", "</source> + line break"],
        )
        n_sources = sum(n_blocks) + (len(blocks) - 1) * (between - end)
        return n_sources, packed.framing.n_framing + n_sources + last - end, n_blocks
    # brackets: a block's last segment is all its text after its last line break that the
    # lemma cuts at, often most of it: counting it twice costs more than the whole texts
    # (whose segments the blocks' counts left in the cache)
    n_sources, n_user = req.count(whole, ["sources block", "user message"])
    return n_sources, n_user, n_blocks


def _block_counts(req: Request, layout: Layout) -> list[int]:
    """Each rendered block's count: the label stage's, where it derived one from the priced
    count (see ``label``), else counted (one call for all that are not known)."""
    known = layout.counts
    missing = [j for j, n in enumerate(known) if n is None]
    if not missing:
        return known  # type: ignore[return-value]
    items = layout.items
    counts = req.count([layout.blocks[j] for j in missing], lambda k: req.name(items[missing[k]]))
    out = list(known)
    for j, n in zip(missing, counts):
        out[j] = n
    return out  # type: ignore[return-value]
