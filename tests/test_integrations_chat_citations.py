"""Anthropic's native citations: sources sent as search results, citations mapped back."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

import briefpack as bp
from briefpack.integrations import to_anthropic
from sdk_capture import captured_body

CANDIDATES = [
    bp.Chunk("Parental leave in Germany is 14 weeks at full pay.", id="hr/1", title="Leave"),
    bp.Chunk("The relocation cap for Berlin is 4000 EUR.", id="hr/7", url="https://x/7"),
    bp.Chunk("Bikes are free for staff.", id="hr/9", title="Bikes"),
]


def _assembly(**kw: Any) -> bp.Assembly:
    options: dict[str, Any] = {"budget": 500, "tokenizer": "approx", "order": "relevance"}
    return bp.assemble("Leave and relocation?", CANDIDATES, **{**options, **kw})


def test_sources_go_as_search_result_blocks_in_label_order() -> None:
    a = _assembly(history=[{"role": "user", "content": "Hi"}])
    request = to_anthropic(a, native_citations=True)
    assert request["system"] == to_anthropic(a)["system"]  # the breakpoint is unchanged
    [message] = request["messages"]
    history, *results, question = message["content"]
    assert history == {"type": "text", "text": a.user[: a.user.index("<sources>")].rstrip()}
    assert question == {"type": "text", "text": "Question: Leave and relocation?"}
    assert len(results) == len(a.sources) == 3
    for s, block in zip(a.sources, results):
        assert block["type"] == "search_result"
        assert block["content"] == [{"type": "text", "text": s.chunk.text}]
        assert block["citations"] == {"enabled": True}
        assert block["title"].startswith(f"[{s.label}]")
        assert block["source"] == (s.chunk.url or s.chunk.id)


def test_without_history_the_first_block_is_a_source() -> None:
    content = to_anthropic(_assembly(), native_citations=True)["messages"][0]["content"]
    assert [b["type"] for b in content] == ["search_result"] * 3 + ["text"]


def test_native_citations_must_be_a_bool() -> None:
    with pytest.raises(bp.InputError, match="native_citations must be True or False"):
        to_anthropic(_assembly(), native_citations=1)  # type: ignore[arg-type]


def test_the_anthropic_sdk_sends_the_search_results_unchanged() -> None:
    anthropic = pytest.importorskip("anthropic")
    a = _assembly()
    request = to_anthropic(a, native_citations=True)

    def call(http: Any) -> None:
        client = anthropic.Anthropic(api_key="test", http_client=http, max_retries=0)
        client.messages.create(model="claude-sonnet-4-5", max_tokens=100, **request)

    body = captured_body(call, "httpx2" if importlib.util.find_spec("httpx2") else "httpx")
    assert body["messages"] == request["messages"]


def _response(a: bp.Assembly, result_index: int = 1) -> dict[str, Any]:
    """A Messages API response in the documented shape, citing search result ``result_index``."""
    cited = a.sources[result_index] if result_index < len(a.sources) else a.sources[0]
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 10},
        "content": [
            {"type": "text", "text": "According to the policy, "},
            {
                "type": "text",
                "text": "the relocation cap is 4000 EUR",
                "citations": [
                    {
                        "type": "search_result_location",
                        "search_result_index": result_index,
                        "source": cited.chunk.url or cited.chunk.id,
                        "title": "x",
                        "cited_text": cited.chunk.text,
                        "start_block_index": 0,
                        "end_block_index": 1,
                    }
                ],
            },
            {"type": "text", "text": ". Nothing is said about pets."},
        ],
    }


def test_cite_maps_an_sdk_message_back_to_the_sources() -> None:
    anthropic = pytest.importorskip("anthropic")
    a = _assembly()
    message = anthropic.types.Message.model_validate(_response(a, 1))
    found = bp.cite(message, a)
    assert [s.label for s in found.sources] == [2]
    assert found.sources[0] is a.sources[1]
    assert [s.label for s in found.uncited] == [1, 3]
    assert found.unsupported_sentences == ["Nothing is said about pets."]
    assert found.unknown == []
    assert a.cite(message.content).sources == found.sources  # the content list works too


def test_cite_reads_the_response_as_dicts_and_a_record() -> None:
    a = _assembly()
    response = _response(a, 0)
    assert [s.label for s in bp.cite(response, a).sources] == [1]
    assert [s["label"] for s in bp.cite(response["content"], a.record()).sources] == [1]


def test_document_citations_map_by_document_index() -> None:
    a = _assembly()
    content = [
        {
            "type": "text",
            "text": "Bikes are free. Leave is 14 weeks.",
            "citations": [
                {"type": "char_location", "document_index": 2, "document_title": None,
                 "start_char_index": 0, "end_char_index": 5, "cited_text": "Bikes"},
                {"type": "page_location", "document_index": 0, "document_title": None,
                 "start_page_number": 1, "end_page_number": 2, "cited_text": "Leave"},
            ],
        }
    ]  # fmt: skip
    found = bp.cite(content, a)
    assert [s.label for s in found.sources] == [3, 1]
    assert found.unsupported_sentences == []  # the citations support every sentence of the block


def test_an_index_past_the_sources_is_an_unknown_label() -> None:
    a = _assembly()
    with pytest.raises(bp.CitationError, match=r"\[4\]") as info:
        bp.cite(_response(a, 3), a)
    assert info.value.unknown == [4]
    found = bp.cite(_response(a, 3), a, strict=False)
    assert found.unknown == [4]
    assert found.unsupported_sentences == [
        "According to the policy, the relocation cap is 4000 EUR.",
        "Nothing is said about pets.",
    ]


def test_markers_in_the_text_still_count_and_other_blocks_are_skipped() -> None:
    a = _assembly()
    content = [
        {"type": "thinking", "thinking": "hmm [9]", "signature": "s"},
        {"type": "text", "text": "Bikes are free [3]."},
    ]
    assert [s.label for s in bp.cite(content, a).sources] == [3]


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (b"x", "answer must be a str, got bytes"),
        ({"content": 3}, "answer must be a str, got dict"),
        ([{"type": "text", "text": 3}], r"content\[0\] is a text block without a str text"),
        (
            [{"type": "text", "text": "x", "citations": [{"type": "web_search_result_location"}]}],
            "has no index into the request's search results or documents",
        ),
    ],
)
def test_a_bad_response_is_an_input_error(answer: object, message: str) -> None:
    with pytest.raises(bp.InputError, match=message):
        bp.cite(answer, _assembly())
