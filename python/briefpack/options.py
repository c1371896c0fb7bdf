"""``Options`` and ``SPECS``: every option of the pipeline, one row each.

To add an option (three places):

1. A row at the end of ``Options``::

       my_option: int | None = field(default=None, metadata=spec(
           r.optional_count("my_option"), record=AS_GIVEN,
           cli=Flag("what it does", "int", "N"), whole_corpus=None))

   The row is the whole specification: the check (a rule from ``_option_rules``, or
   ``choices=`` for a fixed set), what ``settings`` records (``record=``; none: nothing), the
   ``briefpack assemble`` flag (``cli=``, spelled ``--my-option``), ``sweep=`` for ``briefpack
   eval``, ``per_request`` (a request may override it) and ``whole_corpus=``. ``Options``,
   ``settings()``, the CLI, eval, ``assemble_many``, the adapters and ``whole_corpus`` read it.
2. The stage that reads ``options.my_option`` (``_stages/``; ``plan`` says when it runs).
3. A test of that stage on both backends (``tests/stages/``). ``tests/test_specs.py`` checks
   the row is wired everywhere it says; the snapshot must not change while the option is off.

Invariants: an ``Options`` that exists is valid (the rules run in ``__post_init__`` and on
``replace``, in the order of the rows, so of two bad options the one declared first is
reported); an unknown name anywhere is reported by ``check_names``, in one wording.
Rejected: a pydantic model (a dependency, and its messages are not ours).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from . import _option_rules as r
from ._checks import ENCODINGS
from ._option_rules import (
    BACKENDS,
    COMPRESS_MODES,
    DEDUPE_METHODS,
    DEFAULT_INSTRUCTIONS,
    DEFAULT_MAX_DISTANCE,
    DEFAULT_SYSTEM,
    DEFAULT_THRESHOLDS,
    FALLBACKS,
    IMAGE_TOKEN_RULES,
    LABEL_STYLES,
    MAX_DECODED_BYTES,
    MAX_PAGE_PIXELS,
    ORDERS,
    OVERFLOWS,
    SCOPES,
    SUPERSEDE,
    ImageTokenRule,
    LabelStyle,
    Rule,
)
from ._specs import (
    AS_GIVEN,
    CHOICE,
    IN_PAGES,
    IS_SET,
    KEEP,
    NAME_OR_CALLABLE,
    OMIT,
    Flag,
    Resolved,
    Spec,
    check_names,
    named,
    spec,
)
from .errors import InputError
from .types import Budget, Chunk

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "AS_GIVEN",
    "BACKENDS",
    "CHOICES",
    "COMPRESS_MODES",
    "DEDUPE_METHODS",
    "DEFAULTS",
    "DEFAULT_THRESHOLDS",
    "FIELDS",
    "IN_PAGES",
    "IS_SET",
    "KEEP",
    "NAME_OR_CALLABLE",
    "OMIT",
    "OVERFLOWS",
    "OVERRIDABLE",
    "READ_EVERYTHING",
    "SPECS",
    "AssembleOptions",
    "Flag",
    "Options",
    "Resolved",
    "Spec",
    "check_names",
    "named",
    "spec",
]

Method = Literal["auto", "exact", "jaccard", "minhash", "cosine"]
OrderName = Literal["relevance", "edges", "round_robin", "document"]


class AssembleOptions(TypedDict, total=False):
    """The options as keyword arguments: what ``assemble``, ``Assembler``, ``assemble_many``,
    ``Assembler.replace`` and ``Options.replace`` take as ``**options``.

    For type checkers only (``Unpack[AssembleOptions]``): a misspelt option or a value outside
    an option's fixed set (``order="random"``) is a type error; at run time every option is
    still checked by ``Options`` (``InputError``). One key per field of ``Options``, with the
    field's type; ``tokenizer``, ``rerank`` and ``sentence_scorer`` are as wide as the run-time
    check (a model name, a tiktoken ``Encoding``, a callable returning an array).

    >>> import briefpack as bp
    >>> opts: AssembleOptions = {"budget": 500, "order": "relevance", "tokenizer": "approx"}
    >>> len(bp.assemble("Cap?", ["The cap is 4000 EUR."], **opts).sources)
    1
    """

    system: str
    instructions: str | None
    budget: int | Budget
    dedupe: Method | None
    threshold: float | None
    scope: Literal["global", "document"]
    supersede: Literal["url", "doc"] | None
    parents: Mapping[str, Any] | Callable[[Chunk], Any] | None
    neighbors: int
    chunks_of: Mapping[str, Sequence[Any]] | Callable[[str], Sequence[Any]] | None
    rerank: Callable[[str, list[Chunk]], Any] | None
    max_per_doc: int | None
    mmr: float | None
    mmr_k: int | None
    order: OrderName
    labels: LabelStyle
    overflow: Literal["stop", "skip"]
    tokenizer: Any
    backend: Literal["auto", "rust", "python"]
    minhash: Mapping[str, int] | None
    dedupe_guard: bool
    compress: Literal["overflow", "all"] | None
    sentence_scorer: Callable[[str, list[str]], Any] | None
    image_tokens: ImageTokenRule
    page_max_distance: int
    max_page_pixels: int
    max_decoded_bytes: int
    fallback: Literal["compress"] | None
    first_label: int
    history_turns: bool
    compress_cut: float | None
    compress_bridge: bool


def _record_budget(b: Budget, at: Resolved) -> dict[str, Any]:
    out: dict[str, Any] = {
        "context": b.context,
        "window": b.window,
        "max_output": b.max_output,
        "margin": b.margin,
    }
    if b.images is not None or at.pages:
        out["images"] = b.images
    return out


def _record_threshold(_: Any, at: Resolved) -> float | None:
    return at.threshold if at.method in DEFAULT_THRESHOLDS else None


def _record_sentence_scorer(value: Any, at: Resolved) -> Any:
    if at.options.compress is None:
        return OMIT
    return "builtin" if value is None else "callable"


_PROMPT = ("demo", "assemble")
_AND_DEDUPE = ("assemble", "dedupe")


@dataclass(frozen=True)
class Options:
    """Every setting of ``assemble`` except the request itself (question, candidates, history,
    query vector), checked on construction. ``budget`` is kept as a ``Budget``.
    ``image_tokens`` (what a page image costs: ``"openai"``, ``"openai-low"``, ``"anthropic"``
    or a callable ``(width, height) -> int``), ``page_max_distance`` (page-hash dedupe, in
    bits of 256), ``max_page_pixels`` and ``max_decoded_bytes`` (the decoding limits: a page,
    a request) apply to candidates with page images (``docs/pages.md``).

    >>> Options(budget=800, order="relevance").budget
    Budget(context=800, window=None, max_output=0, margin=0)
    >>> Options(order="random")
    Traceback (most recent call last):
    ...
    briefpack.errors.InputError: order must be one of 'relevance', 'edges', 'round_robin', \
'document', got 'random'
    """

    system: str = field(
        default=DEFAULT_SYSTEM,
        metadata=spec(
            r.text_rule("system", optional=False),
            cli=Flag("the system prompt's identity line (default: briefpack's)", "text", "TEXT"),
        ),
    )
    instructions: str | None = field(
        default=DEFAULT_INSTRUCTIONS,
        metadata=spec(
            r.text_rule("instructions", optional=True),
            cli=Flag(
                "the instructions after it (default: briefpack's; '' for none)", "text", "TEXT"
            ),
        ),
    )
    budget: int | Budget = field(
        default=12_000,
        metadata=spec(
            r.budget,
            record=_record_budget,
            cli=Flag(
                "tokens for the sources block (default: 12000, or what --window leaves)",
                "int",
                "N",
                passes=False,
                also=("budget.context",),
            ),
            sweep="int",
        ),
    )
    dedupe: Method | None = field(
        default="auto",
        metadata=spec(
            choices=DEDUPE_METHODS,
            record=lambda _, at: at.method,
            cli=Flag(
                "duplicate detection; auto is cosine when every candidate has a vector, else "
                "jaccard",
                show_default=True,
                passes=False,
            ),
            sweep="str",
            whole_corpus=None,
        ),
    )
    threshold: float | None = field(
        default=None,
        metadata=spec(
            r.threshold,
            record=_record_threshold,
            cli=Flag(
                "similarity in [0, 1] at which two candidates are duplicates (default: jaccard "
                "0.7, minhash 0.8, cosine 0.97)",
                "float",
                "T",
                commands=_AND_DEDUPE,
                passes=False,
            ),
            sweep="float",
            whole_corpus=None,
        ),
    )
    scope: Literal["global", "document"] = field(
        default="global",
        metadata=spec(
            choices=SCOPES,
            record=AS_GIVEN,
            cli=Flag(
                "compare every pair (global) or only within a document (document; a row without "
                "'doc' is a document of its own in dedupe)",
                commands=_AND_DEDUPE,
                show_default=True,
            ),
        ),
    )
    supersede: Literal["url", "doc"] | None = field(
        default=None,
        metadata=spec(
            choices=SUPERSEDE,
            record=AS_GIVEN,
            cli=Flag("keep only the newest 'updated' among candidates sharing a url (or doc)"),
            whole_corpus=None,
        ),
    )
    parents: Mapping[str, Any] | Callable[[Chunk], Any] | None = field(
        default=None, metadata=spec(r.table("parents"), record=IS_SET, whole_corpus=None)
    )
    neighbors: int = field(default=0, metadata=spec(r.neighbors, record=AS_GIVEN, whole_corpus=0))
    chunks_of: Mapping[str, Sequence[Any]] | Callable[[str], Sequence[Any]] | None = field(
        default=None, metadata=spec(r.table("chunks_of"), whole_corpus=None)
    )
    rerank: Callable[[str, list[Chunk]], Sequence[float]] | None = field(
        default=None, metadata=spec(r.rerank, record=IS_SET, whole_corpus=None)
    )
    max_per_doc: int | None = field(
        default=None,
        metadata=spec(
            r.optional_count("max_per_doc"),
            record=AS_GIVEN,
            cli=Flag("keep at most N candidates per document", "int", "N"),
            sweep="int",
            whole_corpus=None,
        ),
    )
    mmr: float | None = field(
        default=None,
        metadata=spec(
            r.mmr,
            record=AS_GIVEN,
            cli=Flag(
                "diversify with maximal marginal relevance: lambda in [0, 1] (1 is pure "
                "relevance); needs a vector on every candidate",
                "float",
                "LAMBDA",
            ),
            sweep="float",
            whole_corpus=None,
        ),
    )
    mmr_k: int | None = field(
        default=None,
        metadata=spec(
            r.mmr_k,
            record=AS_GIVEN,
            cli=Flag("with --mmr: pick at most K candidates", "int", "K"),
            whole_corpus=None,
        ),
    )
    order: OrderName = field(
        default="edges",
        metadata=spec(
            choices=ORDERS,
            record=AS_GIVEN,
            cli=Flag(
                "order of the sources; edges puts the best first and the second best last",
                commands=_PROMPT,
                show_default=True,
            ),
            sweep="str",
            whole_corpus="document",
        ),
    )
    labels: LabelStyle = field(
        default="xml",
        metadata=spec(
            choices=LABEL_STYLES,
            record=AS_GIVEN,
            cli=Flag(
                'source labels: xml (<source id="1" ...>) or brackets ([1] (title) text)',
                commands=_PROMPT,
                show_default=True,
            ),
            sweep="str",
        ),
    )
    overflow: Literal["stop", "skip"] = field(
        default="stop",
        metadata=spec(
            choices=OVERFLOWS,
            record=AS_GIVEN,
            cli=Flag(
                "at the first candidate that does not fit: stop, or skip it and try smaller ones",
                show_default=True,
            ),
            sweep="str",
            whole_corpus="stop",
        ),
    )
    tokenizer: str | Callable[[str], int] = field(
        default="o200k_base",
        metadata=spec(
            r.tokenizer,
            choices=(*ENCODINGS, "callable"),
            record=NAME_OR_CALLABLE,
            cli=Flag("token counter", show_default=True),
        ),
    )
    backend: Literal["auto", "rust", "python"] = field(
        default="auto",
        metadata=spec(
            choices=BACKENDS,
            record=lambda _, at: at.backend,
            cli=Flag(
                "auto (the compiled core when built), rust, or python (the reference)",
                show_default=True,
            ),
        ),
    )
    minhash: Mapping[str, int] | None = field(
        default=None,
        metadata=spec(r.minhash, record=lambda v, _: dict(v) if v else None, whole_corpus=None),
    )
    dedupe_guard: bool = field(
        default=True,
        metadata=spec(
            r.flag("dedupe_guard"),
            record=lambda v, _: OMIT if v else False,
            whole_corpus=KEEP,
        ),
    )
    """The difference guard of near-duplicate dedupe (jaccard, minhash, cosine with texts):
    two candidates over the threshold whose texts differ in a number, date, version, code
    identifier or negation are both kept (``docs/dedupe_guard.md``). On by default;
    ``dedupe_guard=False`` makes every pair over the threshold a duplicate, as before the
    guard. Recorded only when off."""
    compress: Literal["overflow", "all"] | None = field(
        default=None,
        metadata=spec(
            choices=COMPRESS_MODES,
            record=lambda v, _: OMIT if v is None else v,
            cli=Flag(
                "cut sources to their sentences relevant to the question: overflow (only a source "
                "that does not fit whole, so more sources fit) or all (every source); the record "
                "lists every removed sentence (default: off)",
                commands=_PROMPT,
            ),
            sweep="str",
        ),
    )
    sentence_scorer: Callable[[str, list[str]], Sequence[float]] | None = field(
        default=None, metadata=spec(r.sentence_scorer, record=_record_sentence_scorer)
    )
    image_tokens: ImageTokenRule = field(
        default="openai",
        metadata=spec(
            r.image_tokens,
            choices=(*IMAGE_TOKEN_RULES, "callable"),
            record=IN_PAGES,
            cli=Flag(
                "what a page image costs: the openai tiles rule, openai-low (85 a page) or the "
                "anthropic pixel-area rule (default: openai)"
            ),
        ),
    )
    page_max_distance: int = field(
        default=DEFAULT_MAX_DISTANCE,
        metadata=spec(
            r.page_max_distance,
            record=IN_PAGES,
            cli=Flag(
                "page images whose hashes differ in at most N of 256 bits are duplicates "
                "(default: 66)",
                "int",
                "N",
            ),
        ),
    )
    max_page_pixels: int = field(
        default=MAX_PAGE_PIXELS,
        metadata=spec(
            r.max_page_pixels,
            cli=Flag(
                "the most pixels (width x height) one page image may have (default: 50000000)",
                "int",
                "N",
            ),
        ),
    )
    max_decoded_bytes: int = field(
        default=MAX_DECODED_BYTES,
        metadata=spec(
            r.max_decoded_bytes,
            cli=Flag(
                "the most bytes of pixels one request may decode from its page images "
                "(default: 2147483648)",
                "int",
                "N",
            ),
        ),
    )
    fallback: Literal["compress"] | None = field(
        default="compress",
        metadata=spec(
            choices=FALLBACKS,
            record=lambda v, _: OMIT if v == "compress" else v,
            cli=Flag(
                "when candidates exist but none fits whole: compress (pack again as with "
                "--compress overflow, so the best source is placed cut to its most relevant "
                "sentences) or none (an empty context, with result.empty_reason saying why)",
                commands=_PROMPT,
                show_default=True,
            ),
            whole_corpus=None,  # the whole corpus is read whole or not at all, never cut
        ),
    )
    first_label: int = field(
        default=1,
        metadata=spec(
            r.first_label,
            record=lambda v, _: OMIT if v == 1 else v,
            cli=Flag(
                "number the sources from N (default: 1): a later retrieval of one conversation "
                "continues the earlier ones' labels, so no two sources share a label",
                "int",
                "N",
            ),
        ),
    )
    """The first source's label (the sources are labelled ``first_label``, ``first_label + 1``,
    ...): an agent whose retrieval tool runs several times in one conversation passes a running
    count, so each label names one passage across the calls and ``Assembly.merge`` can check
    the answer against all of them. Recorded only when not 1."""

    history_turns: bool = field(
        default=False,
        metadata=spec(
            r.flag("history_turns"),
            record=lambda v, _: True if v else OMIT,
            whole_corpus=KEEP,
        ),
    )
    """Send a list history as real chat turns (``Assembly.history``, before the user message)
    instead of a ``<history>`` block inside the user message: each turn of request N is then a
    prefix of request N+1, which providers cache (``to_anthropic`` sets a breakpoint after the
    last turn). Each turn is counted with its message overhead. Off: the history block."""
    compress_cut: float | None = field(
        default=None,
        metadata=spec(
            r.compress_cut,
            record=lambda v, _: OMIT if v is None else v,
            cli=Flag(
                "with compression, keep a sentence only when it scores at least CUT times the "
                "request's best sentence, in [0, 1] (default: 0.2; 0: every sentence sharing "
                "a term with the question)",
                "float",
                "CUT",
                commands=_PROMPT,
            ),
            sweep="float",
        ),
    )
    """With the built-in scorer, the relative relevance cut (``_stages.compress``): a sentence is
    relevant when it scores at least this share of the request's best, in [0, 1]; ``None``:
    ``DEFAULT_CUT``."""
    compress_bridge: bool = field(
        default=True,
        metadata=spec(
            r.flag("compress_bridge"),
            record=lambda v, _: OMIT if v else False,
        ),
    )
    """With compression, a sentence that names an entity (a capitalised name, a quoted title,
    a number with a unit) introduced by another source's relevant sentences is relevant too
    (a *bridge*, for questions whose answer spans two sources; ``Compression.bridges``); and a
    relevant sentence naming another source's title makes that source's first sentence a
    bridge. At most one bridge per source by entity; bounded (``BRIDGE_ENTITIES``,
    ``BRIDGE_CHARS`` in ``_stages.compress``). On by default (chosen on the dev splits of
    docs/compression.md); off: relevance is the scores alone. Recorded only when off."""

    def __post_init__(self) -> None:
        values = {name: getattr(self, name) for name in FIELDS}
        for s in SPECS:
            try:
                object.__setattr__(self, s.name, s.rule(values[s.name], values))
            except InputError as exc:
                exc.option = s.name
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
        briefpack.errors.InputError: unknown option(s) 'bugdet' (did you mean 'budget'?); \
expected some of system, instructions, budget, dedupe, threshold, scope, supersede, parents, \
neighbors, chunks_of, rerank, max_per_doc, mmr, mmr_k, order, labels, overflow, tokenizer, \
backend, minhash, dedupe_guard, compress, sentence_scorer, image_tokens, page_max_distance, \
max_page_pixels, max_decoded_bytes, fallback, first_label, history_turns, compress_cut, \
compress_bridge
        """
        check_names(options, FIELDS)
        return cls(**options)

    def replace(self, **changes: Unpack[AssembleOptions]) -> Options:
        """A checked copy with some options changed.

        >>> Options().replace(order="document").order
        'document'
        """
        check_names(changes, FIELDS)
        return dataclasses.replace(self, **changes)

    def settings(
        self, method: str | None, threshold: float, backend: str, *, pages: bool = False
    ) -> dict[str, Any]:
        """The record's ``settings`` for a request that resolved ``dedupe`` to ``method``:
        every option whose row has a ``record`` writer, in the rows' order.

        ``pages``: the request carries page images, so the page settings are recorded too
        (a text-only request's settings are as they were before pages existed); likewise
        ``compress`` and ``sentence_scorer`` appear only when ``compress`` is on.
        """
        at = Resolved(self, method, threshold, backend, pages)
        out: dict[str, Any] = {}
        for name, write in _RECORDED:
            value = write(getattr(self, name), at)
            if value is not OMIT:
                out[name] = value
        if pages:
            out["pages"] = {
                "dedupe": "page_hash" if self.dedupe == "auto" and method != "cosine" else None,
                "page_max_distance": self.page_max_distance,
                "image_tokens": NAME_OR_CALLABLE(self.image_tokens, at),
            }
            assert set(out["pages"]) - {"dedupe"} == {s.name for s in _IN_PAGES}
        return out


def _rows() -> tuple[Spec, ...]:
    rows = []
    for f in dataclasses.fields(Options):
        s: Spec = f.metadata["spec"]
        rule = s.rule
        if rule is CHOICE:
            assert s.choices is not None
            rule = r.choice_rule(f.name, s.choices)
        rows.append(
            dataclasses.replace(
                s, default=f.default, rule=rule, name=f.name, annotation=str(f.type)
            )
        )
    return tuple(rows)


SPECS: tuple[Spec, ...] = _rows()
"""Every option, in the order of ``Options``' fields (the order its rules run in)."""

FIELDS: tuple[str, ...] = tuple(s.name for s in SPECS)
"""The option names, in declaration order."""

DEFAULTS: dict[str, Any] = {s.name: s.default for s in SPECS}
"""Each option's default."""

CHOICES: dict[str, tuple[object, ...]] = {s.name: s.choices for s in SPECS if s.choices}
"""The legal values of each option that has a fixed set (``tokenizer`` also takes a callable)."""

RULES: tuple[tuple[str, Rule], ...] = tuple((s.name, s.rule) for s in SPECS)
"""Every option's check, in the order they run (so the order in which errors are reported)."""

READ_EVERYTHING: dict[str, Any] = {
    s.name: s.whole_corpus for s in SPECS if s.whole_corpus is not KEEP
}
"""The options ``whole_corpus`` overrides: nothing is selected away, the corpus keeps its order."""

OVERRIDABLE: tuple[str, ...] = tuple(s.name for s in SPECS if s.per_request)
"""The options one request may override (``assemble_many``'s request mappings, adapters' runs)."""

_RECORDED = tuple(
    (s.name, s.record) for s in SPECS if s.record is not None and s.record is not IN_PAGES
)
_IN_PAGES = tuple(s for s in SPECS if s.record is IN_PAGES)
