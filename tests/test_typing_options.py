"""``AssembleOptions`` (the ``**options`` of ``assemble`` and ``Assembler`` for type checkers)
names every option and, for an option with a fixed set of values, exactly that set."""

from __future__ import annotations

import typing

import pytest

import briefpack as bp
from briefpack import _many
from briefpack.options import CHOICES, FIELDS, AssembleOptions


def _hints() -> dict[str, object]:
    import briefpack.options as module

    return typing.get_type_hints(AssembleOptions, vars(module))


def _literals(hint: object) -> set[object]:
    """Every literal value in ``hint`` (``None`` for an optional one)."""
    if hint is type(None):
        return {None}
    if typing.get_origin(hint) is typing.Literal:
        return set(typing.get_args(hint))
    return {v for arg in typing.get_args(hint) for v in _literals(arg)}


def test_one_key_per_option_in_the_same_order() -> None:
    assert tuple(AssembleOptions.__annotations__) == FIELDS
    assert AssembleOptions.__required_keys__ == frozenset()


@pytest.mark.parametrize("name", sorted(set(CHOICES) - {"tokenizer", "image_tokens"}))
def test_a_fixed_set_is_a_literal_of_exactly_its_values(name: str) -> None:
    assert _literals(_hints()[name]) == set(CHOICES[name])


def test_image_tokens_names_its_rules() -> None:
    assert _literals(_hints()["image_tokens"]) == set(CHOICES["image_tokens"]) - {"callable"}


def test_many_options_add_the_per_request_keys() -> None:
    assert tuple(_many.ManyOptions.__annotations__) == (*FIELDS, "history", "query_vector")
    assert _many.ManyOptions.__required_keys__ == frozenset()


def test_a_typed_mapping_runs_as_keywords() -> None:
    opts: AssembleOptions = {"budget": 500, "order": "relevance", "tokenizer": "approx"}
    assert bp.Assembler(**opts) == bp.Assembler(budget=500, order="relevance", tokenizer="approx")
