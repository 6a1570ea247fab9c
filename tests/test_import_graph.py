"""The house's floors, read from the source (issue 33): no import circle among the
companion's modules — an import for the type checker or inside a function counts like any
other —, the table apart from the page, the page apart from the command line, and no class
that does everything (more than 30 methods)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"
MAX_METHODS = 30


def module_files() -> dict[str, Path]:
    """Every module of the companion package by its dotted name."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def imported_names(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """``(dotted name, line)`` of everything ``path`` imports, at any depth of its code
    (``TYPE_CHECKING`` blocks and function bodies included), relative imports resolved."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            yield source, node.lineno
            for alias in node.names:
                yield f"{source}.{alias.name}", node.lineno


def import_graph() -> dict[str, dict[str, int]]:
    """Module → the companion modules it imports, each with the first line that does."""
    modules = module_files()
    graph: dict[str, dict[str, int]] = {}
    for module, path in modules.items():
        edges: dict[str, int] = {}
        for name, line in imported_names(module, path):
            if name in modules and name != module:
                edges.setdefault(name, line)
        graph[module] = edges
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in graph[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in graph:
        if module not in index:
            visit(module)
    return found


def crossings(graph: dict[str, dict[str, int]], lower: str, upper: str) -> list[str]:
    """Every import from a module of package ``lower`` into package ``upper``, as
    ``module:line -> module``."""
    def inside(module: str, package: str) -> bool:
        return module == package or module.startswith(package + ".")

    return [f"{module}:{line} -> {other}" for module, edges in graph.items() if inside(module, lower)
            for other, line in edges.items() if inside(other, upper)]


@pytest.fixture(scope="module")
def graph() -> dict[str, dict[str, int]]:
    return import_graph()


def test_the_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    source = tmp_path / "companion" / "table" / "x.py"
    source.parent.mkdir(parents=True)
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from companion.web import page\n"
                      "def f():\n    from ..ui.text import t\n    import companion.words\n", encoding="utf-8")
    names = {name for name, _ in imported_names("companion.table.x", source)}
    assert {"companion.web.page", "companion.ui.text.t", "companion.ui.text", "companion.words"} <= names


def test_a_circle_is_found_however_long() -> None:
    graph: dict[str, dict[str, int]] = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b": 1}, "b": {}}) == []


def test_no_module_of_the_companion_is_in_an_import_circle(graph: dict[str, dict[str, int]]) -> None:
    assert circles(graph) == [], "modules that import each other, through any path"


def reached(graph: dict[str, dict[str, int]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for other in graph[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def test_the_game_contract_stands_on_the_lowest_floor(graph: dict[str, dict[str, int]]) -> None:
    upper = ("companion.table", "companion.games", "companion.ui", "companion.web", "companion.voice",
             "companion.commands", "companion.club")
    assert sorted(module for module in reached(graph, "companion.contract") if module.startswith(upper)) == []


def test_the_table_imports_nothing_of_the_page(graph: dict[str, dict[str, int]]) -> None:
    assert crossings(graph, "companion.table", "companion.web") == []


def test_the_page_imports_nothing_of_the_command_line(graph: dict[str, dict[str, int]]) -> None:
    assert crossings(graph, "companion.web", "companion.commands") == []


def test_no_class_has_more_than_30_methods() -> None:
    big = []
    for module, path in module_files().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                count = sum(isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) for item in node.body)
                if count > MAX_METHODS:
                    big.append(f"{module}.{node.name}: {count} methods")
    assert big == []
