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
from typing import Any

from .._checks import check_count
from ..kernels import count_tokens
from ..types import Assembly

__all__ = ["CACHE_MINIMUM", "CacheReport", "cache_report", "to_anthropic", "to_openai"]

CACHE_MINIMUM = 1024
"""The usual shortest prefix (in tokens) that providers cache."""


def to_openai(assembly: Assembly) -> list[dict[str, str]]:
    """The ``messages`` of a chat-completions request (the same as ``Assembly.messages``).

    >>> import briefpack as bp
    >>> a = bp.assemble("Why?", ["Because."], budget=100, tokenizer="approx")
    >>> [m["role"] for m in to_openai(a)]
    ['system', 'user']
    """
    return assembly.messages


def to_anthropic(assembly: Assembly, *, cache: bool = True) -> dict[str, Any]:
    """The ``system`` and ``messages`` of an Anthropic Messages request.

    With ``cache=True`` the system block carries ``"cache_control": {"type": "ephemeral"}``:
    a cache breakpoint after the stable prefix, so the sources and the question (which change
    with every request) are never part of the cached prefix. Pass the result as keyword
    arguments: ``client.messages.create(model=..., max_tokens=..., **to_anthropic(a))``.

    >>> import briefpack as bp
    >>> a = bp.assemble("Why?", ["Because."], budget=100, tokenizer="approx")
    >>> req = to_anthropic(a)
    >>> req["system"][0]["cache_control"], req["messages"][0]["role"]
    ({'type': 'ephemeral'}, 'user')
    >>> "cache_control" in to_anthropic(a, cache=False)["system"][0]
    False
    """
    block: dict[str, Any] = {"type": "text", "text": assembly.system}
    if cache:
        block["cache_control"] = {"type": "ephemeral"}
    return {"system": [block], "messages": [{"role": "user", "content": assembly.user}]}


@dataclass(frozen=True)
class CacheReport:
    """Whether the stable prefix (the system prompt) is long enough to be cached.

    Attributes:
        prefix_tokens: the system prompt's token count.
        minimum: the provider's shortest cacheable prefix that was checked against.
        tokenizer: the tokenizer that counted (a name, or ``"callable"``).
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
        if self.too_short:
            return (
                f"the stable prefix is {self.prefix_tokens} tokens ({self.tokenizer}), shorter "
                f"than the {self.minimum} a provider caches: it will not be cached; to cache it, "
                f"add {self.minimum - self.prefix_tokens} or more tokens of fixed instructions "
                "or examples to the system prompt"
            )
        return (
            f"the stable prefix is {self.prefix_tokens} tokens ({self.tokenizer}), at least "
            f"the {self.minimum} a provider caches: it can be cached"
        )


def cache_report(
    assembly: Assembly,
    *,
    tokenizer: str | Callable[[str], int] | None = None,
    minimum: int = CACHE_MINIMUM,
) -> CacheReport:
    """Count the stable prefix and compare it with the provider's caching minimum.

    Args:
        assembly: the result of ``assemble``.
        tokenizer: what to count with; ``None`` reuses the count made by ``assemble`` (with
            the assembly's own tokenizer). Use the provider's tokenizer where you have one:
            counts differ between vocabularies, and providers count their own way.
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
        n = count_tokens([assembly.system], encoding=tokenizer)[0]
        name = tokenizer if isinstance(tokenizer, str) else "callable"
    return CacheReport(prefix_tokens=n, minimum=minimum, tokenizer=name)
