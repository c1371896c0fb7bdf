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

import contextlib
import dataclasses
import itertools
import math
import os
import statistics
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from ._checks import call_back, check_count, shown, type_name
from ._jsonl import MAX_DATA_BYTES, MAX_LINE_BYTES, json_lines
from .assembler import Assembler
from .assembly import Assembly
from .citations import cite
from .errors import BriefpackError, InputError
from .options import FIELDS
from .types import Budget

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

Generate = Callable[[Sequence[Mapping[str, Any]]], str]
Position = Literal["first", "last", "middle"]
ExecutorSpec = Literal["threads", "ray"] | Executor | None

DEFAULT_TOLERANCE = 0.01


# --------------------------------------------------------------------------- the one assembly


def make_assembler(setting: Mapping[str, Any]) -> Callable[[str, Sequence[Any]], Assembly]:
    """Return the callable that assembles one request under ``setting``.

    This is the only place the evaluation (and ``briefpack.integrations.ray``) builds an
    assembly: the sweep makes one ``Assembler`` per setting (every option checked once, here)
    and ships it once to each worker; an ``Assembler`` pickles by its options, so it goes to
    processes and Ray workers.

    >>> run = make_assembler({"budget": 50, "tokenizer": "approx", "order": "relevance"})
    >>> [s.chunk.text for s in run("Cap?", ["Cap is 4000 EUR.", "Leave is 14 weeks."]).sources]
    ['Cap is 4000 EUR.', 'Leave is 14 weeks.']
    """
    return Assembler.from_mapping(setting)


# The options a setting may hold: the Assembler's.
_OPTIONS = FIELDS


# --------------------------------------------------------------------------- requests and grid


@dataclass(frozen=True)
class EvalRequest:
    """One labelled request: a question, its ranked candidates and its gold evidence.

    Attributes:
        question: the question.
        candidates: the retrieved candidates, best first, in any form ``assemble`` takes.
        evidence: the ids of the candidates that hold the answer (explicit ids only).
        answers: gold answer strings; a placed source whose text contains one (ignoring case
            and runs of whitespace) holds evidence too, and an answer that contains one is
            right.
        id: a name for reports and error messages.
    """

    question: str
    candidates: Sequence[Any]
    evidence: tuple[str, ...] = ()
    answers: tuple[str, ...] = ()
    id: str | None = None


_REQUEST_KEYS = ("question", "candidates", "evidence", "answers", "id")


def _strings(value: object, what: str, where: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise InputError(f"{where}: {what} must be a list of str, got {type_name(value)}")
    for v in value:
        if not isinstance(v, str) or (what == "answers" and not v.strip()):
            raise InputError(f"{where}: {what} must hold non-empty strs, got {shown(v)}")
    return tuple(value)


def to_request(obj: object, index: int) -> EvalRequest:
    """Check one labelled request (an ``EvalRequest`` or a mapping with its keys).

    >>> to_request({"question": "Q?", "candidates": ["a"], "answers": ["a"]}, 0).answers
    ('a',)
    """
    where = f"requests[{index}]"
    if isinstance(obj, EvalRequest):
        data: Mapping[str, Any] = asdict(obj) | {"candidates": obj.candidates}
    elif isinstance(obj, Mapping):
        data = obj
        unknown = [k for k in data if k not in _REQUEST_KEYS]
        if unknown:
            raise InputError(
                f"{where}: unknown key(s) {', '.join(map(repr, unknown))}; a labelled request "
                f"has {', '.join(_REQUEST_KEYS)}"
            )
    else:
        raise InputError(f"{where} must be a mapping or an EvalRequest, got {type_name(obj)}")
    rid = data.get("id")
    if rid is not None:
        if isinstance(rid, bool) or not isinstance(rid, (str, int)):
            raise InputError(f"{where}: id must be a str or an int, got {type_name(rid)}")
        rid = str(rid)
        where = f"{where} (id={rid!r})"
    question = data.get("question")
    if not isinstance(question, str):
        raise InputError(f"{where}: question must be a str, got {type_name(question)}")
    candidates = data.get("candidates")
    if isinstance(candidates, (str, bytes, Mapping)) or not isinstance(candidates, Sequence):
        raise InputError(f"{where}: candidates must be a list, got {type_name(candidates)}")
    evidence = _strings(data.get("evidence", ()), "evidence", where)
    answers = _strings(data.get("answers", ()), "answers", where)
    if not evidence and not answers:
        raise InputError(
            f"{where}: no gold evidence; give 'evidence' (candidate ids) or 'answers' "
            "(answer strings) or both"
        )
    return EvalRequest(question, candidates, evidence, answers, rid)


def read_requests(
    path: str | os.PathLike[str],
    *,
    max_line_bytes: int = MAX_LINE_BYTES,
    max_bytes: int | None = MAX_DATA_BYTES,
) -> list[EvalRequest]:
    """Read labelled requests from a JSONL file (``.gz`` is decompressed), one per line.

    The file is read line by line through briefpack's one JSONL reader (``briefpack._jsonl``):
    lines split at ``\\n`` only (a JSON string may hold U+2028 or U+0085), a key twice in
    one object refused, a line longer than ``max_line_bytes`` and more than ``max_bytes`` of
    (decompressed) data refused. Blank lines are skipped; a bad line raises ``InputError``
    naming the file and line.
    """
    name = os.fspath(path)
    out: list[EvalRequest] = []
    for n, row in json_lines(name, max_line_bytes=max_line_bytes, max_bytes=max_bytes):
        try:
            out.append(to_request(row, len(out)))
        except InputError as exc:
            raise InputError(f"{name}:{n}: {exc}") from None
    if not out:
        raise InputError(f"{name}: no labelled requests in the file")
    return out


MAX_SETTINGS = 10_000
"""The most settings ``expand_grid`` expands by default (``max_settings=``, ``--max-settings``)."""


def grid_size(grid: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> int:
    """How many settings ``grid`` has, computed without expanding it (the product of the axes'
    lengths).

    >>> grid_size({"budget": list(range(100_000)), "order": ["edges", "relevance"]})
    200000
    """
    if isinstance(grid, Mapping):
        return math.prod(len(v) for v in grid.values() if isinstance(v, (list, tuple)))
    return len(grid) if isinstance(grid, Sequence) and not isinstance(grid, (str, bytes)) else 0


def expand_grid(
    grid: Mapping[str, Any] | Sequence[Mapping[str, Any]], *, max_settings: int = MAX_SETTINGS
) -> list[dict[str, Any]]:
    """The settings of ``grid``, in order; more than ``max_settings`` is an ``InputError``
    (counted before anything is expanded, see ``grid_size``).

    A mapping is a grid: each list (or tuple) value is an axis, any other value is fixed for
    every setting; settings are the cartesian product, the first axis varying slowest. A
    sequence of mappings is the list of settings itself. A setting's keys are ``assemble``'s
    options.

    >>> expand_grid({"budget": [500, 1000], "order": ["edges", "relevance"], "labels": "xml"})[1]
    {'budget': 500, 'order': 'relevance', 'labels': 'xml'}
    """
    size = grid_size(grid)
    if size > max_settings:
        raise InputError(
            f"grid has {size:,} settings, more than the {max_settings:,} allowed; sweep fewer "
            "values, or raise the limit with max_settings= (--max-settings)"
        )
    if isinstance(grid, Mapping):
        axes = {k: list(v) for k, v in grid.items() if isinstance(v, (list, tuple))}
        for k, v in axes.items():
            if not v:
                raise InputError(f"grid: the axis {shown(k)} has no values")
        settings = []
        for values in itertools.product(*axes.values()):
            chosen = dict(zip(axes, values))
            settings.append({k: chosen.get(k, v) for k, v in grid.items()})
    elif isinstance(grid, Sequence) and not isinstance(grid, (str, bytes)):
        settings = []
        for i, s in enumerate(grid):
            if not isinstance(s, Mapping):
                raise InputError(f"grid[{i}] must be a mapping of options, got {type_name(s)}")
            settings.append(dict(s))
    else:
        raise InputError(
            f"grid must be a mapping of option -> values or a list of settings, got "
            f"{type_name(grid)}"
        )
    if not settings:
        raise InputError("grid has no settings")
    for i, s in enumerate(settings):
        for key in s:
            if key not in _OPTIONS:
                raise InputError(
                    f"setting {i}: unknown option {shown(key)}; a setting may hold "
                    f"{', '.join(_OPTIONS)}"
                )
    return settings


# --------------------------------------------------------------------------- one pair


@dataclass(frozen=True)
class Outcome:
    """What one (request, setting) pair gave.

    ``found_any``: some gold evidence is in the placed sources (a gold id among a source's
    members, or a gold answer string in a source's text; for a source cut by ``compress``
    with answer strings given, only an answer string in its cut text counts); ``found_all``:
    every gold id is
    placed, or dropped as a duplicate of a placed source (with answer strings only: every
    answer string is in the sources). ``position``:
    where the evidence sits among the sources (``"first"`` if a source holding evidence has
    label 1, else ``"last"`` if one is the last, else ``"middle"``; ``None`` when not found).
    ``seconds`` is the wall time of the assembly alone; it is left out of comparisons.
    The answer fields are ``None`` without ``generate``, and when ``generate`` failed for this
    request: ``error`` then says how (``requests[3] (id='q4'): generate raised ...`` or ``...
    took longer than the 30 s timeout``), and the assembly's measures are kept.
    """

    request: int
    found_any: bool
    found_all: bool
    position: Position | None
    sources: int
    duplicates: int
    source_tokens: int
    prompt_tokens: int
    seconds: float = field(compare=False)
    answer: str | None = None
    answer_correct: bool | None = None
    unknown_labels: int | None = None
    uncited_sources: int | None = None
    unsupported_sentences: int | None = None
    error: str | None = None


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _contains_answer(text: str, answers: Iterable[str]) -> bool:
    folded = _norm(text)
    return any(_norm(a) in folded for a in answers)


def measure(
    assembly: Assembly, request: EvalRequest, index: int, seconds: float, answer: str | None
) -> Outcome:
    """The ``Outcome`` of one assembly (and the model's ``answer``, if any) of ``request``."""
    gold = set(request.evidence)
    placed_ids: set[str] = set()
    holders: list[int] = []
    for s in assembly.sources:
        if s.compression is not None and request.answers:
            # a compressed source holds only what its cut text holds: its ids count as
            # evidence only when an answer string survived the cut
            if _contains_answer(s.chunk.text, request.answers):
                placed_ids.update(s.members)
                holders.append(s.label)
            continue
        placed_ids.update(s.members)
        if gold.intersection(s.members) or _contains_answer(s.chunk.text, request.answers):
            holders.append(s.label)
    for d in assembly.dropped:  # a copy of a placed source: its text is in the prompt
        if d.reason == "duplicate" and d.detail.get("of") in placed_ids and d.chunk.id:
            placed_ids.add(d.chunk.id)
    n = len(assembly.sources)
    position: Position | None = None
    if holders:
        position = "first" if 1 in holders else "last" if n in holders else "middle"
    if gold:
        found_all = gold <= placed_ids
    else:
        text = "\n".join(s.chunk.text for s in assembly.sources)
        found_all = all(_contains_answer(text, [a]) for a in request.answers)
    outcome = Outcome(
        request=index,
        found_any=bool(holders),
        found_all=found_all,
        position=position,
        sources=n,
        duplicates=sum(1 for d in assembly.dropped if d.reason == "duplicate"),
        source_tokens=assembly.tokens["sources"],
        prompt_tokens=assembly.tokens["total"],
        seconds=seconds,
    )
    if answer is None:
        return outcome
    checked = cite(answer, assembly, strict=False)
    return dataclasses.replace(
        outcome,
        answer=answer,
        answer_correct=bool(request.answers) and _contains_answer(answer, request.answers),
        unknown_labels=len(checked.unknown),
        uncited_sources=len(checked.uncited),
        unsupported_sentences=len(checked.unsupported_sentences),
    )


class _Cancelled(Exception):
    """The sweep was stopped (Ctrl-C): a waiting worker gives up its call."""


def _call_generate(
    generate: Generate,
    messages: Sequence[Mapping[str, Any]],
    timeout: float | None,
    cancel: threading.Event | None,
) -> str:
    """``generate(messages)``; with a ``timeout`` or a ``cancel`` event, on a daemon thread
    that is abandoned past the timeout or once the sweep is cancelled (a hung call can then
    neither hold the sweep nor keep the process from exiting)."""
    if timeout is None and cancel is None:
        return generate(messages)
    box: list[Any] = []

    def call() -> None:
        try:
            box.append(("ok", generate(messages)))
        except BaseException as exc:  # handed to the waiting worker
            box.append(("error", exc))

    thread = threading.Thread(target=call, name="briefpack-generate", daemon=True)
    thread.start()
    deadline = None if timeout is None else time.monotonic() + timeout
    while thread.is_alive():
        wait = 0.1 if deadline is None else min(0.1, max(0.0, deadline - time.monotonic()))
        thread.join(wait)
        if cancel is not None and cancel.is_set():
            raise _Cancelled
        if deadline is not None and time.monotonic() >= deadline and thread.is_alive():
            raise TimeoutError
    kind, value = box[0]
    if kind == "error":
        raise value
    return value  # type: ignore[no-any-return]


def run_chunk(
    assembler: Callable[[str, Sequence[Any]], Assembly],
    requests: Sequence[EvalRequest],
    start: int,
    generate: Generate | None,
    timeout: float | None = None,
    cancel: threading.Event | None = None,
) -> list[Outcome]:
    """Assemble (and answer) ``requests``, numbered from ``start``: one task of the sweep.

    A ``generate`` that raises, returns something other than a str, or takes longer than
    ``timeout`` seconds is recorded in that request's ``Outcome.error``; the others go on.
    """
    out = []
    for offset, request in enumerate(requests):
        index = start + offset
        name = f" (id={request.id!r})" if request.id is not None else ""
        try:
            began = time.perf_counter()
            assembly = assembler(request.question, request.candidates)
            seconds = time.perf_counter() - began
        except BriefpackError as exc:
            raise type(exc)(f"requests[{index}]{name}: {exc}") from None
        answer = None
        error = None
        if generate is not None:
            try:
                answer = _call_generate(generate, assembly.messages, timeout, cancel)
                if not isinstance(answer, str):
                    error = f"generate must return a str, got {type_name(answer)}"
                    answer = None
            except TimeoutError:
                error = f"generate took longer than the {timeout:g} s timeout (abandoned)"
            except _Cancelled:
                raise KeyboardInterrupt from None
            except Exception as exc:
                error = f"generate raised {type(exc).__name__}: {exc}"
        outcome = measure(assembly, request, index, seconds, answer)
        if error is not None:
            outcome = dataclasses.replace(outcome, error=f"requests[{index}]{name}: {error}")
        out.append(outcome)
    return out


# --------------------------------------------------------------------------- per setting


@dataclass(frozen=True)
class SettingResult:
    """The measures of one setting over every request.

    Shares are in [0, 1]; ``first``, ``last`` and ``middle`` are shares of the requests whose
    evidence was found; ``sources``, ``duplicates``, ``source_tokens``, ``prompt_tokens`` and
    the answer counts are means per request. ``ms_median`` and ``ms_p99`` (assembly time per
    request, in milliseconds) vary from run to run and are left out of comparisons.
    ``failed`` counts the requests whose ``generate`` call failed (``Outcome.error``); their
    answer measures are left out. ``recommended`` marks the budget ``evaluate`` recommends for
    this setting's group.
    """

    setting: dict[str, Any]
    requests: int
    recall_any: float
    recall_all: float
    first: float
    last: float
    middle: float
    sources: float
    duplicates: float
    source_tokens: float
    prompt_tokens: float
    ms_median: float = field(compare=False)
    ms_p99: float = field(compare=False)
    answer_correct: float | None = None
    unknown_labels: float | None = None
    uncited_sources: float | None = None
    unsupported_sentences: float | None = None
    failed: int = 0
    recommended: bool = False

    @property
    def name(self) -> str:
        """The setting as ``key=value`` pairs, e.g. ``budget=500 order=edges``."""
        return " ".join(f"{k}={_show(v)}" for k, v in self.setting.items()) or "(defaults)"

    def as_row(self) -> dict[str, Any]:
        """A flat JSON-serialisable row: ``setting`` (its name), each option, each measure."""
        row: dict[str, Any] = {"setting": self.name}
        row.update({k: _plain(v) for k, v in self.setting.items()})
        row.update({k: v for k, v in asdict(self).items() if k != "setting"})
        return row


def _show(value: object) -> str:
    if isinstance(value, Budget):
        parts = [f"{k}={shown(v)}" for k, v in asdict(value).items() if v not in (None, 0)]
        return "Budget(" + ",".join(parts) + ")"
    if callable(value):
        return getattr(value, "__name__", type(value).__name__)
    return "none" if value is None else shown(value) if isinstance(value, int) else str(value)


def _plain(value: object) -> Any:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return _show(value)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _p99(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)] if ordered else 0.0


def summarize(setting: Mapping[str, Any], outcomes: Sequence[Outcome]) -> SettingResult:
    """Aggregate one setting's outcomes into its ``SettingResult``."""
    n = len(outcomes)
    found = [o for o in outcomes if o.found_any]
    ms = [o.seconds * 1000 for o in outcomes]
    answered = [o for o in outcomes if o.answer is not None]
    failed = sum(1 for o in outcomes if o.error is not None)

    def answer_mean(values: list[float]) -> float | None:
        return _mean(values) if answered else None

    return SettingResult(
        setting=dict(setting),
        requests=n,
        recall_any=len(found) / n if n else 0.0,
        recall_all=sum(o.found_all for o in outcomes) / n if n else 0.0,
        first=_mean([o.position == "first" for o in found]),
        last=_mean([o.position == "last" for o in found]),
        middle=_mean([o.position == "middle" for o in found]),
        sources=_mean([o.sources for o in outcomes]),
        duplicates=_mean([o.duplicates for o in outcomes]),
        source_tokens=_mean([o.source_tokens for o in outcomes]),
        prompt_tokens=_mean([o.prompt_tokens for o in outcomes]),
        ms_median=statistics.median(ms) if ms else 0.0,
        ms_p99=_p99(ms),
        answer_correct=answer_mean([bool(o.answer_correct) for o in answered]),
        unknown_labels=answer_mean([o.unknown_labels or 0 for o in answered]),
        uncited_sources=answer_mean([o.uncited_sources or 0 for o in answered]),
        unsupported_sentences=answer_mean([o.unsupported_sentences or 0 for o in answered]),
        failed=failed,
    )


# --------------------------------------------------------------------------- recommendation


@dataclass(frozen=True)
class Recommendation:
    """The smallest budget within ``tolerance`` of the best evidence recall, for one group of
    settings that differ only in ``budget``.

    Attributes:
        setting: the group's options other than ``budget``.
        budget: the recommended budget (as given in the grid).
        recall: its evidence recall (``recall_any``).
        best: the best evidence recall over the group's budgets.
        index: the position of the recommended row in ``EvalResult.rows``.
    """

    setting: dict[str, Any]
    budget: Any
    recall: float
    best: float
    index: int


def budget_size(value: object) -> float:
    """The number a budget is sorted by: an int itself; a ``Budget`` its ``context`` (or what
    its window leaves when ``context`` is not set)."""
    if isinstance(value, Budget):
        size = value.context if value.context is not None else value.window_left
        return float(size if size is not None else math.inf)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return math.inf


def recommend(rows: Sequence[SettingResult], tolerance: float) -> list[Recommendation]:
    """One ``Recommendation`` per group of ``rows`` that differ only in ``budget``, in order
    of each group's first row."""
    groups: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        key = repr(sorted((k, _show(v)) for k, v in row.setting.items() if k != "budget"))
        groups.setdefault(key, []).append(i)
    out = []
    for members in groups.values():
        best = max(rows[i].recall_any for i in members)
        ok = [i for i in members if rows[i].recall_any >= best - tolerance - 1e-12]
        pick = min(ok, key=lambda i: (budget_size(rows[i].setting.get("budget")), i))
        rest = {k: v for k, v in rows[pick].setting.items() if k != "budget"}
        out.append(
            Recommendation(
                rest, rows[pick].setting.get("budget"), rows[pick].recall_any, best, pick
            )
        )
    return out


@dataclass(frozen=True)
class EvalResult:
    """What ``evaluate`` returns.

    Attributes:
        rows: one ``SettingResult`` per setting, in grid order (``recommended`` set).
        recommendations: one per group of settings that differ only in ``budget``.
        outcomes: per setting, one ``Outcome`` per request, in request order.
        tolerance: the tolerance the recommendations used.
    """

    rows: list[SettingResult]
    recommendations: list[Recommendation]
    outcomes: list[list[Outcome]] = field(repr=False)
    tolerance: float


def finish(
    rows: Sequence[SettingResult], outcomes: Sequence[list[Outcome]], tolerance: float
) -> EvalResult:
    """Mark the recommended rows and bundle everything into an ``EvalResult``."""
    recs = recommend(rows, tolerance)
    chosen = {r.index for r in recs}
    marked = [
        SettingResult(**{**_fields(row), "recommended": i in chosen}) for i, row in enumerate(rows)
    ]
    return EvalResult(marked, recs, list(outcomes), tolerance)


def _fields(row: SettingResult) -> dict[str, Any]:
    return {f: getattr(row, f) for f in row.__dataclass_fields__}


# --------------------------------------------------------------------------- the sweep


def _chunks(n: int, parts: int) -> list[tuple[int, int]]:
    size = max(1, math.ceil(n / max(1, parts)))
    return [(a, min(n, a + size)) for a in range(0, n, size)]


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


def _name(setting: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={_show(v)}" for k, v in setting.items()) or "(defaults)"


def _check_requests(requests: object) -> list[EvalRequest]:
    if isinstance(requests, (str, bytes, Mapping)) or not isinstance(requests, Sequence):
        raise InputError(f"requests must be a list of labelled requests, got {type_name(requests)}")
    if not requests:
        raise InputError("requests is empty; give at least one labelled request")
    return [to_request(r, i) for i, r in enumerate(requests)]


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
        got: list[Outcome] = part.result()
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
