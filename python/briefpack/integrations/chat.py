"""An ``Assembly`` in the request shapes of the chat APIs, and a check on prompt caching.

No dependency: these return plain dicts and lists for the providers' SDKs or HTTP APIs.

The system prompt of an ``Assembly`` is identical for every request with the same settings, so
it is the stable prefix that providers can cache. OpenAI caches a prompt's prefix on its own;
Anthropic caches up to an explicit ``cache_control`` breakpoint, which ``to_anthropic`` sets
right after the system prompt. Either way a prefix shorter than the provider's minimum (1,024
tokens on most models; some small models need 2,048) is not cached at all: ``cache_report``
says whether the prefix reaches it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypedDict, cast

from .._checks import check_count
from ..assembly import Assembly
from ..errors import InputError
from ..kernels import count_tokens
from ..prompt import IMAGE_PLACEHOLDER, render_question
from ._common import resolve_tokenizer, shown

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam
    from openai.types.responses import ResponseInputItemParam
    from typing_extensions import NotRequired

    from ..pages import PageImage

__all__ = [
    "CACHE_MINIMUM",
    "AnthropicAssistantMessage",
    "AnthropicRequest",
    "AnthropicTextBlock",
    "AnthropicUserMessage",
    "AssistantMessage",
    "CacheControl",
    "CacheReport",
    "DeveloperMessage",
    "Message",
    "SystemMessage",
    "UserMessage",
    "cache_report",
    "cached_system_block",
    "to_anthropic",
    "to_openai",
    "to_openai_responses",
]

CACHE_MINIMUM = 1024
"""The usual shortest prefix (in tokens) that providers cache."""

CacheTTL = Literal["5m", "1h"]


class SystemMessage(TypedDict):
    """The system prompt as a chat message.

    The message TypedDicts have the keys of the openai SDK's message params, so a list of them
    is a ``messages=`` of ``client.chat.completions.create`` under mypy and pyright. ``content``
    is a str (a user message with page images: a list of content parts, see ``to_openai``),
    typed ``Any``: a TypedDict's items are invariant, so a ``content: str`` is not the SDK's
    ``str | Iterable[...part]`` and would be rejected."""

    role: Literal["system"]
    content: Any
    name: NotRequired[str]


class DeveloperMessage(TypedDict):
    """The system prompt in the ``developer`` role (OpenAI's name for it on newer models)."""

    role: Literal["developer"]
    content: Any
    name: NotRequired[str]


class UserMessage(TypedDict):
    """The user message: history, sources and the question."""

    role: Literal["user"]
    content: Any
    name: NotRequired[str]


class AssistantMessage(TypedDict):
    """An earlier answer, as a history turn under ``history_turns=True`` (its ``content`` is
    always set; it is not-required here because it is in the SDK's type)."""

    role: Literal["assistant"]
    content: NotRequired[Any]
    name: NotRequired[str]
    audio: NotRequired[Any]
    function_call: NotRequired[Any]
    refusal: NotRequired[Any]
    tool_calls: NotRequired[Any]


Message = SystemMessage | DeveloperMessage | UserMessage | AssistantMessage
"""One message of ``Assembly.messages`` / ``to_openai``, with its literal role."""


class CacheControl(TypedDict):
    """An Anthropic cache breakpoint: ``{"type": "ephemeral"}``, with an optional ``ttl``."""

    type: Literal["ephemeral"]
    ttl: NotRequired[CacheTTL]


class AnthropicTextBlock(TypedDict):
    """A text block of an Anthropic request (the system prompt, a history turn)."""

    type: Literal["text"]
    text: str
    cache_control: NotRequired[CacheControl | None]
    citations: NotRequired[Any]


class AnthropicUserMessage(TypedDict):
    """A user message of an Anthropic request: ``content`` is a str or a list of blocks
    (text, ``image``, ``search_result``), typed ``Any`` as in ``SystemMessage``."""

    role: Literal["user"]
    content: Any


class AnthropicAssistantMessage(TypedDict):
    """An earlier answer of an Anthropic request (``history_turns=True``)."""

    role: Literal["assistant"]
    content: Any


class AnthropicRequest(TypedDict):
    """What ``to_anthropic`` returns: keyword arguments of ``client.messages.create``."""

    system: NotRequired[list[AnthropicTextBlock]]
    messages: list[AnthropicUserMessage | AnthropicAssistantMessage]


def to_openai(
    assembly: Assembly, *, system_role: Literal["system", "developer"] = "system"
) -> list[ChatCompletionMessageParam]:
    """The ``messages`` of a chat-completions request (``Assembly.messages``).

    ``system_role="developer"`` puts the system prompt in the ``developer`` role, which
    OpenAI's reasoning models expect. Typed with the openai SDK's own message type, so
    ``client.chat.completions.create(model=..., messages=to_openai(a))`` type-checks (where
    the SDK is not installed, type checkers see no constraint).

    With page images the user message's ``content`` is a list of content parts instead: the
    text, with an ``image_url`` part (a ``data:`` URL) at each page's placeholder, right after
    its label; ``detail`` is ``"high"`` under ``image_tokens="openai"`` and ``"low"`` under
    ``"openai-low"`` (what the budget counted), left out under other rules.

    >>> import briefpack as bp
    >>> a = bp.assemble("Why?", ["Because."], budget=100, tokenizer="approx")
    >>> [m["role"] for m in to_openai(a)], to_openai(a, system_role="developer")[0]["role"]
    (['system', 'user'], 'developer')
    """
    if system_role not in ("system", "developer"):
        raise InputError(f"system_role must be 'system' or 'developer', got {shown(system_role)}")
    system: Message = (
        {"role": "developer", "content": assembly.system}
        if system_role == "developer"
        else {"role": "system", "content": assembly.system}
    )
    turns = [cast("Message", dict(t)) for t in assembly.history or ()]
    pieces = _user_pieces(assembly)
    if pieces is None:
        messages: list[Message] = [system, *turns, {"role": "user", "content": assembly.user}]
        return cast("list[ChatCompletionMessageParam]", messages)
    detail = _OPENAI_DETAIL.get(str(assembly.settings.get("pages", {}).get("image_tokens")))
    parts: list[dict[str, Any]] = []
    for piece in pieces:
        if isinstance(piece, str):
            parts.append({"type": "text", "text": piece})
        else:
            image_url = {"url": piece.data_url()}
            if detail is not None:
                image_url["detail"] = detail
            parts.append({"type": "image_url", "image_url": image_url})
    user = {"role": "user", "content": parts}
    return cast("list[ChatCompletionMessageParam]", [system, *turns, user])


_OPENAI_DETAIL = {"openai": "high", "openai-low": "low"}
"""The ``detail`` an image part asks for, by the ``image_tokens`` rule the budget used (so the
provider charges what the budget counted); another rule leaves ``detail`` out ("auto")."""


def to_openai_responses(
    assembly: Assembly, *, system_role: Literal["system", "developer"] = "system"
) -> list[ResponseInputItemParam]:
    """The ``input`` of an OpenAI Responses request: ``to_openai``'s messages in that API's
    form, for ``client.responses.create(model=..., input=to_openai_responses(a))``.

    Each message is ``{"role": ..., "content": ...}`` with the same text as ``to_openai``;
    with page images the user message's ``content`` is a list of ``input_text`` parts with an
    ``input_image`` part (a ``data:`` URL) at each page's placeholder; its ``detail`` is
    ``"high"`` under ``image_tokens="openai"``, ``"low"`` under ``"openai-low"`` and
    ``"auto"`` under other rules (the Responses API requires one). Typed with the openai SDK's
    own item type (its ``input`` is a ``list``, invariant, so no structural type fits); where
    the SDK is not installed, type checkers see no constraint.

    >>> import briefpack as bp
    >>> a = bp.assemble("Why?", ["Because."], budget=100, tokenizer="approx")
    >>> [m["role"] for m in to_openai_responses(a)]
    ['system', 'user']
    >>> to_openai_responses(a, system_role="developer")[0]["role"]
    'developer'
    """
    messages: list[dict[str, Any]] = [dict(m) for m in to_openai(assembly, system_role=system_role)]
    user = messages[-1]
    if not isinstance(user["content"], str):
        detail = _OPENAI_DETAIL.get(
            str(assembly.settings.get("pages", {}).get("image_tokens")), "auto"
        )
        user["content"] = [
            {"type": "input_text", "text": part["text"]}
            if part["type"] == "text"
            else {"type": "input_image", "image_url": part["image_url"]["url"], "detail": detail}
            for part in user["content"]
        ]
    return cast("list[ResponseInputItemParam]", messages)


def _user_pieces(assembly: Assembly) -> list[str | PageImage] | None:
    """The user message split at its image placeholders: text pieces and each page image in
    its place (whitespace-only pieces between two images left out); None when there are no
    images."""
    images = [p for s in assembly.sources for p in s.chunk.images]
    if not images:
        return None
    texts = assembly.user.split(IMAGE_PLACEHOLDER)
    if len(texts) != len(images) + 1:
        raise InputError(
            f"the user message has {len(texts) - 1} image placeholders but the sources carry "
            f"{len(images)} images; pass an Assembly as assemble returned it"
        )
    pieces: list[str | PageImage] = []
    for text, image in zip(texts, [*images, None]):
        if text.strip():
            pieces.append(text)
        if image is not None:
            pieces.append(image)
    return pieces


def _cache_control(cache: object, ttl: object) -> dict[str, str] | None:
    """The ``cache_control`` of a breakpoint (None without one); the arguments checked."""
    if not isinstance(cache, bool):
        raise InputError(f"cache must be True or False, got {shown(cache)}")
    if ttl is not None and ttl not in ("5m", "1h"):
        raise InputError(f"ttl must be '5m', '1h' or None, got {shown(ttl)}")
    if ttl is not None and not cache:
        raise InputError("ttl sets the cache lifetime, but cache=False; drop ttl or cache")
    if not cache:
        return None
    return {"type": "ephemeral"} if ttl is None else {"type": "ephemeral", "ttl": str(ttl)}


def cached_system_block(system: str, cache: bool | CacheTTL = True) -> list[dict[str, Any]]:
    """The system prompt as one text content block with an Anthropic cache breakpoint.

    The content-block form that Anthropic's API (and LangChain's ``ChatAnthropic``, given it
    as a ``SystemMessage``'s ``content``) reads a ``cache_control`` from. ``cache`` is True
    (the provider's default lifetime), ``"5m"`` or ``"1h"`` (that lifetime), or False (no
    breakpoint).

    >>> cached_system_block("You help.")
    [{'type': 'text', 'text': 'You help.', 'cache_control': {'type': 'ephemeral'}}]
    >>> cached_system_block("You help.", "1h")[0]["cache_control"]
    {'type': 'ephemeral', 'ttl': '1h'}
    """
    if not isinstance(cache, bool) and cache not in ("5m", "1h"):
        raise InputError(f"cache must be True, False, '5m' or '1h', got {shown(cache)}")
    control = _cache_control(True, cache) if isinstance(cache, str) else _cache_control(cache, None)
    block: dict[str, Any] = {"type": "text", "text": system}
    if control is not None:
        block["cache_control"] = control
    return [block]


def to_anthropic(
    assembly: Assembly,
    *,
    cache: bool = True,
    ttl: CacheTTL | None = None,
    native_citations: bool = False,
) -> AnthropicRequest:
    """The ``system`` and ``messages`` of an Anthropic Messages request.

    With ``cache=True`` the system block carries ``"cache_control": {"type": "ephemeral"}``:
    a cache breakpoint after the stable prefix, so the sources and the question (which change
    with every request) are never part of the cached prefix. ``ttl="1h"`` asks for the longer
    cache lifetime (``"5m"`` is the provider's default). An empty system prompt leaves out
    ``system`` altogether (the API rejects empty text blocks), and with it the breakpoint.
    Pass the result as keyword arguments:
    ``client.messages.create(model=..., max_tokens=..., **to_anthropic(a))``.

    With page images the user message's ``content`` is a list of blocks: text blocks and an
    ``image`` block (a base64 source) at each page's placeholder, right after its label; the
    system block and its breakpoint are unchanged.

    Under ``history_turns=True`` the history's turns come before the user message as user and
    assistant messages, and with ``cache=True`` the last turn carries a second breakpoint: each
    request's conversation so far is a prefix of the next request's, so it is read from the
    cache (Anthropic allows four breakpoints per request).

    ``native_citations=True`` sends the sources for Anthropic's own citations: the user
    message's ``content`` is the history (a text block, when there is one), then each source as
    a ``search_result`` block in label order (``source``: its url, else its id; ``title``:
    ``[label] title``; its text as one text block; ``"citations": {"enabled": True}``), then
    the question. The model's answer then carries ``citations`` that point at those blocks by
    index, and ``briefpack.cite(response, a)`` maps them back to the sources. The budget
    counted the sources as labelled blocks; this form sends the same texts without the tags,
    in the provider's own framing (not counted). Sources with page images cannot go in a
    ``search_result`` (text only): that is an ``InputError``.

    >>> import briefpack as bp
    >>> a = bp.assemble("Why?", ["Because."], budget=100, tokenizer="approx")
    >>> req = to_anthropic(a)
    >>> req["system"][0]["cache_control"], req["messages"][0]["role"]
    ({'type': 'ephemeral'}, 'user')
    >>> "cache_control" in to_anthropic(a, cache=False)["system"][0]
    False
    >>> to_anthropic(a, ttl="1h")["system"][0]["cache_control"]
    {'type': 'ephemeral', 'ttl': '1h'}
    >>> [b["type"] for b in to_anthropic(a, native_citations=True)["messages"][0]["content"]]
    ['search_result', 'text']
    """
    control = _cache_control(cache, ttl)
    request: dict[str, Any] = {}
    if assembly.system:
        block: dict[str, Any] = {"type": "text", "text": assembly.system}
        if control is not None:
            block["cache_control"] = control
        request["system"] = [block]
    if not isinstance(native_citations, bool):
        raise InputError(f"native_citations must be True or False, got {shown(native_citations)}")
    turns = _anthropic_turns(assembly, control)
    if native_citations:
        content = _search_result_content(assembly)
        request["messages"] = [*turns, {"role": "user", "content": content}]
        return cast("AnthropicRequest", request)
    pieces = _user_pieces(assembly)
    if pieces is None:
        request["messages"] = [*turns, {"role": "user", "content": assembly.user}]
        return cast("AnthropicRequest", request)
    blocks: list[dict[str, Any]] = [
        {"type": "text", "text": piece}
        if isinstance(piece, str)
        else {
            "type": "image",
            "source": {"type": "base64", "media_type": piece.media_type, "data": piece.base64()},
        }
        for piece in pieces
    ]
    request["messages"] = [*turns, {"role": "user", "content": blocks}]
    return cast("AnthropicRequest", request)


def _anthropic_turns(assembly: Assembly, control: dict[str, str] | None) -> list[dict[str, Any]]:
    """The history turns (``history_turns=True``) as messages, the last one's text block
    carrying the breakpoint ``control`` (so the whole conversation so far is cached)."""
    turns: list[dict[str, Any]] = [
        {"role": t["role"], "content": t["content"]} for t in assembly.history or ()
    ]
    if turns and control is not None:
        last = turns[-1]
        last["content"] = [{"type": "text", "text": last["content"], "cache_control": control}]
    return turns


def _search_result_content(assembly: Assembly) -> list[dict[str, Any]]:
    """The user message's blocks for native citations: history, one ``search_result`` per
    source (label order, so result ``i`` is label ``i + 1``), the question."""
    if any(s.chunk.images for s in assembly.sources):
        raise InputError(
            "native_citations=True sends each source as a search_result block, which holds "
            "text only, but the sources carry page images; leave native_citations off"
        )
    user = assembly.user
    question = render_question(assembly.question, assembly.settings.get("labels", "xml"))
    at = user.find("<sources>")  # the first: no text can open one of our tags (escaped)
    if at < 0 or not user.endswith(question):
        raise InputError(
            "the user message is not history, sources, question; pass an Assembly as assemble "
            "returned it"
        )
    blocks: list[dict[str, Any]] = []
    history = user[:at].rstrip("\n")
    if history:
        blocks.append({"type": "text", "text": history})
    for source in assembly.sources:
        chunk = source.chunk
        title = f"[{source.label}] {chunk.title}" if chunk.title else f"[{source.label}]"
        blocks.append(
            {
                "type": "search_result",
                "source": chunk.url or str(chunk.id),
                "title": title,
                "content": [{"type": "text", "text": chunk.text}],
                "citations": {"enabled": True},
            }
        )
    blocks.append({"type": "text", "text": question})
    return blocks


@dataclass(frozen=True)
class CacheReport:
    """Whether the stable prefix (the system prompt) is long enough to be cached.

    The count covers the system prompt only, with ``tokenizer``. A provider counts with its
    own tokenizer, and its cached prefix also holds what comes before the system prompt (tool
    definitions) and its own message framing; none of that is counted here, so a prefix close
    to ``minimum`` may fall either side of it.

    Attributes:
        prefix_tokens: the system prompt's token count.
        minimum: the provider's shortest cacheable prefix that was checked against.
        tokenizer: the tokenizer that counted (an encoding name, or the callable's name).
    """

    prefix_tokens: int
    minimum: int
    tokenizer: str

    @property
    def too_short(self) -> bool:
        """True when the prefix is shorter than ``minimum``: no provider will cache it."""
        return self.prefix_tokens < self.minimum

    @property
    def cacheable(self) -> bool:
        """True when the prefix reaches ``minimum``."""
        return not self.too_short

    def __str__(self) -> str:
        counted = (
            f"the stable prefix (the system prompt, counted with {self.tokenizer}; tools and the "
            f"provider's framing not counted) is {self.prefix_tokens} tokens"
        )
        if self.too_short:
            return (
                f"{counted}, shorter than the {self.minimum} a provider caches: it will not be "
                f"cached; to cache it, add {self.minimum - self.prefix_tokens} or more tokens of "
                "fixed instructions or examples to the system prompt"
            )
        return f"{counted}, at least the {self.minimum} a provider caches: it can be cached"


def _tokenizer_name(tokenizer: object) -> str:
    if isinstance(tokenizer, str):
        return tokenizer
    for attr in ("name", "__name__"):  # a tiktoken Encoding's name, a function's name
        value = getattr(tokenizer, attr, None)
        if isinstance(value, str) and value != "<lambda>":
            return value
    return "callable"


def cache_report(
    assembly: Assembly,
    *,
    tokenizer: str | Callable[[str], Any] | None = None,
    minimum: int = CACHE_MINIMUM,
) -> CacheReport:
    """Count the stable prefix and compare it with the provider's caching minimum.

    Args:
        assembly: the result of ``assemble``.
        tokenizer: what to count with; ``None`` reuses the count made by ``assemble`` (with
            the assembly's own tokenizer). An encoding or OpenAI model name, a tiktoken
            ``Encoding`` or a callable returning a count or a token list. Use the provider's
            tokenizer where you have one: counts differ between vocabularies.
        minimum: the provider's shortest cacheable prefix (1,024 on most models).

    >>> import briefpack as bp
    >>> a = bp.assemble("Why?", ["Because."], budget=100, tokenizer="approx")
    >>> report = cache_report(a)
    >>> report.prefix_tokens == a.tokens["system"], report.too_short
    (True, True)
    >>> cache_report(a, minimum=10).cacheable
    True
    """
    check_count("minimum", minimum)
    if tokenizer is None:
        n = assembly.tokens["system"]
        name = str(assembly.settings.get("tokenizer", "unknown"))
    else:
        n = count_tokens([assembly.system], encoding=resolve_tokenizer(tokenizer))[0]
        name = _tokenizer_name(tokenizer)
    return CacheReport(prefix_tokens=n, minimum=minimum, tokenizer=name)
