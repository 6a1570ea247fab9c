"""The games' searches through the registry, as the command line asks them (``hint``,
``engine``, ``match``): the search of a game, every level of every game, and the advice for
a record of any game (``search.py`` says what a search offers).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.engine import IllegalMove
from companion.errors import UserError
from companion.games import GAMES, game_entry, game_of_record
from companion.records import parse_lines
from companion.search import Search, Suggestion, check_level


def search_of(game: str) -> Search:
    """The search of the game with record name ``game``; ``UserError`` when the game has
    none."""
    entry = game_entry(game)
    found = entry.search
    if found is None:
        raise UserError(f"{entry.title} has no hints yet")
    return found


def all_levels() -> tuple[str, ...]:
    """Every level of every game that has a search, each once, in registry order."""
    names: list[str] = []
    for entry in GAMES.values():
        if entry.search is not None:
            names.extend(level for level in entry.search.levels if level not in names)
    return tuple(names)


@dataclass(frozen=True)
class Advice:
    """A suggestion for a record: the ``suggestion``, its move and its alternatives' moves
    as record lines (``move_line``, ``alternative_lines``), the ``level`` used, the time
    the search took in milliseconds (``ms``) and the record's ``warnings`` (a torn last
    line dropped); ``name`` is the seat's player, ``value_words`` what the values estimate (the
    game's ``hint.value_words``, in the language spoken)."""

    suggestion: Suggestion
    name: str
    value_words: str
    move_line: dict[str, Any]
    alternative_lines: tuple[dict[str, Any], ...]
    level: str
    ms: float
    warnings: tuple[str, ...] = ()


def advise(text: str, *, seat: int | None = None, level: str | None = None, seed: int = 0,
           hand: list[str] | None = None, data_dir: Path | None = None) -> Advice:
    """The suggestion for ``seat`` (default: the player to move) after the record ``text``
    (``data_dir``: the data folder, where the record may name a deck).

    A bad record raises its ``RecordError`` (``line N: reason (RULE)``); a position where
    the seat cannot move raises ``UserError`` ``line N: reason (RULE)``, N being the record's
    last line (``line 3: not Ben's turn (W4)``); an unknown level ``UsageError``.
    """
    game = game_of_record(text)
    state, warnings = game_entry(game).record.read_record(text, data_dir)
    search = search_of(game)
    level = check_level(search, level)
    start = time.perf_counter()
    try:
        suggestion = search.suggest(state, seat, level=level, seed=seed, hand=hand)
    except IllegalMove as exc:
        last = parse_lines(text)[0][-1][0]
        raise UserError(f"line {last}: {exc}") from None
    ms = (time.perf_counter() - start) * 1000
    return Advice(suggestion=suggestion, name=state.players[suggestion.player],
                  value_words=game_entry(game).words.t("hint.value_words"),
                  move_line=search.move_line(suggestion.player, suggestion.move),
                  alternative_lines=tuple(search.move_line(suggestion.player, alternative.move)
                                          for alternative in suggestion.alternatives),
                  level=level, ms=ms, warnings=tuple(warnings))
