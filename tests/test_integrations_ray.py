"""Ray: evaluate sweeps on Ray equal the local run; AssembleBatch for Dataset.map_batches.

Runs Ray locally (two CPUs, no dashboard); skipped where Ray is not installed
(``pip install 'briefpack[ray]'``). CI runs this module in a process of its own
(``BRIEFPACK_RAY_TESTS=separately`` skips it in the main run): a local Ray cluster has been seen
to abort its driver process on an internal check, which must not take the rest of the suite
down with it.
"""

from __future__ import annotations

import json
import os
import re
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("BRIEFPACK_RAY_TESTS") == "separately":
    pytest.skip("Ray's tests run in a process of their own (see .ci/run)", allow_module_level=True)

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'briefpack[ray]'")

import briefpack as bp  # noqa: E402
from briefpack.evaluation import read_requests  # noqa: E402
from briefpack.integrations.ray import AssembleBatch, map_prompts  # noqa: E402

# Ray Data warns about its own deprecated settings while it starts; not ours to fix.
pytestmark = pytest.mark.filterwarnings(r"ignore::DeprecationWarning:ray\..*")

EXAMPLE = Path(bp.__file__).parent / "data" / "eval_example.jsonl"
GRID = {"budget": [100, 200, 400], "order": ["edges", "relevance"], "tokenizer": "approx"}


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # the workers cannot import this test module: send its functions (Echo) by value
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    if started:
        ray.shutdown()


class Echo:
    """A deterministic fake model: answers with the first line of the first source, cited."""

    def __call__(self, messages: list[dict[str, str]]) -> str:
        text = messages[1]["content"].split("\n")[1]
        return f"{text} [1]"


@pytest.mark.usefixtures("local_ray")
def test_a_sweep_on_ray_equals_the_local_run_in_the_same_order() -> None:
    reqs = read_requests(EXAMPLE)
    local = bp.evaluate(reqs, GRID, workers=2, generate=Echo())
    remote = bp.evaluate(reqs, GRID, workers=2, executor="ray", generate=Echo())
    assert remote.rows == local.rows
    assert remote.outcomes == local.outcomes
    assert remote.recommendations == local.recommendations
    assert [o.request for o in remote.outcomes[-1]] == list(range(len(reqs)))


@pytest.mark.usefixtures("local_ray")
def test_a_request_error_on_ray_is_raised_as_itself() -> None:
    good = {"question": "q", "candidates": ["a"], "answers": ["a"]}
    bad = {"question": "q", "candidates": [{"text": 3}], "answers": ["a"]}
    with pytest.raises(bp.InputError, match=r"requests\[1\]: candidate 0"):
        bp.evaluate([good, bad], {"budget": 100, "tokenizer": "approx"}, executor="ray", workers=1)


def rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in EXAMPLE.read_text(encoding="utf-8").splitlines()][:5]


def test_assemble_batch_adds_the_prompt_columns_of_each_row() -> None:
    data = rows()
    batch = {
        "id": [r["id"] for r in data],
        "question": [r["question"] for r in data],
        "candidates": [r["candidates"] for r in data],
    }
    out = AssembleBatch(budget=300, tokenizer="approx")(batch)
    assert out["id"] == batch["id"]
    for i, r in enumerate(data):
        direct = bp.assemble(r["question"], r["candidates"], budget=300, tokenizer="approx")
        assert out["system"][i] == direct.system
        assert out["user"][i] == direct.user
        assert out["messages"][i] == direct.messages
        assert json.loads(out["record"][i]) == json.loads(json.dumps(direct.record()))


def test_assemble_batch_checks_its_options_and_columns_up_front() -> None:
    with pytest.raises(bp.InputError, match=r"unknown assemble option\(s\) 'budgett'"):
        AssembleBatch(budgett=3)
    with pytest.raises(bp.InputError, match=r"the batch has no column 'query'"):
        AssembleBatch(question="query")({"question": ["q"], "candidates": [["a"]]})


@pytest.mark.usefixtures("local_ray")
@pytest.mark.parametrize("batch_format", ["pandas", "numpy"])
def test_assemble_batch_runs_in_map_batches(batch_format: str) -> None:
    pytest.importorskip("pandas", reason="Ray Data needs pandas: pip install 'briefpack[ray]'")
    data = rows()
    ds = ray.data.from_items(
        [{"question": r["question"], "candidates": r["candidates"]} for r in data]
    )
    out = ds.map_batches(
        AssembleBatch,
        fn_constructor_kwargs={"budget": 300, "tokenizer": "approx"},
        batch_format=batch_format,
        compute=ray.data.ActorPoolStrategy(size=1),
    ).take_all()
    assert [o["question"] for o in out] == [r["question"] for r in data]
    assert all("candidates" not in o for o in out)  # not handed back for Arrow to pickle
    for o, r in zip(out, data):
        direct = bp.assemble(r["question"], r["candidates"], budget=300, tokenizer="approx")
        assert o["user"] == direct.user
        assert [dict(m) for m in o["messages"]] == direct.messages
        assert json.loads(o["record"])["prompt_sha256"] == direct.record()["prompt_sha256"]


def test_assemble_batch_passes_compress_through() -> None:
    data = rows()
    batch = {
        "question": [r["question"] for r in data],
        "candidates": [r["candidates"] for r in data],
    }
    out = AssembleBatch(budget=60, tokenizer="approx", compress="all")(batch)
    for i, r in enumerate(data):
        direct = bp.assemble(
            r["question"], r["candidates"], budget=60, tokenizer="approx", compress="all"
        )
        assert out["user"][i] == direct.user
        assert json.loads(out["record"][i])["settings"]["compress"] == "all"


RECIPE = Path(__file__).resolve().parents[1] / "docs" / "evaluate.md"


def _recipe() -> str:
    blocks = re.findall(r"^```python\n(.*?)^```", RECIPE.read_text("utf-8"), re.M | re.S)
    [block] = [b for b in blocks if "map_prompts" in b]
    return str(block)


@pytest.mark.usefixtures("local_ray")
def test_the_docs_recipe_reads_dates_from_jsonl_and_finishes_on_two_cpus(
    tmp_path: Path,
) -> None:
    pytest.importorskip("pandas", reason="Ray Data needs pandas: pip install 'briefpack[ray]'")
    requests = [
        {
            "question": "What is the Berlin cap?",
            "candidates": [
                {"id": "new", "text": "The Berlin cap is 4000 EUR.", "updated": "2025-06-26"},
                {"id": "old", "text": "The Berlin cap was 3000 EUR.", "updated": "2024-01-02"},
            ],
        },
        {
            "question": "How long is leave?",
            "candidates": [{"id": "hr", "text": "Leave is 14 weeks.", "updated": "2025-06-26"}],
        },
    ]
    path = tmp_path / "requests.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in requests), encoding="utf-8")
    # read_json reads the dates as timestamps, which used to fail every batch
    assert "timestamp" in str(ray.data.read_json(str(path)).schema())
    recipe = _recipe()
    assert '"requests.jsonl"' in recipe
    namespace: dict[str, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # the docs' pool fits two CPUs
        # the workers do not share this process's working directory: the file by its path
        exec(recipe.replace('"requests.jsonl"', repr(str(path))), namespace)
    out = sorted(namespace["prompts"].take_all(), key=lambda o: str(o["question"]))
    assert [o["question"] for o in out] == sorted(r["question"] for r in requests)
    assert all("candidates" not in o for o in out)
    for o in out:
        [r] = [r for r in requests if r["question"] == o["question"]]
        direct = bp.assemble(r["question"], r["candidates"], budget=2000)
        assert o["user"] == direct.user
        assert 'updated="2025-06-26"' in o["user"]


@pytest.mark.usefixtures("local_ray")
def test_map_prompts_warns_of_a_pool_that_takes_every_cpu() -> None:
    ds = ray.data.from_items([{"question": "q", "candidates": ["a"]}])
    with pytest.warns(RuntimeWarning, match=r"2 actor\(s\) of 1 CPU each hold all 2 CPUs"):
        map_prompts(ds, actors=2, budget=100)  # lazy: nothing runs, so nothing hangs
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        map_prompts(ds, actors=3, num_cpus=0.5, budget=100)
    with pytest.raises(bp.InputError, match=r"unknown assemble option\(s\) 'budgett'"):
        map_prompts(ds, budgett=100)
    with pytest.raises(bp.InputError, match=r"actors must be an int >= 1"):
        map_prompts(ds, actors=0)
