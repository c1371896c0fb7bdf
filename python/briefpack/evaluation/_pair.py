"""One (request, setting) pair: assemble, find the gold evidence, optionally generate and
check the answer (``Outcome``, ``measure``, ``run_chunk``)."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._checks import type_name
from ..assembly import Assembly
from ..citations import cite
from ..errors import BriefpackError
from ._requests import EvalRequest, Generate, Position

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
