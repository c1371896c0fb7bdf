"""The Python functions the Rust core calls back, and nothing else.

``briefpack._core`` imports this module (only this one) when a binding needs Python: the
argument checks, whose rules and messages live once, in Python, for both backends (a binding's
fast extraction refuses an argument, then calls the check of the same name here, which raises
the canonical message or returns the normalised value); and ``escape_as``, the escaping of a
source-block value that holds a character the Unicode-aware rules react to (an opening bracket
of a label look-alike, an angle-bracket look-alike, an invisible character), which the core's
``price_pack`` leaves to Python. Each name here is a contract with ``src/checks.rs`` and
``src/render/py.rs``: renaming one breaks the core, and ``tests/test_layers.py`` checks that
every name the Rust sources ask for is defined here. Not part of the public surface.

>>> from briefpack import core_callbacks
>>> core_callbacks.check_count("budget", 3), core_callbacks.escape_as("url", "x?[1]")
(3, 'x?&#91;1]')
"""

from __future__ import annotations

from ._checks import (
    check_count,
    check_encoding_name,
    check_offsets,
    check_scores,
    check_seed,
    check_text,
    check_texts,
    check_threshold,
    check_unit_interval,
    choice,
)
from ._escape import escape_as

__all__ = [
    "check_count",
    "check_encoding_name",
    "check_offsets",
    "check_scores",
    "check_seed",
    "check_text",
    "check_texts",
    "check_threshold",
    "check_unit_interval",
    "choice",
    "escape_as",
]
