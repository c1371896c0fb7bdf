"""``Assembler``: the pipeline configured once, called per request.

``Assembler(**options)`` checks every option once (``Options``) and resolves the kernels of its
backend; calling it with a question and candidates runs the fixed plan of stages (see
``briefpack._stages``) on a fresh per-call ``Context``, so one ``Assembler`` may serve many
threads at once. It holds nothing mutable, pickles by its options (the kernels are rebuilt by
name), and ``replace`` gives a checked copy.

Rejected: a mutable builder (``asm.budget = ...``), which a serving process shares between
threads; and a pluggable list of stages: the order of the stages is the contract.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, Literal, overload

from ._backend import Kernels, get_kernels
from ._checks import type_name
from ._route import Route
from ._stages import account, intake, plan
from .assembly import Assembly
from .batch import run_many
from .errors import BudgetError, InputError
from .options import FIELDS, READ_EVERYTHING, Options

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .batch import Request
    from .errors import BriefpackError
    from .options import AssembleOptions

__all__ = ["Assembler"]


class Assembler:
    """Assemble deduplicated, budgeted, ordered, labelled context, configured once.

    Takes ``assemble``'s options (every keyword but ``history`` and ``query_vector``, which
    belong to a request) and raises any option's ``InputError`` here, once.

    >>> import briefpack as bp
    >>> asm = bp.Assembler(budget=500, tokenizer="approx", backend="python")
    >>> result = asm("What is the cap?", ["The cap is 4000 EUR.", "The cap is 4000 EUR."])
    >>> [s.chunk.text for s in result.sources], [d.reason for d in result.dropped]
    (['The cap is 4000 EUR.'], ['duplicate'])
    >>> asm.replace(order="relevance").options.order
    'relevance'
    """

    __slots__ = ("_kernels", "_options", "_plan")

    def __init__(
        self, options: Options | None = None, /, **changes: Unpack[AssembleOptions]
    ) -> None:
        if options is None:
            opts = Options.from_mapping(changes)
        else:
            opts = options.replace(**changes) if changes else options
        self._options = opts
        self._kernels: Kernels = get_kernels(opts.backend)
        self._plan = plan(opts)

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any]) -> Assembler:
        """Build from a mapping of option names; an unknown name is an ``InputError``."""
        return cls(Options.from_mapping(options))

    @property
    def options(self) -> Options:
        """The checked options (frozen)."""
        return self._options

    @property
    def backend(self) -> str:
        """The backend that does the work: ``"rust"`` or ``"python"``."""
        return self._kernels.name

    def replace(self, **changes: Unpack[AssembleOptions]) -> Assembler:
        """A checked copy with some options changed (``asm.replace(budget=8_000)``)."""
        return Assembler(self._options.replace(**changes))

    def __call__(
        self,
        question: str,
        candidates: Sequence[Any],
        *,
        history: str | Sequence[Mapping[str, str]] | None = None,
        query_vector: Any = None,
        route: Route | None = None,
    ) -> Assembly:
        """Assemble one request: ``question`` and ``candidates`` in rank order (best first),
        with optional ``history`` (a str or role/content dicts) and ``query_vector`` (MMR).
        ``route``, the ``briefpack.route`` decision that sent the question here, goes into the
        result's ``route`` and its record."""
        _check_route(route)
        req, items = intake.start(
            self._options, self._kernels, question, candidates, history, query_vector
        )
        result = account.assembly(req, self._plan(req, items))
        return result if route is None else result._with(route=route.to_dict())

    def whole_corpus(
        self,
        question: str,
        corpus: Sequence[Any],
        *,
        history: str | Sequence[Mapping[str, str]] | None = None,
        route: Route | None = None,
    ) -> Assembly:
        """Assemble a whole corpus that fits the budget: every text, in document order.

        For a small corpus (``briefpack.route`` says ``"whole_corpus"``) retrieval only adds
        ways to miss; this reads it all. The selection stages are off (no dedupe, supersede,
        expansion, rerank, cap or MMR: every text is placed), the order is ``"document"``, and
        every other option (budget, labels, tokenizer, prompt) is this Assembler's. If the
        corpus does not fit under those options, that is a ``BudgetError``, never a silent cut.
        The result's ``route`` (and its record) says so: ``route`` as given, or a
        ``"whole_corpus"`` route with the corpus' token count.

        >>> import briefpack as bp
        >>> asm = bp.Assembler(budget=500, tokenizer="approx")
        >>> r = asm.whole_corpus("Is SSO in Pro?", ["SSO is in Pro.", "Leave is 14 weeks."])
        >>> [s.chunk.text for s in r.sources], r.route["kind"]
        (['SSO is in Pro.', 'Leave is 14 weeks.'], 'whole_corpus')

        Raises:
            BudgetError: the corpus does not fit (how many texts fit is in the message).
            InputError: a bad text, question or history (as for a call).
        """
        _check_route(route)
        whole = self.replace(**READ_EVERYTHING)
        result = whole(question, corpus, history=history)
        if result.dropped:
            raise BudgetError(
                f"the corpus does not fit: {len(result.sources)} of {len(result.fates)} texts "
                f"fit the context budget of {result.tokens['context_budget']} tokens; retrieve "
                "instead, or raise the budget"
            )
        if route is not None:  # the caller's decision, recorded on the assembly just made
            return result._with(route=route.to_dict())
        n = result.tokens["sources"]
        decided = {
            "kind": "whole_corpus",
            "why": f"the whole corpus ({len(result.sources)} texts, {n} tokens as sources) fits "
            f"the context budget of {result.tokens['context_budget']}: read it all",
            "rule_set": None,
            "rule": None,
            "match": None,
            "corpus": {
                "fits": True,
                "sources_tokens": n,
                "context_budget": result.tokens["context_budget"],
            },
        }
        return result._with(route=decided)

    @overload
    def many(
        self,
        requests: Sequence[Request],
        *,
        workers: int | None = None,
        executor: Literal["threads", "processes"] | Executor = "threads",
        return_exceptions: Literal[False] = False,
    ) -> list[Assembly]: ...

    @overload
    def many(
        self,
        requests: Sequence[Request],
        *,
        workers: int | None = None,
        executor: Literal["threads", "processes"] | Executor = "threads",
        return_exceptions: Literal[True],
    ) -> list[Assembly | BriefpackError]: ...

    def many(
        self,
        requests: Sequence[Request],
        *,
        workers: int | None = None,
        executor: Literal["threads", "processes"] | Executor = "threads",
        return_exceptions: bool = False,
    ) -> list[Assembly] | list[Assembly | BriefpackError]:
        """Run many requests on ``workers`` threads (or processes); results in request order.

        A request is a ``(question, candidates)`` pair or a mapping with ``question``,
        ``candidates`` and optionally ``history``, ``query_vector`` or any option to override
        for that request. See ``briefpack.assemble_many`` for the arguments.

        >>> import briefpack as bp
        >>> asm = bp.Assembler(budget=500, tokenizer="approx")
        >>> [len(r.sources) for r in asm.many([("Cap?", ["4000 EUR."]), ("Leave?", [])])]
        [1, 0]
        """
        return run_many(
            self,
            requests,
            {},
            workers=workers,
            executor=executor,
            return_exceptions=return_exceptions,
        )

    def __repr__(self) -> str:
        changed = [
            f"{name}={_show(getattr(self._options, name))}"
            for name in FIELDS
            if getattr(self._options, name) != getattr(_DEFAULT, name)
        ]
        return f"Assembler({', '.join(changed)})"

    def __reduce__(self) -> tuple[Any, tuple[Options]]:
        return (Assembler, (self._options,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Assembler) and other._options == self._options

    __hash__ = None  # type: ignore[assignment]


def _check_route(route: object) -> None:
    """``route`` is None or what ``briefpack.route`` returns."""
    if route is not None and not isinstance(route, Route):
        raise InputError(
            f"route must be a briefpack.Route (what briefpack.route returns), got "
            f"{type_name(route)}",
            option="route",
        )


def _show(value: object) -> str:
    name = getattr(value, "__qualname__", None)
    return name if callable(value) and isinstance(name, str) else repr(value)


_DEFAULT = Options()
