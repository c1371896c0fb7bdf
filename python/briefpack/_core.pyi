"""Type stubs for briefpack's Rust core (``briefpack._core``)."""

from collections.abc import Sequence
from typing import Literal

__version__: str

def count_tokens(
    texts: Sequence[str],
    encoding: Literal["o200k_base", "cl100k_base", "approx"] = "o200k_base",
) -> list[int]:
    """Count the tokens of each text, exactly as tiktoken's ``len(enc.encode_ordinary(text))``.

    ``o200k_base`` and ``cl100k_base`` use vocabularies compiled into the extension (no network,
    no files); ``approx`` is ``max(1, len(text) // 4)`` in code points. Callables are handled by
    the Python layer, not here. BPE counts go through the process-wide cache (see
    ``token_cache_info``); ``approx`` bypasses it. The GIL is released while counting (one
    thread per call: to use more cores, call from several threads).

    Arguments:
        texts: a sequence (not a str or bytes) of str without lone surrogates.
        encoding: ``"o200k_base"``, ``"cl100k_base"`` or ``"approx"``.

    Returns:
        One count per text, in input order.

    Raises:
        InputError: ``texts`` is not a sequence of valid str (the reference's messages, e.g.
            ``texts[2]: text must be a str, got bytes``), or ``encoding`` is not one of the three
            names; texts are checked first.
    """

def count_tokens_limited(
    texts: Sequence[str],
    limits: Sequence[int],
    encoding: Literal["o200k_base", "cl100k_base", "approx"] = "o200k_base",
) -> list[int]:
    """Count each text against its own limit, stopping early once the limit is passed.

    Contract, for every ``i``, with ``n = count_tokens([texts[i]], encoding)[0]``:
    if ``n <= limits[i]`` the result is exactly ``n``; otherwise it is some int ``> limits[i]``
    (at most ``n``: the count of the pretokenizer pieces read until the total passed the
    limit, or a cached exact count). So ``result[i] <= limits[i]`` if and only if the text fits,
    and then the value is exact. The work for a text that does not fit is bounded by the
    pieces needed to exceed its limit. A cached exact count answers directly; a computed count
    is cached only when it is exact. This call does not change the cache's hit and miss
    counters. ``approx`` always returns the exact count.

    Arguments:
        texts: a sequence (not a str or bytes) of str without lone surrogates.
        limits: one int ``>= 0`` per text (ints past the platform's ``size_t`` mean no limit).
        encoding: ``"o200k_base"``, ``"cl100k_base"`` or ``"approx"``.

    Returns:
        One value per text, in input order, as described above.

    Raises:
        InputError: bad ``texts`` (as ``count_tokens``), then bad ``limits``
            (``limits must be a list of int, got str``, ``limits[3] must be an int >= 0, got
            -1``, ``limits has 2 items but texts has 3; pass one limit per text``), then a bad
            ``encoding``, in that order.
    """

def set_token_cache_capacity(capacity: int) -> None:
    """Empty the token-count cache, reset its counters, and let it hold at most ``capacity``.

    The cache maps a 128-bit BLAKE3 hash of (encoding, text) to the text's count, with CLOCK
    eviction in 16 shards; the default capacity is 65,536 counts. ``0`` disables it (no
    look-ups, no counters).

    Arguments:
        capacity: an int ``>= 0``.

    Raises:
        InputError: ``capacity must be an int >= 0, got -1``.
    """

def token_cache_info() -> dict[str, int]:
    """The token-count cache's counters since the last ``set_token_cache_capacity``.

    Returns:
        ``{"hits": ..., "misses": ..., "size": ..., "capacity": ...}``: look-ups by
        ``count_tokens`` that found / did not find a count, entries held (never more than
        ``capacity``), and the capacity.
    """
