"""``briefpack eval``'s output: the table (rich or plain), the rows as JSONL or CSV, the recall
plot; and the command's two error kinds."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Sequence
from typing import Any, TextIO

from .._files import WriteError, write_file
from ..evaluation import (
    SettingResult,
    _show,
    budget_size,
)


class _EvalError(Exception):
    """A usage problem: one line on stderr, exit status 2."""


class _OutputError(_EvalError):
    """An output file that cannot be written (or is not a regular file): exit status 74."""


COLUMNS = (
    ("setting", "left"),
    ("recall", "right"),
    ("all", "right"),
    ("first/last/mid", "right"),
    ("sources", "right"),
    ("dups", "right"),
    ("src tok", "right"),
    ("prompt tok", "right"),
    ("ms p50/p99", "right"),
)


def table_rows(rows: Sequence[SettingResult]) -> list[list[str]]:
    """The cells of the terminal table, one list per setting (``*`` marks the recommended)."""
    varying = [
        k
        for k in dict.fromkeys(k for r in rows for k in r.setting)
        if len({_show(r.setting.get(k)) for r in rows}) > 1
    ]
    out = []
    for r in rows:
        name = " ".join(f"{k}={_show(r.setting.get(k))}" for k in varying) or r.name
        out.append(
            [
                ("* " if r.recommended else "  ") + name,
                f"{r.recall_any:.1%}",
                f"{r.recall_all:.1%}",
                f"{r.first:.0%}/{r.last:.0%}/{r.middle:.0%}",
                f"{r.sources:.1f}",
                f"{r.duplicates:.1f}",
                f"{r.source_tokens:.0f}",
                f"{r.prompt_tokens:.0f}",
                f"{r.ms_median:.2f}/{r.ms_p99:.2f}",
            ]
        )
    if rows and rows[0].answer_correct is not None:
        for cells, r in zip(out, rows):
            cells.append(f"{r.answer_correct:.1%}")
    return out


def plain_table(rows: Sequence[SettingResult]) -> str:
    """The table as aligned plain text (what ``--color never`` and pipes get)."""
    cells = [[h for h, _ in COLUMNS], *table_rows(rows)]
    width = [max(len(r[i]) for r in cells) for i in range(len(COLUMNS))]
    lines = []
    for r in cells:
        parts = [
            c.ljust(w) if j == "left" else c.rjust(w) for c, w, (_, j) in zip(r, width, COLUMNS)
        ]
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines) + "\n"


def _print_table(rows: Sequence[SettingResult], color: str, stream: TextIO) -> None:
    console = None
    if color != "never" and (color == "always" or getattr(stream, "isatty", lambda: False)()):
        try:
            from rich.console import Console
        except ImportError:
            console = None
        else:
            console = Console(file=stream, force_terminal=color == "always", highlight=False)
    if console is None:
        stream.write(plain_table(rows))
        return
    from rich.table import Table

    table = Table(
        title="evidence recall per setting (* = recommended budget)", title_justify="left"
    )
    for header, justify in COLUMNS:
        table.add_column(header, justify="right" if justify == "right" else "left")
    for cells, r in zip(table_rows(rows), rows):
        table.add_row(*cells, style="bold green" if r.recommended else None)
    console.print(table)


def write_rows(path: str, rows: Sequence[SettingResult]) -> None:
    """Write one row per setting to ``path`` (``.csv`` or JSONL), atomically."""
    flat = [r.as_row() for r in rows]
    buf = io.StringIO()
    if path.endswith(".csv"):
        keys: list[str] = []
        for row in flat:
            keys.extend(k for k in row if k not in keys)
        writer = csv.DictWriter(buf, fieldnames=keys, lineterminator="\n")
        writer.writeheader()
        writer.writerows(flat)
    else:
        for row in flat:
            buf.write(json.dumps(row, ensure_ascii=False) + "\n")
    _write(path, buf.getvalue())


def _write(path: str, content: Any) -> None:
    try:
        write_file(path, content)
    except WriteError as exc:
        raise _OutputError(str(exc)) from None


PLOT_FORMATS = ("png", "svg", "pdf")


def plot_format(path: str) -> str:
    """The image format ``--plot`` writes, from the name's extension (exactly that file).

    >>> plot_format("recall.svg")
    'svg'
    """
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext not in PLOT_FORMATS:
        raise _EvalError(
            f"--plot {path}: name the file with one of .png, .svg, .pdf (the format is taken "
            "from it; the file is written under exactly that name)"
        )
    return ext


def plot_recall(path: str, rows: Sequence[SettingResult], title: str = "") -> None:
    """Plot evidence recall against budget, one line per setting, recommended budgets marked.

    ``path`` is written under exactly its name, in the format its extension names (``.png``,
    ``.svg`` or ``.pdf``; anything else is refused). Settings that differ only in ``budget``
    form one line; the recommended budget of each line
    is a larger marker with its budget written next to it.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise _EvalError("--plot needs matplotlib: pip install 'briefpack[eval]'") from None
    lines: dict[str, list[SettingResult]] = {}
    for r in rows:
        rest = " ".join(
            f"{k}={_show(v)}" for k, v in r.setting.items() if k not in ("budget", "tokenizer")
        )
        lines.setdefault(rest or "all settings", []).append(r)
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    styles = ("-", "--", ":", "-.")  # settings with equal recall overlap: keep both visible
    for n, (name, members) in enumerate(lines.items()):
        members = sorted(members, key=lambda r: budget_size(r.setting.get("budget")))
        xs = [budget_size(r.setting.get("budget")) for r in members]
        ys = [100 * r.recall_any for r in members]
        (line,) = ax.plot(
            xs,
            ys,
            marker="o",
            markersize=4,
            label=name,
            linestyle=styles[n % len(styles)],
            linewidth=2.4 - 0.4 * (n % 4),
        )
        for x, y, r in zip(xs, ys, members):
            if r.recommended:
                ax.plot(
                    [x],
                    [y],
                    marker="*",
                    markersize=16,
                    color=line.get_color(),
                    markeredgecolor="black",
                    zorder=5,
                )
                ax.annotate(
                    f"{x:g}", (x, y), textcoords="offset points", xytext=(6, -14), fontsize=8
                )
    ax.set_xscale("log", base=2)
    xs_all = sorted({budget_size(r.setting.get("budget")) for r in rows})
    ax.set_xticks(xs_all)
    ax.set_xticklabels([f"{x:g}" for x in xs_all])
    ax.minorticks_off()
    ax.set_xlabel("context budget (tokens)")
    ax.set_ylabel("evidence recall (% of requests)")
    ax.set_ylim(0, 106)
    ax.grid(True, alpha=0.3)
    ax.set_title(title or "Evidence recall against budget (★ = recommended)", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    try:
        _write(path, lambda f: fig.savefig(f, format=plot_format(path)))
    finally:
        plt.close(fig)


# --------------------------------------------------------------------------- the command
