"""PDF loaders' page numbers and file names reach the label through each adapter's default
metadata keys (``title="report.pdf" page="14"``), and ``keys={"page": ...}`` overrides them."""

from __future__ import annotations

import pytest

import briefpack as bp
from briefpack.integrations._metadata import merge_keys, pick_fields


def _label(chunks: list[bp.Chunk]) -> str:
    user = bp.assemble("q?", chunks, budget=300, tokenizer="approx").user
    return user.splitlines()[1]


def test_langchain_pdf_pages_count_from_one_and_the_file_names_the_title() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.documents import Document

    from briefpack.integrations.langchain import to_chunks

    pypdf = Document("Caps.", metadata={"source": "/data/report.pdf", "page": 13})
    labelled = Document("Caps.", metadata={"source": "r.pdf", "page": 13, "page_label": "xii"})
    url = Document("Caps.", metadata={"source": "https://example.org/a.pdf", "page": 0})
    assert _label(to_chunks([pypdf])) == '<source id="1" title="report.pdf" page="14">'
    assert _label(to_chunks([labelled])) == '<source id="1" title="r.pdf" page="xii">'
    assert _label(to_chunks([url])) == '<source id="1" page="1">'  # a URL is not a title
    [raw] = to_chunks([pypdf], keys={"page": "page"})  # the caller's key: as it is
    assert raw.page == 13
    [titled] = to_chunks([Document("a", metadata={"source": "x.pdf", "title": "Report"})])
    assert titled.title == "Report"
    [plain] = to_chunks([Document("a")])
    assert (plain.page, plain.title) == (None, "")


def test_llamaindex_page_label_and_file_name() -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core.schema import TextNode

    from briefpack.integrations.llamaindex import node_chunk

    node = TextNode(text="Caps.", id_="n", metadata={"file_name": "report.pdf", "page_label": "14"})
    assert _label([node_chunk(node)]) == '<source id="1" title="report.pdf" page="14">'
    keys = merge_keys({"title": ("file_name",)}, {"page": ["pg"]})
    assert node_chunk(node, keys=keys).page is None


def test_haystack_page_number() -> None:
    pytest.importorskip("haystack")
    from haystack import Document

    from briefpack.integrations.haystack import to_chunks

    doc = Document(content="Caps.", id="d", meta={"file_path": "report.pdf", "page_number": 14})
    [c] = to_chunks([doc])
    assert c.page == 14
    [own] = to_chunks(
        [Document(content="a", meta={"pg": "iv", "page_number": 2})], keys={"page": "pg"}
    )
    assert own.page == "iv"


def test_a_page_that_is_no_page_is_skipped_and_page_is_a_key_field() -> None:
    keys = merge_keys({}, {"page": ["page", "page_number"]})
    assert pick_fields({"page": -1, "page_number": 3}, keys) == {"page": 3}
    assert pick_fields({"page": " ", "page_number": True}, keys) == {}
    with pytest.raises(bp.InputError, match=r"keys: 'pages' is not a Chunk field"):
        merge_keys({}, {"pages": "page"})
