"""Stage: expand to neighbours. Windows that touch merge into one span; overlaps are written
once."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from stage_kit import ids, start

from briefpack import InputError
from briefpack._stages import neighbours

DOC = [{"text": f"part {p}.", "id": f"d#{p}", "position": p} for p in range(6)]


def test_touching_windows_merge_into_one_span_at_the_best_hits_place(backend: str) -> None:
    hits = [dict(DOC[1], doc="d"), {"text": "x", "id": "x"}, dict(DOC[3], doc="d")]
    items, req = start(backend, hits, neighbors=1, chunks_of={"d": DOC})
    out = neighbours.run(items, req)
    assert ids(out) == ["d#1", "x"]
    assert out[0].members == [0, 2]
    assert out[0].chunk.text == "part 0.\npart 1.\npart 2.\npart 3.\npart 4."


def test_a_shared_suffix_and_prefix_is_written_once() -> None:
    assert neighbours.merge_overlap("one two three four", "three four five") == (
        "one two three four five"
    )
    assert neighbours.merge_overlap("short", "rt end") == "short\nrt end"  # under MIN_OVERLAP


def test_a_hit_not_in_its_list_stays_as_it_is(backend: str) -> None:
    items, req = start(backend, [{"text": "y", "id": "y", "doc": "d"}], neighbors=2,
                       chunks_of={"d": DOC})  # fmt: skip
    assert [it.chunk.text for it in neighbours.run(items, req)] == ["y"]


def test_a_span_of_pages_carries_every_image_in_order_and_its_page_range(backend: str) -> None:
    import pytest

    pytest.importorskip("PIL")
    import numpy as np

    pages = [np.full((8, 8), 40 * p, dtype=np.uint8) for p in range(4)]
    doc = [{"id": f"r#{p}", "image": pages[p], "page": p + 10} for p in range(4)]
    items, req = start(backend, [dict(doc[2], doc="r")], neighbors=1, chunks_of={"r": doc})
    [span] = neighbours.run(items, req)
    assert span.chunk.page == "11-13"
    assert [im.pixels[0] for im in span.chunk.images] == [40, 80, 120]


def test_a_hit_whose_id_has_another_text_in_its_list_is_an_error(backend: str) -> None:
    items, req = start(backend, [{"text": "part 2, edited.", "id": "d#2", "doc": "d"}],
                       neighbors=1, chunks_of={"d": DOC})  # fmt: skip
    with pytest.raises(InputError) as info:
        neighbours.run(items, req)
    assert str(info.value) == (
        "candidate 0 (id='d#2'): chunks_of('d')[2] has its id with different text; ids must "
        "identify one text (give the hit and its chunk list the same text, or different ids)"
    )
    assert (info.value.index, info.value.option) == (0, "chunks_of")


def _old_merge_overlap(a: str, b: str) -> str:
    """The quadratic join this stage used before (the specification of the linear one)."""
    for k in range(min(len(a), len(b)), neighbours.MIN_OVERLAP - 1, -1):
        if a.endswith(b[:k]):
            return a + b[k:]
    return a + "\n" + b


@given(a=st.text("ab", max_size=40), b=st.text("ab", max_size=40))
def test_the_linear_join_equals_the_quadratic_one(a: str, b: str) -> None:
    # a two-letter alphabet makes long overlaps and borders common
    assert neighbours.merge_overlap(a, b) == _old_merge_overlap(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [("a" * 20, "a" * 30), ("ab" * 10, "ab" * 12), ("xaaaaaaaab", "aaaaaaaabz"),
     ("aaaaaaaaab", "aaaaaaaaa"), ("abcdefgh", "abcdefgh"), ("", "abcdefghij")],
)  # fmt: skip
def test_borders_and_whole_overlaps(a: str, b: str) -> None:
    assert neighbours.merge_overlap(a, b) == _old_merge_overlap(a, b)
