"""Ray: assemble prompts over a ``ray.data.Dataset``.

``AssembleBatch`` is a callable class for ``Dataset.map_batches``: it assembles each row's
question and candidates and adds the prompt columns ``system``, ``user``, ``messages`` (the
chat-completions list) and ``record`` (``Assembly.record()`` as JSON text, so every batch has
the same column type whatever the decisions were). Ray builds one instance per worker, so the
options are checked and the assembler built once per worker, not once per row::

    import ray
    from briefpack.integrations.ray import AssembleBatch

    ds = ray.data.read_json("requests.jsonl")          # columns: question, candidates, ...
    prompts = ds.map_batches(AssembleBatch, fn_constructor_kwargs={"budget": 2000},
                             batch_format="pandas",
                             compute=ray.data.ActorPoolStrategy(size=4))

``briefpack.evaluate(..., executor="ray")`` runs its sweep as Ray tasks (``briefpack.evaluation``).

Needs Ray: ``pip install 'briefpack[ray]'``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

try:
    import ray  # noqa: F401  (the adapter needs Ray: fail at import, naming the extra)
except ImportError as exc:  # pragma: no cover - exercised where Ray is absent
    from ._common import missing_extra

    raise missing_extra("ray", "ray", "ray") from exc

from ..assembly import Assembly
from ..errors import InputError
from ..evaluation import make_assembler
from ._common import check_options

__all__ = ["AssembleBatch"]

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

    The output is the input batch (every column kept) plus ``system``, ``user``, ``messages``
    and ``record``; it works with ``batch_format="pandas"`` and ``"numpy"`` alike, and on a
    plain ``dict`` of lists.

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
            return batch.assign(**columns)
        out = dict(batch)
        out.update(columns)
        return out
