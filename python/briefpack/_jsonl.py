"""The one JSON and JSONL reader: every JSONL file briefpack reads goes through ``json_lines``.

``parse_json`` is ``json.loads`` that refuses what the rest of briefpack cannot use: a key twice
in one object (JSON would keep only the last), an integer longer than ``MAX_DIGITS`` digits, a
float that overflows, a lone surrogate. ``read_lines`` splits a binary stream at ``\\n`` only
(never at U+2028, U+0085 or the other line breaks of ``str.splitlines``, which a JSON string
may hold raw), in bounded reads: a line longer than ``max_line_bytes`` is an error naming its
number, so a file without newlines (``/dev/zero``) cannot exhaust memory, and the whole
stream can be bounded too (``max_bytes``, for decompressed ``.gz`` data). ``json_lines``
joins the two: ``(line number, object)`` of each non-blank line of a file (``.gz`` is
decompressed as it is read). ``briefpack assemble``, ``dedupe``, ``route --corpus``,
``briefpack eval`` and ``briefpack.evaluation.read_requests`` all read through here.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import math
import os
import re
import stat
from collections.abc import Callable, Iterator
from typing import IO, Any

from .errors import InputError

__all__ = [
    "MAX_DATA_BYTES",
    "MAX_LINE_BYTES",
    "JSONValueError",
    "json_lines",
    "offset_of",
    "parse_json",
    "read_lines",
]

MAX_LINE_BYTES = 64 * 1024 * 1024
"""The longest line (in bytes, without its newline) a JSONL reader accepts by default: 64 MiB,
far above any candidate row; a longer one is an error naming the line (raise it with
``--max-line-bytes`` or ``max_line_bytes=``)."""

MAX_DATA_BYTES = 1024 * 1024 * 1024
"""The most bytes ``json_lines`` reads from one file by default (after decompression): 1 GiB,
so a small ``.gz`` that decompresses to gigabytes is refused as it is read (raise it with
``--max-data-bytes`` or ``max_bytes=``)."""


def skip_ws(s: str, i: int) -> int:
    while i < len(s) and s[i] in " \t\r\n":
        i += 1
    return i


MAX_DIGITS = 4300
"""Longest integer literal read (Python's own default limit for int/str conversion)."""


class JSONValueError(ValueError):
    """A value json can parse but briefpack cannot use; ``needle`` is its text, to locate it."""

    def __init__(self, message: str, needle: str | None = None) -> None:
        super().__init__(message)
        self.needle = needle


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise JSONValueError(
                f"duplicate key {json.dumps(key, ensure_ascii=False)} in one object (JSON would "
                "keep only the last); remove one"
            )
        obj[key] = value
    return obj


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise JSONValueError(
            f"a number with {digits} digits is longer than the {MAX_DIGITS} allowed; "
            "write it as a string",
            text,
        )
    return int(text)


def _float(text: str) -> float:
    x = float(text)
    if math.isinf(x):
        shown = text if len(text) <= 24 else text[:20] + "..."
        raise JSONValueError(f"the number {shown} is too large for a 64-bit float", text)
    return x


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogate(value: Any, path: str = "") -> tuple[str, str] | None:
    """The first lone surrogate in a parsed JSON value: (where, the character), else None."""
    if isinstance(value, str):
        m = _LONE_SURROGATE.search(value)
        return None if m is None else (path or "the value", m.group())
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if _LONE_SURROGATE.search(key):
                return _lone_surrogate(key, f"a key in {path}" if path else "a key")
            found = _lone_surrogate(item, where)
            if found is not None:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = _lone_surrogate(item, f"{path}[{i}]" if path else f"[{i}]")
            if found is not None:
                return found
    return None


def _check_unicode(value: Any, text: str) -> None:
    """A ``\\udXXX`` escape without its pair parses to a lone surrogate, which no output can
    encode: an error here, where the file and line are known (the ``needle`` locates it)."""
    if _SURROGATE_ESCAPE.search(text) is None:  # the only way JSON text can spell one
        return
    found = _lone_surrogate(value)
    if found is not None:
        where, ch = found
        escape = f"\\u{ord(ch):04x}"
        raise JSONValueError(
            f"{where} contains a lone surrogate U+{ord(ch):04X} (the escape {escape} without its "
            "pair), which is not valid Unicode; remove it or write the whole character",
            _find_escape(text, ord(ch)),
        )


def _find_escape(text: str, code: int) -> str | None:
    m = re.search(rf"\\u{code:04x}", text, re.IGNORECASE)
    return None if m is None else m.group()


def parse_json(text: str) -> Any:
    """``json.loads`` that rejects duplicate keys, overlong integers, overflowing floats and lone
    surrogates (an unpaired ``\\udXXX`` escape, which no output could encode).

    >>> parse_json('{"a": 1, "b": [2.5]}')
    {'a': 1, 'b': [2.5]}
    """
    value = json.loads(text, object_pairs_hook=_object, parse_int=_int, parse_float=_float)
    _check_unicode(value, text)
    return value


_PLAIN = json.JSONDecoder()


def _duplicate_key_at(s: str, i: int) -> tuple[int | None, int]:
    """Offset of the first key that repeats one of its object, and where the value ends."""
    i = skip_ws(s, i)
    opener = s[i : i + 1]
    if opener not in ("{", "["):
        return None, _PLAIN.raw_decode(s, i)[1]
    closer, seen, i = ("}" if opener == "{" else "]"), set(), skip_ws(s, i + 1)
    if s[i : i + 1] == closer:
        return None, i + 1
    while True:
        if opener == "{":
            i = skip_ws(s, i)
            key, j = _PLAIN.raw_decode(s, i)
            if key in seen:
                return i, j
            seen.add(key)
            i = skip_ws(s, j) + 1  # the colon
        found, i = _duplicate_key_at(s, i)
        if found is not None:
            return found, i
        i = skip_ws(s, i)
        if s[i : i + 1] != ",":
            return None, i + 1
        i += 1


def offset_of(exc: JSONValueError, text: str) -> int:
    """Where in ``text`` the problem is (0 when it cannot be found)."""
    with contextlib.suppress(ValueError, IndexError, RecursionError, TypeError):
        if exc.needle is not None:
            return max(text.find(exc.needle), 0)
        return _duplicate_key_at(text, 0)[0] or 0
    return 0


def _too_long(name: str, n: int, limit: int, how: str) -> InputError:
    return InputError(
        f"{name}:{n}:1: line {n} is longer than {limit:,} bytes (a file without newlines is one "
        f"line); if the file is right, raise the limit with {how}"
    )


def read_lines(
    f: IO[bytes],
    name: str,
    *,
    max_line_bytes: int = MAX_LINE_BYTES,
    max_bytes: int | None = None,
    how: str = "max_line_bytes=",
    on_read: Callable[[int], None] | None = None,
) -> Iterator[tuple[int, int, bytes]]:
    """(line number, byte offset, bytes without the ``\\n``) of each line of ``f``.

    Lines are split at ``\\n`` only; each is read with a bounded ``readline``, so at most
    ``max_line_bytes + 1`` bytes are held. A longer line raises ``InputError`` naming
    ``name`` and its number; more than ``max_bytes`` in all (when given) too. ``how`` is
    how the message tells the reader to raise the line limit. ``on_read(n)`` is told the bytes
    read, every 256 KiB or so (for progress).

    >>> import io
    >>> list(read_lines(io.BytesIO("a\\u2028b\\nc".encode()), "x"))
    [(1, 0, b'a\\xe2\\x80\\xa8b'), (2, 6, b'c')]
    >>> try:
    ...     list(read_lines(io.BytesIO(b"abcdef"), "x.jsonl", max_line_bytes=4))
    ... except InputError as exc:
    ...     print(str(exc)[:45])
    x.jsonl:1:1: line 1 is longer than 4 bytes (a
    """
    offset = reported = 0
    n = 0
    while True:
        try:
            data = f.readline(max_line_bytes + 1)
        except (OSError, EOFError, gzip.BadGzipFile) as exc:
            why = getattr(exc, "strerror", None) or exc
            raise InputError(f"{name}:{n + 1}:1: cannot read the file: {why}") from None
        if not data:
            break
        n += 1
        newline = data.endswith(b"\n")
        if len(data) - newline > max_line_bytes:
            raise _too_long(name, n, max_line_bytes, how)
        if max_bytes is not None and offset + len(data) > max_bytes:
            raise InputError(
                f"{name}:{n}:1: more than {max_bytes:,} bytes of data (after decompression); "
                "if the file is right, raise the limit with max_bytes= (--max-data-bytes)"
            )
        if on_read is not None and offset - reported >= _REPORT_EVERY:
            on_read(offset - reported)
            reported = offset
        yield n, offset, data[:-1] if newline else data
        offset += len(data)
    if on_read is not None and offset > reported:
        on_read(offset - reported)


_REPORT_EVERY = 1 << 18


def decode_line(data: bytes, name: str, n: int) -> str:
    """One line as text: UTF-8 (a BOM at the start of line 1 is skipped); a bad byte is
    reported as ``FILE:LINE:COLUMN``."""
    start = 3 if n == 1 and data.startswith(b"\xef\xbb\xbf") else 0
    try:
        return data[start:].decode("utf-8")
    except UnicodeDecodeError as exc:
        column = len(data[start : start + exc.start].decode("utf-8")) + 1
        raise InputError(
            f"{name}:{n}:{column}: not valid UTF-8 (byte 0x{data[start + exc.start]:02x}); "
            "save the file as UTF-8"
        ) from None


def parse_line(text: str, name: str, n: int) -> Any:
    """``parse_json`` of one line, every problem an ``InputError`` as ``FILE:LINE:COLUMN``."""
    try:
        return parse_json(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}:{n}:{exc.colno}: invalid JSON: {exc.msg}") from None
    except JSONValueError as exc:
        raise InputError(f"{name}:{n}:{offset_of(exc, text) + 1}: {exc}") from None
    except RecursionError:
        raise InputError(f"{name}:{n}:1: invalid JSON: nested too deeply") from None


def open_data(path: str | os.PathLike[str]) -> IO[bytes]:
    """Open ``path`` to read bytes; a name ending in ``.gz`` is decompressed as it is read.

    A folder, device, named pipe or socket is refused (an ``InputError``), so a data file
    cannot block or stream forever.
    """
    name = os.fspath(path)
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputError(f"{name}: cannot read the file: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(f"{name}: not a regular file; give the path of a data file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        raw = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    if name.endswith(".gz"):
        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]  # closed by json_lines
    return raw


def json_lines(
    path: str | os.PathLike[str],
    *,
    max_line_bytes: int = MAX_LINE_BYTES,
    max_bytes: int | None = MAX_DATA_BYTES,
) -> Iterator[tuple[int, Any]]:
    """(line number, parsed value) of each non-blank line of a JSONL file, read line by line.

    ``.gz`` is decompressed as it is read; lines are split at ``\\n`` only; duplicate keys,
    overlong lines and more than ``max_bytes`` of data are ``InputError``s naming the line.

    >>> import os, tempfile
    >>> with tempfile.NamedTemporaryFile("wb", suffix=".jsonl", delete=False) as f:
    ...     _ = f.write('{"q": "a\\u2028b"}\\n\\n{"q": 2}\\n'.encode())
    >>> list(json_lines(f.name))
    [(1, {'q': 'a\\u2028b'}), (3, {'q': 2})]
    >>> os.unlink(f.name)
    """
    name = os.fspath(path)
    f = open_data(name)
    try:
        for n, _, data in read_lines(f, name, max_line_bytes=max_line_bytes, max_bytes=max_bytes):
            text = decode_line(data, name, n)
            if text.strip():
                yield n, parse_line(text, name, n)
    finally:
        inner = getattr(f, "fileobj", None)
        f.close()
        if inner is not None:
            inner.close()
