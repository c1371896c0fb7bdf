"""Token counting (reference): tiktoken is the oracle for the BPE encodings.

``o200k_base`` and ``cl100k_base`` count ``len(enc.encode_ordinary(text))`` with tiktoken (an
optional dependency of the reference backend: ``pip install briefpack[reference]``); ``approx``
is ``max(1, len(text) // 4)`` in code points; a callable ``str -> int`` counts anything else.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from .._checks import ENCODINGS, check_encoding, check_texts, count_with, type_name
from ..errors import BriefpackError, InputError

__all__ = ["ENCODINGS", "check_encoding", "count_tokens", "count_with"]


@functools.cache
def _tiktoken(name: str) -> Any:
    try:
        import tiktoken
    except ImportError:  # pragma: no cover - depends on the environment
        raise InputError(
            f"the python backend counts {name} with tiktoken, which is not installed; "
            "pip install 'briefpack[reference]' or use backend='rust'"
        ) from None
    try:
        return tiktoken.get_encoding(name)
    except Exception as exc:
        raise BriefpackError(
            f"the python backend could not load the {name} vocabulary through tiktoken "
            f"({type_name(exc)}); set TIKTOKEN_CACHE_DIR to a folder holding it, allow tiktoken "
            "to download it once, or use backend='rust' (vocabularies built in)"
        ) from exc


def count_tokens(texts: Sequence[str], encoding: Any = "o200k_base") -> list[int]:
    """Count the tokens of each text, exactly as tiktoken's ``len(enc.encode_ordinary(text))``.

    >>> count_tokens(["hello world", ""], encoding="approx")
    [2, 1]
    """
    checked = check_texts(texts)
    enc = check_encoding(encoding)
    if callable(enc):
        return [count_with(enc, t, f"texts[{i}]") for i, t in enumerate(checked)]
    if enc == "approx":
        return [max(1, len(t) // 4) for t in checked]
    tk = _tiktoken(enc)
    return [len(tk.encode_ordinary(t)) for t in checked]
