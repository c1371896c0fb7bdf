"""Stage: dedupe. The first copy wins; scope='document' compares only within a document."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from stage_kit import drops, ids, start

from briefpack._stages import dedupe

ROWS = [
    {"text": "The cap is 4000 EUR.", "id": "a", "doc": "x"},
    {"text": "the cap is 4000 eur", "id": "b", "doc": "y"},
    {"text": "Leave is 14 weeks.", "id": "c", "doc": "x"},
]


@pytest.mark.parametrize("method", ["exact", "jaccard", "minhash"])
def test_the_first_copy_wins(backend: str, method: str) -> None:
    threshold = None if method == "exact" else 0.5  # exact has no threshold
    items, req = start(backend, ROWS, dedupe=method, threshold=threshold)
    kept = dedupe.run(items, req)
    if method == "exact":  # case differs, so these are not exact copies
        assert ids(kept) == ["a", "b", "c"]
    else:
        assert ids(kept) == ["a", "c"]
        assert drops(req)["b"][1]["of"] == "a"
        assert drops(req)["b"][1]["method"] == method


def test_scope_document_compares_only_within_a_document(backend: str) -> None:
    items, req = start(backend, ROWS, dedupe="jaccard", scope="document")
    assert ids(dedupe.run(items, req)) == ["a", "b", "c"]


def test_cosine_reads_the_vectors(backend: str) -> None:
    rows = [
        {"text": "p", "id": "a", "vector": [1.0, 0.0]},
        {"text": "q", "id": "b", "vector": [1.0, 0.0]},
        {"text": "r", "id": "c", "vector": [0.0, 1.0]},
    ]
    items, req = start(backend, rows)  # dedupe="auto": every candidate has a vector
    assert req.method == "cosine"
    assert ids(dedupe.run(items, req)) == ["a", "c"]
    assert drops(req) == {"b": ("duplicate", {"of": "a", "similarity": 1.0, "method": "cosine"})}


def _page(value: int, cells: int = 8) -> object:
    """A tiny page: vertical stripes whose pattern depends on ``value`` (a distinct hash)."""
    import numpy as np

    row = np.array([(value >> (j % cells)) & 1 for j in range(66)], dtype=np.uint8) * 255
    return np.tile(row, (64, 1))


def test_auto_compares_pages_by_hash_and_text_by_words(backend: str) -> None:
    pytest.importorskip("PIL")
    rows = [
        {"image": _page(0b10110010), "id": "p"},
        {"text": "The cap is 4000 EUR.", "id": "t"},
        {"image": _page(0b10110010), "id": "p-copy"},
        {"image": _page(0b01001101), "id": "q"},
        {"text": "the cap is 4000 eur", "id": "t-copy"},
    ]
    items, req = start(backend, rows)
    assert req.pages
    assert ids(dedupe.run(items, req)) == ["p", "t", "q"]
    assert drops(req)["p-copy"] == (
        "duplicate",
        {"of": "p", "similarity": 1.0, "method": "page_hash", "check": "second_look"},
    )
    assert drops(req)["t-copy"][1]["method"] == "jaccard"


def test_scope_document_keeps_a_doc_less_candidate_apart_from_a_named_document(
    backend: str,
) -> None:
    rows = [{"text": "the same words here", "id": "kb"},
            {"text": "the same words here", "id": "x", "doc": "kb"}]  # fmt: skip
    items, req = start(backend, rows, dedupe="exact", scope="document")
    assert ids(dedupe.run(items, req)) == ["kb", "x"]


@pytest.mark.parametrize("kernels", ["rust", "python"])
@pytest.mark.parametrize("method", ["exact", "jaccard"])
@given(st.lists(st.sampled_from(["a b c", "a b c d", "A b c", "x y", "x y z", "q"]), max_size=10))
def test_one_kernel_call_drops_what_the_general_loop_drops(
    kernels: str, method: str, texts: list[str]
) -> None:
    """Candidates of one document: ``scope="document"`` runs the general loop over them all;
    the global scope takes the one-call path. Same kept items, drops, details, ledger order."""
    rows = [{"text": t, "id": f"c{i}", "doc": "d"} for i, t in enumerate(texts)]
    threshold = None if method == "exact" else 0.6
    one, ctx1 = start(kernels, rows, dedupe=method, threshold=threshold)
    loop, req2 = start(kernels, rows, dedupe=method, threshold=threshold, scope="document")
    assert ids(dedupe.run(one, ctx1)) == ids(dedupe.run(loop, req2))
    assert list(ctx1.ledger.fate.items()) == list(req2.ledger.fate.items())
