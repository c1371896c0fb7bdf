"""The one writer: every file briefpack writes goes through ``write_file``.

A target is written through a temporary file in its own folder that is renamed over it, so a
reader never sees half a file and an error leaves an old file as it was. Only a regular file
(or a name that does not exist yet) is a target: a device, a named pipe, a socket, a folder
or a symbolic link is refused with a ``WriteError`` that says what it is, so ``--out
/dev/full`` cannot replace a device node and a link cannot redirect the write to a file the
caller did not name. The temporary file is removed on any error, on Ctrl-C and on SIGTERM
(while the writer runs in the main thread, SIGTERM is turned into an exception; once the file
is removed the signal is raised again, so the process still ends as SIGTERM asks).
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from .errors import BriefpackError

__all__ = ["WriteError", "refuse_special", "write_file"]

Content = str | bytes | Iterable[str] | Iterable[bytes] | Callable[[IO[bytes]], None]
"""What ``write_file`` writes: text (UTF-8), bytes, pieces of either (written as they come,
so a large output is never held as one string), or a callable given the open binary file."""


class WriteError(BriefpackError, OSError):
    """A file could not be written, or its path names something that is not a regular file."""


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
)


def refuse_special(path: str) -> None:
    """Raise ``WriteError`` unless ``path`` is a regular file or does not exist.

    A symbolic link is refused (never followed), whatever it points at.

    >>> try:
    ...     refuse_special("/dev/null")
    ... except WriteError as exc:
    ...     print(str(exc)[:52])
    cannot write /dev/null: it is a character device, no
    """
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {exc.strerror or exc}") from None
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise WriteError(
        f"cannot write {path}: it is {kind}, not a regular file; give the path of a regular "
        "file (or a new name)"
    )


class _Terminated(BaseException):
    """SIGTERM arrived while a file was being written."""


@contextlib.contextmanager
def _sigterm_as_exception() -> Iterator[None]:
    """Within the block, SIGTERM raises ``_Terminated`` (main thread only; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise _Terminated

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except (ValueError, OSError):  # pragma: no cover - no signals here (an embedded interpreter)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _new_file_mode(target: str) -> int:
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _fill(f: IO[bytes], content: Content) -> None:
    if callable(content):
        content(f)
    elif isinstance(content, bytes):
        f.write(content)
    elif isinstance(content, str):
        f.write(content.encode("utf-8"))
    else:
        for piece in content:
            f.write(piece.encode("utf-8") if isinstance(piece, str) else piece)


def write_file(path: str | os.PathLike[str], content: Content) -> None:
    """Write ``content`` to ``path`` atomically (a temporary file in the same folder, renamed).

    Raises ``WriteError`` (one line: the path and why) when ``path`` is a device, named pipe,
    socket, folder or symbolic link, or when the write fails (no such folder, disk full, no
    permission). An existing file keeps its permission bits.

    >>> import os, pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> write_file(folder / "out.txt", ["a", "b\\n"])
    >>> (folder / "out.txt").read_text(), os.listdir(folder)
    ('ab\\n', ['out.txt'])
    """
    name = os.fspath(path)
    refuse_special(name)
    folder = os.path.dirname(os.path.abspath(name))
    tmp: str | None = None
    try:
        with _sigterm_as_exception():
            try:
                fd, tmp = tempfile.mkstemp(
                    prefix=f".{os.path.basename(name)}.", suffix=".tmp", dir=folder
                )
                with os.fdopen(fd, "wb") as f:
                    _fill(f, content)
                    f.flush()
                    os.fsync(f.fileno())
                os.chmod(tmp, _new_file_mode(name))
                refuse_special(name)  # it may have been swapped for a link meanwhile
                os.replace(tmp, name)  # replaces a name, never follows one
                tmp = None
            finally:
                if tmp is not None:
                    with contextlib.suppress(OSError):
                        os.unlink(tmp)
    except _Terminated:
        signal.raise_signal(signal.SIGTERM)  # the default handler is back: end as asked
        raise KeyboardInterrupt from None  # pragma: no cover - a handler that returned
    except WriteError:
        raise
    except OSError as exc:
        raise WriteError(f"cannot write {name}: {exc.strerror or exc}") from None
