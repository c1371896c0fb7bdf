"""The whole pipeline, both backends: identical full records for every request.

``record(include_prompt=True)`` holds every candidate's fate and detail, the sources, the token
accounting, the settings and the prompt itself, so equal records mean the Rust core and the
reference agree on every decision (the backend's name in ``settings`` aside). Requests cover
every option together: expansion by parents and neighbours, rerank, caps, vectors with cosine
dedupe and MMR (with and without a query vector), callable tokenizers, tight windows, both
label styles, every order and both overflow modes. An error must be the same on both sides.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import briefpack as bp
from conftest import HAS_RUST
from pipeline_strategies import (
    SMALL_SYSTEM,
    adversarial_text,
    backend_settings,
    budgets,
    candidates,
    expansion,
    histories,
    snapshot,
    tokenizers,
)

_vector_options = st.fixed_dictionaries(
    {},
    optional={
        "mmr": st.sampled_from([0.0, 0.3, 0.5, 1.0]),
        "mmr_k": st.integers(1, 4),
        "query_vector": st.sampled_from([[1.0, 0.0, 0.0], [0.5, -1.0, 1.0]]),
        "dedupe": st.sampled_from(["cosine", "auto", "jaccard", None]),
        "threshold": st.sampled_from([0.5, 0.9, 1.0]),
        "scope": st.sampled_from(["global", "document"]),
    },
)
_common_options = st.fixed_dictionaries(
    {
        "tokenizer": tokenizers,
        "budget": budgets,
        "labels": st.sampled_from(["xml", "brackets"]),
        "order": st.sampled_from(["relevance", "edges", "round_robin", "document"]),
        "overflow": st.sampled_from(["stop", "skip"]),
    },
    optional={
        "history": histories,
        "supersede": st.sampled_from(["url", "doc"]),
        "max_per_doc": st.integers(1, 3),
        "minhash": st.just({"num_perm": 16, "shingle": 2, "seed": 7}),
        "compress": st.sampled_from(["overflow", "all"]),
    },
)


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, list[Any], dict[str, Any]]:
    """A question, candidates and options for one ``assemble`` call, over every option."""
    options = draw(_common_options)
    kind = draw(st.sampled_from(["expansion", "vectors", "plain"]))
    if kind == "expansion":
        cands, extra = draw(expansion())
        options.update(extra)
        options["dedupe"] = draw(st.sampled_from(["auto", "exact", "jaccard", "minhash", None]))
    elif kind == "vectors":
        cands = draw(candidates(vectors=True, max_size=8))
        extra = draw(_vector_options)
        if "mmr_k" in extra and "mmr" not in extra:
            extra["mmr"] = 0.5
        options.update(extra)
    else:
        cands = draw(candidates(max_size=8))
        options["dedupe"] = draw(st.sampled_from(["auto", "exact", "jaccard", "minhash", None]))
    if options.get("dedupe") != "minhash":
        options.pop("minhash", None)
    return draw(adversarial_text), cands, options


def outcome(question: str, cands: list[Any], options: dict[str, Any], backend: str) -> Any:
    """The full record (backend name normalised), or the error's class and message."""
    try:
        result = bp.assemble(
            question, snapshot(cands)[0], backend=backend, **SMALL_SYSTEM, **options
        )
    except bp.BriefpackError as exc:
        return type(exc).__name__, str(exc)
    record = result.record(include_prompt=True)
    assert record["settings"]["backend"] == backend
    record["settings"]["backend"] = "*"
    return record


@given(request=requests())
@backend_settings()
def test_both_backends_give_the_same_full_record(
    request: tuple[str, list[Any], dict[str, Any]],
) -> None:
    if not HAS_RUST:  # pragma: no cover - a source checkout without a build
        return
    question, cands, options = request
    assert outcome(question, cands, options, "rust") == outcome(question, cands, options, "python")
