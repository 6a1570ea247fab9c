"""The registry of the games the companion knows: the one place a game is named outside its
own package. The command line (``--game``), the start menu, ``enroll``, ``replay``, ``demo``,
``score`` and ``moves`` take their choices from ``GAMES``.

Each game is a package ``companion/games/<package>/`` (docs/internals.md, "A game package")
whose ``definition.py`` gives ``GAME``, a ``companion.games.definition.GameDefinition``: its
records, report, tag items, words, rule lookup, and (imported when first needed) its table
game and search. Adding a game is one new package and one line in ``GAMES``.

A definition is imported the first time its game is asked for, not with the registry: the
command line reads the game names before the starting frame is drawn.

>>> list(GAMES)
['wakanda', 'totem-wars']
>>> game_entry("wakanda").record.header_line.__module__
'companion.games.wakanda.record'
>>> game_entry("totem-wars").shown_title("en"), game_entry("totem-wars").shown_title("bg")
('Totem Wars', 'Тотемни войни')
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import RecordError, UserError
from companion.records import JsonError, parse_json, shown_value

if TYPE_CHECKING:  # imported with the first game asked for: the command line starts sooner
    from companion.games.definition import GameDefinition


class Registry(Mapping[str, "GameDefinition[Any]"]):
    """Record name → game definition, in menu order. ``where`` maps each name to the module
    that holds its ``GAME``: that module is imported when the game is first asked for, and
    must define that game."""

    def __init__(self, where: Mapping[str, str]) -> None:
        self._where = dict(where)
        self._loaded: dict[str, GameDefinition[Any]] = {}

    def __getitem__(self, name: str) -> GameDefinition[Any]:
        found = self._loaded.get(name)
        if found is None:
            from companion.games.definition import GameDefinition

            game = importlib.import_module(self._where[name]).GAME
            if not isinstance(game, GameDefinition) or game.name != name:
                raise TypeError(f"{self._where[name]}.GAME is not the definition of {name}")
            found = self._loaded[name] = game
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)

    def add(self, name: str, module: str) -> None:
        """One more game, last in the menu, its ``GAME`` in ``module``: the seam a game
        joins by at run time (the tests' third game); ``ValueError`` for a name known already."""
        if name in self._where:
            raise ValueError(f"game {name!r} is known already")
        self._where[name] = module


#: Record name → the module of its definition, in menu order: one line a game.
GAMES = Registry({
    "wakanda": "companion.games.wakanda.definition",
    "totem-wars": "companion.games.totem_wars.definition",
})


def game_entry(name: str) -> GameDefinition[Any]:
    """The game called ``name``; ``UserError`` for an unknown game."""
    if name not in GAMES:
        raise UserError(f"unknown game '{name}' (known: {', '.join(GAMES)})")
    return GAMES[name]


def game_of_record(text: str) -> str:
    """The game named by a record's header (line 1)."""
    # Line by line, not split whole: a hostile record may hold millions of lines.
    first = next((line for line in io.StringIO(text) if line.strip()), "")
    if not first:
        raise RecordError(1, "the record is empty (line 1 must be the header)")
    try:
        header = parse_json(first)
    except JsonError as exc:
        raise RecordError(1, f"the header: {exc.reason}") from None
    game = header.get("game") if isinstance(header, dict) else None
    if not isinstance(game, str) or game not in GAMES:
        raise RecordError(1, f"the header must name the game ({' or '.join(GAMES)}), got {shown_value(game)}")
    return game


def read_any_record(text: str, data_dir: Path | None = None) -> tuple[GameDefinition[Any], Any, list[str]]:
    """Replay a record of any known game: ``(game, state, warnings)``; ``data_dir`` is the
    data folder, where a record may name a deck."""
    game = GAMES[game_of_record(text)]
    state, warnings = game.record.read_record(text, data_dir)
    return game, state, warnings
