"""Where the sweep's (setting, chunk of requests) tasks run: local threads, a caller's
``concurrent.futures.Executor``, or Ray; results come back in submission order."""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from ..assembly import Assembly
from ..errors import BriefpackError, InputError
from ._pair import Outcome, run_chunk
from ._requests import EvalRequest, ExecutorSpec, Generate

# --------------------------------------------------------------------------- the sweep

_POLL = 0.1  # seconds the main thread waits on a task before it looks for a Ctrl-C


def _chunks(n: int, parts: int) -> list[tuple[int, int]]:
    size = max(1, math.ceil(n / max(1, parts)))
    return [(a, min(n, a + size)) for a in range(0, n, size)]


def _open_sweep(executor: ExecutorSpec, workers: int, ray_address: str | None) -> _Sweep:
    """Where the pairs run: Ray, the caller's executor (left open), or our own threads."""
    if executor == "ray":
        return _RaySweep(ray_address, workers)
    if isinstance(executor, Executor):
        return _PoolSweep(executor, workers, owned=False)
    return _PoolSweep(
        ThreadPoolExecutor(max_workers=workers, thread_name_prefix="briefpack-eval"),
        workers,
        owned=True,
    )


class _Sweep:
    """Where the sweep's tasks run: ``submit`` every (setting, chunk of requests) task up
    front, then collect them in order with ``result``; ``close`` cancels what is left."""

    def submit(
        self,
        assemblers: Sequence[Callable[[str, Sequence[Any]], Assembly]],
        requests: Sequence[EvalRequest],
        generate: Generate | None,
        timeout: float | None = None,
    ) -> list[list[Any]]:
        raise NotImplementedError

    def result(self, part: Any) -> list[Outcome]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class _PoolSweep(_Sweep):
    def __init__(self, pool: Executor, workers: int, *, owned: bool) -> None:
        self.pool = pool
        self.workers = workers
        self.owned = owned
        self.futures: list[Future[list[Outcome]]] = []
        # our own threads wait on generate calls they can abandon when the sweep stops; a
        # caller's executor may be processes, which cannot share an event
        self.cancel = threading.Event() if owned else None

    def submit(
        self,
        assemblers: Sequence[Callable[[str, Sequence[Any]], Assembly]],
        requests: Sequence[EvalRequest],
        generate: Generate | None,
        timeout: float | None = None,
    ) -> list[list[Any]]:
        bounds = _chunks(len(requests), self.workers * 4)
        out = []
        cancel = self.cancel if generate is not None else None
        for run in assemblers:
            parts = [
                self.pool.submit(run_chunk, run, requests[a:b], a, generate, timeout, cancel)
                for a, b in bounds
            ]
            self.futures.extend(parts)
            out.append(parts)
        return out

    def result(self, part: Any) -> list[Outcome]:
        # wait in short slices, never in one blocking call: a Ctrl-C the kernel hands to a
        # worker thread only sets a flag, which the main thread sees when it next runs Python;
        # blocked forever in one lock wait it never would (seen on 3.10 under load)
        while True:
            try:
                got: list[Outcome] = part.result(timeout=_POLL)
            except FutureTimeout:
                continue
            return got

    def close(self) -> None:
        for f in self.futures:
            f.cancel()
        if self.cancel is not None:
            self.cancel.set()  # a worker waiting on a generate call gives it up
        if self.owned:
            # never wait for a hung call: the calls run on daemon threads, abandoned
            self.pool.shutdown(wait=False, cancel_futures=True)


class _RaySweep(_Sweep):
    """``evaluate``'s sweep as Ray tasks: each chunk of requests and the ``generate`` callable
    are put in the object store once for the whole sweep, each setting's assembler once per
    setting; tasks are collected in submission order, so the rows come back in grid order."""

    def __init__(self, address: str | None, workers: int) -> None:
        try:
            import ray
        except ImportError:  # exercised where Ray is absent (a test hides it)
            raise InputError(
                "executor='ray' needs Ray, which is not installed: pip install 'briefpack[ray]' "
                "(or use the default local threads)"
            ) from None
        self.ray: Any = ray
        self.started = not ray.is_initialized()
        if self.started:
            if address is None:
                self.ray.init(include_dashboard=False, log_to_driver=False)
            else:
                self.ray.init(address=address, log_to_driver=False)
        self.workers = workers
        self.refs: list[Any] = []
        self.task: Any = self.ray.remote(run_chunk)

    def submit(
        self,
        assemblers: Sequence[Callable[[str, Sequence[Any]], Assembly]],
        requests: Sequence[Any],
        generate: Generate | None,
        timeout: float | None = None,
    ) -> list[list[Any]]:
        bounds = _chunks(len(requests), self.workers * 4)
        parts = [(a, self.ray.put(list(requests[a:b]))) for a, b in bounds]
        gen = self.ray.put(generate)
        out = []
        for run in assemblers:
            shipped = self.ray.put(run)
            refs = [self.task.remote(shipped, part, a, gen, timeout) for a, part in parts]
            self.refs.extend(refs)
            out.append(refs)
        return out

    def result(self, part: Any) -> list[Outcome]:
        try:
            got: list[Outcome] = self.ray.get(part)
        except self.ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, BriefpackError):  # the task's own error, e.g. naming a request
                raise cause from None
            raise
        return got

    def close(self) -> None:
        for ref in self.refs:
            with contextlib.suppress(Exception):  # a finished task cannot be cancelled: fine
                self.ray.cancel(ref)
        if self.started:
            self.ray.shutdown()
