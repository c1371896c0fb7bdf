"""The one JSONL reader under generated input: hostile characters, sizes and bytes.

Every file is either read back exactly (the values ``json.dumps`` wrote, line numbers counted
at ``\\n`` only, so U+2028, U+0085 and friends stay inside their strings), or refused with an
``InputError`` naming the file and line; never a raw exception.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from briefpack._jsonl import json_lines
from briefpack.errors import InputError

HOSTILE = st.sampled_from(["\u2028", "\u2029", "\u0085", "\x0b", "\x0c", "\x1c", "\r", "\x00"])
TEXT = st.lists(st.one_of(st.text(max_size=20), HOSTILE), max_size=8).map("".join)
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(10**30), 10**30), TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12,
)
ROWS = st.lists(st.dictionaries(TEXT, VALUES, min_size=1, max_size=5), max_size=6)


def _no_lone_surrogate(value: object) -> bool:
    text = json.dumps(value, ensure_ascii=False)
    return not any(0xD800 <= ord(c) <= 0xDFFF for c in text)


@settings(deadline=None)
@given(rows=ROWS, blank=st.booleans(), gz=st.booleans())
def test_what_json_dumps_wrote_is_read_back_exactly(
    tmp_path_factory: object, rows: list[dict[str, object]], blank: bool, gz: bool
) -> None:
    rows = [r for r in rows if _no_lone_surrogate(r)]
    lines = [json.dumps(r, ensure_ascii=False) for r in rows]
    if blank:
        lines = [x for line in lines for x in (line, "")]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    path = Path(tmp_path_factory.mktemp("j")) / ("rows.jsonl.gz" if gz else "rows.jsonl")  # type: ignore[attr-defined]
    path.write_bytes(gzip.compress(data) if gz else data)
    got = list(json_lines(path))
    assert [v for _, v in got] == rows
    step = 2 if blank else 1
    assert [n for n, _ in got] == [1 + step * i for i in range(len(rows))]


def _read(path: Path, **limits: int) -> tuple[list[tuple[int, object]] | None, str | None]:
    """The rows read, or the message of the ``InputError`` that refused the file."""
    try:
        return list(json_lines(path, **limits)), None
    except InputError as exc:
        return None, str(exc)


@settings(deadline=None)
@given(data=st.binary(max_size=300))
def test_any_bytes_are_read_or_refused_with_the_line(tmp_path_factory: object, data: bytes) -> None:
    path = Path(tmp_path_factory.mktemp("b")) / "any.jsonl"  # type: ignore[attr-defined]
    path.write_bytes(data)
    _, error = _read(path)
    assert error is None or "any.jsonl" in error


@settings(deadline=None)
@given(n=st.integers(1, 40), limit=st.integers(1, 30))
def test_a_line_over_the_limit_is_refused_by_number(
    tmp_path_factory: object, n: int, limit: int
) -> None:
    path = Path(tmp_path_factory.mktemp("l")) / "long.jsonl"  # type: ignore[attr-defined]
    first, line = '{"q": 1}', json.dumps({"q": "x" * n})
    path.write_text(first + "\n" + line + "\n")
    got, error = _read(path, max_line_bytes=limit)
    if len(first) > limit:
        assert error is not None
        assert "long.jsonl:1" in error
    elif len(line) > limit:
        assert error is not None
        assert "long.jsonl:2" in error
    else:
        assert got == [(1, {"q": 1}), (2, {"q": "x" * n})]


def test_duplicate_keys_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "dup.jsonl"
    path.write_text('{"q": 1, "q": 2}\n')
    with pytest.raises(InputError, match=r"dup\.jsonl"):
        list(json_lines(path))
