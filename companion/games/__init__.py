"""The registry of the games the companion knows: the one place a game is named outside its
own package. The command line (``--game``), the start menu, ``enroll``, ``replay``, ``demo``,
``score`` and ``moves`` take their choices from ``GAMES``.

Each game is a package ``companion/games/<package>/`` (docs/internals.md, "A game package"):

- the package itself is the rules engine and its records: ``read_record(text) -> (state,
  warnings)``, ``header_line``, ``event_line``, ``score_json``/``format_score`` and
  ``moves_json``/``format_moves``;
- ``<package>.items`` names the things that carry a tag (``parse``, ``enrollment_steps``);
- ``<package>.table_game`` gives ``TABLE_GAME``, a ``companion.table.table_game.TableGame``:
  its set-up, play and score flows, demo and replay;
- ``<package>.words`` gives ``WORDS``, the gettext catalogue of its words
  (``<package>/locale/<lang>/LC_MESSAGES/<domain>.po``), which goes on into the shared one.

Adding a game is one new package and one line in ``GAMES``.

>>> [entry.name for entry in GAMES.values()]
['wakanda', 'totem-wars']
>>> game_entry("wakanda").engine.__name__
'companion.games.wakanda'
>>> game_entry("totem-wars").shown_title("en"), game_entry("totem-wars").shown_title("bg")
('Totem Wars', 'Тотемни войни')
"""

from __future__ import annotations

import importlib
import io
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import TYPE_CHECKING, Any

from companion.errors import RecordError, UserError
from companion.records import JsonError, parse_json, shown_value

if TYPE_CHECKING:
    from companion.table.table_game import TableGame
    from companion.words import Catalogue


@dataclass(frozen=True)
class GameEntry:
    """One game: its record name (``--game``, record headers), its English title (the
    command line's), and its package; the package's parts are imported when first asked
    for. Its words are the gettext domain named as the package's folder."""

    name: str
    title: str
    package: str

    @property
    def domain(self) -> str:
        """The gettext domain of the game's words (``wakanda``, ``totem_wars``)."""
        return self.package.rsplit(".", 1)[-1]

    @cached_property
    def words(self) -> Catalogue:
        """The game's words (its catalogue goes on into the shared words)."""
        module: Any = importlib.import_module(f"{self.package}.words")
        return module.WORDS

    def text(self, key: str, lang: str | None = None, **fields: Any) -> str:
        """A message of the game's (or the shared) words in ``lang`` (default: the box's)."""
        return self.words.t(key, lang, **fields)

    def shown_title(self, lang: str | None = None) -> str:
        """The game's title as the menu shows it, in ``lang`` (default: the box's)."""
        return self.text(f"game.{self.domain}", lang)

    @cached_property
    def engine(self) -> ModuleType:
        """The rules engine package (``read_record``, ``header_line``, ``score_json`` …)."""
        return importlib.import_module(self.package)

    @cached_property
    def items(self) -> ModuleType:
        """The module of the game's tagged items (``parse``, ``enrollment_steps``)."""
        return importlib.import_module(f"{self.package}.items")

    @cached_property
    def table(self) -> TableGame:
        """The game as the table plays it (flows, demo, replay)."""
        module: Any = importlib.import_module(f"{self.package}.table_game")
        return module.TABLE_GAME


#: Record name → game, in menu order.
GAMES: dict[str, GameEntry] = {entry.name: entry for entry in (
    GameEntry("wakanda", "Wakanda", "companion.games.wakanda"),
    GameEntry("totem-wars", "Totem Wars", "companion.games.totem_wars"),
)}


def game_entry(name: str) -> GameEntry:
    """The game called ``name``; ``UserError`` for an unknown game."""
    try:
        return GAMES[name]
    except KeyError:
        raise UserError(f"unknown game '{name}' (known: {', '.join(GAMES)})") from None


def game_module(name: str) -> ModuleType:
    """The engine package of a game by its record name; ``UserError`` for an unknown game."""
    return game_entry(name).engine


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


def read_any_record(text: str, data_dir=None):
    """Replay a record of any known game: ``(module, state, warnings)``; ``data_dir`` is
    the data folder, where a record may name a deck."""
    module = game_module(game_of_record(text))
    state, warnings = module.read_record(text, data_dir)
    return module, state, warnings
