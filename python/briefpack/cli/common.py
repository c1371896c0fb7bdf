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
DEDUPE_ROW_METHODS = ("exact", "jaccard", "minhash")
COLORS = ("auto", "always", "never")

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2


class UserError(Exception):
    """An error the user can fix: printed as one line to stderr, exit status 2."""
