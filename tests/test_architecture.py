"""The layout tells the architecture, and these tests keep it so.

* Dependencies point one way: ``cli`` -> ``web`` -> ``llm`` -> features (``judge``, ``quote``,
  ``track``) -> ``db`` / ``lang`` / ``lint`` -> ``normalize``. The top-level ``sadame`` package
  (``__version__``, lazy re-exports) may be named by anyone: it imports only ``normalize`` eagerly. Every import counts, including
  imports inside functions; only ``if TYPE_CHECKING:`` blocks (never run) are left out.
* No import cycles between modules of ``sadame``, function-level imports included.
* No function in ``src/`` is longer than 60 lines: a long operation reads best as a short
  pipeline of named steps.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src"
PACKAGE = SRC / "sadame"
MAX_FUNCTION_LINES = 60

#: Higher layers may import lower ones (and their own package), never the other way round.
LAYERS: dict[str, int] = {
    "normalize": 0,
    "_errors": 0,
    "lint": 1,
    "lang": 1,
    "db": 1,
    "_datafile": 1,
    "judge": 2,
    "quote": 2,
    "track": 2,
    "llm": 3,
    "review": 3,
    "web": 4,
    "cli": 5,  # the outermost interface: `sadame serve` starts the web app
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {
        _module_name(path): path
        for path in PACKAGE.rglob("*.py")
        if "migrations" not in path.parts
    }


def _is_type_checking_block(node: ast.AST) -> bool:
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk_runtime(node: ast.AST) -> Iterator[ast.AST]:
    for child in ast.iter_child_nodes(node):
        if _is_type_checking_block(child):
            continue
        yield child
        yield from _walk_runtime(child)


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The ``sadame`` modules that ``name`` imports at run time (the most specific known module)."""
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in _walk_runtime(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, node, path.name == "__init__.py")
            targets = [f"{base}.{alias.name}" for alias in node.names]
            targets = [t if t in known else base for t in targets]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target.startswith("sadame") and target != name:
                found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def _layer(module: str) -> tuple[str, int] | None:
    parts = module.split(".")
    if len(parts) < 2:
        return None  # the top-level package re-exports lazily and may name anything
    package = parts[1]
    if package not in LAYERS:
        return None
    return package, LAYERS[package]


def test_every_package_has_a_layer() -> None:
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages - {"data"} <= set(LAYERS), "give the new package a layer in LAYERS"


def test_no_upward_imports() -> None:
    upward = []
    for module, imported in _graph().items():
        own = _layer(module)
        if own is None:
            continue
        for target in imported:
            other = _layer(target)
            if other is None:
                continue
            if other[0] != own[0] and other[1] >= own[1]:
                upward.append(f"{module} -> {target}")
    assert upward == []


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_cycles() -> None:
    cycle = _find_cycle(_graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_the_top_level_package_imports_only_the_contract_eagerly() -> None:
    assert _graph()["sadame"] <= {"sadame.normalize"}


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": set()}) is None


def _long_functions() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    found.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_no_function_longer_than_sixty_lines() -> None:
    assert _long_functions() == []


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_layers_name_real_packages(package: str) -> None:
    assert (PACKAGE / package / "__init__.py").exists()
