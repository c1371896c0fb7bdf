"""The budget from ``--budget``, ``--window``, ``--max-output``, ``--margin`` and ``--max-images``.

Shared by ``assemble`` and ``route``.
"""

from __future__ import annotations

import argparse

from ..types import Budget
from .common import UserError


def _budget(args: argparse.Namespace, default: int | None) -> int | Budget | None:
    """``--budget`` alone is the context budget; ``--window`` reserves answer and margin first."""
    images = getattr(args, "max_images", None)
    if args.window is None:
        if args.max_output is not None or args.margin is not None:
            raise UserError(
                "--max-output and --margin reserve room in the model's window; pass --window "
                "too (--budget alone caps the sources block directly)"
            )
        context = default if args.budget is None else int(args.budget)
        if images is None:
            return context
        return Budget(context=12_000 if context is None else context, images=images)
    return Budget(
        context=args.budget,
        window=args.window,
        max_output=args.max_output or 0,
        margin=args.margin or 0,
        images=images,
    )
