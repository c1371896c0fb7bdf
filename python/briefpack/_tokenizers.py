"""Tokenizers as users hold them, resolved to what the pipeline counts with (a leaf).

``resolve(value)`` turns what a caller passes as ``tokenizer=`` into an encoding name the
kernels count natively (``"o200k_base"``, ``"cl100k_base"``, ``"approx"``) or a callable
``str -> int``:

* an encoding name: itself (the hot path: nothing else is looked at);
* an OpenAI model name: its encoding, as tiktoken maps it (``MODEL_TO_ENCODING`` exact names,
  then ``MODEL_PREFIX_TO_ENCODING`` prefixes; copied from tiktoken 0.14, so no tiktoken is
  needed at run time); a model whose encoding is not built in (``text-davinci-003``:
  ``p50k_base``) is refused, naming what to pass instead;
* an Anthropic model name (``claude-...``): ``"approx"`` (``max(1, len(text) // 4)``), an
  approximation and recorded as such (``settings.tokenizer == "approx"``): Anthropic's
  tokenizer is not public, and the measured error of the rule against o200k on real text is
  in docs/semantics.md ("Tokenizers");
* a tiktoken ``Encoding`` (or its bound ``encode`` / ``encode_ordinary``): its name when it is
  one of ours (name, ``n_vocab`` and four spot ranks agree), else a counter of its
  ``encode_ordinary``;
* Haystack's ``TokenCounter`` protocol (``count(messages) -> int``): a ``TiktokenCounter`` of
  a built-in encoding is that name; any other counts each text as one user message (so its
  per-message overhead, if any, is counted once per text);
* any other callable: its result is the count if an int, else the length of the sequence it
  returns (``enc.encode``, LlamaIndex's ``Settings.tokenizer``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sized
from typing import Any, NoReturn

from ._checks import ENCODINGS, choice, integer, shown, type_name
from .errors import InputError

__all__ = ["MODEL_PREFIX_TO_ENCODING", "MODEL_TO_ENCODING", "SequenceCounter", "resolve"]

MODEL_TO_ENCODING: dict[str, str] = {
    "o1": "o200k_base", "o3": "o200k_base", "o4-mini": "o200k_base", "gpt-5": "o200k_base",
    "gpt-4.1": "o200k_base", "gpt-4o": "o200k_base", "gpt-4": "cl100k_base",
    "gpt-3.5-turbo": "cl100k_base", "gpt-3.5": "cl100k_base", "gpt-35-turbo": "cl100k_base",
    "davinci-002": "cl100k_base", "babbage-002": "cl100k_base",
    "text-embedding-ada-002": "cl100k_base", "text-embedding-3-small": "cl100k_base",
    "text-embedding-3-large": "cl100k_base", "text-davinci-003": "p50k_base",
    "text-davinci-002": "p50k_base", "text-davinci-001": "r50k_base", "davinci": "r50k_base",
    "code-davinci-002": "p50k_base", "gpt2": "gpt2", "gpt-2": "gpt2",
}  # fmt: skip
"""Exact OpenAI model names -> encoding, as ``tiktoken.model.MODEL_TO_ENCODING`` (0.14)."""

MODEL_PREFIX_TO_ENCODING: dict[str, str] = {
    "o1-": "o200k_base", "o3-": "o200k_base", "o4-mini-": "o200k_base", "gpt-5": "o200k_base",
    "gpt-4.5-": "o200k_base", "gpt-4.1-": "o200k_base", "chatgpt-4o-": "o200k_base",
    "gpt-4o-": "o200k_base", "gpt-4-": "cl100k_base", "gpt-3.5-turbo-": "cl100k_base",
    "gpt-35-turbo-": "cl100k_base", "gpt-oss-": "o200k_harmony", "ft:gpt-4o": "o200k_base",
    "ft:gpt-4": "cl100k_base", "ft:gpt-3.5-turbo": "cl100k_base",
    "ft:davinci-002": "cl100k_base", "ft:babbage-002": "cl100k_base",
}  # fmt: skip
"""OpenAI model name prefixes -> encoding, as ``tiktoken.model.MODEL_PREFIX_TO_ENCODING``
(0.14); tried in this order, after the exact names."""

_OURS: dict[str, tuple[int, tuple[tuple[bytes, int], ...]]] = {
    "o200k_base": (200019, ((b" the", 290), (b"ing", 289), (b" brief", 14567), (b"}\n", 739))),
    "cl100k_base": (100277, ((b" the", 279), (b"ing", 287), (b" brief", 10015), (b"}\n", 534))),
}
"""Each built-in vocabulary's ``n_vocab`` and four spot ranks (a renamed vocabulary fails)."""

_ALTERNATIVE = "or a callable str -> int"
"""The refusal's wording (``_checks.choice``), as it has always been; docs/semantics.md
("Tokenizers") lists the other forms (model names, Encodings, TokenCounters)."""


class SequenceCounter:
    """A caller's tokenizer as ``str -> int``: an int result is the count, a sequence's
    length is (a token list). Equal when the functions are (so an ``Options`` holding one is
    equal to another made from the same function).

    >>> SequenceCounter(str.split)("three short words")
    3
    """

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[str], Any]) -> None:
        self.fn = fn

    def __call__(self, text: str) -> Any:
        got = self.fn(text)
        if integer(got) is not None:
            return got
        if isinstance(got, Sized) and not isinstance(got, (str, bytes, Mapping)):
            return len(got)
        if not isinstance(got, (str, bytes, Mapping)):
            return got  # count_with refuses it ("must return an int >= 0"), naming the text
        raise InputError(
            f"a tokenizer must return a token count (int) or the tokens (a list), got "
            f"{type_name(got)} {shown(got)}",
            option="tokenizer",
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SequenceCounter) and other.fn == self.fn

    def __hash__(self) -> int:
        return hash(self.fn)

    def __repr__(self) -> str:
        return f"SequenceCounter({self.fn!r})"


def _ours(encoding: Any) -> str | None:
    """The name of a tiktoken ``Encoding`` when it is one of the built-in vocabularies."""
    name = getattr(encoding, "name", None)
    if name not in _OURS:
        return None
    n_vocab, spots = _OURS[name]
    try:
        if encoding.n_vocab != n_vocab:
            return None
        if any(encoding.encode_single_token(piece) != rank for piece, rank in spots):
            return None
    except Exception:  # not what it says it is
        return None
    return str(name)


def _model(name: str, where: str) -> str:
    if name.startswith("claude"):
        return "approx"
    encoding = MODEL_TO_ENCODING.get(name)
    if encoding is None:
        encoding = next(
            (e for p, e in MODEL_PREFIX_TO_ENCODING.items() if name.startswith(p)), None
        )
    if encoding is None or encoding not in ENCODINGS:  # unknown, or a vocabulary not ours
        _refuse(name, where)
    return str(encoding)


def _refuse(value: object, where: str) -> NoReturn:
    """The one refusal: the legal names, and what else may be passed."""
    choice(where, value, ENCODINGS, alternative=_ALTERNATIVE)
    raise AssertionError("choice accepted a value resolve did not")  # pragma: no cover


def resolve(value: object, where: str = "tokenizer") -> str | Callable[[str], int]:
    """What the pipeline counts with, from what the caller holds (see the module doc).

    Rejected: importing tiktoken to look names up (a dependency at run time, and a network
    fetch of vocabularies on first use).

    >>> resolve("o200k_base"), resolve("gpt-4.1-mini"), resolve("o3"), resolve("claude-sonnet-4")
    ('o200k_base', 'o200k_base', 'o200k_base', 'approx')
    >>> resolve("text-davinci-003")  # p50k_base: not a vocabulary of ours
    Traceback (most recent call last):
    ...
    briefpack.errors.InputError: tokenizer must be one of 'o200k_base', 'cl100k_base', ...
    """
    if isinstance(value, str):
        return value if value in ENCODINGS else _model(value, where)
    if isinstance(value, SequenceCounter):
        return value
    owner = getattr(value, "__self__", None)  # a bound enc.encode / enc.encode_ordinary
    if owner is not None and getattr(value, "__name__", "") in ("encode", "encode_ordinary"):
        name = _ours(owner)
        if name is not None:
            return name
    if callable(getattr(value, "encode_ordinary", None)) and hasattr(value, "n_vocab"):
        name = _ours(value)  # a tiktoken Encoding
        return name if name is not None else SequenceCounter(value.encode_ordinary)  # type: ignore[attr-defined]
    count = getattr(value, "count", None)
    if callable(count) and hasattr(value, "to_dict") and not callable(value):
        return _haystack(value, where)
    if callable(value):
        return SequenceCounter(value)
    _refuse(value, where)


def _haystack(counter: Any, where: str) -> str | Callable[[str], int]:
    """A Haystack ``TokenCounter``: a built-in vocabulary by name, else one message a text."""
    encoding = getattr(counter, "encoding", None)
    if isinstance(encoding, str) and encoding in ENCODINGS and encoding != "approx":
        return encoding
    try:
        from haystack.dataclasses import ChatMessage  # an optional dependency
    except ImportError:  # pragma: no cover - a TokenCounter comes from haystack
        raise InputError(
            f"{where}: a TokenCounter needs haystack-ai installed; pass an encoding name",
            option="tokenizer",
        ) from None

    return SequenceCounter(_Messages(counter, ChatMessage.from_user))


class _Messages:
    """Counts a text as one user message with a Haystack ``TokenCounter`` (equal by counter)."""

    __slots__ = ("counter", "message")

    def __init__(self, counter: Any, message: Callable[[str], Any]) -> None:
        self.counter, self.message = counter, message

    def __call__(self, text: str) -> Any:
        return self.counter.count([self.message(text)])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Messages) and other.counter is self.counter

    def __hash__(self) -> int:
        return id(self.counter)
