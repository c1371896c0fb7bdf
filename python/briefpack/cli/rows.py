"""JSONL rows: reading them lazily (``Rows``), checking each and making it a ``Chunk``.

Every problem in a row is reported as ``FILE:LINE:COLUMN: ...``; a row's page image is read
here, within the run's bounds.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import sys
import tempfile
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, overload

from .._jsonl import JSONValueError, decode_line, offset_of, read_lines
from .._jsonl import parse_json as parse_json
from .._jsonl import skip_ws as _skip_ws
from ..candidates import CHUNK_FIELDS, describe, to_chunk
from ..errors import BriefpackError, InputError
from ..types import Chunk
from .common import STDIN, UserError
from .reading import LIMITS, LINE_FLAG, _open_binary, display


@dataclass(frozen=True)
class Row:
    """One non-blank line of a JSONL file: where it is, its raw text and its parsed object."""

    line: int
    raw: str
    obj: dict[str, Any]


def _value_columns(raw: str) -> dict[str, int]:
    """1-based column of each top-level value of the JSON object on one line (for messages)."""
    decoder = json.JSONDecoder()
    columns: dict[str, int] = {}
    i = _skip_ws(raw, 0)
    if raw[i : i + 1] != "{":
        return columns
    i += 1
    with contextlib.suppress(ValueError, IndexError):
        while True:
            i = _skip_ws(raw, i)
            if raw[i : i + 1] != '"':
                break
            key, i = decoder.raw_decode(raw, i)
            i = _skip_ws(raw, i)
            if raw[i : i + 1] != ":":
                break
            i = _skip_ws(raw, i + 1)
            columns.setdefault(key, i + 1)
            _, i = decoder.raw_decode(raw, i)
            i = _skip_ws(raw, i)
            if raw[i : i + 1] != ",":
                break
            i += 1
    return columns


_REPORT_EVERY = 1 << 18  # bytes between two reports to on_read


def _lines(
    f: BinaryIO, name: str, on_read: Callable[[int], None] | None = None
) -> Iterator[tuple[int, int, str]]:
    """(line number, byte offset, text) of each line of ``f``, split at ``\\n`` only, each at
    most ``LIMITS.max_line_bytes`` long (the one line reader, ``briefpack._jsonl``)."""
    try:
        for n, offset, data in read_lines(
            f, name, max_line_bytes=LIMITS.max_line_bytes, how=LINE_FLAG, on_read=on_read
        ):
            yield n, offset, decode_line(data, name, n)
    except InputError as exc:
        raise UserError(str(exc)) from None


def _parse_row(raw: str, n: int, name: str, strings: bool) -> Row:
    try:
        obj = parse_json(raw)
    except json.JSONDecodeError as exc:
        raise UserError(f"{name}:{n}:{exc.colno}: invalid JSON: {exc.msg}") from None
    except JSONValueError as exc:
        raise UserError(f"{name}:{n}:{offset_of(exc, raw) + 1}: {exc}") from None
    except RecursionError:
        raise UserError(f"{name}:{n}:1: invalid JSON: nested too deeply") from None
    if strings and isinstance(obj, str):
        obj = {"text": obj}
    if not isinstance(obj, dict):
        column = _skip_ws(raw, 0) + 1
        raise UserError(
            f"{name}:{n}:{column}: expected a JSON object with Chunk's keys "
            f"({', '.join(CHUNK_FIELDS)}){' or a JSON string' if strings else ''}, got a "
            f"JSON {_json_type(obj)}"
        )
    return Row(n, raw, obj)


class Rows(Sequence[Row]):
    """The rows of a JSONL file read once, line by line, keeping only where each one is.

    ``rows[i]`` reads row ``i`` again (for an error message about it); stdin is copied to a
    temporary file as it is read, so it can be read again too. Use it as a context manager.
    """

    def __init__(
        self, path: str, *, strings: bool = False, on_read: Callable[[int], None] | None = None
    ) -> None:
        self.path, self.name, self.strings = path, display(path), strings
        self.on_read = on_read  # told the bytes read as reading goes (for progress)
        self._lines = array("Q")  # line number of row i
        self._offsets = array("Q")  # byte offset of row i in the file (or the copy of stdin)
        self._copy: BinaryIO | None = None

    def __iter__(self) -> Iterator[Row]:
        """Read the file (once), yielding each non-blank line parsed."""
        self._lines, self._offsets = array("Q"), array("Q")
        f = _open_binary(self.path)
        if self.path == STDIN:
            self._copy = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        try:
            for n, offset, raw in _lines(f, self.name, self.on_read):
                if self._copy is not None:
                    offset = self._copy.tell()
                    self._copy.write(raw.encode("utf-8") + b"\n")
                if not raw.strip():
                    continue
                row = _parse_row(raw, n, self.name, self.strings)
                self._lines.append(n)
                self._offsets.append(offset)
                yield row
        finally:
            if self.path != STDIN:
                f.close()

    def __len__(self) -> int:
        return len(self._lines)

    @overload
    def __getitem__(self, index: int) -> Row: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Row]: ...
    def __getitem__(self, index: int | slice) -> Row | Sequence[Row]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = self._lines[index]
        with contextlib.suppress(OSError, UserError, UnicodeDecodeError):
            if self._copy is not None:
                self._copy.seek(self._offsets[index])
                data = self._copy.readline()
            else:
                with open(self.path, "rb") as f:
                    f.seek(self._offsets[index])
                    data = f.readline()
            start = 3 if self._offsets[index] == 0 and data.startswith(b"\xef\xbb\xbf") else 0
            raw = data[start:].decode("utf-8").rstrip("\n")
            return _parse_row(raw, n, self.name, self.strings)
        return Row(n, "", {})  # the file changed since: the line is still right

    def close(self) -> None:
        if self._copy is not None:
            self._copy.close()
            self._copy = None

    def __enter__(self) -> Rows:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_jsonl(
    path: str, *, strings: bool = False, on_read: Callable[[int], None] | None = None
) -> list[Row]:
    """Read one JSON object per line (blank lines are skipped).

    Lines are split at ``\\n`` only (a JSON string may hold U+2028 raw). A syntax error is
    reported as ``FILE:LINE:COLUMN: invalid JSON: ...``. With ``strings``, a line may also be
    a JSON string, read as ``{"text": ...}``.
    """
    with Rows(path, strings=strings, on_read=on_read) as rows:
        return list(rows)


def read_chunks(rows: Rows, **limits: Any) -> list[Chunk]:
    """Read ``rows`` and make each a ``Chunk`` (as ``rows_to_chunks``), holding one row at a time.

    The parsed object and the line's text are dropped once its ``Chunk`` exists; ``rows``
    remembers where each line is for error messages. ``limits``: ``to_chunk``'s page-image
    decoding limits (``max_pixels``, ``budget``).
    """
    return [row_to_chunk(row, index, rows.name, **limits) for index, row in enumerate(rows)]


def _json_type(value: object) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    return "number"


_CANDIDATE = re.compile(r"candidate (\d+) ")


def locate(message: str, rows: Sequence[Row], name: str, chunks: Sequence[Chunk] = ()) -> str:
    """Prefix a library message about ``candidate N (id=...)`` with ``FILE:LINE:COLUMN``.

    The column is that of the value the message is about (its first word after the candidate,
    e.g. ``score must be ...``), else that of the object.
    """
    m = _CANDIDATE.match(message)
    if not m or int(m.group(1)) >= len(rows):
        return message
    index = int(m.group(1))
    return _locate_row(
        message, rows[index], index, name, chunks[index] if index < len(chunks) else None
    )


def _locate_row(message: str, row: Row, index: int, name: str, chunk: Chunk | None) -> str:
    column = _skip_ws(row.raw, 0) + 1
    ids = [row.obj.get("id")]
    if chunk is not None:
        ids.append(chunk.id)
    for cid in ids:
        for shown in (cid, None if cid is None else str(cid)):
            prefix = describe(index, shown) + ": "
            if message.startswith(prefix):
                word = re.split(r"[\s:]", message[len(prefix) :], maxsplit=1)[0]
                column = _value_columns(row.raw).get(word, column)
                return f"{name}:{row.line}:{column}: {message}"
    return f"{name}:{row.line}:{column}: {message}"


def _check_float_range(known: dict[str, Any], row: Row, name: str) -> None:
    """An integer ``score`` or vector element beyond a float's range is an error here."""
    vector = known.get("vector")
    for key, values in (("score", [known.get("score")]), ("vector", vector)):
        if not isinstance(values, list):
            continue
        for x in values:
            if isinstance(x, int) and not isinstance(x, bool) and abs(x) > sys.float_info.max:
                column = _value_columns(row.raw).get(key, 1)
                raise UserError(
                    f"{name}:{row.line}:{column}: {key}: a number with {len(str(abs(x)))} "
                    "digits is too large for a 64-bit float"
                )


def row_to_chunk(row: Row, index: int, name: str, **limits: Any) -> Chunk:
    """Check one row and make it a ``Chunk``; keys that are not Chunk's go into ``meta``.

    ``image`` is a path to a PNG or JPEG file, relative to the folder of the file ``name``
    (or ``--images-root``), read by ``_read_image`` (which refuses anything outside it).
    """
    known = {k: v for k, v in row.obj.items() if k in CHUNK_FIELDS}
    extra = {k: v for k, v in row.obj.items() if k not in CHUNK_FIELDS}
    if extra:
        given = known.get("meta")
        if given is not None and not isinstance(given, dict):
            column = _value_columns(row.raw).get("meta", 1)
            raise UserError(
                f"{name}:{row.line}:{column}: meta must be a JSON object, got a JSON "
                f"{_json_type(given)}"
            )
        known["meta"] = {**extra, **(given or {})}
    _check_float_range(known, row, name)
    image = known.get("image")
    if isinstance(image, str) and image:
        known["image"] = _read_image(image, row, name)
    try:
        return to_chunk(known, index, **limits)
    except BriefpackError as exc:
        message = str(exc)
        if _CANDIDATE.match(message):
            message = _locate_row(message, row, index, name, None)
        raise UserError(message) from None
    except ModuleNotFoundError as exc:  # an image row without Pillow: say which extra
        raise UserError(f"{name}:{row.line}:1: {exc}") from None
    except TypeError as exc:  # pragma: no cover - to_chunk checks every field it takes
        raise UserError(f"{name}:{row.line}:1: {exc}") from None


def _images_root(name: str) -> str:
    if LIMITS.images_root is not None:
        return LIMITS.images_root
    return "." if name == display(STDIN) else os.path.dirname(name) or "."


def _read_image(image: str, row: Row, name: str) -> bytes:
    """The bytes of the page image a row names: a regular file under the images root (the
    JSONL file's folder, or ``--images-root``) after every symbolic link is resolved, at most
    ``--max-image-bytes`` long. A device or named pipe is never opened for a blocking read."""
    column = _value_columns(row.raw).get("image", 1)

    def refuse(why: str) -> UserError:
        shown = json.dumps(image, ensure_ascii=False)
        return UserError(f"{name}:{row.line}:{column}: image {shown}: {why}")

    if "\0" in image:
        raise refuse("a path cannot hold a NUL character")
    root = _images_root(name)
    real_root = os.path.realpath(root)
    path = os.path.realpath(os.path.join(root, image))
    if os.path.commonpath([real_root, path]) != real_root:
        raise refuse(
            f"leads out of {root} (the folder images are read under); move the image there "
            "or name another folder with --images-root"
        )
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise UserError(
            f"{name}:{row.line}:{column}: image file {os.path.join(root, image)!r} does not exist"
        ) from None
    except OSError as exc:
        raise refuse(f"cannot read it: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise refuse("not a regular file (a page image is a PNG or JPEG file)")
        limit = LIMITS.max_image_bytes
        if info.st_size > limit:
            raise refuse(
                f"{info.st_size:,} bytes, more than the {limit:,} allowed; if the image is "
                "right, raise the limit with --max-image-bytes"
            )
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
        if len(data) > limit:  # it grew while being read
            raise refuse(f"more than the {limit:,} bytes allowed (--max-image-bytes)")
        return data
    except OSError as exc:
        raise refuse(f"cannot read it: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def rows_to_chunks(rows: Sequence[Row], name: str) -> list[Chunk]:
    """Check each row and make it a ``Chunk``; keys that are not Chunk's go into ``meta``."""
    return [row_to_chunk(row, index, name) for index, row in enumerate(rows)]
