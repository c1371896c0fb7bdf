"""The installed distribution's version, read once from its metadata (a leaf: no imports of
the package).

>>> from briefpack._version import __version__
>>> isinstance(__version__, str)
True
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("briefpack")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = ["__version__"]
