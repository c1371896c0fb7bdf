"""Choose the budget by measurement: run a grid of settings over labelled requests.

``evaluate(requests, grid)`` assembles every request under every setting of the grid and
reports, per setting, how often the gold evidence made it into the prompt, where it sits among
the sources, what it cost in tokens and time, and (with a ``generate`` callable) how well the
answers cite. It recommends, per setting, the smallest budget whose evidence recall is within
``tolerance`` of the best budget's.

A labelled request is a question, its ranked candidates (as ``assemble`` takes them) and its
gold evidence: candidate ids (``evidence``), answer strings (``answers``), or both. The JSONL
form, one request per line, is what ``briefpack eval`` reads (``read_requests``)::

    {"id": "q1", "question": "...", "candidates": [{"id": "c1", "text": "..."}, ...],
     "evidence": ["c1"], "answers": ["14 weeks"]}

Every assembly goes through one function, ``make_assembler``; the sweep runs on local threads
by default, on any ``concurrent.futures.Executor``, or on Ray (``executor="ray"``), with the
same results in the same order.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

from .._checks import call_back, check_count, shown, type_name
from ..assembly import Assembly
from ..errors import BriefpackError, InputError

# the parts live in private submodules; the names below are re-exported (the CLI and the
# integrations import them from here)
from ._pair import Outcome
from ._pair import measure as measure
from ._pair import run_chunk as run_chunk
from ._requests import DEFAULT_TOLERANCE as DEFAULT_TOLERANCE
from ._requests import MAX_SETTINGS as MAX_SETTINGS
from ._requests import (
    EvalRequest,
    ExecutorSpec,
    Generate,
    expand_grid,
    grid_size,
    make_assembler,
    read_requests,
    to_request,
)
from ._requests import Position as Position
from ._results import EvalResult, Recommendation, SettingResult, summarize
from ._results import _show as _show
from ._results import budget_size as budget_size
from ._results import finish as finish
from ._results import recommend as recommend
from ._sweep import _open_sweep

__all__ = [
    "EvalRequest",
    "EvalResult",
    "Outcome",
    "Recommendation",
    "SettingResult",
    "evaluate",
    "expand_grid",
    "grid_size",
    "make_assembler",
    "read_requests",
]


def evaluate(
    requests: Sequence[EvalRequest | Mapping[str, Any]],
    grid: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    generate: Generate | None = None,
    workers: int | None = None,
    executor: ExecutorSpec = None,
    tolerance: float = DEFAULT_TOLERANCE,
    ray_address: str | None = None,
    on_row: Callable[[SettingResult], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
    timeout: float | None = None,
    max_settings: int = MAX_SETTINGS,
) -> EvalResult:
    """Run every (request, setting) pair and report per setting, with a recommended budget.

    Args:
        requests: labelled requests: ``EvalRequest``s or mappings with ``question``,
            ``candidates``, and ``evidence`` (gold candidate ids) and/or ``answers`` (gold
            answer strings).
        grid: the settings (``assemble``'s options): a mapping whose list values are axes
            (``{"budget": [500, 1000], "order": ["edges", "relevance"]}``, the cartesian
            product) or a list of settings. See ``expand_grid``.
        generate: optional ``generate(messages) -> str``, any model client; adds the
            answer-level measures (citations checked with ``cite``, answer correctness).
            Called on the workers; it must be thread-safe (and picklable for processes or
            Ray).
        workers: threads (or Ray tasks per setting); default: the number of CPUs.
        executor: ``None`` or ``"threads"`` (local threads), ``"ray"`` (``ray.init`` with
            ``ray_address``, a local Ray when ``None``, unless Ray is already initialised; a
            Ray this call starts is shut down at the end) or any
            ``concurrent.futures.Executor``. Every executor gives the same rows in the same
            order; only the times differ.
        tolerance: the recommended budget is the smallest whose evidence recall
            (``recall_any``) is at least the best budget's minus ``tolerance``, per group of
            settings that differ only in ``budget``.
        ray_address: the cluster for ``executor="ray"`` (e.g. ``"ray://head:10001"``).
        on_row: called with each setting's result as soon as it is complete, in grid order
            (so a caller interrupted with Ctrl-C keeps the rows finished so far).
        progress: called as ``progress(pairs_done, pairs_total)`` as the sweep advances.
        timeout: seconds one ``generate`` call may take (default ``None``: no limit); a call
            past it is abandoned and recorded as that request's failure (``Outcome.error``,
            ``SettingResult.failed``), as is a call that raises: the sweep finishes either
            way. Ctrl-C stops the sweep within about a second, hung calls or not.
        max_settings: the most settings the grid may have (``expand_grid``).

    Raises:
        InputError: a bad request, grid, option value or argument (checked before the sweep:
            every setting assembles the first request once up front), or a ``generate`` that
            does not return a str.
        BudgetError: a request whose fixed parts do not fit a setting's window (named).

    >>> import briefpack as bp
    >>> requests = [{"question": "How long is leave?", "answers": ["14 weeks"],
    ...              "candidates": ["The cap is 4000 EUR.", "Leave is 14 weeks."]}]
    >>> result = bp.evaluate(requests, {"budget": [10, 40], "tokenizer": "approx"}, workers=1)
    >>> [(row.setting["budget"], row.recall_any) for row in result.rows]
    [(10, 0.0), (40, 1.0)]
    >>> result.recommendations[0].budget
    40
    """
    checked = _check_requests(requests)
    settings = expand_grid(grid, max_settings=max_settings)
    workers = _check_arguments(workers, tolerance, generate, executor)
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0
    ):
        raise InputError(f"timeout must be a number of seconds > 0 or None, got {shown(timeout)}")
    assemblers = _assemblers(settings, checked[0])
    sweep = _open_sweep(executor, workers, ray_address)
    rows: list[SettingResult] = []
    outcomes: list[list[Outcome]] = []
    total = len(settings) * len(checked)
    try:
        pending = sweep.submit(assemblers, checked, generate, timeout)
        done = 0
        for setting, parts in zip(settings, pending):
            found: list[Outcome] = []
            for part in parts:
                got = sweep.result(part)
                found.extend(got)
                done += len(got)
                if progress is not None:
                    call_back("progress", "evaluate", progress, done, total)
            row = summarize(setting, found)
            rows.append(row)
            outcomes.append(found)
            if on_row is not None:
                call_back("on_row", "evaluate", on_row, row)
    finally:
        sweep.close()
    return finish(rows, outcomes, float(tolerance))


def _check_arguments(
    workers: int | None, tolerance: object, generate: object, executor: object
) -> int:
    """Check ``evaluate``'s own arguments; return the number of workers."""
    if workers is None:
        workers = os.cpu_count() or 1
    else:
        check_count("workers", workers, minimum=1)
    if (
        isinstance(tolerance, bool)
        or not isinstance(tolerance, (int, float))
        or not (0 <= tolerance <= 1)
    ):
        raise InputError(f"tolerance must be a number in [0, 1], got {shown(tolerance)}")
    if generate is not None and not callable(generate):
        raise InputError(f"generate must be callable, got {type_name(generate)}")
    if not (executor is None or executor in ("threads", "ray") or isinstance(executor, Executor)):
        raise InputError(
            f"executor must be None, 'threads', 'ray' or a concurrent.futures.Executor, got "
            f"{shown(executor)}"
        )
    return workers


def _assemblers(
    settings: Sequence[Mapping[str, Any]], first: EvalRequest
) -> list[Callable[[str, Sequence[Any]], Assembly]]:
    """One Assembler per setting; bad option values (and data that a setting rejects) fail
    here, on the first request, before the sweep, named by the setting."""
    assemblers = []
    for i, setting in enumerate(settings):
        try:
            run = make_assembler(setting)  # every option is checked here, once
            run(first.question, first.candidates)  # and the data against them
        except BriefpackError as exc:
            raise type(exc)(f"setting {i} ({_name(setting)}): {exc}") from None
        assemblers.append(run)
    return assemblers


def _name(setting: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={_show(v)}" for k, v in setting.items()) or "(defaults)"


def _check_requests(requests: object) -> list[EvalRequest]:
    if isinstance(requests, (str, bytes, Mapping)) or not isinstance(requests, Sequence):
        raise InputError(f"requests must be a list of labelled requests, got {type_name(requests)}")
    if not requests:
        raise InputError("requests is empty; give at least one labelled request")
    return [to_request(r, i) for i, r in enumerate(requests)]
