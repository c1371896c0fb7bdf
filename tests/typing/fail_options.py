"""Option mistakes that the type checkers must report: each line marked ``# error: CODE``
(mypy's error code) is an error under mypy --strict and pyright strict, and no other line is."""

from __future__ import annotations

import briefpack as bp
from briefpack.options import AssembleOptions

CANDIDATES = ["Leave is 14 weeks."]


def mistakes() -> None:
    bp.assemble("Leave?", CANDIDATES, budgett=500)  # error: call-arg
    bp.assemble("Leave?", CANDIDATES, order="random")  # error: arg-type
    bp.assemble("Leave?", CANDIDATES, budget="500")  # error: arg-type
    bp.Assembler(order="random")  # error: arg-type
    bp.Assembler(dedupe="fuzzy")  # error: arg-type
    bp.Assembler(overflow="drop")  # error: arg-type
    bp.Assembler(compress="some")  # error: arg-type
    bp.Assembler(labels="markdown")  # error: arg-type
    bp.Assembler(backend="gpu")  # error: arg-type
    bp.Assembler(scope="local")  # error: arg-type
    bp.Assembler(supersede="date")  # error: arg-type
    bp.Assembler(fallback="drop")  # error: arg-type
    bp.Assembler(image_tokens="gemini")  # error: arg-type
    bp.Assembler(budget=500).replace(max_per_dok=2)  # error: call-arg
    bp.Options().replace(order="best")  # error: arg-type
    bp.assemble_many([("Leave?", CANDIDATES)], overflow="drop")  # error: call-overload
    bp.assemble_many([("Leave?", CANDIDATES)], budgett=500)  # error: call-overload
    opts: AssembleOptions = {"order": "random"}  # error: typeddict-item
    bp.assemble("Leave?", CANDIDATES, **opts)
