"""briefpack: deduplicated, budgeted, ordered, labelled context for RAG.

It sits between the reranker and the model: ranked chunks in, a prompt out that is free of
duplicates, fits a token budget, puts the strongest evidence where models read best, labels every
source so claims can be cited and checked, and records exactly what went in.

>>> import briefpack as bp
>>> result = bp.assemble("How long is parental leave?",
...     ["Parental leave is 14 weeks in Germany.", "The relocation cap is 4000 EUR."],
...     budget=1000, tokenizer="approx")
>>> result.messages[1]["content"].endswith("Question: How long is parental leave?")
True

``import briefpack`` loads only this module and ``errors``: each other name (``__version__``
too, which reads the installed metadata) is imported from its module on first use (PEP 562), so
a program pays for what it calls. The
kernel-level functions live in their modules (``briefpack.kernels``, ``briefpack.pages``,
``briefpack.sentences``, ``briefpack.routing``, ``briefpack.prompt``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import BriefpackError, BudgetError, CitationError, InputError

if TYPE_CHECKING:
    from ._many import assemble_many
    from ._version import __version__
    from .assembler import Assembler
    from .assembly import Assembly
    from .citations import Citations, cite
    from .evaluation import evaluate
    from .kernels import count_tokens
    from .options import Options
    from .ordering import order
    from .pages import PageImage
    from .pipeline import assemble
    from .routing import Route, route
    from .sentences import split_sentences
    from .types import Budget, Chunk, Dropped, Source

_LAZY = {
    "Assembler": ".assembler",
    "Assembly": ".assembly",
    "Budget": ".types",
    "Chunk": ".types",
    "Citations": ".citations",
    "Dropped": ".types",
    "Options": ".options",
    "PageImage": ".pages",
    "Route": ".routing",
    "Source": ".types",
    "__version__": "._version",
    "assemble": ".pipeline",
    "assemble_many": "._many",
    "cite": ".citations",
    "count_tokens": ".kernels",
    "evaluate": ".evaluation",
    "order": ".ordering",
    "route": ".routing",
    "split_sentences": ".sentences",
}
"""Each lazily exported name and the module that defines it."""

__all__ = [
    "Assembler",
    "Assembly",
    "BriefpackError",
    "Budget",
    "BudgetError",
    "Chunk",
    "CitationError",
    "Citations",
    "Dropped",
    "InputError",
    "Options",
    "PageImage",
    "Route",
    "Source",
    "__version__",
    "assemble",
    "assemble_many",
    "cite",
    "count_tokens",
    "evaluate",
    "order",
    "route",
    "split_sentences",
]


def __getattr__(name: str) -> Any:
    """Import an exported name's module on first use, and keep the name here."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'briefpack' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
