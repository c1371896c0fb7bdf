"""The package's imports go down the layers, and nothing imports in a circle.

Every module of ``python/briefpack`` is read with ``ast`` (nothing is imported): each import that
runs (module level and inside functions, relative and absolute; not those under
``if TYPE_CHECKING:``) is an edge from the importing module to the module it names. Then:

* every module has a layer in ``LAYERS`` (a new module has to be placed);
* no edge goes up (to a higher layer); an edge within a layer is fine unless it closes a circle;
* there is no circle at all;
* an import inside a function is only for an optional third-party dependency, or in ``cli/``
  (each command loads what it needs), or one of the few ``ALLOWED_IN_FUNCTION`` edges;
* nothing but ``_backend`` (on demand) imports the reference: it is not on the production path;
* ``import briefpack`` runs only leaf imports (the rest is loaded on first use);
* the Rust core calls back into ``briefpack.core_callbacks`` only, for names it defines.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "briefpack"

LAYERS: dict[str, int] = {
    # L0 leaves: data, checks, rules; they import only each other
    "briefpack": 0,  # the facade: leaf imports only, every export loaded on first use
    "briefpack._version": 0,
    "briefpack.errors": 0,
    "briefpack._types": 0,
    "briefpack.types": 0,
    "briefpack._checks": 0,
    "briefpack._tokenizers": 0,
    "briefpack._escape": 0,
    "briefpack._chartable": 0,
    "briefpack._files": 0,
    "briefpack._jsonl": 0,
    "briefpack._metadata_keys": 0,
    "briefpack.ordering": 0,
    "briefpack.core_callbacks": 0,
    "briefpack._core": 0,  # the compiled extension (imports errors and core_callbacks)
    # L1 the reference kernels (the oracle): leaves only
    "briefpack.reference": 1,
    # L2 the kernel boundary
    "briefpack._backend": 2,
    "briefpack.kernels": 2,
    # L3 what the stages and the Assembly build on; options reads the prompt's defaults and the
    # page-token rules, so it sits with them (nothing below the pipeline reads options)
    "briefpack.options": 3,
    "briefpack.prompt": 3,
    "briefpack.citations": 3,
    "briefpack.record": 3,
    "briefpack.pages": 3,  # a package: decoding, hashes and dedupe, token rules
    "briefpack.sentences": 3,
    "briefpack.candidates": 3,
    # L4 the result
    "briefpack.assembly": 4,
    # L5 the pipeline
    "briefpack._stages": 5,
    "briefpack.batch": 5,
    "briefpack.assembler": 5,
    "briefpack.pipeline": 5,
    "briefpack._many": 5,
    # L6 on top of the pipeline
    "briefpack.routing": 6,
    "briefpack.evaluation": 6,
    "briefpack.demo": 6,
    "briefpack.demo_pages": 6,
    # L7 the outside world
    "briefpack.integrations": 7,
    "briefpack.cli": 7,
    "briefpack.__main__": 7,
}
"""A module's layer is its own entry, else its package's (``briefpack.reference.text``: 1)."""

ALLOWED_IN_FUNCTION: dict[tuple[str, str], str] = {
    ("briefpack._backend", "briefpack.reference"): "the Python backend, loaded when asked for",
    ("briefpack._backend", "briefpack._core"): "the compiled extension, which may be absent",
    ("briefpack.types", "briefpack.assembly"): "briefpack.types.Assembly, a serialised path",
    ("briefpack.reference.tokens", "briefpack._core"): "the offline vocabulary",
}
"""The package imports that may run inside a function, each with its reason."""

UPWARD_ALLOWED = {("briefpack.types", "briefpack.assembly")}
"""Edges allowed to go up (and so left out of the circle check): resolved only on access."""

PENDING: set[str] = set()


class Edge(NamedTuple):
    source: str
    target: str
    line: int
    in_function: bool


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every module's dotted name -> (its file, whether it is a package's ``__init__``)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        out[".".join(parts)] = (path, is_package)
    return out


MODULES = _modules()
KNOWN = set(MODULES) | {"briefpack._core"}


def _under_type_checking(tree: ast.AST) -> set[int]:
    """The nodes only a type checker runs: the body of ``if TYPE_CHECKING:``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            for child in node.body:
                skipped.update(id(n) for n in ast.walk(child))
    return skipped


def _in_functions(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inside.update(id(n) for n in ast.walk(node) if n is not node)
    return inside


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """The package modules an import statement runs (``from .x import y``: ``x.y`` when that is
    a module, else ``x``)."""
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names if a.name.split(".")[0] == "briefpack")
        return
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join([*base, *([node.module] if node.module else [])])
    else:
        target = node.module or ""
        if target.split(".")[0] != "briefpack":
            return
    for alias in node.names:
        sub = f"{target}.{alias.name}"
        yield sub if sub in KNOWN else target


def _third_party(node: ast.Import | ast.ImportFrom) -> bool:
    return not (isinstance(node, ast.ImportFrom) and node.level) and all(
        not name.startswith("briefpack")
        for name in (
            [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        )
    )


def _edges() -> list[Edge]:
    edges = []
    for module, (path, is_package) in MODULES.items():
        tree = ast.parse(path.read_text("utf-8"), str(path))
        skipped, inside = _under_type_checking(tree), _in_functions(tree)
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or id(node) in skipped:
                continue
            if _third_party(node):
                continue  # stdlib or an optional dependency: anywhere
            for target in _targets(module, is_package, node):
                if target != module:
                    edges.append(Edge(module, target, node.lineno, id(node) in inside))
    return edges


EDGES = _edges()


def layer(module: str) -> int:
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        name = ".".join(parts[:n])
        if name in LAYERS:
            return LAYERS[name]
    raise KeyError(module)


def _violations() -> list[str]:
    out: list[str] = []
    for e in EDGES:
        where = f"{e.source}:{e.line} -> {e.target}"
        if (
            e.target.startswith("briefpack.reference")
            and not e.source.startswith("briefpack.reference")
            and ((e.source, "briefpack.reference") not in ALLOWED_IN_FUNCTION or not e.in_function)
        ):
            out.append(f"{where}: the reference on the production path")
            continue
        if layer(e.target) > layer(e.source) and (e.source, e.target) not in UPWARD_ALLOWED:
            out.append(f"{where}: up from L{layer(e.source)} to L{layer(e.target)}")
            continue
        if e.in_function and not e.source.startswith("briefpack.cli"):
            allowed = any(
                e.source == s and (e.target == t or e.target.startswith(t + "."))
                for s, t in ALLOWED_IN_FUNCTION
            )
            if not allowed:
                out.append(f"{where}: inside a function")
    return sorted(set(out))


def test_every_module_has_a_layer() -> None:
    unplaced = []
    for module in MODULES:
        try:
            layer(module)
        except KeyError:
            unplaced.append(module)
    assert not unplaced, f"give these modules a layer in LAYERS: {unplaced}"


def test_the_walk_sees_the_imports_it_should() -> None:
    """The walk is not vacuous: it finds module-level, relative, in-function and nested
    imports that are known to exist."""
    found = {(e.source, e.target, e.in_function) for e in EDGES}
    assert ("briefpack.assembly", "briefpack.record", False) in found
    assert ("briefpack._backend", "briefpack.reference", True) in found
    assert ("briefpack.reference.render", "briefpack._escape", False) in found
    assert ("briefpack.types", "briefpack.assembly", True) in found
    assert ("briefpack.cli.commands", "briefpack.demo", True) in found


def _unlined(violation: str) -> str:
    """``a:12 -> b: why`` without the line number, as ``PENDING`` names it."""
    return re.sub(r"^([\w.]+):\d+ -> ", r"\1 -> ", violation)


def test_no_import_goes_up_or_hides_in_a_function() -> None:
    found = _violations()
    new = [v for v in found if _unlined(v) not in PENDING]
    assert not new, "imports that break the layering:\n" + "\n".join(new)


def test_pending_entries_still_occur() -> None:
    stale = sorted(PENDING - {_unlined(v) for v in _violations()})
    assert not stale, "fixed: remove these entries from PENDING:\n" + "\n".join(stale)


def _cycle(edges: list[Edge]) -> list[str] | None:
    graph: dict[str, set[str]] = {}
    for e in edges:
        if (e.source, e.target) not in UPWARD_ALLOWED:
            graph.setdefault(e.source, set()).add(e.target)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_there_is_no_import_circle() -> None:
    pending = {v.rsplit(":", 1)[0] for v in PENDING}
    edges = [e for e in EDGES if f"{e.source} -> {e.target}" not in pending]
    assert _cycle(edges) is None, " -> ".join(_cycle(edges) or [])


def test_the_circle_check_finds_a_circle() -> None:
    edges = [Edge("a", "b", 1, False), Edge("b", "c", 1, True), Edge("c", "a", 1, False)]
    assert _cycle(edges) == ["a", "b", "c", "a"]


def test_import_briefpack_runs_only_leaf_imports() -> None:
    facade = [e for e in EDGES if e.source == "briefpack"]
    assert facade, "the facade imports errors"
    assert all(layer(e.target) == 0 and not e.in_function for e in facade), facade


@pytest.mark.parametrize("layer_of", [("briefpack.reference.text", 1), ("briefpack.cli.app", 7)])
def test_a_module_takes_its_package_layer(layer_of: tuple[str, int]) -> None:
    assert layer(layer_of[0]) == layer_of[1]


# ---- the Rust core's calls into Python --------------------------------------------------------

RUST = sorted((ROOT / "src").rglob("*.rs"))


def test_the_core_imports_only_the_callbacks_and_the_errors() -> None:
    imported = set()
    for path in RUST:
        text = path.read_text("utf-8")
        imported |= set(re.findall(r'py\.import\("(briefpack[\w.]*)"\)', text))
        imported |= {m + "!" for m in re.findall(r"import_exception!\((briefpack[\w.]*),", text)}
    assert imported == {"briefpack.core_callbacks", "briefpack.errors!"}, imported


def test_every_callback_the_core_names_is_public_and_defined() -> None:
    from briefpack import core_callbacks

    names = set()
    for path in RUST:
        text = path.read_text("utf-8")
        names |= set(re.findall(r'(?:check|rejected)\(\s*[\w.()]+,\s*"(\w+)"', text))
        names |= set(re.findall(r'getattr\(intern!\(py, "(\w+)"\)\)\?\s*\.call', text))
    assert {"check_count", "choice", "escape_as"} <= names  # the scan finds them
    assert not [n for n in names if n.startswith("_")]
    assert names <= set(core_callbacks.__all__), names - set(core_callbacks.__all__)
    assert all(callable(getattr(core_callbacks, n)) for n in core_callbacks.__all__)
