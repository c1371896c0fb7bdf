"""Token counting (reference): tiktoken is the oracle for the BPE encodings.

``o200k_base`` and ``cl100k_base`` count ``len(enc.encode_ordinary(text))`` with tiktoken (an
optional dependency of the reference backend: ``pip install briefpack[reference]``); ``approx``
is ``max(1, len(text) // 4)`` in code points; a callable ``str -> int`` counts anything else.
When tiktoken cannot load a vocabulary (offline, no cache), it is built from the Rust core's
copy, checked against the SHA-256 tiktoken publishes for the file.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import importlib
import threading
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
        built_in = _built_in_encoding(tiktoken, name)
        if built_in is not None:
            return built_in
        raise BriefpackError(
            f"the python backend could not load the {name} vocabulary through tiktoken "
            f"({type_name(exc)}); set TIKTOKEN_CACHE_DIR to a folder holding it, allow tiktoken "
            "to download it once, or use backend='rust' (vocabularies built in)"
        ) from exc


# tiktoken_ext.openai_public's loader is swapped while one encoding is built from the core's
# bytes; one build at a time, so the original is always the one put back.
_BUILT_IN_LOCK = threading.Lock()


def _built_in_encoding(tiktoken: Any, name: str) -> Any | None:
    """tiktoken's ``Encoding`` for ``name`` from the vocabulary built into the Rust core, or
    ``None`` when the core or tiktoken's ``openai_public`` plugin is not there.

    Everything but the vocabulary's bytes is tiktoken's own: its constructor for ``name`` in
    ``tiktoken_ext.openai_public`` runs as usual (pattern, special tokens, the file it asks for
    and its published SHA-256) with its file loader replaced by one that hands over the core's
    copy (``_core.vocabulary``) once its SHA-256 is the expected one. The encoding is then
    tiktoken's, from bytes identical to the file tiktoken would download, so the oracle stays
    independent of the Rust tokenizer it checks. A thread of other code that asks tiktoken for
    an OpenAI encoding meanwhile gets the same verified bytes.

    Raises:
        BriefpackError: the core's bytes are not the file tiktoken expects.
    """
    try:
        openai_public: Any = importlib.import_module("tiktoken_ext.openai_public")
        from .. import _core
    except ImportError:  # pragma: no cover - depends on the build
        return None
    constructor = openai_public.ENCODING_CONSTRUCTORS.get(name)
    if constructor is None:  # pragma: no cover - every name checked is an OpenAI one
        return None

    def load(blobpath: str, expected_hash: str | None = None) -> dict[bytes, int]:
        if not blobpath.endswith(f"/{name}.tiktoken"):
            raise BriefpackError(f"tiktoken's {name} asks for {blobpath}, not {name}.tiktoken")
        return _verified_ranks(name, _core.vocabulary(name), expected_hash)

    with _BUILT_IN_LOCK:
        original = openai_public.load_tiktoken_bpe
        openai_public.load_tiktoken_bpe = load
        try:
            spec = constructor()
        finally:
            openai_public.load_tiktoken_bpe = original
    return tiktoken.Encoding(**spec)


def _verified_ranks(name: str, data: bytes, expected_hash: str | None) -> dict[bytes, int]:
    r"""The ranks of a ``.tiktoken`` file (``base64 rank`` lines), once ``data``'s SHA-256 is
    ``expected_hash``.

    >>> import hashlib
    >>> data = b"IQ== 0\nIg== 1\n"
    >>> _verified_ranks("tiny", data, hashlib.sha256(data).hexdigest())
    {b'!': 0, b'"': 1}
    """
    digest = hashlib.sha256(data).hexdigest()
    if digest != expected_hash:
        raise BriefpackError(
            f"the core's built-in {name} vocabulary has SHA-256 {digest}, not the {expected_hash} "
            "tiktoken publishes; rebuild the extension (scripts/gen_vocab.py writes its data)"
        )
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        token, rank = line.split()
        ranks[base64.b64decode(token)] = int(rank)
    return ranks


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
