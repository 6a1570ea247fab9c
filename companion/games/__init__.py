"""The games the companion knows, and reading any game record by its header.

Each game package (``wakanda``, ``totem_wars``) exposes the same small surface, used by the
command line and the table session:

- ``read_record(text) -> (state, warnings)``: replay a record; ``RecordError`` on a bad line;
- ``score_json(state) -> dict`` and ``format_score(state) -> str`` (``score``);
- ``moves_json(state) -> dict`` and ``format_moves(state) -> str`` (``moves``).
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType

from companion.errors import RecordError, UserError

#: Game name (as in a record header and ``--game``) → package.
GAMES = {"wakanda": "companion.games.wakanda", "totem-wars": "companion.games.totem_wars"}


def game_module(name: str) -> ModuleType:
    """The package of a game by its record name; ``UserError`` for an unknown game."""
    try:
        return importlib.import_module(GAMES[name])
    except KeyError:
        raise UserError(f"unknown game '{name}' (known: {', '.join(GAMES)})") from None


def game_of_record(text: str) -> str:
    """The game named by a record's header (line 1)."""
    first = next((line for line in text.split("\n") if line.strip()), "")
    if not first:
        raise RecordError(1, "the record is empty (line 1 must be the header)")
    try:
        header = json.loads(first)
    except json.JSONDecodeError:
        raise RecordError(1, "the header is not valid JSON") from None
    game = header.get("game") if isinstance(header, dict) else None
    if not isinstance(game, str) or game not in GAMES:
        raise RecordError(1, f"the header must name the game ({' or '.join(GAMES)}), got {game!r}")
    return game


def read_any_record(text: str):
    """Replay a record of any known game: ``(module, state, warnings)``."""
    module = game_module(game_of_record(text))
    state, warnings = module.read_record(text)
    return module, state, warnings
