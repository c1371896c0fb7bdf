"""The shapes briefpack's chat forms promise, checked against the real SDKs at run time.

Each form is checked against the SDK's own request type (its TypedDicts, walked here): every
required key present, no key the type does not know, every value of its type. Then the real
client builds the request from it through a mock transport (nothing is sent) and the body is
what briefpack returned.
"""

from __future__ import annotations

import collections.abc
import importlib.util
import types
import typing
from typing import Any

import pytest

import briefpack as bp
from briefpack.integrations import to_anthropic, to_openai, to_openai_responses
from sdk_capture import captured_body

typing_extensions = pytest.importorskip("typing_extensions")
_WRAPPERS = {
    getattr(module, name, None)
    for module in (typing, typing_extensions)
    for name in ("Required", "NotRequired", "Annotated")
} - {None}
_UNIONS = (typing.Union, types.UnionType)
_LITERALS = (typing.Literal, typing_extensions.Literal)

HISTORY = [
    {"role": "user", "content": "How long is leave?"},
    {"role": "assistant", "content": "It is 14 weeks [1]."},
]


def _text(**options: Any) -> bp.Assembly:
    chunks = [
        bp.Chunk("Parental leave is 14 weeks.", id="hr/1", title="Leave", url="https://x/hr"),
        bp.Chunk("The relocation cap is 4000 EUR.", id="hr/7"),
    ]
    return bp.assemble("And the cap?", chunks, budget=1000, tokenizer="approx", **options)


def _pages(**options: Any) -> bp.Assembly:
    pytest.importorskip("PIL")
    from briefpack.demo_pages import page_png

    chunks = [
        bp.Chunk("Revenue grew 9.6%.", image=page_png(14), page=14, id="ar#14"),
        bp.Chunk("A text source.", id="t"),
        bp.Chunk(image=page_png(15, jpeg_quality=80), page=15, id="ar#15"),
    ]
    return bp.assemble("Revenue?", chunks, tokenizer="approx", order="relevance", **options)


ASSEMBLIES = {
    "text": lambda: _text(),
    "history_turns": lambda: _text(history=HISTORY, history_turns=True),
    "pages": lambda: _pages(),
    "pages_low": lambda: _pages(image_tokens="openai-low"),
    "pages_anthropic_rule": lambda: _pages(image_tokens="anthropic"),
}


def _mismatch(value: Any, hint: Any, at: str = "") -> str | None:
    """Where ``value`` does not fit the SDK's type ``hint`` (None: it fits): a TypedDict's
    required keys present, no key it does not know, every value of its type, recursively."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return None
    if origin in _WRAPPERS:
        return _mismatch(value, args[0], at)
    if origin in _UNIONS:
        misses = [_mismatch(value, arg, at) for arg in args]
        return None if None in misses else " / ".join(m for m in misses if m)
    if origin in _LITERALS:
        return None if value in args else f"{at}: {value!r} not in {args}"
    if hint is type(None):
        return None if value is None else f"{at}: not None"
    if typing_extensions.is_typeddict(hint):
        if not isinstance(value, dict):
            return f"{at}: not a dict"
        hints = typing_extensions.get_type_hints(hint, include_extras=True)
        unknown = set(value) - set(hints)
        missing = set(hint.__required_keys__) - set(value)
        if unknown or missing:
            return f"{at}: {hint.__name__} unknown keys {unknown}, missing {missing}"
        for key, item in value.items():
            miss = _mismatch(item, hints[key], f"{at}.{key}")
            if miss:
                return miss
        return None
    if origin in (list, collections.abc.Iterable, collections.abc.Sequence):
        if not isinstance(value, list):
            return f"{at}: not a list"
        for i, item in enumerate(value):
            miss = _mismatch(item, args[0], f"{at}[{i}]")
            if miss:
                return miss
        return None
    if origin is dict:
        return None if isinstance(value, dict) else f"{at}: not a dict"
    if isinstance(hint, type):
        ok = isinstance(value, hint) and not (hint is int and isinstance(value, bool))
        return None if ok else f"{at}: {type(value).__name__} is not {hint.__name__}"
    return f"{at}: a {hint!r} (not checked here) for {type(value).__name__}"


def _conforms(sdk_type: Any, value: Any) -> None:
    miss = _mismatch(value, sdk_type)
    assert miss is None, miss


def _anthropic_http() -> str:
    return "httpx2" if importlib.util.find_spec("httpx2") else "httpx"


@pytest.mark.parametrize("name", ["text", "history_turns"])
def test_assembly_messages_are_openai_chat_messages(name: str) -> None:
    openai = pytest.importorskip("openai")
    from openai.types.chat import ChatCompletionMessageParam

    a = ASSEMBLIES[name]()
    _conforms(list[ChatCompletionMessageParam], a.messages)

    def call(http: Any) -> None:
        client = openai.OpenAI(api_key="test", http_client=http, max_retries=0)
        client.chat.completions.create(model="gpt-4o", messages=a.messages)

    assert captured_body(call)["messages"] == a.messages


@pytest.mark.parametrize("name", sorted(ASSEMBLIES))
@pytest.mark.parametrize("role", ["system", "developer"])
def test_to_openai_is_a_chat_request(name: str, role: Any) -> None:
    pytest.importorskip("openai")
    from openai.types.chat import ChatCompletionMessageParam

    _conforms(list[ChatCompletionMessageParam], to_openai(ASSEMBLIES[name](), system_role=role))


@pytest.mark.parametrize("name", sorted(ASSEMBLIES))
@pytest.mark.parametrize("role", ["system", "developer"])
def test_to_openai_responses_is_a_responses_input(name: str, role: Any) -> None:
    openai = pytest.importorskip("openai")
    from openai.types.responses import ResponseInputParam

    a = ASSEMBLIES[name]()
    items = to_openai_responses(a, system_role=role)
    _conforms(ResponseInputParam, items)

    def call(http: Any) -> None:
        client = openai.OpenAI(api_key="test", http_client=http, max_retries=0)
        client.responses.create(model="gpt-4o", input=items)

    assert captured_body(call)["input"] == items


@pytest.mark.parametrize(
    ("name", "detail"), [("pages", "high"), ("pages_low", "low"), ("pages_anthropic_rule", "auto")]
)
def test_responses_input_has_the_chat_text_and_each_image_in_its_place(
    name: str, detail: str
) -> None:
    a = ASSEMBLIES[name]()
    chat, responses = to_openai(a), to_openai_responses(a)
    assert [m["role"] for m in responses] == [m["role"] for m in chat]
    assert responses[0] == chat[0]
    parts: Any = chat[-1]["content"]
    items: Any = responses[-1]
    assert [p["type"] for p in items["content"]] == [
        {"text": "input_text", "image_url": "input_image"}[p["type"]] for p in parts
    ]
    for part, item in zip(parts, items["content"]):
        if part["type"] == "text":
            assert item == {"type": "input_text", "text": part["text"]}
        else:
            assert item == {
                "type": "input_image",
                "image_url": part["image_url"]["url"],
                "detail": detail,
            }
    images = [im for s in a.sources for im in s.chunk.images]
    assert [i["image_url"] for i in items["content"][1::2]] == [im.data_url() for im in images]


def test_responses_input_without_images_is_the_chat_messages() -> None:
    a = ASSEMBLIES["history_turns"]()
    assert to_openai_responses(a) == to_openai(a) == a.messages


@pytest.mark.parametrize("name", sorted(ASSEMBLIES))
@pytest.mark.parametrize(
    "options",
    [{}, {"cache": False}, {"ttl": "1h"}, {"native_citations": True}],
    ids=["cache", "no_cache", "ttl", "native_citations"],
)
def test_to_anthropic_is_a_messages_request(name: str, options: dict[str, Any]) -> None:
    anthropic = pytest.importorskip("anthropic")
    from anthropic.types import MessageParam, TextBlockParam

    a = ASSEMBLIES[name]()
    if options.get("native_citations") and name.startswith("pages"):
        with pytest.raises(bp.InputError, match="search_result"):
            to_anthropic(a, **options)
        return
    request = to_anthropic(a, **options)
    assert set(request) == {"system", "messages"}
    _conforms(list[TextBlockParam], request["system"])
    _conforms(list[MessageParam], request["messages"])

    def call(http: Any) -> None:
        client = anthropic.Anthropic(api_key="test", http_client=http, max_retries=0)
        client.messages.create(model="claude-sonnet-4-5", max_tokens=100, **request)

    body = captured_body(call, _anthropic_http())
    assert body["system"] == request["system"]
    assert body["messages"] == request["messages"]


def test_the_check_rejects_what_the_sdk_types_do_not_allow() -> None:
    pytest.importorskip("openai")
    from openai.types.chat import ChatCompletionMessageParam
    from openai.types.responses import ResponseInputParam

    a = ASSEMBLIES["pages"]()
    assert _mismatch(to_openai(a), ResponseInputParam)  # chat parts are not Responses parts
    misspelt = [{"role": "user", "content": [{"type": "input_txt", "text": "x"}]}]
    assert _mismatch(misspelt, ResponseInputParam)
    assert _mismatch([{"role": "user", "content": "x", "extra": 1}], ResponseInputParam)
    assert _mismatch([{"role": "tutor", "content": "x"}], list[ChatCompletionMessageParam])
    assert _mismatch(to_openai(a), list[ChatCompletionMessageParam]) is None
