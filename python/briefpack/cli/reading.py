"""Reading a whole input (a text, a record) within the run's bounds, and opening a stream."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass
from typing import BinaryIO

from .._jsonl import MAX_LINE_BYTES
from .._jsonl import parse_json as parse_json
from .common import MAX_IMAGE_BYTES, STDIN, UserError


def display(path: str) -> str:
    return "<stdin>" if path == STDIN else path


@dataclass
class Limits:
    """The input bounds of one run (``main`` sets them from the flags).

    ``max_line_bytes`` is the longest line of a JSONL input and the largest file read whole
    (a record, an answer, a history): past it the command stops with ``FILE:LINE:1: ...``
    instead of reading on (``/dev/zero`` or a file without newlines).
    """

    max_line_bytes: int = MAX_LINE_BYTES
    images_root: str | None = None
    max_image_bytes: int = MAX_IMAGE_BYTES


LIMITS = Limits()
LINE_FLAG = "--max-line-bytes"


def _read_bytes(path: str) -> bytes:
    limit = LIMITS.max_line_bytes
    if path == STDIN:
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:
            data = sys.stdin.read(limit + 1).encode("utf-8")
        else:
            data = buffer.read(limit + 1)
    else:
        try:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
        except OSError as exc:
            raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise UserError(
            f"{display(path)}:1:1: larger than {limit:,} bytes, the most a file read whole may "
            f"hold; if the file is right, raise the limit with {LINE_FLAG}"
        )
    return data


def _decode(data: bytes, name: str) -> str:
    """Decode UTF-8 (a leading BOM is skipped); a bad byte is reported as file:line:column."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        start = data.rfind(b"\n", 0, exc.start) + 1
        column = len(data[start : exc.start].decode("utf-8", "replace")) + 1
        raise UserError(
            f"{name}:{line}:{column}: not valid UTF-8 (byte 0x{data[exc.start]:02x}); "
            "save the file as UTF-8"
        ) from None


def read_text(path: str) -> str:
    return _decode(_read_bytes(path), display(path))


def _open_binary(path: str) -> BinaryIO:
    if path == STDIN:
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # a text stdin without bytes (some embedders): read it as UTF-8
            return io.BytesIO(sys.stdin.read().encode("utf-8"))
        return buffer  # type: ignore[no-any-return]
    try:
        return open(path, "rb")
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
