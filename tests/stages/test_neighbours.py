"""Stage: expand to neighbours. Windows that touch merge into one span; overlaps are written
once."""

from __future__ import annotations

from stage_kit import ids, start

from briefpack._stages import neighbours

DOC = [{"text": f"part {p}.", "id": f"d#{p}", "position": p} for p in range(6)]


def test_touching_windows_merge_into_one_span_at_the_best_hits_place(backend: str) -> None:
    hits = [dict(DOC[1], doc="d"), {"text": "x", "id": "x"}, dict(DOC[3], doc="d")]
    items, ctx = start(backend, hits, neighbors=1, chunks_of={"d": DOC})
    out = neighbours.run(items, ctx)
    assert ids(out) == ["d#1", "x"]
    assert out[0].members == [0, 2]
    assert out[0].chunk.text == "part 0.\npart 1.\npart 2.\npart 3.\npart 4."


def test_a_shared_suffix_and_prefix_is_written_once() -> None:
    assert neighbours.merge_overlap("one two three four", "three four five") == (
        "one two three four five"
    )
    assert neighbours.merge_overlap("short", "rt end") == "short\nrt end"  # under MIN_OVERLAP


def test_a_hit_not_in_its_list_stays_as_it_is(backend: str) -> None:
    items, ctx = start(backend, [{"text": "y", "id": "y", "doc": "d"}], neighbors=2,
                       chunks_of={"d": DOC})  # fmt: skip
    assert [it.chunk.text for it in neighbours.run(items, ctx)] == ["y"]


def test_a_span_of_pages_carries_every_image_in_order_and_its_page_range(backend: str) -> None:
    import pytest

    pytest.importorskip("PIL")
    import numpy as np

    pages = [np.full((8, 8), 40 * p, dtype=np.uint8) for p in range(4)]
    doc = [{"id": f"r#{p}", "image": pages[p], "page": p + 10} for p in range(4)]
    items, ctx = start(backend, [dict(doc[2], doc="r")], neighbors=1, chunks_of={"r": doc})
    [span] = neighbours.run(items, ctx)
    assert span.chunk.page == "11-13"
    assert [im.pixels[0] for im in span.chunk.images] == [40, 80, 120]
