"""Labels reach the model through a real LlamaIndex query engine, and each query's
``Assembly`` is its own (``assembly_of``), also under concurrent ``aquery``."""

from __future__ import annotations

import asyncio
import gc
import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("llama_index.core")

from llama_index.core import Document, VectorStoreIndex
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.llms import CompletionResponse, MockLLM
from llama_index.core.schema import MetadataMode, NodeWithScore, TextNode

import briefpack as bp
from briefpack.integrations import llamaindex as li
from briefpack.integrations.llamaindex import BriefpackPostprocessor, assembly_of

# An event loop LlamaIndex leaves unclosed in the synthesizer's sync path (with a chat prompt
# template) is garbage-collected during a later test, as an unraisable ResourceWarning.
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


@pytest.fixture(autouse=True)
def _collect_here() -> Iterator[None]:
    """Collect that loop in this module's tests, under the filter above, not in a later one."""
    yield
    gc.collect()


DOCS = [
    ("Parental leave in Germany is 14 weeks at full pay.", "hr", {"file_name": "hr.pdf"}),
    ("The relocation cap for Berlin is 4000 EUR.", "move", {}),
    ("Remote work is allowed up to three days a week.", "remote", {"file_name": "it.md"}),
]


def _index() -> VectorStoreIndex:
    docs = [Document(text=t, id_=i, metadata=m) for t, i, m in DOCS]
    return VectorStoreIndex.from_documents(docs, embed_model=MockEmbedding(embed_dim=8))


def _shown_labels(prompt: str) -> list[int]:
    return [int(n) for n in re.findall(r'<source id="(\d+)">', prompt)]


def test_the_synthesizers_prompt_shows_the_labels_the_assembly_has() -> None:
    post = BriefpackPostprocessor(budget=1000, tokenizer="approx")
    engine = _index().as_query_engine(llm=MockLLM(), node_postprocessors=[post], similarity_top_k=3)
    response = engine.query("How long is parental leave?")  # MockLLM answers with its prompt
    a = assembly_of(response)
    assert _shown_labels(str(response)) == [s.label for s in a.sources] == [1, 2, 3]
    assert [n.node.metadata["source_label"] for n in response.source_nodes] == [1, 2, 3]
    assert [n.node.ref_doc_id for n in response.source_nodes] == [s.chunk.doc for s in a.sources]
    assert "briefpack_assembly" not in str(response)  # the key is never shown to the LLM
    hr = next(n for n in response.source_nodes if n.node.ref_doc_id == "hr")
    label = hr.node.metadata["source_label"]
    assert f'<source id="{label}">\nfile_name: hr.pdf\n\nParental leave' in str(response)
    found = a.cite(f"Leave is 14 weeks [{label}].")
    assert [s.chunk.doc for s in found.sources] == ["hr"]
    with pytest.raises(bp.CitationError):
        a.cite("Leave is 14 weeks [4].")


def test_qa_template_puts_briefpacks_system_prompt_and_sources_block_around_them() -> None:
    post = BriefpackPostprocessor(budget=1000, tokenizer="approx", options={"labels": "brackets"})
    engine = _index().as_query_engine(
        llm=MockLLM(),
        node_postprocessors=[post],
        similarity_top_k=3,
        text_qa_template=post.qa_template(),
    )
    response = engine.query("How long is parental leave {really}?")
    a = assembly_of(response)
    prompt = str(response)
    assert prompt.startswith("system: " + a.system)  # the same cacheable prefix
    assert "Context information is below" not in prompt  # LlamaIndex's default template
    user = prompt.split("user: ", 1)[1]
    assert user.startswith("<sources>\n[1] ")
    assert "\n</sources>\n\nQuestion: How long is parental leave {really}?" in user
    assert [int(n) for n in re.findall(r"^\[(\d+)\] ", user, re.MULTILINE)] == [1, 2, 3]
    assert a.cite("Leave is 14 weeks [1][3].").unknown == []


def test_a_node_without_metadata_is_rendered_as_its_tag_in_either_style() -> None:
    hits = [NodeWithScore(node=TextNode(text="Leave is 14 weeks.", id_="a"), score=0.9)]
    for style, want in (
        ("xml", '<source id="1">\nLeave is 14 weeks.\n</source>'),
        ("brackets", "[1] Leave is 14 weeks."),
    ):
        post = BriefpackPostprocessor(tokenizer="approx", options={"labels": style})
        [out] = post.postprocess_nodes(hits, query_str="Leave?")
        assert out.node.get_content(metadata_mode=MetadataMode.LLM) == want
        assert out.node.get_content(metadata_mode=MetadataMode.EMBED) == "Leave is 14 weeks."
        assert out.node.get_content() == "Leave is 14 weeks."
        assert hits[0].node.metadata == {}  # the input is not changed
        out.node.model_dump_json()  # the metadata stays JSON


def test_a_node_with_excluded_metadata_keeps_its_exclusions() -> None:
    node = TextNode(
        text="Leave is 14 weeks.",
        id_="a",
        metadata={"file_name": "hr.pdf", "secret": "x"},
        excluded_llm_metadata_keys=["secret"],
    )
    post = BriefpackPostprocessor(tokenizer="approx")
    [out] = post.postprocess_nodes([NodeWithScore(node=node, score=0.9)], query_str="Leave?")
    assert out.node.get_content(metadata_mode=MetadataMode.LLM) == (
        '<source id="1">\nfile_name: hr.pdf\n\nLeave is 14 weeks.\n</source>'
    )
    assert "source_label" not in out.node.get_content(metadata_mode=MetadataMode.EMBED)


class _SlowLLM(MockLLM):
    """Answers with its prompt, after a pause: both queries are postprocessed before either
    is synthesised, so a shared attribute would hold the other query's assembly."""

    async def acomplete(self, prompt: str, formatted: bool = False, **kw: Any) -> Any:
        await asyncio.sleep(0.05)
        return CompletionResponse(text=prompt)


def test_two_concurrent_aqueries_each_get_their_own_assembly() -> None:
    post = BriefpackPostprocessor(budget=1000, tokenizer="approx", max_per_doc=1)
    engine = _index().as_query_engine(
        llm=_SlowLLM(), node_postprocessors=[post], similarity_top_k=3
    )
    questions = ["How long is parental leave?", "What is the relocation cap?"]

    async def both() -> list[Any]:
        return list(await asyncio.gather(*(engine.aquery(q) for q in questions)))

    responses = asyncio.run(both())
    seen = []
    for q, response in zip(questions, responses):
        a = assembly_of(response)
        assert a.question == q
        assert f"Query: {q}" in str(response)
        assert [str(s.chunk.id) for s in a.sources] == [n.node_id for n in response.source_nodes]
        assert _shown_labels(str(response)) == [s.label for s in a.sources]
        seen.append(a)
    assert seen[0] is not seen[1]
    assert post.last_assembly in seen  # only one of them: the shared attribute cannot serve both


def test_nodes_of_two_queries_numbered_apart_merge() -> None:
    first = BriefpackPostprocessor(tokenizer="approx")
    later = BriefpackPostprocessor(tokenizer="approx", options={"first_label": 2})
    a = first.postprocess_nodes([NodeWithScore(node=TextNode(text="x", id_="a"), score=1.0)])
    b = later.postprocess_nodes([NodeWithScore(node=TextNode(text="y", id_="b"), score=1.0)])
    assert [s.label for s in assembly_of(a + b).sources] == [1, 2]
    with pytest.raises(bp.InputError, match="label 1 is in"):
        assembly_of(a + first.postprocess_nodes([NodeWithScore(node=TextNode(text="z"))]))


def test_assembly_of_says_why_it_cannot_find_one(monkeypatch: pytest.MonkeyPatch) -> None:
    hits = [NodeWithScore(node=TextNode(text="Leave is 14 weeks.", id_="a"), score=0.9)]
    plain = BriefpackPostprocessor(tokenizer="approx", label_nodes=False)
    with pytest.raises(bp.InputError, match="no node carries"):
        assembly_of(plain.postprocess_nodes(hits))
    with pytest.raises(bp.InputError, match="a response"):
        assembly_of(3)
    monkeypatch.setattr(li, "MAX_HELD", 2)
    post = BriefpackPostprocessor(tokenizer="approx")
    old = post.postprocess_nodes(hits)
    for _ in range(2):
        post.postprocess_nodes(hits)
    with pytest.raises(bp.InputError, match="no longer held"):
        assembly_of(old)


def test_label_nodes_serialises_with_the_postprocessor() -> None:
    post = BriefpackPostprocessor(tokenizer="approx", label_nodes=False)
    assert BriefpackPostprocessor.from_json(post.to_json()).label_nodes is False
