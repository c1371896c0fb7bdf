"""Ray: assemble prompts over a ``ray.data.Dataset``.

``AssembleBatch`` is a callable class for ``Dataset.map_batches``: it assembles each row's
question and candidates and adds the prompt columns ``system``, ``user``, ``messages`` (the
chat-completions list) and ``record`` (``Assembly.record()`` as JSON text, so every batch has
the same column type whatever the decisions were). Ray builds one instance per worker, so the
options are checked and the assembler built once per worker, not once per row.
``map_prompts`` is that recipe in one call, with a check that the actor pool leaves the
cluster a CPU for the tasks that read the data::

    import ray
    from briefpack.integrations.ray import map_prompts

    ds = ray.data.read_json("requests.jsonl")          # columns: question, candidates, ...
    prompts = map_prompts(ds, actors=2, num_cpus=0.5, budget=2000)

Each actor holds ``num_cpus`` for as long as the pool lives, and the read tasks upstream need a
CPU too: a pool that takes every CPU (``ActorPoolStrategy(size=2)`` with the default one CPU
per actor on a two-CPU machine) leaves the reads none, and the dataset never finishes.

``briefpack.evaluate(..., executor="ray")`` runs its sweep as Ray tasks (``briefpack.evaluation``).

Needs Ray: ``pip install 'briefpack[ray]'``.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

try:
    import ray  # (the adapter needs Ray: fail at import, naming the extra)
except ImportError as exc:  # pragma: no cover - exercised where Ray is absent
    from ._common import missing_extra

    raise missing_extra("ray", "ray", "ray") from exc

from ..assembly import Assembly
from ..errors import InputError
from ..evaluation import make_assembler
from ._common import check_options

__all__ = ["AssembleBatch", "map_prompts"]

OUTPUT_COLUMNS = ("system", "user", "messages", "record")


def _column(batch: Any, name: str) -> list[Any]:
    try:
        values = batch[name]
    except (KeyError, IndexError):
        columns = list(batch.keys()) if hasattr(batch, "keys") else list(batch.columns)
        raise InputError(
            f"the batch has no column {name!r} (columns: {', '.join(map(str, columns))}); "
            "name the right one with question= / candidates="
        ) from None
    return list(values.tolist() if hasattr(values, "tolist") else values)


def _candidate(value: Any) -> Any:
    """A candidate as Ray hands it back: Arrow fills a missing struct field with None, and
    numpy batches hold arrays; drop the Nones (the ``Chunk`` defaults) and plain the arrays."""
    if isinstance(value, Mapping):
        return {
            k: v.tolist() if hasattr(v, "tolist") else v for k, v in value.items() if v is not None
        }
    return value


class AssembleBatch:
    """Assemble a batch of rows into prompt columns (for ``ray.data.Dataset.map_batches``).

    Args:
        question: the name of the question column.
        candidates: the name of the candidates column (each cell a list of candidates in any
            form ``assemble`` takes: mappings with ``Chunk``'s keys, or strings).
        options: ``assemble``'s options, shared by every row (checked here, once).

    The output is the input batch plus ``system``, ``user``, ``messages`` and ``record``,
    without the candidates column (a list of mappings whose keys differ from row to row, which
    Arrow can only store by pickling; the record holds what was placed and dropped). It works
    with ``batch_format="pandas"`` and ``"numpy"`` alike, and on a plain ``dict`` of lists.

    >>> to_prompts = AssembleBatch(budget=100, tokenizer="approx")
    >>> out = to_prompts({"question": ["Cap?"], "candidates": [["Cap is 4000 EUR."]]})
    >>> out["messages"][0][1]["content"].endswith("Question: Cap?")
    True
    """

    def __init__(
        self, *, question: str = "question", candidates: str = "candidates", **options: Any
    ) -> None:
        self.question = question
        self.candidates = candidates
        self.assemble: Callable[[str, Sequence[Any]], Assembly] = make_assembler(
            check_options(options)
        )

    def __call__(self, batch: Any) -> Any:
        questions = _column(batch, self.question)
        cells = _column(batch, self.candidates)
        columns: dict[str, list[Any]] = {name: [] for name in OUTPUT_COLUMNS}
        for i, (question, cell) in enumerate(zip(questions, cells)):
            if isinstance(cell, (str, bytes, Mapping)) or not hasattr(cell, "__iter__"):
                raise InputError(
                    f"row {i}: {self.candidates} must be a list of candidates, got "
                    f"{type(cell).__name__}"
                )
            result = self.assemble(question, [_candidate(c) for c in cell])
            columns["system"].append(result.system)
            columns["user"].append(result.user)
            columns["messages"].append(result.messages)
            columns["record"].append(json.dumps(result.record(), ensure_ascii=False))
        if hasattr(batch, "assign"):  # a pandas DataFrame
            return batch.drop(columns=[self.candidates]).assign(**columns)
        out = {k: v for k, v in dict(batch).items() if k != self.candidates}
        out.update(columns)
        return out


def _cluster_cpus() -> float | None:
    """The CPUs of the Ray cluster this process is connected to (None when not connected)."""
    if not ray.is_initialized():
        return None
    cpus = ray.cluster_resources().get("CPU")  # type: ignore[no-untyped-call]
    return float(cpus) if cpus is not None else None


def map_prompts(
    ds: Any,
    *,
    actors: int = 1,
    num_cpus: float = 1.0,
    batch_format: str = "pandas",
    question: str = "question",
    candidates: str = "candidates",
    **options: Any,
) -> Any:
    """``ds.map_batches(AssembleBatch, ...)`` on a pool of ``actors`` actors of ``num_cpus``
    each: a dataset of prompt columns (see ``AssembleBatch``), built lazily like any Ray
    dataset.

    The options are checked here, before Ray starts an actor. When the pool would hold every
    CPU of the cluster (``actors * num_cpus >= CPUs``), the read tasks upstream could never be
    scheduled and the dataset would never finish: that warns (``RuntimeWarning``), naming a
    pool that fits; give fewer actors or a fraction of a CPU each (``num_cpus=0.5``; an
    assembly is single-threaded Python, so half a CPU per actor loses little).

    >>> ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)  # doctest: +SKIP
    >>> rows = [{"question": "Cap?", "candidates": ["Cap is 4000 EUR."]}]
    >>> ds = ray.data.from_items(rows)  # doctest: +SKIP
    >>> out = map_prompts(ds, budget=100, tokenizer="approx").take_all()  # doctest: +SKIP
    >>> out[0]["user"].endswith("Question: Cap?")  # doctest: +SKIP
    True
    """
    check_options(options)
    if not isinstance(actors, int) or isinstance(actors, bool) or actors < 1:
        raise InputError(f"actors must be an int >= 1, got {actors!r}", option="actors")
    if not isinstance(num_cpus, (int, float)) or isinstance(num_cpus, bool) or num_cpus <= 0:
        raise InputError(f"num_cpus must be a number > 0, got {num_cpus!r}", option="num_cpus")
    cpus = _cluster_cpus()
    if cpus is not None and actors * num_cpus >= cpus:
        fits = max(cpus - 1, 0.5)
        warnings.warn(
            f"map_prompts: {actors} actor(s) of {num_cpus:g} CPU each hold all {cpus:g} CPUs "
            "of the Ray cluster for as long as the pool lives, so the tasks that read the "
            "dataset can never run and it would never finish; use actors * num_cpus < "
            f"{cpus:g} (e.g. actors={max(int(fits // num_cpus), 1)} with num_cpus={num_cpus:g}"
            f", or num_cpus={fits / actors:g} with actors={actors})",
            RuntimeWarning,
            stacklevel=2,
        )
    return ds.map_batches(
        AssembleBatch,
        fn_constructor_kwargs={"question": question, "candidates": candidates, **options},
        batch_format=batch_format,
        compute=ray.data.ActorPoolStrategy(size=actors),
        num_cpus=num_cpus,
    )
