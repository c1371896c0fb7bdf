"""The public surface of ``import briefpack``: exactly these names, each documented with an
example, each resolving to the object its module defines, none shadowing a module.

The kernel-level functions live in their modules and are not exported from the top:
``briefpack.kernels`` (``dedupe_*``, ``pack``, ``mmr``, ``DedupeResult``, ``PackResult``),
``briefpack.pages`` (``decode_page``, ``hash_pages``, ``dedupe_pages``, ``image_tokens``),
``briefpack.sentences`` (``sentence_spans``), ``briefpack.routing`` (``Rule``,
``ROUTE_RULES_*``) and ``briefpack.prompt`` (``DEFAULT_SYSTEM``, ``DEFAULT_INSTRUCTIONS``).
"""

from __future__ import annotations

import importlib

import pytest

import briefpack as bp

SURFACE = [
    "Assembler",
    "Assembly",
    "BriefpackError",
    "Budget",
    "BudgetError",
    "Chunk",
    "CitationError",
    "Citations",
    "Dropped",
    "InputError",
    "Options",
    "PageImage",
    "Route",
    "Source",
    "__version__",
    "assemble",
    "assemble_many",
    "cite",
    "count_tokens",
    "evaluate",
    "order",
    "route",
    "split_sentences",
]

MOVED = {
    "dedupe_jaccard": "kernels",
    "dedupe_minhash": "kernels",
    "dedupe_cosine": "kernels",
    "dedupe_exact": "kernels",
    "pack": "kernels",
    "mmr": "kernels",
    "DedupeResult": "kernels",
    "PackResult": "kernels",
    "decode_page": "pages",
    "hash_pages": "pages",
    "dedupe_pages": "pages",
    "image_tokens": "pages",
    "sentence_spans": "sentences",
    "Rule": "routing",
    "ROUTE_RULES_EN": "routing",
    "ROUTE_RULES_DE": "routing",
    "ROUTE_RULE_SETS": "routing",
    "DEFAULT_SYSTEM": "prompt",
    "DEFAULT_INSTRUCTIONS": "prompt",
}


def test_the_surface_is_exactly_these_names() -> None:
    assert bp.__all__ == SURFACE
    assert len(SURFACE) <= 30


@pytest.mark.parametrize("name", [n for n in SURFACE if n != "__version__"])
def test_every_name_resolves_and_has_a_docstring_with_an_example(name: str) -> None:
    obj = getattr(bp, name)
    doc = obj.__doc__ or ""
    assert doc.strip(), f"{name} has no docstring"
    assert ">>>" in doc, f"{name}'s docstring has no example"
    assert name in dir(bp)


def test_the_version_is_a_string() -> None:
    assert isinstance(bp.__version__, str)
    assert bp.__version__


@pytest.mark.parametrize(("name", "module"), sorted(MOVED.items()))
def test_kernel_level_names_live_in_their_modules(name: str, module: str) -> None:
    assert hasattr(importlib.import_module(f"briefpack.{module}"), name)
    assert name not in bp.__all__
    with pytest.raises(AttributeError, match=name):
        getattr(bp, name)


def test_evaluate_is_the_function_and_evaluation_the_module() -> None:
    import briefpack.evaluation

    assert callable(bp.evaluate)
    assert bp.evaluate is briefpack.evaluation.evaluate
    assert briefpack.evaluation.EvalRequest.__name__ == "EvalRequest"
    assert bp.evaluation is briefpack.evaluation


def test_no_exported_name_is_also_a_submodule() -> None:
    """A name that is also a submodule's name would be replaced by the module on its import."""
    from pathlib import Path

    package = Path(bp.__file__).parent
    modules = {p.stem for p in package.glob("*.py")} | {p.name for p in package.iterdir()}
    assert not set(SURFACE) & modules


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        bp.nope  # noqa: B018
