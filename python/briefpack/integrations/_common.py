"""What the framework adapters share: option checks, the call into ``assemble``, metadata mapping.

Nothing here imports a framework, so every adapter can use it before its own imports. The
constants live in ``_base``, the metadata and serialisation helpers in ``_metadata``; this
module re-exports them.

The adapters check their options once, when they are built (``build``), and call the pipeline
once per request (``run``); those two functions are the only places that touch ``assemble``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence, Sized
from typing import Any

from .._checks import ENCODINGS, type_name
from .._tokenizers import resolve
from ..assembler import Assembler
from ..assembly import Assembly
from ..errors import InputError
from ..options import DEFAULTS, check_names
from ..sentences import embedding_scorer
from ._base import (
    ASSEMBLE_OPTIONS,
    LOG,
    PER_REQUEST,
    RUN_OPTIONS,
    missing_extra,
    shown,
)
from ._metadata import (
    annotation,
    budget_from,
    budget_to_dict,
    check_json_value,
    fold_options,
    member_index,
    merge_keys,
    pick_fields,
    untouched,
)
from ._trace import Timed, timed, trace_summary

__all__ = [
    "ASSEMBLE_OPTIONS",
    "DEFAULTS",
    "EMBEDDINGS",
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
    "run_timed",
    "shown",
    "tokenizer_name",
    "trace_summary",
    "untouched",
    "wire_scorer",
]

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
page_max_distance, max_page_pixels, max_decoded_bytes, fallback, first_label, history_turns, \
compress_cut, compress_bridge
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


EMBEDDINGS = "embeddings"
"""The ``sentence_scorer`` value an adapter reads as "score sentences with my embedding model"."""


def wire_scorer(
    options: Mapping[str, Any],
    embed: Callable[[list[str]], Any] | None,
    adapter: str,
    field: str,
) -> dict[str, Any]:
    """``options`` with ``sentence_scorer="embeddings"`` replaced by ``embedding_scorer(embed)``.

    ``embed`` is the framework model's batch call (texts in, one vector each), ``None`` when the
    adapter was given no model: then that value is an ``InputError`` naming ``field``. The
    scorer is made once per built adapter, so its cache by sentence text lasts across requests.
    Any other ``sentence_scorer`` (a callable, or none) is left for ``assemble``'s checks.

    >>> wired = wire_scorer({"sentence_scorer": "embeddings"}, lambda texts: [[1.0]] * len(texts),
    ...                     "Adapter", "model")
    >>> callable(wired["sentence_scorer"])
    True
    >>> wire_scorer({"budget": 100}, None, "Adapter", "model")
    {'budget': 100}
    """
    wanted = options.get("sentence_scorer")
    if not (isinstance(wanted, str) and wanted == EMBEDDINGS):
        return dict(options)
    if embed is None:
        raise InputError(
            f'{adapter}: sentence_scorer="embeddings" scores sentences with the adapter\'s '
            f"embedding model, and none was given: pass {field}=",
            option="sentence_scorer",
        )
    return {**options, "sentence_scorer": embedding_scorer(embed)}


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


def run_timed(
    built: Mapping[str, Any],
    question: str,
    candidates: Sequence[Any],
    *,
    history: Any = None,
    adapter: str = "adapter",
    **per_request: Any,
) -> Timed:
    """One request: the built ``Assembler`` with ``history`` and per-request keywords (a query
    vector; resolvers and run-time overrides of options give a checked copy for this request
    only). Logs the outcome at DEBUG, and an empty context (candidates, none placed) as a
    WARNING naming the adapter and ``assembly.empty_reason``.

    Returns the ``Assembly`` with the count and wall time the adapters' events report
    (``Timed.summary()``).

    >>> built = build({"budget": 100, "tokenizer": "approx"})
    >>> done = run_timed(built, "Why?", ["Because.", "Because."], adapter="doc")
    >>> done.assembly.settings["dedupe"], done.summary()["dropped"]
    ('jaccard', {'duplicate': 1})
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
    done = timed(adapter, len(candidates), lambda: asm(question, candidates, **request))
    assembly = done.assembly
    log_request(adapter, assembly, len(candidates))
    if assembly.empty_reason is not None:
        LOG.warning("%s: empty context: %s", adapter, assembly.empty_reason)
    return done


def run(
    built: Mapping[str, Any],
    question: str,
    candidates: Sequence[Any],
    *,
    history: Any = None,
    adapter: str = "adapter",
    **per_request: Any,
) -> Assembly:
    """``run_timed``'s ``Assembly`` alone.

    >>> built = build({"budget": 100, "tokenizer": "approx"})
    >>> run(built, "Why?", ["Because.", "Because."], adapter="doc").settings["dedupe"]
    'jaccard'
    """
    return run_timed(
        built, question, candidates, history=history, adapter=adapter, **per_request
    ).assembly


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
