"""Stage: supersede. Among items sharing a url (or doc) only the newest updated stays."""

from __future__ import annotations

from stage_kit import drops, ids, start

from briefpack._stages import supersede

ROWS = [
    {"text": "v1", "id": "old", "url": "u", "updated": "2023-01-01"},
    {"text": "v2", "id": "new", "url": "u", "updated": "2024-01-01"},
    {"text": "x", "id": "other", "url": "", "updated": "2020-01-01"},
]


def test_older_versions_of_one_url_are_superseded(backend: str) -> None:
    items, ctx = start(backend, ROWS, supersede="url")
    assert ids(supersede.run(items, ctx)) == ["new", "other"]
    assert drops(ctx) == {"old": ("superseded", {"by": "new", "updated": "2024-01-01", "url": "u"})}


def test_by_doc_groups_by_document(backend: str) -> None:
    rows = [dict(r, doc="d", url="") for r in ROWS]
    items, ctx = start(backend, rows, supersede="doc")
    assert ids(supersede.run(items, ctx)) == ["new"]
    assert drops(ctx)["other"] == (
        "superseded",
        {"by": "new", "updated": "2024-01-01", "doc": "d"},
    )
