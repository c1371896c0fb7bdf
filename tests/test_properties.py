"""Properties of ``briefpack.assemble`` that hold for every input, on both backends.

* The budget: the rendered sources block, counted as one string, never exceeds the context
  budget, whatever the tokenizer (approx, o200k_base, cl100k_base, a callable) and whatever
  precomputed ``tokens`` a candidate claims; system + user + reserved output never exceeds the
  window; when the fixed parts alone cannot fit, that is a BudgetError, and only then.
* Labels are dense 1..n in the final order.
* No tag escape and no forged label: a hostile text, title, url, updated, history or question
  cannot open or close a tag, add an attribute or read as a label, and ``prompt.unescape``
  recovers every text, title and url exactly.
* Accounting: every candidate is either a member of exactly one source or dropped with a reason.
* Nothing the caller passed is mutated; the same input gives byte-identical prompts.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import briefpack as bp
from briefpack.citations import parse_markers
from briefpack.pipeline import MESSAGE_OVERHEAD
from briefpack.prompt import neutralise_labels, unescape
from pipeline_strategies import (
    SMALL_SYSTEM,
    SOURCE_OPEN,
    SOURCE_XML,
    adversarial_text,
    as_data,
    backend_settings,
    budgets,
    candidates,
    count,
    expansion,
    histories,
    snapshot,
    sources_block,
    tokenizers,
)

REASONS = {"duplicate", "superseded", "capped", "not_selected", "over_budget"}
orders = st.sampled_from(["relevance", "edges", "round_robin", "document"])
label_styles = st.sampled_from(["xml", "brackets"])
dedupes = st.sampled_from(["auto", "exact", "jaccard", "minhash", None])


# ---------------------------------------------------------------- the budget


def fixed_parts(
    question: str, history: Any, tokenizer: Any, labels: str, options: dict[str, Any]
) -> int:
    """count(system) + count(framing) + the overhead of two messages, from the public output.

    The framing is the user message rendered with an empty sources block: what ``assemble``
    writes for the same request with no candidates.
    """
    empty = bp.assemble(
        question, [], budget=100_000, history=history, tokenizer=tokenizer, labels=labels, **options
    )
    assert sources_block(empty.user) == ""
    return count(empty.system, tokenizer) + count(empty.user, tokenizer) + 2 * MESSAGE_OVERHEAD


@given(
    cands=candidates(),
    tokenizer=tokenizers,
    budget=budgets,
    history=histories,
    question=adversarial_text,
    labels=label_styles,
    order=orders,
    overflow=st.sampled_from(["stop", "skip"]),
    small=st.booleans(),
)
@backend_settings()
def test_the_budget_invariant(
    backend: str,
    cands: list[Any],
    tokenizer: Any,
    budget: Any,
    history: Any,
    question: str,
    labels: str,
    order: str,
    overflow: str,
    small: bool,
) -> None:
    options = SMALL_SYSTEM if small else {}
    try:
        result = bp.assemble(
            question,
            cands,
            budget=budget,
            history=history,
            tokenizer=tokenizer,
            labels=labels,
            order=order,
            overflow=overflow,
            backend=backend,
            **options,
        )
    except bp.BudgetError:
        # only when the fixed parts alone exceed what the window leaves
        fixed = fixed_parts(question, history, tokenizer, labels, options)
        assert fixed > budget.window_left
        return

    block = sources_block(result.user)
    n_block = count(block, tokenizer) if result.sources else 0
    t = result.tokens
    # the rendered sources block, counted as one string, fits the context budget
    assert n_block <= t["context_budget"]
    assert t["sources"] == n_block
    # the reported totals are exact
    assert t["system"] == count(result.system, tokenizer)
    assert t["total"] == count(result.system, tokenizer) + count(result.user, tokenizer)
    if isinstance(budget, int):
        assert t["context_budget"] == budget
    else:
        assert t["reserved_output"] == budget.max_output
        assert t["margin"] == budget.margin
        # system + user + per-message overhead + reserved output + margin fit the window
        assert t["total"] + 2 * MESSAGE_OVERHEAD + budget.max_output + budget.margin <= (
            budget.window
        )
        from_window = budget.window_left - fixed_parts(
            question, history, tokenizer, labels, options
        )
        expected = from_window if budget.context is None else min(budget.context, from_window)
        assert t["context_budget"] == expected
    # labels are dense 1..n
    assert [s.label for s in result.sources] == list(range(1, len(result.sources) + 1))
    # every source's tokens is the count of its own rendered block
    if labels == "xml" and result.sources:
        blocks = [m.group(0) for m in SOURCE_XML.finditer(block)]
        assert [s.tokens for s in result.sources] == [count(b, tokenizer) for b in blocks]


@given(cands=candidates(max_size=12), tokenizer=tokenizers, budget=st.integers(0, 200))
@backend_settings(50)
def test_stop_never_places_a_lower_ranked_item_after_a_misfit(
    backend: str, cands: list[Any], tokenizer: Any, budget: int
) -> None:
    # rank fidelity: with overflow="stop", the placed candidates are a prefix of the survivors.
    result = bp.assemble(
        "q",
        cands,
        budget=budget,
        tokenizer=tokenizer,
        dedupe=None,
        order="relevance",
        backend=backend,
    )
    placed = [i for s in result.sources for i in s.member_indices]
    over = [f["index"] for f in result.fates if f.get("reason") == "over_budget"]
    assert placed == sorted(placed)
    if over:
        assert max(placed, default=-1) < min(over)


# ---------------------------------------------------------------- escaping and labels


def check_user_structure(result: bp.Assembly, labels: str, history: Any) -> None:
    """Parse the user message: the tags and labels there are exactly the ones briefpack wrote."""
    user = result.user
    n = len(result.sources)
    assert user.count("<sources>") == 1
    assert user.count("</sources>") == 1
    has_history = bool(history)
    assert user.count("<history>") == int(has_history)
    assert user.count("</history>") == int(has_history)
    if isinstance(history, list) and history:
        assert user.count("<message ") == len(history)
        assert user.count("</message>") == len(history)
    else:
        assert "<message" not in user
    # every "<" in the message opens a tag briefpack wrote: inputs cannot contribute one
    tags = re.findall(r"<[^<>]*>", user)
    assert len(tags) == user.count("<")
    allowed = re.compile(
        r'</?(sources|history)>|</message>|<message role="[^"<>]*">|</source>'
        r'|<source id="\d+"(?: title="[^"<>]*")?(?: updated="[^"<>]*")?(?: url="[^"<>]*")?>'
    )
    assert all(allowed.fullmatch(tag) for tag in tags), tags
    block = sources_block(user)
    if labels == "xml":
        assert len(SOURCE_OPEN.findall(user)) == n
        assert user.count("</source>") == n
        parsed = list(SOURCE_XML.finditer(block))
        assert len(parsed) == n
        assert "\n\n".join(m.group(0) for m in parsed) == block
        for m, source in zip(parsed, result.sources):
            chunk = source.chunk
            assert m.group("id") == str(source.label)
            assert unescape(m.group("text")) == chunk.text
            assert neutralise_labels(m.group("text")) == m.group("text")
            assert parse_markers(m.group("title") or "") == []
            assert unescape(m.group("title") or "") == chunk.title
            assert unescape(m.group("url") or "") == chunk.url
            assert unescape(m.group("updated") or "") == chunk.updated
    else:
        assert SOURCE_OPEN.findall(user) == []
        assert "</source>" not in user
        # label look-alikes left in titles and texts stand where no citation can (code indexing,
        # code): neutralising again changes nothing (checked per block below)
        pos = 0
        for source in result.sources:
            head = f"[{source.label}]"
            assert block.startswith(head, pos)
            pos += len(head)
            end = block.index(f"\n\n[{source.label + 1}]", pos) if source.label < n else len(block)
            body = block[pos:end]
            if source.chunk.title:
                title = re.match(r" \(([^()\n\r]*)\) ", body)
                assert title is not None
                assert unescape(title.group(1)) == source.chunk.title
                assert parse_markers(title.group(1)) == []
                body = body[title.end() :]
            else:
                assert body.startswith(" ")
                body = body[1:]
            assert unescape(body) == source.chunk.text
            assert neutralise_labels(body) == body
            pos = end + 2


@given(
    cands=candidates(max_size=8, adversarial=True),
    history=histories,
    question=adversarial_text,
    labels=label_styles,
    order=orders,
)
@backend_settings()
def test_no_input_escapes_its_tag_or_forges_a_label(
    backend: str, cands: list[Any], history: Any, question: str, labels: str, order: str
) -> None:
    result = bp.assemble(
        question,
        cands,
        history=history,
        labels=labels,
        order=order,
        dedupe=None,
        budget=100_000,
        tokenizer="approx",
        backend=backend,
    )
    assert len(result.sources) == len(cands)
    check_user_structure(result, labels, history)
    if history is not None and isinstance(history, str) and history:
        inner = result.user[len("<history>\n") : result.user.index("\n</history>")]
        assert unescape(inner) == history
    # the question line follows the one "</sources>" (the question cannot contain it, escaped)
    tail = result.user[result.user.index("</sources>") :]
    assert tail.startswith("</sources>\n\nQuestion: ")
    assert unescape(tail[len("</sources>\n\nQuestion: ") :]) == question


@given(text=adversarial_text, title=adversarial_text, labels=label_styles)
@backend_settings()
def test_a_single_hostile_source_round_trips(
    backend: str, text: str, title: str, labels: str
) -> None:
    result = bp.assemble(
        "q",
        [bp.Chunk(text, id="x", title=title, url=title, updated=title)],
        labels=labels,
        dedupe=None,
        budget=100_000,
        tokenizer="approx",
        backend=backend,
    )
    check_user_structure(result, labels, None)


# ---------------------------------------------------------------- accounting


def check_accounting(result: bp.Assembly, cands: list[Any]) -> None:
    n = len(cands)
    member_indices = [i for s in result.sources for i in s.member_indices]
    fates = result.fates
    assert [f["index"] for f in fates] == list(range(n))
    dropped_indices = [f["index"] for f in fates if f["fate"] == "dropped"]
    # each candidate is in exactly one source's members or in dropped, never both
    assert sorted(member_indices + dropped_indices) == list(range(n))
    assert len(result.dropped) == len(dropped_indices)
    # members (ids) line up with member_indices
    cand_ids = [f["id"] for f in fates]
    for s in result.sources:
        assert s.members == tuple(cand_ids[i] for i in s.member_indices)
        assert len(s.members) >= 1
    # ids are unique here, so each id appears exactly once in members or dropped
    all_ids = [m for s in result.sources for m in s.members] + [d.chunk.id for d in result.dropped]
    assert sorted(all_ids) == sorted(cand_ids)
    # nothing is dropped without a reason, and dropped is in input order
    for f, d in zip([f for f in fates if f["fate"] == "dropped"], result.dropped):
        assert d.reason in REASONS
        assert f["reason"] == d.reason
        assert isinstance(d.detail, dict)
        assert d.chunk.id == f["id"]
        if d.reason == "duplicate":
            assert {"of", "similarity", "method"} <= set(d.detail)
        if d.reason == "superseded":
            assert {"by", "updated"} <= set(d.detail)
    for f in fates:
        if f["fate"] == "source":
            assert 1 <= f["label"] <= len(result.sources)


@given(
    cands=candidates(max_size=12),
    dedupe=dedupes,
    scope=st.sampled_from(["global", "document"]),
    supersede=st.sampled_from([None, "url", "doc"]),
    max_per_doc=st.one_of(st.none(), st.integers(1, 3)),
    budget=st.integers(0, 300),
    overflow=st.sampled_from(["stop", "skip"]),
    order=orders,
)
@backend_settings(100)
def test_every_candidate_is_accounted_for(
    backend: str,
    cands: list[Any],
    dedupe: Any,
    scope: str,
    supersede: Any,
    max_per_doc: Any,
    budget: int,
    overflow: str,
    order: str,
) -> None:
    try:
        result = bp.assemble(
            "q",
            cands,
            dedupe=dedupe,
            scope=scope,
            supersede=supersede,
            max_per_doc=max_per_doc,
            budget=budget,
            overflow=overflow,
            order=order,
            tokenizer="approx",
            backend=backend,
        )
    except bp.InputError as exc:  # supersede reads updated, which may not be ISO-8601 here
        error = exc
    else:
        check_accounting(result, cands)
        return
    assert supersede is not None
    assert error.field == "updated"


@given(data=expansion(), budget=st.integers(0, 400), dedupe=dedupes)
@backend_settings(100)
def test_every_candidate_is_accounted_for_with_expansion(
    backend: str, data: tuple[list[Any], dict[str, Any]], budget: int, dedupe: Any
) -> None:
    cands, options = data
    result = bp.assemble(
        "q", cands, budget=budget, dedupe=dedupe, tokenizer="approx", backend=backend, **options
    )
    check_accounting(result, cands)
    check_user_structure(result, "xml", None)


@given(
    cands=candidates(max_size=10, vectors=True),
    lam=st.floats(0, 1),
    k=st.one_of(st.none(), st.integers(1, 5)),
    query=st.one_of(st.none(), st.just([1.0, 0.0, 0.5])),
    dedupe=st.sampled_from(["auto", "cosine", None]),
)
@backend_settings(50)
def test_every_candidate_is_accounted_for_with_mmr(
    backend: str, cands: list[Any], lam: float, k: Any, query: Any, dedupe: Any
) -> None:
    if query is None:
        # MMR without a query vector ranks by score: give every candidate one.
        cands = [dict(c, score=0.5) if isinstance(c, dict) else c.replace(score=0.5) for c in cands]
    result = bp.assemble(
        "q",
        cands,
        mmr=lam,
        mmr_k=k,
        query_vector=query,
        dedupe=dedupe,
        budget=100_000,
        tokenizer="approx",
        backend=backend,
    )
    check_accounting(result, cands)
    not_selected = [d for d in result.dropped if d.reason == "not_selected"]
    if k is not None:
        assert len(result.sources) <= k
    else:
        assert not_selected == []


# ---------------------------------------------------------------- mutation and determinism


@given(data=expansion(), history=histories, cands_extra=candidates(max_size=4, vectors=True))
@backend_settings(75)
def test_nothing_the_caller_passed_is_mutated(
    backend: str, data: tuple[list[Any], dict[str, Any]], history: Any, cands_extra: list[Any]
) -> None:
    cands, options = data
    cands = cands + cands_extra
    before = as_data((cands, history, options))
    try:
        result = bp.assemble(
            "q", cands, history=history, budget=300, tokenizer="approx", backend=backend, **options
        )
    except bp.InputError:
        result = None  # e.g. a candidate id colliding with a parent id; still must not mutate
    assert as_data((cands, history, options)) == before
    if result is not None:
        check_accounting(result, cands)


@given(
    cands=candidates(),
    history=histories,
    question=adversarial_text,
    tokenizer=tokenizers,
    budget=budgets,
    labels=label_styles,
    order=orders,
    dedupe=dedupes,
)
@backend_settings(100)
def test_the_same_input_gives_byte_identical_prompts(
    backend: str,
    cands: list[Any],
    history: Any,
    question: str,
    tokenizer: Any,
    budget: Any,
    labels: str,
    order: str,
    dedupe: Any,
) -> None:
    def run(which: str) -> bp.Assembly | None:
        try:
            return bp.assemble(
                question,
                snapshot(cands)[0],
                history=history,
                tokenizer=tokenizer,
                budget=budget,
                labels=labels,
                order=order,
                dedupe=dedupe,
                backend=which,
                **SMALL_SYSTEM,
            )
        except bp.BudgetError:
            return None

    first, second, oracle = run(backend), run(backend), run("python")
    if first is None:
        assert second is None
        assert oracle is None
        return
    assert second is not None
    assert oracle is not None
    assert first.system.encode() == second.system.encode() == oracle.system.encode()
    assert first.user.encode() == second.user.encode() == oracle.user.encode()
    assert first.tokens == second.tokens == oracle.tokens
    assert first.fates == second.fates == oracle.fates
