"""Explaining a result in words: tokenizer availability, each candidate's fate, token rows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..assembly import Assembly
from ..errors import BriefpackError
from ..types import Chunk, Compression
from .common import UserError


def _shorten(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def tokenizer_problem(name: str, backend: str = "auto") -> str | None:
    """Why ``name`` cannot count tokens here (e.g. no vocabulary offline), or None if it can."""
    if name == "approx":
        return None
    from .._backend import get_kernels

    kernels = get_kernels(backend)
    try:
        kernels.count_tokens(["briefpack"], name)
    except BriefpackError as exc:
        return str(exc)
    except OSError as exc:  # tiktoken downloads a vocabulary on first use
        return f"{type(exc).__name__}: not in the tiktoken cache and the download failed (offline?)"
    except Exception as exc:  # any other failure to load a vocabulary (corrupt cache, ...)
        return f"{type(exc).__name__}: {_shorten(str(exc))}"
    return None


def _vocabulary_advice(name: str, option: str) -> str:
    return (
        f"the {name} vocabulary could not be loaded; pass {option} approx for estimates, set "
        "TIKTOKEN_CACHE_DIR to a folder that holds the tiktoken files, or install briefpack "
        "with its compiled core"
    )


def require_tokenizer(name: str, backend: str, option: str) -> None:
    problem = tokenizer_problem(name, backend)
    if problem is not None:
        raise UserError(f"{_vocabulary_advice(name, option)} ({problem})")


# --------------------------------------------------------------------------- fates


def num(x: Any, digits: int = 2) -> str:
    return f"{x:.{digits}f}" if isinstance(x, (int, float)) and not isinstance(x, bool) else str(x)


def describe_fate(fate: dict[str, Any]) -> str:
    """One line on what happened to a candidate, from an entry of ``Assembly.fates``.

    >>> describe_fate({"fate": "source", "label": 3})
    'source [3]'
    >>> describe_fate({"fate": "dropped", "reason": "duplicate",
    ...                "detail": {"of": "kb/1", "similarity": 0.875, "method": "jaccard"}})
    'duplicate of kb/1 (jaccard 0.88)'
    >>> describe_fate({"fate": "dropped", "reason": "superseded",
    ...                "detail": {"by": "kb/9", "updated": "2024-09-02", "url": "https://x"}})
    'superseded by kb/9 (updated 2024-09-02)'
    >>> describe_fate({"fate": "dropped", "reason": "over_budget",
    ...                "detail": {"remaining": 12, "context_budget": 1000}})
    'over budget: needs more than the 12 tokens left of the context budget of 1000'
    """
    if fate.get("fate") == "source":
        return f"source [{fate['label']}]"
    reason = str(fate.get("reason"))
    d = dict(fate.get("detail") or {})
    via = f", via {d.pop('via')}" if "via" in d else ""
    if reason == "duplicate":
        if d.get("method") == "id":
            return f"duplicate: its id and text repeat an earlier candidate{via}"
        return f"duplicate of {d.get('of')} ({d.get('method')} {num(d.get('similarity'))}{via})"
    if reason == "superseded":
        return f"superseded by {d.get('by')} (updated {d.get('updated') or 'never'}{via})"
    if reason == "capped":
        return f"capped: more than {d.get('max_per_doc')} from {d.get('doc')}{via}"
    if reason == "not_selected":
        k = d.get("mmr_k")
        return f"not selected by MMR (lambda {d.get('mmr')}{f', k {k}' if k else ''}{via})"
    if reason == "over_budget":
        if d.get("evicted"):
            return (
                f"over budget: evicted, the sources took {d.get('sources_tokens')} of "
                f"{d.get('context_budget')} tokens{via}"
            )
        if "after" in d:
            return (
                f"over budget: packing stopped at {d.get('after')}, which did not fit the "
                f"context budget of {d.get('context_budget')}{via}"
            )
        if "remaining" in d:
            return (
                f"over budget: needs more than the {d.get('remaining')} tokens left of the "
                f"context budget of {d.get('context_budget')}{via}"
            )
    extra = ", ".join(f"{k} {v}" for k, v in d.items())
    return f"{reason} ({extra})" if extra else reason


def describe_compression(c: Compression) -> str:
    """How a compressed source was cut, in words.

    >>> describe_compression(Compression(6, (5,), ("a", "b", "c", "d", "e")))
    'compressed: 1 of 6 sentences kept'
    """
    return f"compressed: {len(c.kept)} of {c.sentences} sentences kept"


def fate_rows(result: Assembly, chunks: Sequence[Chunk]) -> tuple[list[list[str]], list[str]]:
    rows, styles = [], []
    cut = {s.label: s.compression for s in result.sources if s.compression is not None}
    for f in result.fates:
        chunk = chunks[f["index"]]
        score = "" if chunk.score is None else num(chunk.score)
        fate = describe_fate(f)
        if f.get("label") in cut:
            fate += f", {describe_compression(cut[f['label']])}"
        rows.append([str(f["index"] + 1), str(f["id"]), score, fate])
        styles.append("green" if f["fate"] == "source" else "dim")
    return rows, styles


FATE_COLUMNS = (("rank", "right"), ("id", "left"), ("score", "right"), ("fate", "left"))


def dropped_summary(result: Assembly) -> str:
    counts = Counter(d.reason for d in result.dropped)
    if not counts:
        return "nothing dropped"
    parts = ", ".join(f"{n} {reason}" for reason, n in counts.items())
    return f"dropped {len(result.dropped)}: {parts}"


def token_rows(result: Assembly) -> list[list[str]]:
    t = result.tokens
    return [
        ["system", str(t["system"]), "the cacheable prefix"],
        ["history", str(t["history"]), ""],
        ["sources", str(t["sources"]), f"of a context budget of {t['context_budget']}"],
        ["question", str(t["question"]), ""],
        ["total", str(t["total"]), "system + user message"],
        ["reserved_output", str(t["reserved_output"]), "kept free for the answer"],
        ["margin", str(t["margin"]), ""],
    ] + (
        [["images", str(t["images"]), "of sources and total: the page images"]]
        if "images" in t
        else []
    )


TOKEN_COLUMNS = (("tokens", "left"), ("count", "right"), ("", "left"))
