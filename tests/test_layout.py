"""The layout of shared/DESIGN.md: one package per game, reached only through the registry;
the shared layers (``companion/table``, ``companion/ui``) name no game; only ``hardware/``
touches the hardware libraries."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine import Engine
from companion.games import GAMES
from companion.table.table_game import TableGame

ROOT = Path(__file__).resolve().parent.parent
HARDWARE_LIBRARIES = ("gpiozero", "luma", "serial", "smbus2", "RPi", "lgpio")


def imported_modules(path: Path) -> set[str]:
    """Every module a source file imports, at any depth of its code."""
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
    return modules


def game_packages() -> set[str]:
    """The modules of the registered game packages: ``companion.games.wakanda`` …"""
    return {entry.package for entry in GAMES.values()}


def names_a_game(module: str) -> bool:
    """Whether an imported module is (inside) a game package."""
    return any(module == package or module.startswith(package + ".") for package in game_packages())


@pytest.mark.parametrize("layer", ["table", "ui"])
def test_the_shared_layers_import_no_game_package(layer):
    offenders = {
        f"{path.relative_to(ROOT)}: {module}"
        for path in (ROOT / "companion" / layer).rglob("*.py")
        for module in imported_modules(path)
        if names_a_game(module)
    }
    assert not offenders, "table/ and ui/ reach games only through the registry:\n" + "\n".join(
        sorted(offenders))


def test_only_hardware_imports_the_hardware_libraries():
    offenders = {
        f"{path.relative_to(ROOT)}: {module}"
        for path in (ROOT / "companion").rglob("*.py")
        for module in imported_modules(path)
        if module.split(".")[0] in HARDWARE_LIBRARIES
    }
    assert not offenders, "\n".join(sorted(offenders))


def test_a_game_is_named_outside_its_package_only_in_the_registry():
    packages = {package.rsplit(".", 1)[1] for package in game_packages()}
    offenders = set()
    for path in (ROOT / "companion").rglob("*.py"):
        inside = path.relative_to(ROOT / "companion").parts
        if inside[:1] == ("games",) and (len(inside) == 2 or inside[1] in packages):
            continue  # the registry, or a game's own package
        offenders.update(f"{path.relative_to(ROOT)}: {module}"
                         for module in imported_modules(path) if names_a_game(module))
    assert not offenders, "\n".join(sorted(offenders))


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_package_provides_what_the_box_takes(name):
    entry = GAMES[name]
    engine = entry.engine
    for function in ("read_record", "header_line", "event_line", "score_json", "format_score",
                     "moves_json", "format_moves"):
        assert callable(getattr(engine, function)), f"{entry.package}.{function}"
    assert callable(entry.items.parse) and callable(entry.items.enrollment_steps)
    assert isinstance(entry.table, TableGame)
    steps = entry.table.enrollment_steps(None)
    assert steps and all(entry.items.parse(step.item).game == name for step in steps)


@pytest.mark.parametrize("record", ["wakanda_worked_example.jsonl", "totem_wars_finished.jsonl"])
def test_every_engine_satisfies_the_engine_protocol(record):
    from companion.games import read_any_record

    _, game, _ = read_any_record((ROOT / "tests" / "data" / record).read_text(encoding="utf-8"))
    assert isinstance(game, Engine)
    assert isinstance(game.history, tuple) and game.outcome() is not None


def test_the_registry_imports_no_game_until_asked():
    code = ("import sys, companion.games; "
            "print(any(m.startswith('companion.games.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_games_are_importable_by_their_registered_package():
    for entry in GAMES.values():
        assert importlib.import_module(entry.package) is entry.engine
