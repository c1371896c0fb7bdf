"""``main``: parse the arguments, run the command, and turn errors into one line and a status.

Every way the program ends has its own exit status (``common.EXIT_STATUSES``, also in
``--help``): a user error prints one line, an interrupt one line, a reader that went away
nothing, and a failed write one line, never a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Sequence

from ..errors import BriefpackError
from .common import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_IOERR,
    EXIT_USAGE,
    PROG,
    UserError,
)
from .parser import build_parser


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail a second time."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _say(command: str | None, message: str) -> None:
    where = f"{PROG} {command}" if command else PROG
    with contextlib.suppress(OSError, ValueError):
        print(f"{where}: {message}", file=sys.stderr)


def _set_limits(args: object) -> None:
    """The input bounds of this run, from the flags (each run starts from the defaults)."""
    from .files import LIMITS, Limits

    fresh = Limits()
    for flag in ("max_line_bytes", "max_image_bytes"):
        value = getattr(args, flag, None)
        if value is not None:
            if value < 1:
                raise UserError(f"--{flag.replace('_', '-')} must be >= 1, got {value}")
            setattr(fresh, flag, value)
    root = getattr(args, "images_root", None)
    if root is not None and not os.path.isdir(root):
        raise UserError(f"--images-root {root}: not a folder")
    fresh.images_root = root
    for name in ("max_line_bytes", "max_image_bytes", "images_root"):
        setattr(LIMITS, name, getattr(fresh, name))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``briefpack`` command line and return its exit status.

    Args:
        argv: the arguments without the program name (default: ``sys.argv[1:]``).

    >>> main(["dedupe", "--method", "fuzzy", "rows.jsonl"])  # the usage error goes to stderr
    2
    """
    command = None
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help, --version and usage errors
            return exc.code if isinstance(exc.code, int) else EXIT_USAGE
        command = args.command
        _set_limits(args)
        if os.environ.get("BRIEFPACK_READY"):
            # for tests that signal the process: from here on it is inside the handlers below
            _say(command, "ready")
            sys.stderr.flush()
        status = int(args.func(args))
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not at interpreter exit
        return status
    except UserError as exc:
        _say(command, "error: " + " ".join(str(exc).split("\n")))
        return exc.exit_status
    except BriefpackError as exc:
        from .options import name_the_flag

        _say(command, "error: " + " ".join(name_the_flag(exc).split("\n")))
        return EXIT_USAGE
    except KeyboardInterrupt:
        _say(command, "interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader went away (e.g. | head): stop quietly, as a shell pipeline expects
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as exc:
        if exc.errno == errno.EPIPE:  # pragma: no cover - BrokenPipeError above
            _silence_stdout()
            return EXIT_BROKEN_PIPE
        # what is left is a failed write to stdout (inputs and -o files raise UserError)
        _silence_stdout()
        _say(command, f"error: cannot write the output: {exc.strerror or exc}")
        return EXIT_IOERR
