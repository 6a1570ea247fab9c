"""The layout of shared/DESIGN.md: one package per game, reached only through the registry;
the shared layers (``companion/table``, ``companion/ui``) name no game; only ``hardware/``
touches the hardware libraries."""

from __future__ import annotations

import ast
import importlib
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine import Engine
from companion.games import GAMES
from companion.games.definition import GameDefinition
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
    assert isinstance(entry, GameDefinition) and entry.name == name
    for part in (entry.record.read_record, entry.record.header_line, entry.record.event_line,
                 entry.report.score_json, entry.report.format_score, entry.report.moves_json,
                 entry.report.format_moves, entry.report.result_line, entry.rule_of):
        assert callable(part), f"{name}: {part!r}"
    assert isinstance(entry.table, TableGame)
    steps = entry.items.enrollment_steps(None)
    assert steps and all(entry.items.parse(step.item).game == name for step in steps)
    assert entry.items.parse("no such thing") is None


@pytest.mark.parametrize("name", list(GAMES))
def test_every_flow_of_a_game_says_its_game(name):
    # The why-pages read a flow's rules in the game the flow says it is of.
    table = GAMES[name].table
    setup = table.setup(("Ana", "Ben"), random.Random(1), ROOT, {o.key: o.values[0] for o in table.settings})
    assert setup.of_game == name
    assert GAMES[name].rule_of(setup) is not None


@pytest.mark.parametrize("record", ["wakanda_worked_example.jsonl", "totem_wars_finished.jsonl"])
def test_every_engine_satisfies_the_engine_protocol(record):
    from companion.games import read_any_record

    _, game, _ = read_any_record((ROOT / "tests" / "data" / record).read_text(encoding="utf-8"))
    assert isinstance(game, Engine)
    assert isinstance(game.history, tuple) and game.outcome() is not None


def test_the_registry_imports_no_game_until_asked():
    code = ("import sys, companion.games; "
            "print(sorted(m for m in sys.modules if m.startswith('companion.games.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_menu_is_drawn_before_any_game_is_played(tmp_path):
    # Start-up stays cheap: the menu needs the games' titles, not their flows or bots.
    code = ("import sys; from companion.table.session import Session; "
            "from companion.table.registry import TagRegistry; "
            f"s = Session({str(tmp_path)!r}, TagRegistry('tags.json')); s.frame(); "
            "print(s.screen, [m for m in sys.modules if m.startswith('companion.games.') "
            "and m.endswith(('.table_game', '.flow', '.lessons', '.demo'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "menu []"


def test_each_game_package_holds_its_registered_definition():
    for entry in GAMES.values():
        assert importlib.import_module(f"{entry.package}.definition").GAME is entry


def test_the_registry_takes_only_the_definition_of_the_game_it_names():
    from companion.errors import UserError
    from companion.games import Registry, game_entry

    misnamed = Registry({"chess": "companion.games.wakanda.definition"})
    assert list(misnamed) == ["chess"] and len(misnamed) == 1
    with pytest.raises(TypeError, match="not the definition of chess"):
        misnamed["chess"]
    known = ", ".join(GAMES)
    with pytest.raises(UserError, match=re.escape(f"unknown game 'chess' (known: {known})")):
        game_entry("chess")
