"""``assemble`` takes Haystack Documents and LlamaIndex nodes (``TextNode``,
``NodeWithScore``) as candidates, read as the adapters' converters read them; nothing of
either framework is imported by ``import briefpack``."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys

import pytest

import briefpack as bp
import briefpack.candidates as cand

OPTS = {"budget": 400, "tokenizer": "approx"}


def _same(direct: bp.Assembly, converted: bp.Assembly) -> None:
    assert direct.user == converted.user
    assert json.dumps(direct.record(), default=str) == json.dumps(converted.record(), default=str)


def test_haystack_documents_are_read_like_to_chunks() -> None:
    pytest.importorskip("haystack")
    from haystack import Document

    from briefpack.integrations import haystack as hs

    assert dict(hs.DEFAULT_KEYS, page=hs.merge_keys(hs.DEFAULT_KEYS, None)["page"]) == dict(
        cand._HAYSTACK_KEYS
    )
    docs = [
        Document(
            content="The Berlin cap is 4000 EUR.",
            id="d1",
            score=0.9,
            meta={"file_path": "hr.pdf", "split_id": 3, "page_number": 14, "updated": "2025-06-26"},
        ),
        Document(content="Leave is 14 weeks.", id="d2", score=0.5, meta={"source_id": "wiki"}),
    ]
    _same(bp.assemble("Cap?", docs, **OPTS), bp.assemble("Cap?", hs.to_chunks(docs), **OPTS))
    assert 'page="14"' in bp.assemble("Cap?", docs, **OPTS).user


def test_llamaindex_nodes_and_scored_nodes_are_read_like_node_chunk() -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core.schema import NodeWithScore, TextNode

    from briefpack.integrations import llamaindex as li

    assert dict(li.DEFAULT_KEYS) == dict(cand._LLAMAINDEX_KEYS)
    node = TextNode(
        text="The Berlin cap is 4000 EUR.",
        id_="n1",
        start_char_idx=40,
        metadata={
            "file_name": "hr.pdf",
            "page_label": "14",
            "last_modified_date": dt.date(2025, 6, 26),
        },
    )
    other = TextNode(text="Leave is 14 weeks.", id_="n2")
    scored = [NodeWithScore(node=node, score=0.9), NodeWithScore(node=other, score=0.4)]
    expected = [li.node_chunk(n.node, n.score) for n in scored]
    _same(bp.assemble("Cap?", scored, **OPTS), bp.assemble("Cap?", expected, **OPTS))
    plain = [li.node_chunk(node), li.node_chunk(other)]
    _same(bp.assemble("Cap?", [node, other], **OPTS), bp.assemble("Cap?", plain, **OPTS))
    assert (
        'title="hr.pdf" page="14" updated="2025-06-26"' in bp.assemble("Cap?", [node], **OPTS).user
    )


def test_other_objects_are_still_refused() -> None:
    with pytest.raises(bp.InputError, match=r"a candidate must be a Chunk, a mapping, a str"):
        bp.assemble("q", [object()], **OPTS)


def test_import_briefpack_imports_no_framework() -> None:
    code = (
        "import sys, briefpack as bp; bp.assemble('q', ['a'], budget=50, tokenizer='approx');"
        "print([m for m in ('haystack', 'llama_index', 'langchain_core') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
