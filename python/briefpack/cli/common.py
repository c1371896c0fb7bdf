"""Names every part of the command line shares: the program name, choices and exit statuses."""

from __future__ import annotations

from ..options import CHOICES, DEFAULTS

PROG = "briefpack"
STDIN = "-"


def _named(option: str) -> tuple[str, ...]:
    """The library's legal values of ``option`` that a flag can spell (None and a callable
    cannot be typed on a command line)."""
    return tuple(v for v in CHOICES[option] if isinstance(v, str) and v != "callable")


# The choices come from the library's one options table (the flags of its options are built
# from their rows in ``options``); only the spelling of None ("none") is the command line's own.
TOKENIZERS = _named("tokenizer")
DEDUPE_ROW_METHODS = tuple(m for m in _named("dedupe") if m != "auto")
API_DEFAULTS = DEFAULTS
FORMATS = ("text", "json", "messages")
COLORS = ("auto", "always", "never")

MAX_IMAGE_BYTES = 50 * 1024 * 1024
"""The largest image file a JSONL row may name by default (``--max-image-bytes``)."""

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2
EXIT_IOERR = 74  # EX_IOERR of sysexits.h
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports when the reader goes away

EXIT_STATUSES = f"""\
exit status:
  {EXIT_OK}    success
  {EXIT_CHECK_FAILED}    cite found labels that were never in the context
  {EXIT_USAGE}    usage error or bad input (one line on stderr names the flag or FILE:LINE:COLUMN)
  {EXIT_IOERR}   the output could not be written (disk full, no such folder, no permission)
  {EXIT_INTERRUPTED}  interrupted (Ctrl-C)
  {EXIT_BROKEN_PIPE}  the reader of stdout went away (e.g. | head); nothing is printed
"""


class UserError(Exception):
    """An error the user can fix: printed as one line to stderr, exit status 2."""

    exit_status = EXIT_USAGE


class OutputError(UserError):
    """The output could not be written (disk full, missing folder, ...): exit status 74."""

    exit_status = EXIT_IOERR
