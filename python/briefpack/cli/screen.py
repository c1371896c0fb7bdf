"""Human-readable output: rich tables and colour on a terminal, stable plain text elsewhere."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.console import Console


def _rich_console(color: str, stream: TextIO) -> Console | None:
    """A rich Console for ``stream``, or None for plain text (rich missing, or not a terminal)."""
    if color == "never":
        return None
    if color == "auto":
        isatty = getattr(stream, "isatty", None)
        if not (isatty and isatty()) or os.environ.get("TERM") == "dumb":
            return None
    try:
        from rich.console import Console
    except ImportError:
        return None
    return Console(file=stream, force_terminal=color == "always", highlight=False)


class Screen:
    """Human-readable output: rich on a terminal, stable plain text everywhere else."""

    def __init__(self, color: str = "auto", stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.console = _rich_console(color, self.stream)

    def line(self, text: str = "", style: str = "") -> None:
        if self.console is None:
            self.stream.write(text + "\n")
        else:
            from rich.text import Text

            self.console.print(Text(text, style=style))

    def section(self, title: str, body: str, highlight: str | None = None) -> None:
        if self.console is None:
            self.stream.write(f"--- {title} ---\n{body}\n\n")
            return
        from rich.text import Text

        self.console.rule(Text(title, style="bold"), align="left")
        text = Text(body)
        if highlight:
            text.highlight_words([highlight], style="bold black on yellow")
        self.console.print(text)
        self.console.print()

    def table(
        self,
        title: str,
        columns: Sequence[tuple[str, str]],
        rows: Sequence[Sequence[str]],
        styles: Sequence[str] = (),
    ) -> None:
        """``columns`` are (header, "left" | "right"); ``styles`` one rich style per row."""
        if self.console is None:
            self.stream.write(f"--- {title} ---\n" if title else "")
            self.stream.write(plain_table(columns, rows))
            self.stream.write("\n" if title else "")
            return
        from rich.table import Table
        from rich.text import Text

        table = Table(
            title=title or None,
            title_justify="left",
            title_style="bold",
            show_header=any(header for header, _ in columns),
        )
        for header, justify in columns:
            table.add_column(header, justify="right" if justify == "right" else "left")
        for i, row in enumerate(rows):
            table.add_row(*(Text(cell) for cell in row), style=styles[i] if styles else None)
        self.console.print(table)
        if title:
            self.console.print()

    def flush(self) -> None:
        self.stream.flush()


def plain_table(columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[str]]) -> str:
    """Align ``rows`` under ``columns`` with two spaces between columns; no trailing spaces.

    The header line is left out when every header is empty.

    >>> print(plain_table([("n", "right"), ("name", "left")], [["7", "a.txt"], ["12", "b"]]),
    ...       end="")
     n  name
     7  a.txt
    12  b
    """
    headers = [h for h, _ in columns]
    cells = [headers, *[list(r) for r in rows]] if any(headers) else [list(r) for r in rows]
    if not cells:
        return ""
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    lines = []
    for r in cells:
        parts = [
            c.rjust(w) if justify == "right" else c.ljust(w)
            for c, w, (_, justify) in zip(r, widths, columns)
        ]
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines) + "\n"
