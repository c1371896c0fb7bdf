"""briefpack.evaluate: the measures per setting, the recommendation, executors, bad input."""

from __future__ import annotations

import gzip
import json
import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

import briefpack as bp
from briefpack.evaluation import EvalRequest, expand_grid, read_requests

EXAMPLE = Path(bp.__file__).parent / "data" / "eval_example.jsonl"

# Four candidates of equal size (approx tokenizer: 10 tokens of text each).
TEXTS = [
    "Alpha alpha alpha alpha alpha alpha one.",
    "Bravo bravo bravo bravo bravo bravo two.",
    "Charlie charlie charlie charlie char three",
    "Delta delta delta delta delta delta four.",
]


def cands() -> list[dict[str, str]]:
    return [{"id": f"c{i + 1}", "text": t} for i, t in enumerate(TEXTS)]


def fit(k: int) -> int:
    """A budget that holds exactly the first ``k`` of TEXTS (all four cost the same)."""
    a = bp.assemble("q", TEXTS[:k], tokenizer="approx", budget=1000, dedupe=None)
    return a.tokens["sources"] + 2


BASE = {"tokenizer": "approx", "dedupe": None}


def test_recall_by_id_grows_with_the_budget() -> None:
    req = {"question": "q", "candidates": cands(), "evidence": ["c3"]}
    budgets = [fit(k) for k in (1, 2, 3, 4)]
    result = bp.evaluate([req], {"budget": budgets, **BASE}, workers=1)
    assert [r.recall_any for r in result.rows] == [0.0, 0.0, 1.0, 1.0]
    assert [r.sources for r in result.rows] == [1.0, 2.0, 3.0, 4.0]


def test_recall_by_answer_string_ignores_case_and_spacing() -> None:
    req = {"question": "q", "candidates": cands(), "answers": ["BRAVO   two"]}
    result = bp.evaluate([req], {"budget": [fit(1), fit(2)], **BASE}, workers=1)
    assert [r.recall_any for r in result.rows] == [0.0, 1.0]


def test_recall_all_needs_every_gold_id() -> None:
    req = {"question": "q", "candidates": cands(), "evidence": ["c1", "c3"]}
    result = bp.evaluate([req], {"budget": [fit(2), fit(3)], **BASE}, workers=1)
    assert [(r.recall_any, r.recall_all) for r in result.rows] == [(1.0, 0.0), (1.0, 1.0)]


def test_a_gold_id_dropped_as_a_copy_of_a_placed_source_counts_as_placed() -> None:
    dup = [*cands(), {"id": "copy", "text": TEXTS[0]}]
    req = {"question": "q", "candidates": dup, "evidence": ["c1", "copy"]}
    result = bp.evaluate([req], {"budget": 1000, "tokenizer": "approx", "dedupe": "exact"})
    assert result.rows[0].recall_all == 1.0
    assert result.rows[0].duplicates == 1.0


def test_position_shows_the_effect_of_order() -> None:
    # evidence ranked second of three: relevance puts it in the middle, edges puts it last
    req = {"question": "q", "candidates": cands()[:3], "evidence": ["c2"]}
    grid = {"order": ["relevance", "edges"], "budget": 1000, **BASE}
    rel, edges = bp.evaluate([req], grid, workers=1).rows
    assert (rel.first, rel.last, rel.middle) == (0.0, 0.0, 1.0)
    assert (edges.first, edges.last, edges.middle) == (0.0, 1.0, 0.0)
    top = {"question": "q", "candidates": cands()[:3], "evidence": ["c1"]}
    assert bp.evaluate([top], grid, workers=1).rows[1].first == 1.0


def test_duplicates_and_tokens_are_reported() -> None:
    dup = [*cands(), {"id": "c5", "text": TEXTS[1]}]
    req = {"question": "q", "candidates": dup, "evidence": ["c1"]}
    grid = {"dedupe": ["exact", None], "budget": 1000, "tokenizer": "approx"}
    kept, none = bp.evaluate([req], grid, workers=1).rows
    assert (kept.duplicates, kept.sources) == (1.0, 4.0)
    assert (none.duplicates, none.sources) == (0.0, 5.0)
    direct = bp.assemble("q", dup, budget=1000, tokenizer="approx", dedupe="exact")
    assert kept.source_tokens == direct.tokens["sources"]
    assert kept.prompt_tokens == direct.tokens["total"]
    assert 0 <= kept.ms_median <= kept.ms_p99


def test_recommendation_is_the_smallest_budget_within_tolerance_per_setting() -> None:
    # recall over budgets: 1/4, 2/4, 3/4, 4/4 (evidence at rank k for request k)
    reqs = [{"question": "q", "candidates": cands(), "evidence": [f"c{k}"]} for k in (1, 2, 3, 4)]
    budgets = [fit(k) for k in (1, 2, 3, 4)]
    grid = {"order": ["relevance", "edges"], "budget": budgets, **BASE}
    exact = bp.evaluate(reqs, grid, tolerance=0.0, workers=1)
    assert [(r.setting, r.budget, r.best) for r in exact.recommendations] == [
        ({"order": "relevance", **BASE}, budgets[3], 1.0),
        ({"order": "edges", **BASE}, budgets[3], 1.0),
    ]
    loose = bp.evaluate(reqs, grid, tolerance=0.3, workers=1)
    assert [r.budget for r in loose.recommendations] == [budgets[2], budgets[2]]
    assert [r.recommended for r in loose.rows] == [False, False, True, False] * 2


class FakeModel:
    """A deterministic stand-in for a model: cites label 1 and a label that does not exist,
    adds an uncited sentence, and quotes the first source's text."""

    def __call__(self, messages: list[dict[str, str]]) -> str:
        user = messages[1]["content"]
        first = user.split('<source id="1"', 1)[1].split(">\n", 1)[1].split("\n</source>", 1)[0]
        return f"{first.rstrip('.')} [1]. It is also said elsewhere [9]. No citation here."


def test_generate_adds_answer_level_measures() -> None:
    req = {"question": "q", "candidates": cands()[:3], "answers": ["alpha one"]}
    miss = {"question": "q", "candidates": cands()[:3], "answers": ["delta four"]}
    grid = {"budget": 1000, "order": "relevance", **BASE}
    row = bp.evaluate([req, miss], grid, generate=FakeModel(), workers=1).rows[0]
    assert row.answer_correct == 0.5
    assert row.unknown_labels == 1.0  # [9]
    assert row.uncited_sources == 2.0  # labels 2 and 3
    assert row.unsupported_sentences == 2.0  # "[9]" only and "No citation here."
    plain = bp.evaluate([req], grid, workers=1).rows[0]
    assert (plain.answer_correct, plain.unknown_labels) == (None, None)


def test_generate_must_return_a_str_and_a_wrong_answer_is_recorded() -> None:
    req = {"question": "q", "candidates": cands(), "answers": ["x"]}
    result = bp.evaluate([req], {"budget": 1000, **BASE}, generate=lambda m: None, workers=1)  # type: ignore[arg-type,return-value]
    assert result.outcomes[0][0].error == "requests[0]: generate must return a str, got NoneType"
    assert result.rows[0].failed == 1


def example_requests() -> list[EvalRequest]:
    return read_requests(EXAMPLE)


GRID = {"budget": [100, 200, 400], "order": ["edges", "relevance"], "tokenizer": "approx"}


def test_threads_and_any_executor_give_the_same_rows_in_the_same_order() -> None:
    reqs = example_requests()
    serial = bp.evaluate(reqs, GRID, workers=1)
    threads = bp.evaluate(reqs, GRID, workers=3)
    with ThreadPoolExecutor(2) as pool:
        given = bp.evaluate(reqs, GRID, executor=pool, workers=2)
    assert serial.rows == threads.rows == given.rows
    assert serial.outcomes == threads.outcomes == given.outcomes
    assert [o.request for o in threads.outcomes[0]] == list(range(len(reqs)))


def test_a_process_pool_gives_the_same_rows() -> None:
    reqs = example_requests()[:4]
    grid = {"budget": [100, 400], "tokenizer": "approx"}
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=ctx) as pool:
        remote = bp.evaluate(reqs, grid, executor=pool, workers=2)
    assert remote.rows == bp.evaluate(reqs, grid, workers=1).rows


def test_on_row_and_progress_report_as_the_sweep_goes() -> None:
    reqs = example_requests()
    seen: list[str] = []
    ticks: list[tuple[int, int]] = []
    result = bp.evaluate(
        reqs,
        GRID,
        workers=2,
        on_row=lambda r: seen.append(r.name),
        progress=lambda d, t: ticks.append((d, t)),
    )
    assert seen == [r.name for r in result.rows]
    assert ticks[-1] == (6 * len(reqs), 6 * len(reqs))
    assert [d for d, _ in ticks] == sorted(d for d, _ in ticks)


def test_an_interrupted_sweep_keeps_the_rows_finished_so_far() -> None:
    reqs = example_requests()
    kept: list[object] = []

    def stop_after_two(row: object) -> None:
        kept.append(row)
        if len(kept) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        bp.evaluate(reqs, GRID, workers=2, on_row=stop_after_two)
    assert len(kept) == 2


def test_expand_grid_is_a_product_with_the_first_axis_slowest() -> None:
    settings = expand_grid({"order": ["edges", "relevance"], "budget": [1, 2], "labels": "xml"})
    assert settings == [
        {"order": "edges", "budget": 1, "labels": "xml"},
        {"order": "edges", "budget": 2, "labels": "xml"},
        {"order": "relevance", "budget": 1, "labels": "xml"},
        {"order": "relevance", "budget": 2, "labels": "xml"},
    ]
    assert expand_grid([{"budget": 5}, {}]) == [{"budget": 5}, {}]


@pytest.mark.parametrize(
    ("requests", "grid", "kwargs", "message"),
    [
        ([], {"budget": 1}, {}, r"requests is empty"),
        ([{"question": "q", "candidates": []}], {}, {}, r"requests\[0\]: no gold evidence"),
        (
            [{"question": "q", "candidates": [], "answers": ["a"], "gold": 1}],
            {},
            {},
            r"requests\[0\]: unknown key\(s\) 'gold'",
        ),
        (
            [{"question": "q", "candidates": [], "answers": "a"}],
            {},
            {},
            r"answers must be a list of str",
        ),
        (
            [{"question": "q", "candidates": [], "answers": ["a"]}],
            {"budgets": [1]},
            {},
            r"setting 0: unknown option 'budgets'",
        ),
        (
            [{"question": "q", "candidates": [], "answers": ["a"]}],
            {"budget": []},
            {},
            r"the axis 'budget' has no values",
        ),
        (
            [{"question": "q", "candidates": [], "answers": ["a"]}],
            {"order": ["edges", "best"]},
            {},
            r"setting 1 \(order=best\): ",
        ),
        (
            [{"question": "q", "candidates": [], "answers": ["a"]}],
            {},
            {"executor": "dask"},
            r"executor must be None, 'threads', 'ray' or a concurrent.futures.Executor",
        ),
        (
            [{"question": "q", "candidates": [], "answers": ["a"]}],
            {},
            {"tolerance": 2},
            r"tolerance must be a number in \[0, 1\]",
        ),
        (
            [{"question": "q", "candidates": [], "answers": ["a"]}],
            {},
            {"workers": 0},
            r"workers must be an int >= 1",
        ),
    ],
)
def test_bad_input_is_rejected_before_the_sweep(
    requests: list[dict[str, object]],
    grid: dict[str, object],
    kwargs: dict[str, object],
    message: str,
) -> None:
    with pytest.raises(bp.InputError, match=message):
        bp.evaluate(requests, grid, **kwargs)  # type: ignore[arg-type]


def test_a_failing_request_is_named() -> None:
    good = {"question": "q", "candidates": cands(), "answers": ["a"]}
    bad = {"id": "q2", "question": "q", "candidates": [{"text": 3}], "answers": ["a"]}
    with pytest.raises(bp.InputError, match=r"requests\[1\] \(id='q2'\): candidate 0"):
        bp.evaluate([good, bad], {"budget": 100, **BASE}, workers=1)


def test_read_requests_reads_jsonl_and_gzip_and_names_the_bad_line(tmp_path: Path) -> None:
    line = json.dumps({"question": "q", "candidates": ["a"], "answers": ["a"]})
    plain = tmp_path / "r.jsonl"
    plain.write_text(line + "\n\n" + line + "\n", encoding="utf-8")
    packed = tmp_path / "r.jsonl.gz"
    packed.write_bytes(gzip.compress((line + "\n").encode()))
    assert len(read_requests(plain)) == 2
    assert read_requests(packed)[0].answers == ("a",)
    broken = tmp_path / "bad.jsonl"
    broken.write_text(line + "\n{oops\n", encoding="utf-8")
    with pytest.raises(bp.InputError, match=r"bad.jsonl:2:2: invalid JSON"):
        read_requests(broken)
    nogold = tmp_path / "nogold.jsonl"
    nogold.write_text(json.dumps({"question": "q", "candidates": []}) + "\n", encoding="utf-8")
    with pytest.raises(bp.InputError, match=r"nogold.jsonl:1: requests\[0\]: no gold evidence"):
        read_requests(nogold)


def test_the_shipped_example_is_valid_and_shows_a_recall_curve() -> None:
    # 450, not 400, since the dedupe's difference guard is the default: it keeps two near
    # copies of the example that differ in a number ("20") or a capitals word ("PDF"), and
    # at 400 they take the room of one request's evidence.
    result = bp.evaluate(example_requests(), {"budget": [50, 450], "tokenizer": "approx"})
    low, high = result.rows
    assert low.recall_any < high.recall_any == 1.0
