"""The budget stage's first step: the prompt around the sources, and the context budget.

The system prompt and the user framing (the user message with an empty sources block:
history, question, separators) are rendered and counted once; the context budget is the
smaller of ``budget.context`` and what the window leaves after the answer, the margin, those
two and two messages' overhead. Fixed parts that do not fit the window are a ``BudgetError``,
never a silent cut. O(len(system) + len(history) + len(question)).
"""

from __future__ import annotations

from ..errors import BudgetError
from ..prompt import render_history, render_system, render_user
from .context import Request
from .phases import Framing

__all__ = ["MESSAGE_OVERHEAD", "frame"]

MESSAGE_OVERHEAD = 4
"""Tokens a chat format adds around each message (role markers); two messages are reserved."""


def frame(req: Request) -> Framing:
    """Render and count the system prompt and the user framing; work out the context budget."""
    o, b = req.options, req.options.the_budget
    system = render_system(o.system, o.instructions)
    history_block = render_history(req.history, o.labels)
    framing = render_user(history_block, "", req.question, o.labels)
    n_system, n_framing = req.count([system, framing], ["system", "user framing"])
    overhead = 2 * MESSAGE_OVERHEAD
    budget = b.context
    left = b.window_left
    if left is not None:
        fixed = n_system + n_framing + overhead
        if fixed > left:
            raise BudgetError(
                f"system + history + question need {fixed} tokens (system {n_system}, user "
                f"framing {n_framing}, message overhead {overhead}) but the window leaves "
                f"{left} (window {b.window} - max_output {b.max_output} - margin {b.margin}); "
                "raise window or pass a shorter history or system prompt"
            )
        budget = left - fixed if budget is None else min(budget, left - fixed)
    assert budget is not None
    return Framing(system, history_block, n_system, n_framing, budget, left)
