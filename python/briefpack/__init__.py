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
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from ._types import DedupeResult, PackResult
from .assembler import Assembler
from .batch import assemble_many
from .citations import Citations, cite
from .errors import BriefpackError, BudgetError, CitationError, InputError
from .evaluate import evaluate
from .kernels import (
    count_tokens,
    dedupe_cosine,
    dedupe_exact,
    dedupe_jaccard,
    dedupe_minhash,
    mmr,
    pack,
)
from .options import Options
from .ordering import order
from .pages import PageImage, decode_page, dedupe_pages, hash_pages, image_tokens
from .pipeline import assemble
from .prompt import DEFAULT_INSTRUCTIONS, DEFAULT_SYSTEM
from .routing import ROUTE_RULE_SETS, ROUTE_RULES_DE, ROUTE_RULES_EN, Route, Rule, route
from .sentences import sentence_spans, split_sentences
from .types import Assembly, Budget, Chunk, Dropped, Source

try:
    __version__ = version("briefpack")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "DEFAULT_INSTRUCTIONS",
    "DEFAULT_SYSTEM",
    "ROUTE_RULES_DE",
    "ROUTE_RULES_EN",
    "ROUTE_RULE_SETS",
    "Assembler",
    "Assembly",
    "BriefpackError",
    "Budget",
    "BudgetError",
    "Chunk",
    "CitationError",
    "Citations",
    "DedupeResult",
    "Dropped",
    "InputError",
    "Options",
    "PackResult",
    "PageImage",
    "Route",
    "Rule",
    "Source",
    "__version__",
    "assemble",
    "assemble_many",
    "cite",
    "count_tokens",
    "decode_page",
    "dedupe_cosine",
    "dedupe_exact",
    "dedupe_jaccard",
    "dedupe_minhash",
    "dedupe_pages",
    "evaluate",
    "hash_pages",
    "image_tokens",
    "mmr",
    "order",
    "pack",
    "route",
    "sentence_spans",
    "split_sentences",
]
