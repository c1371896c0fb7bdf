"""``Options``: every setting of the pipeline, checked once, by one table of rules.

An ``Assembler`` is configured by one frozen ``Options``; ``assemble``, ``assemble_many``, the
framework adapters and (through ``FIELDS``, ``CHOICES`` and ``DEFAULTS``) a command-line parser
all take their option names, legal values and defaults from here, and the record's
``settings`` is written by ``Options.settings``.

Invariants: an ``Options`` that exists is valid (the rules run in ``__post_init__`` and on
``replace``); the rules run in the order of ``RULES``, so of two bad options the one listed first
is reported; every "must be one of" message comes from ``_checks.choice``. Checking is O(number
of options), once per ``Assembler``, never per request.

Rejected: a pydantic model (a dependency, and its messages are not ours), and checking options
inside each stage (a bad option would surface only when a request happens to reach that stage).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ._checks import (
    ENCODINGS,
    MAX_NEIGHBORS,
    MAX_NUM_PERM,
    MAX_SHINGLE,
    MAX_SIZE,
    check_count,
    check_encoding,
    check_seed,
    check_text,
    choice,
    integer,
    real,
    shown,
    type_name,
)
from .errors import InputError
from .pages import IMAGE_TOKEN_RULES, ImageTokenRule
from .prompt import DEFAULT_INSTRUCTIONS, DEFAULT_SYSTEM, LABEL_STYLES, LabelStyle
from .reference.pages import DEFAULT_MAX_DISTANCE
from .types import Budget, Chunk

__all__ = [
    "BACKENDS",
    "CHOICES",
    "COMPRESS_MODES",
    "DEDUPE_METHODS",
    "DEFAULTS",
    "DEFAULT_THRESHOLDS",
    "FIELDS",
    "OVERFLOWS",
    "Options",
]

Method = Literal["auto", "exact", "jaccard", "minhash", "cosine"]
OrderName = Literal["relevance", "edges", "round_robin", "document"]

DEDUPE_METHODS = ("auto", "exact", "jaccard", "minhash", "cosine", None)
DEFAULT_THRESHOLDS = {"jaccard": 0.7, "minhash": 0.8, "cosine": 0.97}
ORDERS = ("relevance", "edges", "round_robin", "document")
OVERFLOWS = ("stop", "skip")
COMPRESS_MODES = (None, "overflow", "all")
BACKENDS = ("auto", "rust", "python")
SCOPES = ("global", "document")
SUPERSEDE = ("url", "doc", None)
MINHASH_KEYS = ("num_perm", "shingle", "seed")


@dataclass(frozen=True)
class Options:
    """Every setting of ``assemble`` except the request itself (question, candidates, history,
    query vector), checked on construction. ``budget`` is kept as a ``Budget``.
    ``image_tokens`` (what a page image costs: ``"openai"``, ``"openai-low"``, ``"anthropic"``
    or a callable ``(width, height) -> int``) and ``page_max_distance`` (page-hash dedupe, in
    bits of 1024) apply to candidates with page images (``docs/pages.md``).

    >>> Options(budget=800, order="relevance").budget
    Budget(context=800, window=None, max_output=0, margin=0)
    >>> Options(order="random")
    Traceback (most recent call last):
    ...
    briefpack.errors.InputError: order must be one of 'relevance', 'edges', 'round_robin', \
'document', got 'random'
    """

    system: str = DEFAULT_SYSTEM
    instructions: str | None = DEFAULT_INSTRUCTIONS
    budget: int | Budget = 12_000
    dedupe: Method | None = "auto"
    threshold: float | None = None
    scope: Literal["global", "document"] = "global"
    supersede: Literal["url", "doc"] | None = None
    parents: Mapping[str, Any] | Callable[[Chunk], Any] | None = None
    neighbors: int = 0
    chunks_of: Mapping[str, Sequence[Any]] | Callable[[str], Sequence[Any]] | None = None
    rerank: Callable[[str, list[Chunk]], Sequence[float]] | None = None
    max_per_doc: int | None = None
    mmr: float | None = None
    mmr_k: int | None = None
    order: OrderName = "edges"
    labels: LabelStyle = "xml"
    overflow: Literal["stop", "skip"] = "stop"
    tokenizer: str | Callable[[str], int] = "o200k_base"
    backend: Literal["auto", "rust", "python"] = "auto"
    minhash: Mapping[str, int] | None = None
    compress: Literal["overflow", "all"] | None = None
    sentence_scorer: Callable[[str, list[str]], Sequence[float]] | None = None
    image_tokens: ImageTokenRule = "openai"
    page_max_distance: int = DEFAULT_MAX_DISTANCE

    def __post_init__(self) -> None:
        values = {name: getattr(self, name) for name in FIELDS}
        for name, rule in RULES:
            try:
                object.__setattr__(self, name, rule(values[name], values))
            except InputError as exc:
                exc.option = name
                raise

    @property
    def the_budget(self) -> Budget:
        """``budget`` as the ``Budget`` it always is once checked (typed for readers)."""
        assert isinstance(self.budget, Budget)
        return self.budget

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any]) -> Options:
        """Check a mapping of option names (from a config file, a CLI, an adapter).

        >>> Options.from_mapping({"budget": 500}).budget.context
        500
        >>> Options.from_mapping({"bugdet": 500})
        Traceback (most recent call last):
        ...
        briefpack.errors.InputError: unknown option(s) 'bugdet'; expected some of system, \
instructions, budget, dedupe, threshold, scope, supersede, parents, neighbors, chunks_of, rerank, \
max_per_doc, mmr, mmr_k, order, labels, overflow, tokenizer, backend, minhash, compress, \
sentence_scorer, image_tokens, page_max_distance
        """
        unknown = [k for k in options if k not in FIELDS]
        if unknown:
            raise InputError(
                f"unknown option(s) {', '.join(map(repr, unknown))}; "
                f"expected some of {', '.join(FIELDS)}",
                option=str(unknown[0]),
            )
        return cls(**options)

    def replace(self, **changes: Any) -> Options:
        """A checked copy with some options changed.

        >>> Options().replace(order="document").order
        'document'
        """
        return dataclasses.replace(self, **changes)

    def settings(
        self, method: str | None, threshold: float, backend: str, *, pages: bool = False
    ) -> dict[str, Any]:
        """The record's ``settings`` for a request that resolved ``dedupe`` to ``method``.

        ``pages``: the request carries page images, so the page settings are recorded too
        (a text-only request's settings are as they were before pages existed); likewise
        ``compress`` and ``sentence_scorer`` appear only when ``compress`` is on.
        """
        b = self.the_budget
        budget: dict[str, Any] = {
            "context": b.context,
            "window": b.window,
            "max_output": b.max_output,
            "margin": b.margin,
        }
        if b.images is not None or pages:
            budget["images"] = b.images
        out = {
            "budget": budget,
            "dedupe": method,
            "threshold": threshold if method in DEFAULT_THRESHOLDS else None,
            "scope": self.scope,
            "supersede": self.supersede,
            "parents": self.parents is not None,
            "neighbors": self.neighbors,
            "rerank": self.rerank is not None,
            "max_per_doc": self.max_per_doc,
            "mmr": self.mmr,
            "mmr_k": self.mmr_k,
            "order": self.order,
            "labels": self.labels,
            "overflow": self.overflow,
            "tokenizer": self.tokenizer if isinstance(self.tokenizer, str) else "callable",
            "backend": backend,
            "minhash": dict(self.minhash) if self.minhash else None,
        }
        if self.compress is not None:
            out["compress"] = self.compress
            out["sentence_scorer"] = "builtin" if self.sentence_scorer is None else "callable"
        if pages:
            rule = self.image_tokens
            out["pages"] = {
                "dedupe": "page_hash" if self.dedupe == "auto" and method != "cosine" else None,
                "page_max_distance": self.page_max_distance,
                "image_tokens": rule if isinstance(rule, str) else "callable",
            }
        return out


# ---- the rules: (option, check) in the order they run; a check returns the value to keep ----


def _count(name: str, value: Any, *, minimum: int = 0, maximum: int = MAX_SIZE) -> int:
    """``check_count`` for an option: any integer (a numpy one too) becomes a plain int."""
    n = integer(value)
    return check_count(name, value if n is None else n, minimum=minimum, maximum=maximum)


def _unit(name: str, value: Any) -> float:
    """``check_unit_interval`` for an option: any real number (numpy's, Fraction), and one
    too large for a float is out of range, not an ``OverflowError``."""
    x = real(value)
    if x is None or not (0.0 <= x <= 1.0):  # also rejects NaN
        raise InputError(f"{name} must be a number in [0, 1], got {shown(value)}")
    return x


Rule = Callable[[Any, Mapping[str, Any]], Any]


def _choice_rule(name: str, legal: Sequence[object]) -> Rule:
    CHOICES[name] = tuple(legal)
    return lambda value, _: choice(name, value, legal)


def _text_rule(name: str, optional: bool) -> Rule:
    def rule(value: Any, _: Mapping[str, Any]) -> Any:
        if optional and value is None:
            return None
        if not isinstance(value, str):
            kind = "a str or None" if optional else "a str"
            raise InputError(f"{name} must be {kind}, got {type_name(value)}", option=name)
        return check_text(name, value)

    return rule


def _budget(value: Any, _: Mapping[str, Any]) -> Budget:
    if isinstance(value, Budget):
        b = value
    elif integer(value) is not None:
        b = Budget(context=value)
    else:
        raise InputError(
            f"budget must be an int or a Budget, got {type_name(value)}", option="budget"
        )
    if b.context is None and b.window is None:
        raise InputError("budget needs context or window (or both); got neither", option="budget")
    ints: dict[str, Any] = {
        name: None if getattr(b, name) is None and name in ("context", "window", "images")
        else _count(f"budget.{name}", getattr(b, name))
        for name in ("context", "window", "max_output", "margin", "images")
    }  # fmt: skip
    return dataclasses.replace(b, **ints)  # plain ints, so the record is JSON


def _neighbors(value: Any, values: Mapping[str, Any]) -> Any:
    value = _count("neighbors", value, maximum=MAX_NEIGHBORS)
    if value and values["chunks_of"] is None:
        raise InputError(
            "neighbors needs chunks_of (doc -> that document's chunks in order)",
            option="neighbors",
        )
    return value


def _table(name: str) -> Rule:
    def rule(value: Any, _: Mapping[str, Any]) -> Any:
        if value is not None and not (callable(value) or isinstance(value, Mapping)):
            raise InputError(
                f"{name} must be a mapping or a callable, got {type_name(value)}", option=name
            )
        return value

    return rule


def _rerank(value: Any, _: Mapping[str, Any]) -> Any:
    if value is not None and not callable(value):
        raise InputError(f"rerank must be a callable, got {type_name(value)}", option="rerank")
    return value


def _optional_count(name: str) -> Rule:
    return lambda value, _: None if value is None else _count(name, value, minimum=1)


def _mmr(value: Any, _: Mapping[str, Any]) -> Any:
    if value is not None:
        x = _unit("mmr", value)
        if type(value) not in (int, float):
            return x  # a numpy scalar or a Fraction: the record holds a float
    return value  # as given: the record shows what the caller passed


def _mmr_k(value: Any, values: Mapping[str, Any]) -> Any:
    if value is None:
        return None
    value = _count("mmr_k", value, minimum=1)
    if values["mmr"] is None:
        raise InputError(
            "mmr_k limits MMR's picks but mmr is None; pass mmr=lambda too", option="mmr_k"
        )
    return value


def _minhash(value: Any, values: Mapping[str, Any]) -> dict[str, int] | None:
    if value is not None and not isinstance(value, Mapping):
        raise InputError(
            f"minhash must be a mapping of num_perm, shingle, seed, got {type_name(value)}",
            option="minhash",
        )
    mh = dict(value or {})
    for key in mh:
        choice("minhash option", key, MINHASH_KEYS)
    for key, maximum in (("num_perm", MAX_NUM_PERM), ("shingle", MAX_SHINGLE)):
        if key in mh:
            mh[key] = _count(key, mh[key], minimum=1, maximum=maximum)
    if "seed" in mh:
        seed = integer(mh["seed"])
        mh["seed"] = check_seed(mh["seed"] if seed is None else seed)
    if mh and values["dedupe"] != "minhash" and values["dedupe"] in DEDUPE_METHODS:
        raise InputError(
            f"minhash configures dedupe='minhash' but dedupe is {values['dedupe']!r}; pass "
            "dedupe='minhash' too, or drop minhash",
            option="minhash",
        )
    return mh or None


def _sentence_scorer(value: Any, values: Mapping[str, Any]) -> Any:
    if value is None:
        return None
    if not callable(value):
        raise InputError(
            f"sentence_scorer must be a callable (question, sentences) -> scores, got "
            f"{type_name(value)}",
            option="sentence_scorer",
        )
    if values["compress"] is None:
        raise InputError(
            "sentence_scorer scores sentences for compression but compress is None; pass "
            "compress='overflow' or compress='all' too",
            option="sentence_scorer",
        )
    return value


def _image_tokens(value: Any, _: Mapping[str, Any]) -> Any:
    if callable(value):
        return value
    return choice("image_tokens", value, IMAGE_TOKEN_RULES)


def _threshold(value: Any, values: Mapping[str, Any]) -> float | None:
    if value is None:
        return None
    checked = _unit("threshold", value)
    if values["dedupe"] not in DEFAULT_THRESHOLDS and values["dedupe"] != "auto":
        raise InputError(
            f"threshold applies to dedupe='jaccard', 'minhash', 'cosine' or 'auto', but dedupe "
            f"is {values['dedupe']!r}, which has none; drop threshold or choose one of those",
            option="threshold",
        )
    return checked


CHOICES: dict[str, tuple[object, ...]] = {
    "tokenizer": (*ENCODINGS, "callable"),
    "image_tokens": (*IMAGE_TOKEN_RULES, "callable"),
}
"""The legal values of each option that has a fixed set (``tokenizer`` also takes a callable)."""

RULES: tuple[tuple[str, Rule], ...] = (
    ("system", _text_rule("system", optional=False)),
    ("instructions", _text_rule("instructions", optional=True)),
    ("budget", _budget),
    ("scope", _choice_rule("scope", SCOPES)),
    ("supersede", _choice_rule("supersede", SUPERSEDE)),
    ("order", _choice_rule("order", ORDERS)),
    ("labels", _choice_rule("labels", LABEL_STYLES)),
    ("overflow", _choice_rule("overflow", OVERFLOWS)),
    ("backend", _choice_rule("backend", BACKENDS)),
    ("tokenizer", lambda value, _: check_encoding(value, "tokenizer")),
    ("neighbors", _neighbors),
    ("chunks_of", _table("chunks_of")),
    ("parents", _table("parents")),
    ("rerank", _rerank),
    ("max_per_doc", _optional_count("max_per_doc")),
    ("mmr", _mmr),
    ("mmr_k", _mmr_k),
    ("minhash", _minhash),
    ("dedupe", _choice_rule("dedupe", DEDUPE_METHODS)),
    ("threshold", _threshold),
    ("compress", _choice_rule("compress", COMPRESS_MODES)),
    ("sentence_scorer", _sentence_scorer),
    ("image_tokens", _image_tokens),
    ("page_max_distance", lambda value, _: check_count("page_max_distance", value)),
)
"""Every option's check, in the order they run (so the order in which errors are reported)."""

FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Options))
"""The option names, in declaration order."""

DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(Options)}
"""Each option's default."""

assert sorted(name for name, _ in RULES) == sorted(FIELDS), "every option has exactly one rule"
