"""The adapters' shared constants (their logger, the option names) and message helpers.

Nothing here imports a framework; ``briefpack.integrations._common`` re-exports every name.
"""

from __future__ import annotations

import logging

from ..options import FIELDS, OVERRIDABLE

__all__ = [
    "ASSEMBLE_OPTIONS",
    "LOG",
    "PER_REQUEST",
    "RUN_OPTIONS",
    "SHOWN_LIMIT",
    "missing_extra",
    "shown",
]

LOG = logging.getLogger("briefpack.integrations")
"""The adapters' logger (a child of ``briefpack``): DEBUG, and a WARNING for an empty context."""

PER_REQUEST = ("history", "query_vector")
"""``assemble`` keywords that belong to a request, not to the ``Assembler``."""
ASSEMBLE_OPTIONS = (*PER_REQUEST, *FIELDS)
"""Every keyword ``assemble`` takes; adapters pass these through unchanged."""
RUN_OPTIONS = (*PER_REQUEST, *OVERRIDABLE)
"""What one request of an adapter may change: its own keywords and the overridable options."""

SHOWN_LIMIT = 60
"""Longest quoted value in an adapter's error message (longer values are cut with ``...``)."""


def shown(value: object, limit: int = SHOWN_LIMIT) -> str:
    """``repr(value)``, cut to ``limit`` characters, for quoting a caller's value in a message.

    >>> shown("x" * 100, limit=12)
    "'xxxxxxxx..."
    >>> shown([1, 2])
    '[1, 2]'
    """
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def missing_extra(module: str, package: str, extra: str) -> ImportError:
    """The error an adapter raises when its framework is not installed.

    >>> str(missing_extra("langchain", "langchain-core", "langchain"))
    "briefpack.integrations.langchain needs langchain-core: pip install 'briefpack[langchain]'"
    """
    return ImportError(
        f"briefpack.integrations.{module} needs {package}: pip install 'briefpack[{extra}]'",
        name=f"briefpack.integrations.{module}",
    )
