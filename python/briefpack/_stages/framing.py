"""The budget stage's first step: the prompt around the sources, and the context budget.

The system prompt and the user framing (the user message with an empty sources block:
history, question, separators) are rendered and counted once; the context budget is the
smaller of ``budget.context`` and what the window leaves after the answer, the margin, those
two and two messages' overhead. Fixed parts that do not fit the window are a ``BudgetError``,
never a silent cut. O(len(system) + len(history) + len(question)).
"""

from __future__ import annotations

from ..errors import BudgetError
from ..prompt import render_history, render_history_turns, render_system, render_user
from .context import Request
from .phases import Framing

__all__ = ["MESSAGE_OVERHEAD", "frame"]

MESSAGE_OVERHEAD = 4
"""Tokens a chat format adds around each message (role markers); two messages are reserved."""


def frame(req: Request) -> Framing:
    """Render and count the system prompt and the user framing; work out the context budget."""
    o, b = req.options, req.options.the_budget
    system = render_system(o.system, o.instructions)
    turns = render_history_turns(req.history, o.labels) if o.history_turns else []
    history_block = "" if o.history_turns else render_history(req.history, o.labels)
    framing = render_user(history_block, "", req.question, o.labels)
    n_system, n_framing = req.count([system, framing], ["system", "user framing"])
    n_turns = (
        sum(req.count([t["content"] for t in turns], [f"history[{i}]" for i in range(len(turns))]))
        if turns
        else 0
    )
    overhead = (2 + len(turns)) * MESSAGE_OVERHEAD  # one per message sent
    budget = b.context
    left = b.window_left
    if left is not None:
        fixed = n_system + n_turns + n_framing + overhead
        if fixed > left:
            turns_part = f"history turns {n_turns}, " if turns else ""
            raise BudgetError(
                f"system + history + question need {fixed} tokens (system {n_system}, "
                f"{turns_part}user framing {n_framing}, message overhead {overhead}) but the "
                "window leaves "
                f"{left} (window {b.window} - max_output {b.max_output} - margin {b.margin}); "
                "raise window or pass a shorter history or system prompt"
            )
        budget = left - fixed if budget is None else min(budget, left - fixed)
    assert budget is not None
    return Framing(system, history_block, n_system, n_framing, budget, left, tuple(turns), n_turns)
