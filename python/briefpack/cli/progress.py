"""Progress on stderr for long work, when stderr is a terminal; nothing at all otherwise.

A rich progress bar (``pip install 'briefpack[cli]'``) that erases itself when the work is
done, so a terminal keeps only the results. When stderr is not a terminal (a pipe, a file, a
test), when ``TERM=dumb``, with ``--color never``, or without rich, ``progress`` hands back a
callback that does nothing and writes nothing.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator

Advance = Callable[[int], None]


def _stderr_is_tty() -> bool:
    """Whether stderr is a terminal that can show a progress bar (the one place that decides)."""
    isatty = getattr(sys.stderr, "isatty", None)
    try:
        return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"
    except ValueError:  # a closed stream
        return False


def _nothing(_: int) -> None:
    return None


@contextlib.contextmanager
def progress(
    description: str, total: int | None, color: str = "auto", *, unit: str = "bytes"
) -> Iterator[Advance]:
    """A bar for ``total`` units (``unit`` bytes or items; None: unknown size) on stderr.

    Yields ``advance(n)``, to call as the work goes; it does nothing when stderr is not a
    terminal, so the command's output and stderr are the same as without it.

    >>> with progress("counting", 100) as advance:  # stderr is not a terminal here
    ...     advance(100)
    """
    if color == "never" or not _stderr_is_tty():
        yield _nothing
        return
    try:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
    except ImportError:
        yield _nothing
        return
    columns = [TextColumn("{task.description}"), BarColumn()]
    if total is not None:
        count = DownloadColumn() if unit == "bytes" else MofNCompleteColumn()
        columns += [count, TimeRemainingColumn()]
    else:
        columns.append(TimeElapsedColumn())
    console = Console(file=sys.stderr, force_terminal=True)
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n: bar.advance(task, n)


def file_size(path: str) -> int | None:
    """The size of a regular file in bytes, else None (stdin, a pipe, a missing file)."""
    if path == "-":
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    import stat

    return st.st_size if stat.S_ISREG(st.st_mode) else None
