"""Many requests at once: the runner under ``Assembler.many`` and ``assemble_many``.

It sits below ``Assembler`` (it imports no pipeline module, and builds an assembler for a
request that overrides options of a shared set that failed by the factory it is given), so
``Assembler.many`` calls it and ``briefpack.assemble_many`` (``briefpack._many``) builds on both.

``assemble_many`` runs ``assemble`` over a list of requests on a pool of threads. The Rust core
releases the GIL for its work (token counting, dedupe, packing, vectors), so the threads
overlap that work with each other's Python stages. (Free-threaded CPython is not supported: the
wheel targets the stable ABI, which 3.13t cannot load.) A caller's own
``concurrent.futures.Executor`` (a thread or process pool, or a cluster's executor) can run the
requests instead. Each request is independent and nothing a request computes
depends on another (the token-count cache only saves work), so the results are the ones
``assemble`` gives one request at a time, in request order, whatever the number of threads.

``Assembler.many`` is the same runner with the Assembler built once; ``assemble_many`` builds
it from its shared options (an option error is then reported by every request that does not
override that option, named ``requests[i]: ...``, as before).

What limits threads (the GIL, measured): docs/semantics.md ("Many requests").
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from ._checks import check_count, type_name
from .errors import BriefpackError, InputError
from .options import FIELDS, OVERRIDABLE, check_names

if TYPE_CHECKING:
    from .assembler import Assembler
    from .assembly import Assembly

__all__ = ["REQUEST_KEYS", "Failed", "run_many"]

PER_REQUEST = ("history", "query_vector")
REQUEST_NAMES = ("question", "candidates", *PER_REQUEST, *OVERRIDABLE)
"""What a request mapping may hold: the request, and any option a request may override."""
REQUEST_KEYS = frozenset(REQUEST_NAMES)
SHARED_NAMES = (*PER_REQUEST, *FIELDS)
"""What ``assemble_many``'s shared keywords may be: ``assemble``'s."""


class Failed(NamedTuple):
    """The error the shared options raised (reported by every request that does not override
    the option), and the factory that builds the assembler of a request that does."""

    error: InputError
    make: Callable[..., Assembler]


Base: TypeAlias = "Assembler | Failed"
"""The shared assembler, or why it could not be built."""


def _call(index: int, request: object, base: Base, shared: Mapping[str, Any]) -> Assembly:
    """One request: its own assembler when it overrides options, else the shared one."""
    if isinstance(request, Mapping):
        args = {**shared, **request}
        if "question" not in args or "candidates" not in args:
            raise InputError(
                f"requests[{index}] must have 'question' and 'candidates', got keys "
                f"{sorted(map(str, request))}"
            )
        question = args.pop("question")
        candidates = args.pop("candidates")
        overrides = {k: v for k, v in request.items() if k in OVERRIDABLE}
    elif isinstance(request, tuple) and len(request) == 2:
        question, candidates = request
        args, overrides = dict(shared), {}
    else:
        raise InputError(
            f"requests[{index}] must be a (question, candidates) pair or a mapping of assemble's "
            f"arguments, got {type_name(request)}"
        )
    # checked here, so that a TypeError raised inside a caller's callable passes
    check_names(shared, SHARED_NAMES, where=f"requests[{index}]: ")
    if isinstance(request, Mapping):
        check_names(request, REQUEST_NAMES, where=f"requests[{index}]: ")
    if isinstance(base, Failed):
        if not overrides:
            raise base.error
        asm = base.make(**{**base_options(shared), **overrides})
    else:
        asm = base.replace(**overrides) if overrides else base
    per_call = {k: args[k] for k in PER_REQUEST if k in args}
    return asm(question, candidates, **per_call)


def base_options(shared: Mapping[str, Any]) -> dict[str, Any]:
    """The options among ``assemble_many``'s shared keywords."""
    return {k: v for k, v in shared.items() if k not in PER_REQUEST}


def _run(
    i: int, request: object, base: Base, shared: Mapping[str, Any]
) -> Assembly | BriefpackError:
    """One request; its error comes back (named after the request), not raised.

    A briefpack error is renamed ``requests[i]: ...``; any other ``Exception`` (one a caller's
    callable or object raised where briefpack did not expect it) comes back as an
    ``InputError`` naming the request, chained to it (``__cause__``): one request's failure
    never takes the other requests' results with it. ``KeyboardInterrupt`` and other
    ``BaseException``s pass through.
    """
    try:
        return _call(i, request, base, shared)
    except BriefpackError as exc:
        return named_error(i, exc)
    except Exception as exc:
        return unexpected(i, exc)


def named_error(i: int, exc: BriefpackError) -> BriefpackError:
    """``exc`` with its message starting ``requests[i]: `` (attributes and cause kept)."""
    if exc.args and str(exc.args[0]).startswith(f"requests[{i}]"):
        return exc
    named = type(exc)(f"requests[{i}]: {exc}")
    named.__dict__.update(exc.__dict__)
    named.__cause__ = exc.__cause__
    return named


def unexpected(i: int, exc: BaseException) -> InputError:
    """A non-briefpack exception of request ``i`` as an ``InputError`` naming it, chained.

    >>> err = unexpected(3, ZeroDivisionError("division by zero"))
    >>> str(err)
    'requests[3]: raised ZeroDivisionError: division by zero (the original is its __cause__)'
    >>> type(err.__cause__).__name__
    'ZeroDivisionError'
    """
    err = InputError(f"requests[{i}]: raised {_said(exc)} (the original is its __cause__)")
    err.__cause__ = exc
    return err


def _said(exc: BaseException) -> str:
    """``TypeName: message``, the message cut to 200 characters."""
    try:
        said = str(exc)
    except Exception:  # an exception whose own str() fails
        said = "(its message could not be read)"
    said = said if len(said) <= 200 else said[:200] + "..."
    return f"{type_name(exc)}: {said}"


Job: TypeAlias = "tuple[int, object, Base, Mapping[str, Any]]"
"""One request for a pool: its index, the request, the assembler, the shared options."""


def _run_packed(job: Job) -> Assembly | BriefpackError:
    return _run(*job)


# A request: a (question, candidates) pair or a mapping of assemble's arguments.
Request = tuple[str, Sequence[Any]] | Mapping[str, Any]


def check_run(
    requests: object, workers: int | None, executor: object, return_exceptions: object
) -> int:
    """Check the batch's own arguments; return the number of workers asked for."""
    if isinstance(requests, (str, bytes, Mapping)) or not isinstance(requests, Sequence):
        raise InputError(f"requests must be a list of requests, got {type_name(requests)}")
    if workers is None:
        workers = os.cpu_count() or 1
    else:
        check_count("workers", workers, minimum=1)
    if not isinstance(executor, Executor) and executor not in ("threads", "processes"):
        raise InputError(
            f"executor must be 'threads', 'processes' or a concurrent.futures.Executor, got "
            f"{executor!r}"
        )
    if not isinstance(return_exceptions, bool):
        raise InputError(f"return_exceptions must be a bool, got {type_name(return_exceptions)}")
    return workers


def _one_by_one(pool: Executor, jobs: Sequence[Job]) -> list[Assembly | BriefpackError]:
    """Each job on ``pool``, its result in order; a job that fails outside ``_run`` (its
    request or its result does not pickle, its worker died, the pool refused it) is that
    request's error, not the batch's."""
    futures: list[Future[Assembly | BriefpackError] | Exception] = []
    for job in jobs:
        try:
            futures.append(pool.submit(_run_packed, job))
        except Exception as exc:
            futures.append(exc)
    out: list[Assembly | BriefpackError] = []
    for i, future in enumerate(futures):
        try:
            if isinstance(future, Exception):
                raise future
            out.append(future.result())
        except BriefpackError as exc:
            out.append(named_error(i, exc))
        except Exception as exc:
            out.append(unexpected(i, exc))
    return out


def _known(options: Mapping[str, Any]) -> bool:
    return all(k in SHARED_NAMES for k in options)


def run_many(
    base: Base,
    requests: Sequence[Request],
    shared: Mapping[str, Any],
    *,
    workers: int | None,
    executor: str | Executor,
    return_exceptions: bool,
) -> list[Assembly] | list[Assembly | BriefpackError]:
    """``Assembler.many``: the requests on a pool, each by ``base`` or its own override."""
    workers = min(check_run(requests, workers, executor, return_exceptions), len(requests)) or 1
    try:
        requests = list(requests)  # read once, here: a failing sequence fails the batch clearly
    except Exception as exc:
        raise InputError(f"requests could not be read: it raised {_said(exc)}") from exc
    results: list[Assembly | BriefpackError]
    if isinstance(executor, Executor):  # the caller's pool: used as it is, left open
        jobs = [(i, r, base, shared) for i, r in enumerate(requests)]
        results = _one_by_one(executor, jobs)
    elif workers == 1:
        results = [_run(i, r, base, shared) for i, r in enumerate(requests)]
    elif executor == "threads":
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="briefpack") as pool:
            results = list(
                pool.map(lambda i: _run(i, requests[i], base, shared), range(len(requests)))
            )
    else:
        # "spawn": a fresh interpreter per worker (forking a process that may run the core's
        # threads is not safe). Requests go out in chunks to keep the pickling overhead low.
        jobs = [(i, r, base, shared) for i, r in enumerate(requests)]
        chunk = max(1, len(jobs) // (workers * 4))
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            try:
                results = list(pool.map(_run_packed, jobs, chunksize=chunk))
            except Exception:  # a request or result that does not pickle, a worker that died
                results = _one_by_one(pool, jobs)
    if not return_exceptions:
        for r in results:
            if isinstance(r, BriefpackError):
                raise r
    return results
