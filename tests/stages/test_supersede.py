"""Stage: supersede. Among items sharing a url (or doc) only the newest updated stays."""

from __future__ import annotations

import pytest
from stage_kit import drops, ids, start

from briefpack import InputError
from briefpack._stages import supersede

ROWS = [
    {"text": "v1", "id": "old", "url": "u", "updated": "2023-01-01"},
    {"text": "v2", "id": "new", "url": "u", "updated": "2024-01-01"},
    {"text": "x", "id": "other", "url": "", "updated": "2020-01-01"},
]


def test_older_versions_of_one_url_are_superseded(backend: str) -> None:
    items, req = start(backend, ROWS, supersede="url")
    assert ids(supersede.run(items, req)) == ["new", "other"]
    assert drops(req) == {"old": ("superseded", {"by": "new", "updated": "2024-01-01", "url": "u"})}


def test_by_doc_groups_by_document(backend: str) -> None:
    rows = [dict(r, doc="d", url="") for r in ROWS]
    items, req = start(backend, rows, supersede="doc")
    assert ids(supersede.run(items, req)) == ["new"]
    assert drops(req)["other"] == (
        "superseded",
        {"by": "new", "updated": "2024-01-01", "doc": "d"},
    )


def _versions(*updated: str) -> list[dict[str, str]]:
    return [
        {"text": f"v{i}", "id": f"v{i}", "url": "u", "updated": u} for i, u in enumerate(updated)
    ]


def _kept(backend: str, *updated: str) -> list[str | None]:
    items, req = start(backend, _versions(*updated), supersede="url")
    return ids(supersede.run(items, req))


def test_updated_is_compared_as_an_instant_not_a_string(backend: str) -> None:
    # 10:00+02:00 is 08:00 UTC, an hour before 09:00Z
    assert _kept(backend, "2023-05-05T10:00:00+02:00", "2023-05-05T09:00:00Z") == ["v1"]
    assert _kept(backend, "2023-09-01", "2023-10-01") == ["v1"]
    assert _kept(backend, "2024-01-01T00:00:00.25", "2024-01-01T00:00:00.3") == ["v1"]
    # no offset means UTC; a date alone is its midnight
    assert _kept(backend, "2024-01-01", "2024-01-01T00:00:01") == ["v1"]
    assert _kept(backend, "2024-01-01T00:30", "2024-01-01T01:00+01:00") == ["v0"]


def test_the_same_instant_written_two_ways_is_a_tie_and_keeps_both(backend: str) -> None:
    assert _kept(backend, "2023-05-05T10:00:00+02:00", "2023-05-05T08:00Z") == ["v0", "v1"]
    assert _kept(backend, "2024-01-01T00:00:00.50", "2024-01-01T00:00:00,5") == ["v0", "v1"]


def test_empty_updated_is_older_than_any_date(backend: str) -> None:
    items, req = start(backend, _versions("", "0001-01-01"), supersede="url")
    assert ids(supersede.run(items, req)) == ["v1"]
    assert drops(req) == {"v0": ("superseded", {"by": "v1", "updated": "0001-01-01", "url": "u"})}


def test_the_detail_shows_the_newest_updated_as_given(backend: str) -> None:
    items, req = start(
        backend, _versions("2024-06-30T12:00:00+02:00", "2020-01-01"), supersede="url"
    )
    supersede.run(items, req)
    assert drops(req)["v1"][1]["updated"] == "2024-06-30T12:00:00+02:00"


@pytest.mark.parametrize(
    "bad",
    ["2023-9-1", "yesterday", "2023-02-30", "2023-13-01", "2023-05-05T25:00", "20230505",
     "2023-05-05T10:00+0200", "2023-05-05T10", "２０２３-01-01", "2023-05-05T10:00:60"],
)  # fmt: skip
def test_an_updated_that_is_not_iso_8601_is_an_input_error(backend: str, bad: str) -> None:
    with pytest.raises(InputError) as info:
        start(backend, [{"text": "a", "id": "ok", "updated": "2024-01-01"},
                        {"text": "b", "id": "x", "updated": bad}], supersede="doc")  # fmt: skip
    assert str(info.value) == (
        f"candidate 1 (id='x'): updated {bad!r} is not an ISO-8601 date or date-time, which "
        f"supersede needs to compare versions; write it as one of {supersede.FORMS} (no offset "
        "means UTC)"
    )
    assert (info.value.index, info.value.id, info.value.field) == (1, "x", "updated")
    start(backend, [{"text": "b", "id": "x", "updated": bad}])  # not read without supersede


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", (0, 0, "")),
        ("0001-01-01", (1, 86400, "")),
        ("0001-01-01T00:00:00+23:59", (1, 86400 - 86340, "")),
        ("9999-12-31T23:59:59.999999999-23:59", (1, 3652059 * 86400 + 86399 + 86340, "999999999")),
        ("2024-02-29t01:02:03Z", (1, 738945 * 86400 + 3723, "")),
        ("2024-02-29 01:02:03.100-00:00", (1, 738945 * 86400 + 3723, "1")),
        ("2024", (1, 738886 * 86400, "")),
        ("2024-03", (1, 738946 * 86400, "")),
        ("2023-02-29", None),
        ("2024-3", None),
        ("2024-03T10:00", None),
        ("2024-01-01T00:00:00+24:00", None),
        ("2024-01-01T00:00:00.", None),
        ("2024-01-01T00:00:00.5Z ", None),
    ],
)
def test_the_parser_pins_every_form_without_datetime_fromisoformat(
    text: str, key: tuple[int, int, str] | None
) -> None:
    # one parser on every supported Python: fromisoformat reads more on 3.11+ than on 3.10
    assert supersede.updated_key(text) == key


def test_by_doc_never_groups_a_doc_less_candidate_with_a_named_document(backend: str) -> None:
    rows = [{"text": "a", "id": "kb", "updated": "2020-01-01"},
            {"text": "b", "id": "x", "doc": "kb", "updated": "2024-01-01"}]  # fmt: skip
    items, req = start(backend, rows, supersede="doc")
    assert ids(supersede.run(items, req)) == ["kb", "x"]
