"""The installed distribution's version, read from its metadata on first use (a leaf).

Reading the metadata imports ``importlib.metadata`` and scans the installed distributions, which
costs milliseconds, so it happens when the version is first asked for (``briefpack.__version__``,
a record), not at import.

>>> from briefpack._version import __version__, version
>>> isinstance(__version__, str) and __version__ == version()
True
"""

from __future__ import annotations

import functools

__all__ = ["version"]  # and ``__version__``, read on first access


@functools.cache
def version() -> str:
    """The version of the installed ``briefpack`` (``"0+unknown"`` in a source tree)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("briefpack")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0+unknown"


def __getattr__(name: str) -> str:
    if name == "__version__":
        return version()
    raise AttributeError(f"module 'briefpack._version' has no attribute {name!r}")
