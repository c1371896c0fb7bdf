"""``assemble_many``: ``assemble`` over many requests, results in request order.

The runner is ``briefpack.batch`` (below ``Assembler``, which its ``many`` method runs on); this
module builds the shared ``Assembler`` from the shared options and hands both to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, Literal, overload

from .assembler import Assembler
from .assembly import Assembly
from .batch import PER_REQUEST, Failed, Request, _known, base_options, check_run, run_many
from .errors import BriefpackError, InputError
from .options import AssembleOptions

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ManyOptions", "assemble_many"]


class ManyOptions(AssembleOptions, total=False):
    """``assemble_many``'s shared keyword arguments: every option, and the per-request
    ``history`` and ``query_vector`` (a request's own keys override them)."""

    history: str | Sequence[Mapping[str, str]] | None
    query_vector: Any


@overload
def assemble_many(
    requests: Sequence[Request],
    *,
    workers: int | None = None,
    executor: Literal["threads", "processes"] | Executor = "threads",
    return_exceptions: Literal[False] = False,
    **options: Unpack[ManyOptions],
) -> list[Assembly]: ...


@overload
def assemble_many(
    requests: Sequence[Request],
    *,
    workers: int | None = None,
    executor: Literal["threads", "processes"] | Executor = "threads",
    return_exceptions: Literal[True],
    **options: Unpack[ManyOptions],
) -> list[Assembly | BriefpackError]: ...


def assemble_many(
    requests: Sequence[Request],
    *,
    workers: int | None = None,
    executor: Literal["threads", "processes"] | Executor = "threads",
    return_exceptions: bool = False,
    **options: Unpack[ManyOptions],
) -> list[Assembly] | list[Assembly | BriefpackError]:
    """Run ``assemble`` over many requests on ``workers`` threads; results in request order.

    Each request is a ``(question, candidates)`` pair, or a mapping of ``assemble``'s arguments
    (``question`` and ``candidates`` required; its other keys override ``options``).
    ``options`` are ``assemble``'s keyword arguments, shared by every request. The results are
    exactly those of calling ``assemble`` on each request in turn.

    Args:
        requests: the requests, in the order the results come back.
        workers: threads to use; default: the number of CPUs (at most one per request).
            ``1`` runs every request on the calling thread.
        executor: ``"threads"`` (the default: no start-up cost, nothing copied; the Rust work
            of one request overlaps the Python stages of another) or ``"processes"`` (every
            stage in parallel on a standard CPython, for long sweeps: each worker process
            starts fresh, and requests, options and results are pickled, so callables in
            ``options`` must be module-level functions, and a script that calls it needs the
            usual ``if __name__ == "__main__":`` guard), or any ``concurrent.futures.Executor``
            (used as it is and left open; ``workers`` is then the pool's business; what it
            runs must pickle if it is a process pool).
        return_exceptions: with ``False`` (the default) the error of the first failing request
            (by position, not by time) is raised, after every request has finished; with
            ``True`` a failing request's ``InputError`` / ``BudgetError`` takes its place in
            the list.
        options: ``assemble``'s keyword arguments for every request.

    Raises:
        InputError: bad ``requests`` or ``workers``, or a request with bad input (the message
            names the request: ``requests[3]: ...``).
        BudgetError: a request whose fixed parts do not fit its window (also named).

    >>> import briefpack as bp
    >>> results = bp.assemble_many(
    ...     [("What is the cap?", ["The cap is 4000 EUR.", "The cap is 4000 EUR."]),
    ...      {"question": "Leave?", "candidates": ["Leave is 14 weeks."], "budget": 300}],
    ...     budget=500, tokenizer="approx", workers=2)
    >>> [len(r.sources) for r in results]
    [1, 1]
    """
    check_run(requests, workers, executor, return_exceptions)
    for key in ("question", "candidates"):
        if key in options:
            raise InputError(f"{key} belongs in each request, not in the shared options")
    shared = {k: v for k, v in options.items() if k in PER_REQUEST}
    base: Assembler | Failed
    try:
        # an unknown keyword is reported by each request (_call names it), like assemble would
        if not _known(options):
            raise InputError("unknown")
        base = Assembler(**base_options(options))
    except InputError as exc:
        base = Failed(exc, Assembler)
    return run_many(
        base,
        requests,
        options if isinstance(base, Failed) else shared,
        workers=workers,
        executor=executor,
        return_exceptions=return_exceptions,
    )
