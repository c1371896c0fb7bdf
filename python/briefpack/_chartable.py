"""The committed character table ``briefpack/data/chartable.txt``, parsed on first use.

A leaf: the reference's text kernels and any production module that classes characters read it
from here. Parsing it takes tens of milliseconds, so nothing parses it at import: ``table()``
parses it once, when first called (``table.cache_info().currsize`` says whether it has been).
The Rust core compiles the same file in.

>>> table().classes[ord("a")] == WORD, classes()[ord(" ")] == WHITESPACE
(True, True)
"""

from __future__ import annotations

import functools
from importlib import resources

__all__ = ["IDEOGRAPH", "SEPARATOR", "WHITESPACE", "WORD", "Table", "classes", "table"]

SEPARATOR, WHITESPACE, WORD, IDEOGRAPH = 0, 1, 2, 3
_CODES = {"s": SEPARATOR, "w": WHITESPACE, "a": WORD, "i": IDEOGRAPH}


class Table:
    """The parsed ``chartable.txt``: classes, lowercase and the normalisation data."""

    def __init__(self, text: str) -> None:
        classes = bytearray(0x110000)
        self.lower: dict[int, int] = {}
        self.ccc: dict[int, int] = {}
        self.canonical: dict[int, str] = {}
        self.compat: dict[int, str] = {}
        self.compose: dict[tuple[int, int], int] = {}
        for line in text.splitlines():
            kind, *fields = line.split()
            if kind == "R":
                lo, hi = int(fields[0], 16), int(fields[1], 16)
                classes[lo : hi + 1] = bytes([_CODES[fields[2]]]) * (hi - lo + 1)
            elif kind == "L":
                self.lower[int(fields[0], 16)] = int(fields[1], 16)
            elif kind == "C":
                for cp in range(int(fields[0], 16), int(fields[1], 16) + 1):
                    self.ccc[cp] = int(fields[2])
            elif kind in ("D", "K"):
                target = self.canonical if kind == "D" else self.compat
                target[int(fields[0], 16)] = "".join(chr(int(f, 16)) for f in fields[1:])
            elif kind == "P":
                first, second, composite = (int(f, 16) for f in fields)
                self.compose[first, second] = composite
        self.classes = bytes(classes)


@functools.cache
def table() -> Table:
    """The parsed table (parsed on the first call, then shared)."""
    return Table(resources.files("briefpack").joinpath("data/chartable.txt").read_text("ascii"))


def classes() -> bytes:
    """One class per code point: SEPARATOR, WHITESPACE, WORD or IDEOGRAPH.

    >>> classes()[ord("中")] == IDEOGRAPH
    True
    """
    return table().classes
