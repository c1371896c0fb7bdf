"""``main``: parse the arguments, run the command, and turn errors into one line and a status."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence

from ..errors import BriefpackError
from .common import EXIT_USAGE, PROG, UserError
from .parser import build_parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``briefpack`` command line and return its exit status.

    Args:
        argv: the arguments without the program name (default: ``sys.argv[1:]``).

    >>> main(["dedupe", "--method", "fuzzy", "rows.jsonl"])  # the usage error goes to stderr
    2
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    try:
        return int(args.func(args))
    except (UserError, BriefpackError) as exc:
        message = " ".join(str(exc).split("\n"))
        print(f"{PROG} {args.command}: error: {message}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. | head): stop quietly, without a second error at exit
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 1
