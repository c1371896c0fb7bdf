"""The floor ratios of two builds, measured in turns: did a change move ``assemble`` closer to
its kernel floor?

Runs ``benches/report.py --floor-only`` (this checkout's copy, so both builds are measured by
the same code) under each interpreter in turn, ``--runs`` times each, and prints the median of
each ratio before -> after as a Markdown table. A ratio is already measured side by side with
its floor in one process, so it says little about the load of the machine; taking turns and
the median of the runs takes out what is left.

    python benches/compare.py --before ../old/.venv/bin/python --after .venv/bin/python
    python benches/compare.py --before A --after B --quick --runs 1   # a smoke run

Each interpreter must import its own build of briefpack (a release build: ``pip install .``
or ``maturin develop --release`` in that environment).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

REPORT = Path(__file__).resolve().parent / "report.py"

Row = tuple[float | int | str, ...]  # (candidates, inputs, cold, cold CPU, warm, warm CPU, ...)


def floors(python: str, quick: bool) -> list[Row]:
    """One ``report.py --floor-only`` run under ``python``: its floor rows."""
    cmd = [python, str(REPORT), "--floor-only", "--json", *(["--quick"] if quick else [])]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("FLOORS "):
            return [tuple(row) for row in json.loads(line[len("FLOORS ") :])]
    raise SystemExit(f"{python}: report.py printed no floor rows:\n{out}")


def medians(runs: list[list[Row]]) -> list[Row]:
    """Each row's ratios, the median over the runs."""
    out = []
    for rows in zip(*runs):
        n, kind = rows[0][0], rows[0][1]
        cols = [statistics.median(float(r[k]) for r in rows) for k in range(2, len(rows[0]))]
        out.append((n, kind, *cols))
    return out


def table(before: list[Row], after: list[Row]) -> list[str]:
    """The Markdown table: CPU-time ratios (the calling thread's), before -> after, and the CPU
    medians of ``assemble`` cold and warm (a faster kernel lowers the floor too, so a ratio
    alone can hide a request that got faster)."""
    lines = [
        "| candidates | inputs | cold, before -> after | warm, before -> after "
        "| `assemble` cold, before -> after | warm, before -> after |",
        "|---|---|---|---|---|---|",
    ]
    for b, a in zip(before, after):
        row = f"| {b[0]:,} | {b[1]} | {b[3]:.2f}x -> {a[3]:.2f}x | {b[5]:.2f}x -> {a[5]:.2f}x |"
        if len(b) > 8 and len(a) > 8:
            row += f" {_ms(b[6])} -> {_ms(a[6])} | {_ms(b[8])} -> {_ms(a[8])} |"
        else:
            row += " | |"
        lines.append(row)
    return lines


def _ms(seconds: float | int | str) -> str:
    return f"{float(seconds) * 1e3:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the interpreter of the old build")
    parser.add_argument("--after", default=sys.executable, help="the new build's interpreter")
    parser.add_argument("--runs", type=int, default=3, help="runs of each, in turns")
    parser.add_argument("--quick", action="store_true", help="200 candidates only")
    args = parser.parse_args()
    before: list[list[Row]] = []
    after: list[list[Row]] = []
    for i in range(args.runs):
        for name, python, into in (("before", args.before, before), ("after", args.after, after)):
            print(f"run {i + 1}/{args.runs}: {name}", file=sys.stderr, flush=True)
            into.append(floors(python, args.quick))
    print("\n".join(table(medians(before), medians(after))))


if __name__ == "__main__":
    main()
