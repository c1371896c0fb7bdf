"""Reading the command line's input (JSONL, JSON, text) and writing its output atomically.

Every problem in an input file is reported as ``FILE:LINE:COLUMN: ...``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .._files import WriteError, refuse_special, write_file
from .._jsonl import JSONValueError, offset_of
from .._jsonl import parse_json as parse_json
from .common import STDIN, OutputError, UserError
from .reading import LIMITS as LIMITS
from .reading import LINE_FLAG as LINE_FLAG
from .reading import Limits as Limits
from .reading import _open_binary
from .reading import display as display
from .reading import read_text as read_text
from .rows import Row as Row
from .rows import Rows as Rows
from .rows import locate as locate
from .rows import read_chunks as read_chunks
from .rows import read_jsonl as read_jsonl
from .rows import row_to_chunk as row_to_chunk
from .rows import rows_to_chunks as rows_to_chunks

READ_SIZE = 1 << 20
"""Bytes read at a time by the readers that stream (``read_pieces``)."""


def read_pieces(
    path: str, size: int | None = None, on_read: Callable[[int], None] | None = None
) -> Iterator[str]:
    """The UTF-8 text of ``path`` in pieces of about ``size`` bytes (default ``READ_SIZE``).

    The pieces join to ``read_text(path)``: a leading BOM is skipped, a character split
    between two reads is carried over, and a bad byte is reported as ``FILE:LINE:COLUMN``.
    ``on_read(n)`` is told the number of bytes of each read (for progress).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("wb", delete=False) as f:
    ...     _ = f.write("\\ufeffnaïve\\n東京".encode())
    >>> list(read_pieces(f.name, 2))
    ['n', 'a', 'ïv', 'e\\n', '東', '京']
    >>> os.unlink(f.name)
    """
    size = READ_SIZE if size is None else size
    name = display(path)
    f = _open_binary(path)
    line, column = 1, 1  # where the text read so far ends
    pending = b""
    first = True
    try:
        while True:
            try:
                chunk = f.read(size)
            except OSError as exc:
                raise UserError(f"cannot read {name}: {exc.strerror or exc}") from None
            if on_read is not None and chunk:
                on_read(len(chunk))
            data = pending + chunk if pending else chunk
            if first:
                if len(data) < 3 and chunk:  # too short to tell whether a BOM starts it
                    pending = data
                    continue
                first = False
                if data.startswith(b"\xef\xbb\xbf"):
                    data = data[3:]
            try:
                text = data.decode("utf-8")
                pending = b""
            except UnicodeDecodeError as exc:
                if chunk and exc.end == len(data) and exc.reason == "unexpected end of data":
                    text, pending = data[: exc.start].decode("utf-8"), data[exc.start :]
                else:
                    before = data[: exc.start].decode("utf-8")
                    newline = before.rfind("\n")
                    if newline == -1:
                        column += len(before)
                    else:
                        line, column = line + before.count("\n"), len(before) - newline
                    raise UserError(
                        f"{name}:{line}:{column}: not valid UTF-8 (byte 0x{data[exc.start]:02x}); "
                        "save the file as UTF-8"
                    ) from None
            if text:
                newline = text.rfind("\n")
                if newline == -1:
                    column += len(text)
                else:
                    line, column = line + text.count("\n"), len(text) - newline
                yield text
            if not chunk:
                return
    finally:
        if path != STDIN:
            f.close()


def read_json(path: str) -> Any:
    name = display(path)
    text = read_text(path)
    try:
        return parse_json(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{name}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    except JSONValueError as exc:
        at = offset_of(exc, text)
        line, column = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
        raise UserError(f"{name}:{line}:{column}: {exc}") from None
    except RecursionError:
        raise UserError(f"{name}:1:1: invalid JSON: nested too deeply") from None


# --------------------------------------------------------------------------- writing output


def write_atomic(path: str, text: str | Iterable[str] | bytes) -> None:
    """Write ``text`` to ``path`` through the one writer (``briefpack._files.write_file``).

    Readers never see a half-written file, and an error, Ctrl-C or SIGTERM leaves any old
    file untouched and no temporary file behind. A path that names a device, a named pipe,
    a folder or a symbolic link is refused (exit status 74), never replaced; ``-o -`` writes
    to stdout. ``text`` may come in pieces (``json_pieces``), written as they come.
    """
    try:
        refuse_special(path)
    except WriteError as exc:
        raise OutputError(f"{exc}; leave out -o (or give -o -) to write to stdout") from None
    try:
        write_file(path, text)
    except WriteError as exc:
        raise OutputError(str(exc)) from None


def emit(text: str | Iterable[str], out: str | None) -> None:
    """Write machine output: to ``out`` atomically, or to stdout when ``out`` is None or -."""
    if out is None or out == STDIN:
        sys.stdout.writelines([text] if isinstance(text, str) else text)
        sys.stdout.flush()
    else:
        write_atomic(out, text)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def json_pieces(value: Any) -> Iterator[str]:
    """``dumps(value)`` in pieces, so a large record is written without being held as one string.

    >>> "".join(json_pieces({"a": [1, "é"]})) == dumps({"a": [1, "é"]})
    True
    """
    yield from json.JSONEncoder(ensure_ascii=False, indent=2).iterencode(value)
    yield "\n"
