"""``updated`` given as a date or a timestamp (what data frames and Arrow read a date column as)
is ISO-8601 text, by one rule (``briefpack.candidates.iso_updated``), wherever candidates are
read: ``assemble``'s mappings and ``Chunk``s, and the adapters' metadata."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

import briefpack as bp
from briefpack.candidates import iso_updated
from briefpack.integrations._metadata import pick_fields

UTC_PLUS_2 = dt.timezone(dt.timedelta(hours=2))


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (dt.date(2025, 6, 26), "2025-06-26"),
        (dt.datetime(2025, 6, 26), "2025-06-26"),  # midnight, naive: the date it names
        (dt.datetime(2025, 6, 26, 9, 30), "2025-06-26T09:30:00"),
        (dt.datetime(2025, 6, 26, 9, 30, 0, 250), "2025-06-26T09:30:00.000250"),
        (dt.datetime(2025, 6, 26, 1, 0, tzinfo=UTC_PLUS_2), "2025-06-25T23:00:00Z"),
        (dt.datetime(2025, 6, 26, tzinfo=dt.timezone.utc), "2025-06-26T00:00:00Z"),
        ("2024-06", "2024-06"),
    ],
)
def test_dates_and_datetimes_become_iso_text(value: object, text: str) -> None:
    assert iso_updated(value) == text
    got = bp.assemble("q", [{"text": "a", "updated": value}], budget=100, tokenizer="approx")
    assert got.sources[0].chunk.updated == text
    assert f'updated="{text}"' in got.user
    chunk = bp.assemble("q", [bp.Chunk("a", updated=value)], budget=100, tokenizer="approx")  # type: ignore[arg-type]
    assert chunk.sources[0].chunk.updated == text


def test_numpy_pandas_and_arrow_timestamps() -> None:
    np = pytest.importorskip("numpy")
    pd = pytest.importorskip("pandas")
    values: list[Any] = [
        np.datetime64("2025-06-26"),
        np.datetime64("2025-06-26T00:00:00", "s"),
        pd.Timestamp("2025-06-26"),
    ]
    assert [iso_updated(v) for v in values] == ["2025-06-26"] * 3
    nano = np.datetime64("2025-06-26T10:11:12.5", "ns")
    assert iso_updated(nano) == "2025-06-26T10:11:12.500000"
    stamp = pd.Timestamp("2025-06-26 10:00:00.123456789")
    assert iso_updated(stamp) == "2025-06-26T10:00:00.123456"  # nanoseconds dropped
    berlin = pd.Timestamp("2025-06-26 10:00", tz="Europe/Berlin")
    assert iso_updated(berlin) == "2025-06-26T08:00:00Z"
    assert iso_updated(pd.NaT) == ""
    assert iso_updated(np.datetime64("NaT")) == ""
    pa = pytest.importorskip("pyarrow")
    assert iso_updated(pa.scalar(dt.date(2025, 6, 26))) == "2025-06-26"
    assert iso_updated(pa.scalar(pd.Timestamp("2025-06-26 10:00"))) == "2025-06-26T10:00:00"


def test_a_timestamp_takes_part_in_supersede_like_its_text() -> None:
    old = {"text": "Cap was 3000 EUR.", "url": "u", "updated": dt.date(2024, 1, 2)}
    new = {"text": "Cap is 4000 EUR.", "url": "u", "updated": dt.datetime(2025, 6, 26)}
    got = bp.assemble("Cap?", [old, new], budget=200, tokenizer="approx", supersede="url")
    as_text = bp.assemble(
        "Cap?",
        [{**old, "updated": "2024-01-02"}, {**new, "updated": "2025-06-26"}],
        budget=200,
        tokenizer="approx",
        supersede="url",
    )
    assert got.user == as_text.user
    assert [d.reason for d in got.dropped] == ["superseded"]


def test_other_types_are_still_refused_with_what_is_accepted() -> None:
    with pytest.raises(bp.InputError, match=r"updated must be a str \(or a date, a datetime"):
        bp.assemble("q", [{"text": "a", "updated": 20250626}], budget=100, tokenizer="approx")
    with pytest.raises(bp.InputError, match=r"title must be a str, got date"):
        bp.assemble("q", [{"text": "a", "title": dt.date(2025, 1, 1)}], budget=100)


def test_adapter_metadata_reads_a_date() -> None:
    keys = {"updated": ("updated", "last_modified_date")}
    assert pick_fields({"last_modified_date": dt.date(2025, 6, 26)}, keys) == {
        "updated": "2025-06-26"
    }
    assert pick_fields({"updated": 3, "last_modified_date": "2025-01-01"}, keys) == {
        "updated": "2025-01-01"
    }
