"""The one compact account of an adapter's request, for callbacks, events and traces.

Every adapter reports each request the same way: LangChain as the custom event ``"briefpack"``,
LlamaIndex as the instrumentation event ``BriefpackAssembled``, Haystack as the span tag
``briefpack.summary``. Each carries ``trace_summary``'s dict: plain JSON data whose size does
not grow with the candidates' texts (at most ``SUMMARY_IDS`` ids, each cut to ``SUMMARY_ID_CHARS``
characters), so a tracer can store one per request. The full account stays one call away:
``Assembly.record()`` (the LangChain event and the LlamaIndex event carry the ``Assembly``;
Haystack writes the record to the span when built with ``trace="record"``).

Nothing here imports a framework.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..assembly import Assembly
from ..record import prompt_sha256

__all__ = ["SUMMARY_IDS", "SUMMARY_ID_CHARS", "Timed", "timed", "trace_summary"]

SUMMARY_IDS = 64
"""Most source ids a summary lists (``sources``); ``placed`` always counts them all."""
SUMMARY_ID_CHARS = 100
"""Longest id a summary writes; a longer one is cut and ends with ``...``."""


def _short(cid: object) -> str:
    text = str(cid)
    return text if len(text) <= SUMMARY_ID_CHARS else text[: SUMMARY_ID_CHARS - 3] + "..."


def trace_summary(
    assembly: Assembly,
    *,
    adapter: str = "assemble",
    candidates: int | None = None,
    ms: float | None = None,
) -> dict[str, Any]:
    """What an adapter reports of one request: a small dict of JSON data.

    Keys: ``adapter`` (who assembled), ``prompt_sha256`` (as in the record: it names the
    prompt that was sent), ``candidates`` (how many came in), ``placed`` (how many sources),
    ``sources`` (their ids in final order, the first ``SUMMARY_IDS``), ``dropped`` (a count per
    reason, in order of first drop), ``tokens`` (the assembly's counts: ``total``,
    ``sources``, ``context_budget``, ...), ``empty_reason`` (None unless the context is empty)
    and ``ms`` (the adapter's wall time for the call, None when not measured).

    ``candidates`` defaults to the assembly's own count (which builds its ``fates``).

    >>> import briefpack as bp
    >>> a = bp.assemble("Cap?", ["The cap is 4000 EUR.", "The cap is 4000 EUR."],
    ...                 budget=200, tokenizer="approx")
    >>> s = trace_summary(a)
    >>> s["placed"], s["sources"], s["dropped"], s["candidates"], s["tokens"]["context_budget"]
    (1, ['0'], {'duplicate': 1}, 2, 200)
    """
    dropped: dict[str, int] = {}
    for d in assembly.dropped:
        dropped[d.reason] = dropped.get(d.reason, 0) + 1
    return {
        "adapter": adapter,
        "prompt_sha256": prompt_sha256(assembly.system, assembly.user, assembly.history),
        "candidates": len(assembly.fates) if candidates is None else candidates,
        "placed": len(assembly.sources),
        "sources": [_short(s.chunk.id) for s in assembly.sources[:SUMMARY_IDS]],
        "dropped": dropped,
        "tokens": dict(assembly.tokens),
        "empty_reason": assembly.empty_reason,
        "ms": None if ms is None else round(ms, 3),
    }


class Timed:
    """One adapter request: its ``Assembly``, with the count and wall time ``summary`` reports
    (built only when asked for, so a request nobody listens to pays nothing for it)."""

    __slots__ = ("adapter", "assembly", "candidates", "ms")

    def __init__(self, adapter: str, assembly: Assembly, candidates: int, ms: float) -> None:
        self.adapter = adapter
        self.assembly = assembly
        self.candidates = candidates
        self.ms = ms

    def summary(self) -> dict[str, Any]:
        """``trace_summary`` of this request."""
        return trace_summary(
            self.assembly, adapter=self.adapter, candidates=self.candidates, ms=self.ms
        )


def timed(adapter: str, n: int, call: Callable[[], Assembly]) -> Timed:
    """Run ``call`` (one ``Assembler`` call) and time it."""
    start = time.perf_counter()
    assembly = call()
    return Timed(adapter, assembly, n, (time.perf_counter() - start) * 1e3)
