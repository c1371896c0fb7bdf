"""``briefpack eval``: sweep assembly settings over labelled requests and pick the budget.

    briefpack eval DATA.jsonl --grid GRID.toml
    briefpack eval DATA.jsonl --budget 250,500,1000 --order edges,relevance --out results.csv
    briefpack eval --example --plot recall.png

``DATA.jsonl`` (``.gz`` too) holds one labelled request per line (see ``briefpack.evaluate``).
The grid comes from a TOML file, from flags, or both (flags replace the file's axes): in the
file, a list is an axis and any other value is fixed for every setting; the string ``"none"``
means ``None`` (e.g. ``dedupe = ["jaccard", "none"]``)::

    budget = [250, 500, 1000, 2000]
    order = ["edges", "relevance"]
    tokenizer = "o200k_base"

The table goes to stdout (rich on a terminal), progress to stderr; ``--out`` writes one row per
setting as JSONL or CSV (by extension), ``--plot`` the evidence recall against the budget, one
line per setting, the recommended budget marked. Ctrl-C stops the sweep and keeps the rows
finished so far (exit status 130). ``briefpack.cli.parser`` adds the command with
``add_eval_parser``; ``run_eval`` runs it.
"""

from __future__ import annotations

import argparse
import sys
import time
from importlib import resources
from typing import Any, TextIO

from .._files import WriteError, refuse_special
from .._jsonl import MAX_DATA_BYTES, MAX_LINE_BYTES
from ..errors import BriefpackError, InputError
from ..evaluation import (
    DEFAULT_TOLERANCE,
    MAX_SETTINGS,
    EvalRequest,
    EvalResult,
    SettingResult,
    _show,
    evaluate,
    expand_grid,
    finish,
    grid_size,
    read_requests,
)
from ..options import SPECS
from ._eval_output import COLUMNS as COLUMNS
from ._eval_output import PLOT_FORMATS as PLOT_FORMATS
from ._eval_output import _EvalError as _EvalError
from ._eval_output import _OutputError as _OutputError
from ._eval_output import _print_table as _print_table
from ._eval_output import _write as _write
from ._eval_output import plain_table as plain_table
from ._eval_output import plot_format as plot_format
from ._eval_output import plot_recall as plot_recall
from ._eval_output import table_rows as table_rows
from ._eval_output import write_rows as write_rows
from .common import EXIT_INTERRUPTED, EXIT_IOERR, EXIT_OK, EXIT_USAGE
from .progress import _stderr_is_tty

__all__ = ["add_eval_parser", "run_eval"]

DEFAULT_BUDGETS = (100, 200, 400, 800, 1600)
EXAMPLE = "eval_example.jsonl"

# Flags that take a comma-separated list of values: (option, how to read one value), from the
# options' rows (``Spec.sweep``), in their order.
_INT = "int"
_FLOAT = "float"
_TEXT = "str"
LIST_FLAGS: dict[str, str] = {s.name: s.sweep for s in SPECS if s.sweep is not None}


def add_eval_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``eval`` command to ``subparsers`` (from ``ArgumentParser.add_subparsers``).

    >>> root = argparse.ArgumentParser(prog="briefpack")
    >>> p = add_eval_parser(root.add_subparsers(dest="command"))
    >>> root.parse_args(["eval", "d.jsonl", "--budget", "500,1000"]).budget
    '500,1000'
    """
    p: argparse.ArgumentParser = subparsers.add_parser(
        "eval",
        help="sweep budgets, orders and dedupe over labelled requests and pick the budget",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        allow_abbrev=False,
    )
    p.add_argument("data", nargs="?", metavar="DATA.jsonl", help="labelled requests, one per line")
    p.add_argument(
        "--example", action="store_true", help="run the small example shipped with briefpack"
    )
    p.add_argument("--grid", metavar="GRID.toml", help="the settings: a list value is an axis")
    for option in LIST_FLAGS:
        p.add_argument(
            "--" + option.replace("_", "-"),
            dest=option,
            metavar="A,B,...",
            help=f"values of {option} to sweep, comma-separated ('none' for None)",
        )
    p.add_argument(
        "--tokenizer",
        help="token counter for every setting (default: o200k_base; approx is characters / 4)",
    )
    p.add_argument(
        "--tolerance",
        type=float,
        default=DEFAULT_TOLERANCE,
        help="recommend the smallest budget whose recall is within this of the best "
        "(default: %(default)s)",
    )
    p.add_argument("--limit", type=int, metavar="N", help="use only the first N requests")
    p.add_argument("--workers", type=int, metavar="N", help="threads or Ray tasks per setting")
    p.add_argument("--executor", choices=("threads", "ray"), default="threads")
    p.add_argument("--ray-address", metavar="ADDR", help="Ray cluster (default: a local Ray)")
    _add_limit_flags(p)
    p.add_argument("--out", metavar="FILE", help="write the rows to FILE (.jsonl or .csv)")
    p.add_argument(
        "--plot",
        metavar="FILE.png",
        help="plot recall against budget to FILE (.png, .svg or .pdf; matplotlib)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    p.set_defaults(func=run_eval)
    return p


def _add_limit_flags(p: argparse.ArgumentParser) -> None:
    """The bounds on the grid and on the data: ``--max-settings``, ``--max-line-bytes``,
    ``--max-data-bytes``."""
    p.add_argument(
        "--max-settings",
        type=int,
        default=MAX_SETTINGS,
        metavar="N",
        help="refuse a grid of more settings than N (default: %(default)s)",
    )
    p.add_argument(
        "--max-line-bytes",
        type=int,
        default=MAX_LINE_BYTES,
        metavar="N",
        help="the longest line of DATA, in bytes (default: %(default)s)",
    )
    p.add_argument(
        "--max-data-bytes",
        type=int,
        default=MAX_DATA_BYTES,
        metavar="N",
        help="the most bytes read from DATA, after decompression (default: %(default)s)",
    )


def _value(raw: str, kind: str) -> Any:
    if raw.strip().lower() == "none":
        return None
    if kind == _INT:
        return int(raw)
    if kind == _FLOAT:
        return float(raw)
    return raw.strip()


def _none(value: Any) -> Any:
    if isinstance(value, list):
        return [_none(v) for v in value]
    return None if isinstance(value, str) and value.lower() == "none" else value


_MAX_GRID_BYTES = 1 << 20


def _load_toml(path: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        try:
            import tomli as tomllib
        except ImportError:
            raise _EvalError(
                "reading a TOML grid needs tomli: pip install 'briefpack[eval]'"
            ) from None
    try:
        with open(path, "rb") as f:
            raw = f.read(_MAX_GRID_BYTES + 1)
    except OSError as exc:
        raise _EvalError(f"{path}: cannot read the grid: {exc.strerror or exc}") from None
    if len(raw) > _MAX_GRID_BYTES:
        raise _EvalError(f"{path}: a grid file is at most {_MAX_GRID_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise _EvalError(
            f"{path}:{line}: not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save the grid as UTF-8"
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _EvalError(f"{path}: not valid TOML: {exc}") from None
    return {k: _none(v) for k, v in data.items()}


def build_grid(args: argparse.Namespace) -> dict[str, Any]:
    """The grid from ``--grid`` and the flags (a flag replaces the file's value)."""
    grid: dict[str, Any] = _load_toml(args.grid) if args.grid else {}
    for option, kind in LIST_FLAGS.items():
        raw = getattr(args, option, None)
        if raw is None:
            continue
        try:
            values = [_value(v, kind) for v in raw.split(",") if v.strip()]
        except ValueError:
            flag = "--" + option.replace("_", "-")
            raise _EvalError(f"{flag} takes comma-separated {kind}s, got {raw!r}") from None
        grid[option] = values
    if args.tokenizer is not None:
        grid["tokenizer"] = args.tokenizer
    grid["budget"] = grid.pop("budget", list(DEFAULT_BUDGETS))  # last: the fastest axis
    return grid


def _tokenizer_problem(name: object) -> str | None:
    if not isinstance(name, str) or name == "approx":
        return None
    from ..kernels import count_tokens

    try:
        count_tokens(["briefpack"], encoding=name)
    except BriefpackError as exc:
        return str(exc)
    except Exception as exc:  # a vocabulary that cannot be downloaded or read
        return f"{type(exc).__name__}: {exc}"
    return None


def _requests(args: argparse.Namespace) -> list[EvalRequest]:
    if args.example == (args.data is not None):
        raise _EvalError("give DATA.jsonl or --example (one of them)")
    if args.example:
        with resources.as_file(resources.files("briefpack").joinpath("data", EXAMPLE)) as path:
            requests = read_requests(path)
    else:
        for flag in ("max_line_bytes", "max_data_bytes", "max_settings"):
            if getattr(args, flag) < 1:
                raise _EvalError(f"--{flag.replace('_', '-')} must be >= 1")
        requests = read_requests(
            args.data, max_line_bytes=args.max_line_bytes, max_bytes=args.max_data_bytes
        )
    if args.limit is not None:
        if args.limit < 1:
            raise _EvalError(f"--limit must be >= 1, got {args.limit}")
        requests = requests[: args.limit]
    return requests


# --------------------------------------------------------------------------- output


class _Progress:
    """``done/total pairs`` on stderr, at most every 0.2 s (only when stderr is a terminal, as
    every command's progress)."""

    def __init__(self, stream: TextIO, enabled: bool) -> None:
        self.stream = stream
        self.enabled = enabled
        self.last = 0.0
        self.began = time.monotonic()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.enabled or (now - self.last < 0.2 and done < total):
            return
        self.last = now
        self.shown = True
        self.stream.write(
            f"\rbriefpack eval: {done}/{total} pairs ({done / total:.0%}, {now - self.began:.0f} s)"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _check_outputs(args: argparse.Namespace) -> None:
    if args.plot:
        plot_format(args.plot)
    for path in (args.out, args.plot):
        if path:
            try:
                refuse_special(path)
            except WriteError as exc:
                raise _OutputError(str(exc)) from None


def _settings(args: argparse.Namespace, grid: dict[str, Any]) -> list[dict[str, Any]]:
    """The grid's settings, with 'approx' counting for ``--example`` when its vocabulary is
    missing (said on stderr); a missing vocabulary otherwise is a usage error."""
    settings = expand_grid(grid, max_settings=args.max_settings)
    note = None
    tokenizers = {s.get("tokenizer", "o200k_base") for s in settings}
    for name in tokenizers:
        problem = _tokenizer_problem(name)
        if problem is None:
            continue
        if args.example and args.tokenizer is None:
            note = (
                f"note: the {name} vocabulary could not be loaded ({problem}); counting "
                "with 'approx' (characters / 4), so token numbers are estimates"
            )
            settings = [{**s, "tokenizer": "approx"} for s in settings]
        else:
            raise _EvalError(
                f"the {name} vocabulary could not be loaded ({problem}); pass --tokenizer "
                "approx for estimates, or set TIKTOKEN_CACHE_DIR to a folder that holds "
                "the tiktoken files"
            )
    if note:
        print(note, file=sys.stderr)
    return settings


def _report(args: argparse.Namespace, result: EvalResult) -> None:
    """The table and the recommendations on stdout, then ``--out`` and ``--plot``."""
    if result.rows:
        _print_table(result.rows, args.color, sys.stdout)
        for rec in result.recommendations:
            rest = " ".join(f"{k}={_show(v)}" for k, v in rec.setting.items()) or "all settings"
            print(
                f"recommended budget for {rest}: {rec.budget} "
                f"(recall {rec.recall:.1%}, best {rec.best:.1%}, tolerance "
                f"{args.tolerance:g})"
            )
    if args.out and result.rows:
        write_rows(args.out, result.rows)
    if args.plot and result.rows:
        plot_recall(args.plot, result.rows)


def run_eval(args: argparse.Namespace) -> int:
    """Run ``briefpack eval`` with parsed ``args``; return the exit status.

    Errors the user can fix print one line to stderr and return 2; Ctrl-C keeps the rows
    finished so far (table, ``--out``, ``--plot``) and returns 130.
    """
    try:
        _check_outputs(args)  # before the sweep: a bad target is said now, not after it
        requests = _requests(args)
        grid = build_grid(args)
        size = grid_size(grid)
        if not args.quiet and _stderr_is_tty():  # where progress goes: said before running
            print(
                f"briefpack eval: {size:,} settings x {len(requests):,} requests = "
                f"{size * len(requests):,} assemblies",
                file=sys.stderr,
            )
        settings = _settings(args, grid)
        progress = _Progress(sys.stderr, not args.quiet and _stderr_is_tty())
        done: list[SettingResult] = []
        interrupted = False
        try:
            evaluate(
                requests,
                settings,
                workers=args.workers,
                executor="ray" if args.executor == "ray" else None,
                tolerance=args.tolerance,
                ray_address=args.ray_address,
                on_row=done.append,
                progress=progress,
            )
        except KeyboardInterrupt:
            interrupted = True
        finally:
            progress.close()
        if interrupted:
            print(
                f"briefpack eval: interrupted; keeping the {len(done)} of {len(settings)} "
                "settings finished so far",
                file=sys.stderr,
            )
        result = finish(done, [], args.tolerance)
        _report(args, result)
        return EXIT_INTERRUPTED if interrupted else EXIT_OK
    except (_EvalError, BriefpackError, InputError) as exc:
        message = str(exc).replace("max_settings= (--max-settings)", "--max-settings")
        print(f"briefpack eval: error: {message}", file=sys.stderr)
        return EXIT_IOERR if isinstance(exc, _OutputError) else EXIT_USAGE
