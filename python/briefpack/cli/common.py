"""Names every part of the command line shares: the program name, choices and exit statuses."""

from __future__ import annotations

PROG = "briefpack"
STDIN = "-"
ORDERS = ("relevance", "edges", "round_robin", "document")
LABELS = ("xml", "brackets")
TOKENIZERS = ("o200k_base", "cl100k_base", "approx")
BACKENDS = ("auto", "rust", "python")
FORMATS = ("text", "json", "messages")
DEDUPE_CHOICES = ("auto", "exact", "jaccard", "minhash", "cosine", "none")
DEDUPE_ROW_METHODS = ("exact", "jaccard", "minhash", "cosine")
COLORS = ("auto", "always", "never")

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
