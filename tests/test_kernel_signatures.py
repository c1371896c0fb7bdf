"""A kernel's signature is written three times: its Rust binding, the stub ``_core.pyi``, the
reference function. This test holds the reference and the backend's methods to the stub, and
the stub to the compiled core, so no other copy can drift.

* Every kernel of ``KERNEL_NAMES`` is in the stub, and the compiled core's
  ``__text_signature__`` has the stub's parameters (``mypy.stubtest`` checks the rest).
* The reference function of the same name has the stub's parameters, names, kinds and
  defaults, except those the core alone takes (``CORE_ONLY``).
* ``Kernels``' method of the same name takes the stub's parameters in order (a prefix: the
  method passes the rest itself); the public wrappers of ``briefpack.kernels`` take them all.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import pytest

from briefpack import _backend, kernels

STUB = Path(_backend.__file__).with_name("_core.pyi")

CORE_ONLY: dict[str, set[str]] = {"count_tokens": {"segments"}}
"""Parameters only the Rust core takes (the reference counts every text in full)."""

NOT_IN_REFERENCE = {"count_tokens_limited"}
"""Kernels the reference does not have: ``count_tokens`` in full satisfies their contract."""


def _stub_functions() -> dict[str, list[tuple[str, str, Any]]]:
    """Each stub function's parameters as (name, kind, default source or None)."""
    tree = ast.parse(STUB.read_text("utf-8"))
    out = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        a = node.args
        params: list[tuple[str, str, Any]] = []
        positional = [*a.posonlyargs, *a.args]
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        for arg, default in zip(positional, defaults):
            kind = "POSITIONAL_ONLY" if arg in a.posonlyargs else "POSITIONAL_OR_KEYWORD"
            params.append((arg.arg, kind, None if default is None else ast.unparse(default)))
        for arg, kw_default in zip(a.kwonlyargs, a.kw_defaults):
            params.append(
                (arg.arg, "KEYWORD_ONLY", None if kw_default is None else ast.unparse(kw_default))
            )
        out[node.name] = params
    return out


STUBS = _stub_functions()


def _params(fn: Any) -> list[tuple[str, str, Any]]:
    out = []
    for p in inspect.signature(fn).parameters.values():
        default = None if p.default is inspect.Parameter.empty else repr(p.default)
        out.append((p.name, p.kind.name, default))
    return out


def test_every_kernel_is_in_the_stub() -> None:
    assert set(_backend.KERNEL_NAMES) <= set(STUBS)


@pytest.mark.parametrize("name", sorted(set(_backend.KERNEL_NAMES) - NOT_IN_REFERENCE))
def test_the_reference_takes_the_stubs_parameters(name: str) -> None:
    from briefpack import reference

    want = [p for p in STUBS[name] if p[0] not in CORE_ONLY.get(name, set())]
    assert _params(getattr(reference, name)) == want


@pytest.mark.parametrize("name", sorted(_backend.KERNEL_NAMES))
def test_the_compiled_core_takes_the_stubs_parameters(name: str) -> None:
    core = _backend.rust_core()
    if core is None:
        pytest.skip("the compiled core is not built")
    assert [p[:2] for p in _params(getattr(core, name))] == [p[:2] for p in STUBS[name]]


METHODS = sorted(
    n
    for n, _ in inspect.getmembers(_backend.Kernels, inspect.isfunction)
    if n in STUBS and not n.startswith("_")
)


def test_the_backend_wraps_some_kernels_by_name() -> None:
    assert {"count_tokens", "pack", "price_pack", "mmr", "select_sentences"} <= set(METHODS)


@pytest.mark.parametrize("name", METHODS)
def test_each_backend_method_takes_the_stubs_parameters_in_order(name: str) -> None:
    got = [p[0] for p in _params(getattr(_backend.Kernels, name))][1:]  # without self
    want = [p[0] for p in STUBS[name]]
    assert got == want[: len(got)], f"Kernels.{name}{got} is not a prefix of the stub's {want}"


@pytest.mark.parametrize("name", sorted(n for n in kernels.__all__ if n in STUBS))
def test_the_public_wrappers_take_the_stubs_parameters(name: str) -> None:
    want = [p for p in STUBS[name] if p[0] not in CORE_ONLY.get(name, set())]
    assert _params(getattr(kernels, name)) == want
