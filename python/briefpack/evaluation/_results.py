"""Per setting: the summary row (``SettingResult``), the recommended budgets and the
bundled ``EvalResult``."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .._checks import shown
from ..types import Budget
from ._pair import Outcome

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
