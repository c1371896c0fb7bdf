"""What the framework adapters share: option checks, the call into ``assemble``, metadata mapping.

Nothing here imports a framework, so every adapter can use it before its own imports.

The adapters check their options once, when they are built (``build``), and call the pipeline
once per request (``run``); those two functions are the only places that touch ``assemble``.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Callable, Collection, Mapping, Sequence, Sized
from typing import Any

from .._checks import ENCODINGS, type_name
from .._tokenizers import resolve
from ..assembler import Assembler
from ..assembly import Assembly
from ..errors import InputError
from ..options import DEFAULTS, FIELDS, OVERRIDABLE, check_names, named
from ..types import Budget, Source

__all__ = [
    "ASSEMBLE_OPTIONS",
    "DEFAULTS",
    "LOG",
    "Built",
    "TokenCounter",
    "annotation",
    "budget_from",
    "budget_to_dict",
    "build",
    "check_json_value",
    "check_options",
    "check_overrides",
    "fold_options",
    "log_request",
    "member_index",
    "merge_keys",
    "missing_extra",
    "note_vectors",
    "pick_fields",
    "resolve_tokenizer",
    "run",
    "shown",
    "tokenizer_name",
    "untouched",
]

LOG = logging.getLogger("briefpack.integrations")
"""The adapters' logger (a child of ``briefpack``): DEBUG, and a WARNING for an empty context."""

PER_REQUEST = ("history", "query_vector")
"""``assemble`` keywords that belong to a request, not to the ``Assembler``."""
ASSEMBLE_OPTIONS = (*PER_REQUEST, *FIELDS)
"""Every keyword ``assemble`` takes; adapters pass these through unchanged."""
RUN_OPTIONS = (*PER_REQUEST, *OVERRIDABLE)
"""What one request of an adapter may change: its own keywords and the overridable options."""

SHOWN_LIMIT = 60
"""Longest quoted value in an adapter's error message (longer values are cut with ``...``)."""


def shown(value: object, limit: int = SHOWN_LIMIT) -> str:
    """``repr(value)``, cut to ``limit`` characters, for quoting a caller's value in a message.

    >>> shown("x" * 100, limit=12)
    "'xxxxxxxx..."
    >>> shown([1, 2])
    '[1, 2]'
    """
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def missing_extra(module: str, package: str, extra: str) -> ImportError:
    """The error an adapter raises when its framework is not installed.

    >>> str(missing_extra("langchain", "langchain-core", "langchain"))
    "briefpack.integrations.langchain needs langchain-core: pip install 'briefpack[langchain]'"
    """
    return ImportError(
        f"briefpack.integrations.{module} needs {package}: pip install 'briefpack[{extra}]'",
        name=f"briefpack.integrations.{module}",
    )


# ---- tokenizers -------------------------------------------------------------------------------


class TokenCounter:
    """A caller's tokenizer as ``str -> int``: it may return a count or the tokens themselves.

    ``enc.encode`` and LlamaIndex's ``Settings.tokenizer`` return token lists; their length is
    the count.

    >>> TokenCounter(str.split)("three short words")
    3
    """

    def __init__(self, fn: Callable[[str], Any]) -> None:
        self.fn = fn

    def __call__(self, text: str) -> int:
        n = self.fn(text)
        if isinstance(n, int) and not isinstance(n, bool):
            return n
        if isinstance(n, Sized) and not isinstance(n, (str, bytes, Mapping)):
            return len(n)
        raise InputError(
            f"a tokenizer must return a token count (int) or the tokens (a list), got "
            f"{type_name(n)} {shown(n)}"
        )


def resolve_tokenizer(tokenizer: object) -> str | Callable[[str], int]:
    """What ``assemble`` counts with, from what a framework user has to hand.

    The core's rule (``briefpack._tokenizers.resolve``, as ``assemble(tokenizer=...)``): an
    encoding name stays; an OpenAI model name becomes its encoding, a ``claude-...`` name
    ``"approx"``; a tiktoken ``Encoding`` of a built-in vocabulary (or its bound ``encode``)
    becomes its name (serialisable, counted by the core), any other ``Encoding`` counts
    ``encode_ordinary``; a Haystack ``TokenCounter``; any other callable may return a count
    or a token list.

    >>> resolve_tokenizer("gpt-4o"), resolve_tokenizer("gpt-4-turbo"), resolve_tokenizer("approx")
    ('o200k_base', 'cl100k_base', 'approx')
    """
    try:
        return resolve(tokenizer)
    except InputError:
        if isinstance(tokenizer, str):
            raise InputError(
                f"tokenizer must be an encoding ({', '.join(map(repr, ENCODINGS))}), an OpenAI "
                f"model name such as 'gpt-4o', a 'claude-...' name (approximated), a tiktoken "
                f"Encoding, a Haystack TokenCounter or a callable, got {shown(tokenizer)}"
            ) from None
        raise InputError(
            f"tokenizer must be an encoding name, a model name, a tiktoken Encoding, a Haystack "
            f"TokenCounter or a callable, got {type_name(tokenizer)} {shown(tokenizer)}"
        ) from None


def tokenizer_name(tokenizer: object) -> object:
    """What an adapter serialises for ``tokenizer``: a name as given; an object that resolves
    to a built-in vocabulary (a tiktoken ``Encoding`` of ours, its bound ``encode``, a
    Haystack ``TiktokenCounter``) as that vocabulary's name; else the value as it is (a
    callable: the adapter's own rule).

    >>> tokenizer_name("gpt-4o"), tokenizer_name(len)
    ('gpt-4o', <built-in function len>)
    """
    if isinstance(tokenizer, str):
        return tokenizer
    try:
        got = resolve(tokenizer)
    except InputError:
        return tokenizer
    return got if isinstance(got, str) else tokenizer


# ---- building and running ---------------------------------------------------------------------


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The names are ``assemble`` keywords; raise ``InputError`` naming the unknown ones.

    >>> check_options({"ordr": "edges"})
    Traceback (most recent call last):
    ...
    briefpack.errors.InputError: unknown assemble option(s) 'ordr' (did you mean 'order'?); \
expected some of history, query_vector, system, instructions, budget, dedupe, threshold, scope, \
supersede, parents, neighbors, chunks_of, rerank, max_per_doc, mmr, mmr_k, order, labels, \
overflow, tokenizer, backend, minhash, dedupe_guard, compress, sentence_scorer, image_tokens, \
page_max_distance, max_page_pixels, max_decoded_bytes, fallback
    """
    check_names(options, ASSEMBLE_OPTIONS, what="assemble option")
    return dict(options)


def check_overrides(changes: Mapping[str, Any]) -> dict[str, Any]:
    """The names are what one request may change (``RUN_OPTIONS``); else ``InputError``."""
    check_names(changes, RUN_OPTIONS, what="per-request option")
    return dict(changes)


class Built(dict[str, Any]):
    """An adapter's checked options (a dict, so overrides can be merged into it) and the
    ``Assembler`` built from them once."""

    assembler: Assembler


def build(options: Mapping[str, Any]) -> Built:
    """Check ``assemble`` keywords once, when an adapter is built, not on the first request.

    Unknown names and bad values raise briefpack's ``InputError`` (bad values with
    ``assemble``'s own message). Returns the options and the ``Assembler`` built from them,
    which ``run`` calls; a tokenizer given as a model name, a tiktoken ``Encoding`` or a
    token-list callable is resolved here.

    >>> built = build({"budget": 100, "tokenizer": "gpt-4o"})
    >>> built["tokenizer"], built.assembler.options.tokenizer
    ('o200k_base', 'o200k_base')
    """
    opts = check_options(options)
    if "budget" in opts:
        opts["budget"] = budget_from(opts["budget"])
    if "tokenizer" in opts:
        opts["tokenizer"] = resolve_tokenizer(opts["tokenizer"])
    built = Built(opts)
    built.assembler = Assembler(**{k: v for k, v in opts.items() if k not in PER_REQUEST})
    return built


def run(
    built: Mapping[str, Any],
    question: str,
    candidates: Sequence[Any],
    *,
    history: Any = None,
    adapter: str = "adapter",
    **per_request: Any,
) -> Assembly:
    """One request: the built ``Assembler`` with ``history`` and per-request keywords (a query
    vector; resolvers and run-time overrides of options give a checked copy for this request
    only). Logs the outcome at DEBUG, and an empty context (candidates, none placed) as a
    WARNING naming the adapter and ``assembly.empty_reason``.

    >>> built = build({"budget": 100, "tokenizer": "approx"})
    >>> run(built, "Why?", ["Because.", "Because."], adapter="doc").settings["dedupe"]
    'jaccard'
    """
    asm = built.assembler if isinstance(built, Built) else build(built).assembler
    request = {k: built[k] for k in PER_REQUEST if k in built}
    check_overrides(per_request)
    changes = {}
    for key, value in per_request.items():
        if key in PER_REQUEST:
            request[key] = value
        else:
            changes[key] = value
    if history is not None:
        request["history"] = history
    if changes:
        asm = asm.replace(**changes)
    assembly = asm(question, candidates, **request)
    log_request(adapter, assembly, len(candidates))
    if assembly.empty_reason is not None:
        LOG.warning("%s: empty context: %s", adapter, assembly.empty_reason)
    return assembly


def log_request(adapter: str, assembly: Assembly, n: int) -> None:
    """One DEBUG line per request with the counts; one more per drop (at DEBUG - 1)."""
    if not LOG.isEnabledFor(logging.DEBUG - 1):
        if LOG.isEnabledFor(logging.DEBUG):
            _log_counts(adapter, assembly, n)
        return
    _log_counts(adapter, assembly, n)
    for d in assembly.dropped:
        LOG.log(logging.DEBUG - 1, "%s: dropped %r: %s %s", adapter, d.chunk.id, d.reason, d.detail)


def _log_counts(adapter: str, assembly: Assembly, n: int) -> None:
    reasons: dict[str, int] = {}
    for d in assembly.dropped:
        reasons[d.reason] = reasons.get(d.reason, 0) + 1
    LOG.debug(
        "%s: %d candidates -> %d sources, %d dropped %s, %d tokens (dedupe=%s)",
        adapter,
        n,
        len(assembly.sources),
        len(assembly.dropped),
        reasons,
        assembly.tokens["total"],
        assembly.settings.get("dedupe"),
    )


def note_vectors(adapter: str, dedupe: object, vectors: Sequence[object], hint: str) -> None:
    """Log that ``dedupe="auto"`` falls back to word Jaccard because vectors are missing."""
    if dedupe == "auto" and vectors and any(v is None for v in vectors):
        missing = sum(v is None for v in vectors)
        LOG.debug(
            "%s: %d of %d candidates carry no embedding, so dedupe='auto' compares by word "
            "Jaccard, not cosine; %s",
            adapter,
            missing,
            len(vectors),
            hint,
        )


# ---- serialising options ----------------------------------------------------------------------


def budget_to_dict(budget: object) -> object:
    """A ``Budget`` as a plain dict (for a framework's serialiser); anything else unchanged.
    ``images`` is written only when set (so a budget without it serialises as it always did).

    >>> budget_to_dict(Budget(window=8192, max_output=512))
    {'context': None, 'window': 8192, 'max_output': 512, 'margin': 0}
    >>> budget_to_dict(Budget(context=4000, images=3))["images"]
    3
    """
    if not isinstance(budget, Budget):
        return budget
    out = dataclasses.asdict(budget)
    if out["images"] is None:
        del out["images"]
    return out


def budget_from(value: object) -> object:
    """A ``Budget`` back from ``budget_to_dict``'s dict; anything else unchanged (``assemble``
    checks it). Unknown keys raise ``InputError``.

    >>> budget_from({"window": 8192, "max_output": 512})
    Budget(context=None, window=8192, max_output=512, margin=0)
    """
    if not isinstance(value, Mapping):
        return value
    names = [f.name for f in dataclasses.fields(Budget)]
    unknown = [k for k in value if k not in names]
    if unknown:
        raise InputError(
            f"budget: unknown key(s) {', '.join(shown(k) for k in unknown)}; a budget dict "
            f"holds some of {', '.join(names)}"
        )
    return Budget(**value)


def check_json_value(where: str, value: object) -> object:
    """``value`` if it can be written as JSON data; a callable raises a clear ``InputError``.

    Used by the pydantic adapters in JSON mode: a callable tokenizer or ``parents`` cannot be
    written to JSON; pass it again when loading.
    """
    if isinstance(value, Mapping):
        return {k: check_json_value(f"{where}[{k!r}]", v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [check_json_value(f"{where}[{i}]", v) for i, v in enumerate(value)]
    if callable(value):
        raise InputError(
            f"{where}: a callable ({shown(value)}) cannot be written to JSON; give an encoding "
            "or model name instead, or pass the callable again when loading (e.g. "
            "from_json(data, tokenizer=fn) or model_validate({**data, 'tokenizer': fn}))"
        )
    return value


def _is_count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _is_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _is_id(v: object) -> bool:
    return isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool))


def _is_str(v: object) -> bool:
    return isinstance(v, str)


def _is_set(v: object) -> bool:
    return v is not None


_FIELD_CHECKS: dict[str, Callable[[object], bool]] = {
    "id": _is_id,
    "doc": _is_id,
    "parent": _is_id,
    "score": _is_number,
    "position": _is_count,
    "tokens": _is_count,
    "title": _is_str,
    "url": _is_str,
    "updated": _is_str,
}


def pick_fields(meta: Mapping[str, Any], keys: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """Read ``Chunk`` fields from a framework's metadata dict.

    ``keys`` maps a ``Chunk`` field to the metadata keys tried in turn; the first present value
    of the right type wins (a loader's ``"page": "iv"`` is not a position). Values of another
    type are skipped rather than rejected, since metadata is the framework's, not the caller's
    promise to briefpack. ``id``, ``doc`` and ``parent`` become strings.

    >>> pick_fields({"source": "a.pdf", "start_index": 120, "title": 3},
    ...             {"doc": ("doc", "source"), "position": ("start_index",), "title": ("title",)})
    {'doc': 'a.pdf', 'position': 120}
    """
    out: dict[str, Any] = {}
    for name, candidates in keys.items():
        ok = _FIELD_CHECKS.get(name, _is_set)
        for key in (candidates,) if isinstance(candidates, str) else candidates:
            value = meta.get(key)
            if value is not None and ok(value):
                out[name] = str(value) if name in ("id", "doc", "parent") else value
                break
    return out


def fold_options(fields: Collection[str], data: dict[str, Any], adapter: str) -> dict[str, Any]:
    """Keyword arguments of a pydantic adapter with ``assemble`` options folded into ``options``.

    A framework model ignores unknown keywords; here an ``assemble`` option given directly
    (``BriefpackCompressor(compress="overflow")``) joins ``options``, and anything else is an
    ``InputError`` instead of being dropped without a word.

    >>> fold_options({"budget", "options"}, {"budget": 9, "order": "relevance"}, "X")
    {'budget': 9, 'options': {'order': 'relevance'}}
    """
    extra = {k: v for k, v in data.items() if k not in fields}
    if not extra:
        return data
    unknown = [k for k in extra if k not in ASSEMBLE_OPTIONS]
    if unknown:
        raise InputError(
            f"{adapter} has no option {named(unknown, [*fields, *ASSEMBLE_OPTIONS])}; it takes "
            f"its own fields and assemble's options ({', '.join(ASSEMBLE_OPTIONS)})",
            option=str(unknown[0]),
        )
    folded = {k: v for k, v in data.items() if k in fields}
    folded["options"] = {**(data.get("options") or {}), **extra}
    return folded


def merge_keys(
    defaults: Mapping[str, Sequence[str]], overrides: Mapping[str, Any] | None
) -> dict[str, tuple[str, ...]]:
    """Default metadata keys with a caller's overrides (a str or a list of keys per field)."""
    merged = {k: tuple(v) for k, v in defaults.items()}
    for field_name, value in (overrides or {}).items():
        if field_name not in _FIELD_CHECKS and field_name != "vector":
            raise InputError(
                f"keys: {shown(field_name)} is not a Chunk field that metadata can set; expected "
                f"some of {', '.join([*_FIELD_CHECKS, 'vector'])}"
            )
        if isinstance(value, str):
            merged[field_name] = (value,)
        elif isinstance(value, Sequence) and all(isinstance(k, str) for k in value):
            merged[field_name] = tuple(value)
        else:
            raise InputError(
                f"keys[{field_name!r}] must be a metadata key (str) or a list of keys, got "
                f"{shown(value)}"
            )
    return merged


def member_index(source: Source) -> int:
    """The input index of the best-ranked candidate a source stands for."""
    return source.member_indices[0]


def untouched(source: Source, text: str) -> bool:
    """Whether a source is exactly one input item (``text``), neither replaced nor grown."""
    return (
        len(source.member_indices) == 1
        and source.chunk.id == source.members[0]
        and source.chunk.text == text
    )


def annotation(source: Source) -> dict[str, Any]:
    """What an adapter records about a placed source: its label, members and token count,
    and for a source cut by ``compress``, how it was cut (as in the record)."""
    out: dict[str, Any] = {
        "label": source.label,
        "members": list(source.members),
        "tokens": source.tokens,
    }
    c = source.compression
    if c is not None:
        out["compressed"] = {
            "sentences": c.sentences,
            "kept": list(c.kept),
            "removed": list(c.removed),
        }
    return out
