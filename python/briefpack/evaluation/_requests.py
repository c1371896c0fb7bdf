"""Labelled requests (``EvalRequest``, ``read_requests``), the grid of settings and the one
function every assembly goes through (``make_assembler``)."""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from typing import Any, Literal

from .._checks import shown, type_name
from .._jsonl import MAX_DATA_BYTES, MAX_LINE_BYTES, json_lines
from ..assembler import Assembler
from ..assembly import Assembly
from ..errors import InputError
from ..options import FIELDS

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
