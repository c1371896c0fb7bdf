"""Compression's cut hook is O(n log n) in time and O(n) in memory (it used to build, render
and count every cut of a source: O(n²)), and picks the cuts the exhaustive search picks.

* ``Segments.keep(j)`` equals ``select_sentences`` with the ``j`` best sentences marked, for
  every ``j``, on generated texts full of continuations (both backends);
* ``fit`` places the cut the exhaustive search (every ``j``, largest first) places;
* in a subprocess under an address-space limit: 8,000 relevant sentences and
  ``"SSO. " * 1_000_000`` (5 MB) are compressed, and the cuts rendered are counted:
  O(log n), not n.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import briefpack as bp
from briefpack._backend import get_kernels
from briefpack._stages import compress
from briefpack.sentences import sentence_spans
from pipeline_strategies import backend_settings

WORDS = ["SSO", "Pro", "seats", "It", "This", "But", "Billing", "The", "plan", "add-on", "they"]
sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(
    lambda ws: " ".join(ws) + "."
)
texts = st.lists(sentence, min_size=1, max_size=40).map(" ".join)


def _exhaustive_keep(text: str, scores: list[float], j: int, backend: str) -> list[int]:
    """The cut as it was made before: the j best sentences marked, ``select_sentences``."""
    spans = sentence_spans([text])[0]
    ranking = sorted(range(len(scores)), key=lambda k: (-scores[k], k))
    chosen = set(ranking[:j])
    sentences = [text[a:b] for a, b in spans]
    marks = [1.0 if k in chosen else 0.0 for k in range(len(spans))]
    return get_kernels(backend).select_sentences(sentences, marks, 1.0)


@backend_settings(60)
@given(text=texts, data=st.data())
def test_every_cut_is_the_one_select_sentences_makes(backend: str, text: str, data: Any) -> None:
    n = len(sentence_spans([text])[0])
    scores = data.draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0]), min_size=n, max_size=n))
    ranking = sorted(range(n), key=lambda k: (-scores[k], k))
    spans = sentence_spans([text])[0]
    sentences = compress.Sentences(text, spans, scores, ranking, n)
    req: Any = type("R", (), {"kernels": get_kernels(backend)})()
    segments = compress._segments(sentences, req)
    for j in range(1, n + 1):
        expected = _exhaustive_keep(text, scores, j, backend)
        assert segments.keep(j) == expected
        assert segments.count(j) == len(expected)


def _exhaustive_fit(text: str, question: str, budget: int, backend: str) -> tuple[int, ...] | None:
    """The cut the old hook placed: every j from the number of relevant sentences down, the
    first whose rendered block fits."""
    a = bp.assemble(question, [text], budget=budget, backend=backend, overflow="stop")
    framing_budget = a.tokens["context_budget"]
    spans = sentence_spans([text])[0]
    scores = get_kernels(backend).score_sentences(question, [text[x:y] for x, y in spans], [text])
    floor = compress.DEFAULT_CUT * max(scores, default=0.0)  # the default compress_cut
    relevant = max(sum(1 for s in scores if s > 0 and s >= floor), 1)
    n_sep = bp.count_tokens(["\n\n"])[0]
    for j in range(relevant, 0, -1):
        keep = _exhaustive_keep(text, scores, j, backend)
        if len(keep) == len(spans):
            continue
        data = compress.Sentences(text, spans, scores, [], relevant)
        block = bp.prompt.render_source("1", bp.Chunk(compress._text(data, keep)), "xml")
        if bp.count_tokens([block])[0] + n_sep <= framing_budget:
            return tuple(keep)
    return None


@backend_settings(40)
@given(text=texts, budget=st.integers(20, 200))
def test_the_cut_placed_is_the_exhaustive_search_s(backend: str, text: str, budget: int) -> None:
    question = "Is SSO on the Pro plan with seats?"
    got = bp.assemble(question, [text], budget=budget, backend=backend, compress="overflow")
    expected = _exhaustive_fit(text, question, budget, backend)
    placed = got.sources[0].compression if got.sources else None
    if got.sources and placed is None:  # it fit whole: no cut was needed
        return
    assert (None if placed is None else placed.kept) == expected


_CHILD = textwrap.dedent(
    """
    import json, math, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (_LIMIT_, _LIMIT_))
    import briefpack as bp
    from briefpack._stages import compress
    made = []
    real_text = compress._text
    def counting(data, keep):
        made.append(len(keep))
        return real_text(data, keep)
    compress._text = counting
    text = sys.argv[1] if sys.argv[1] != "sso" else "SSO. " * 1_000_000
    if text.startswith("rel:"):
        n = int(text[4:])
        text = " ".join(f"The SSO plan {i} includes seat {i}." for i in range(n))
    a = bp.assemble("Is SSO included?", [bp.Chunk(text, id="big")], budget=2000,
                    compress=sys.argv[2])
    s = a.sources[0]
    c = s.compression
    print(json.dumps({"cuts": len(made), "kept_sum": sum(made), "sentences": c.sentences,
                      "kept": len(c.kept), "tokens": a.tokens["sources"]}))
    """
)


@pytest.mark.parametrize(
    ("what", "mode"), [("rel:8000", "overflow"), ("sso", "overflow"), ("sso", "all")]
)
def test_large_sources_compress_within_a_memory_limit(what: str, mode: str) -> None:
    """Before: 8,000 sentences raised MemoryError after 130 s; 5 MB of short sentences
    exhausted 4 GB. Now each stays under 2 GB of address space (about 0.6 GB measured for
    5 MB), and the cuts made are O(log n) of sizes near what fits."""
    limit = 2 * 1024**3
    code = _CHILD.replace("_LIMIT_", str(limit))
    env = {**os.environ, "PYTHONPATH": str(Path(bp.__file__).parent.parent)}
    out = subprocess.run(
        [sys.executable, "-c", code, what, mode],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout)
    n = got["sentences"]
    assert n == (8000 if what.startswith("rel") else 1_000_000)
    assert 0 < got["kept"] < n
    assert got["tokens"] <= 2000
    log = n.bit_length()
    assert got["cuts"] <= 2 * log + 3  # galloping then bisecting, plus the cut placed
    # the cuts made are about as large as what fits, never a walk over all n
    assert got["kept_sum"] <= 4 * got["kept"] * (log + 2)
