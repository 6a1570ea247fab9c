"""What every game's search offers the command line (``hint``, ``engine``, ``match``),
whatever the game: the ``Suggestion`` it answers with, the ``Duel`` of one game between two
levels, the ``Search`` a game's definition names, and its lookup through the registry.

A game that can give hints names a ``Search`` in its definition (``load_search``; its
``search.py`` gives ``SEARCH``, docs/internals.md "A game package"):

- ``levels``: the level names, weakest first; ``default_level``, the strongest that keeps
  the hint budget (shared/DESIGN.md, "Budgets": ≤ 50 ms median a decision);
  ``value_words``, what a suggestion's ``value`` estimates ("chance to win");
- ``suggest(game, seat=None, *, level=None, seed=0, hand=None) -> Suggestion``: the move
  for ``seat`` (default: the player to move) from what that seat knows, the same for the
  same seat's information, level and seed. ``IllegalMove`` when the seat cannot move now
  (another's turn, a chance move due, the game over); ``UserError`` for a bad level or hand;
- ``move_line(player, move) -> dict``: a suggested move as the line ``hint`` and ``engine``
  answer with (a record line, or what the record format lacks, like a totem choice);
- ``duel(levels, seed, first, variant) -> Duel``: one whole game, ``levels[i]`` playing
  seat ``i`` (as many levels as players, one of ``players``: ``match --players``), the
  chance drawn from ``seed`` (the same seed, the same draws), ``first`` the start player,
  ``variant`` one of ``variants`` (``match --variant``) or None for the rulebook's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.engine import IllegalMove
from companion.errors import UsageError, UserError
from companion.files import shown
from companion.games import GAMES, game_entry, game_of_record
from companion.records import parse_lines


@dataclass(frozen=True)
class Alternative:
    """A move the search weighed and its ``value``, from 0 to 1: what the game's search
    estimates for the seat that asked (its ``VALUE_WORDS``: for Wakanda the chance to win,
    a shared win counting half); ``reason``, when the search words it, the move's one-line
    reason as ``Suggestion.reason`` words the best (else empty)."""

    move: Hashable
    value: float
    reason: str = ""


@dataclass(frozen=True)
class Suggestion:
    """The search's answer for ``player``: the ``move``, its one-line ``reason`` in plain
    words (the box's language), its ``value`` (as in ``Alternative``) and the next best
    moves, best first (``alternatives``, without the move itself)."""

    player: int
    move: Hashable
    reason: str
    value: float
    alternatives: tuple[Alternative, ...] = ()


@dataclass(frozen=True)
class Duel:
    """One game between two levels: the ``winners`` (both seats: a shared win), the final
    ``totals`` per seat and, per seat, the time of each of its decisions that had more
    than one legal move, in seconds."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]
    times: tuple[tuple[float, ...], ...]


class Suggest(Protocol):
    """A game's ``suggest``: the move for ``seat`` after ``game`` (see the module's text)."""

    def __call__(self, game: Any, seat: int | None = None, *, level: str | None = None, seed: int = 0,
                 hand: list[str] | None = None) -> Suggestion: ...


@dataclass(frozen=True)
class Search:
    """A game's bots and hints, as the command line takes them (the module's text)."""

    levels: tuple[str, ...]
    default_level: str
    value_words: str
    suggest: Suggest
    move_line: Callable[[int, Any], dict[str, Any]]
    #: Its first argument, the levels: a tuple of two names (Wakanda), or one a seat.
    duel: Callable[[Any, int, int, str | None], Duel]
    variants: tuple[str, ...] = ()
    players: tuple[int, ...] = (2,)


def search_of(game: str) -> Search:
    """The search of the game with record name ``game``; ``UserError`` when the game has
    none."""
    entry = game_entry(game)
    found = entry.search
    if found is None:
        raise UserError(f"{entry.title} has no hints yet")
    return found


def check_level(search: Search, level: str | None) -> str:
    """``level``, or the search's default when ``None``; ``UsageError`` naming the levels
    when it is not one of them."""
    if level is None:
        return search.default_level
    if level not in search.levels:
        raise UsageError(f"unknown level {shown(level)} (levels: {', '.join(search.levels)})")
    return level


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
    line dropped); ``name`` is the seat's player, ``value_words`` what the values estimate."""

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
    return Advice(suggestion=suggestion, name=state.players[suggestion.player], value_words=search.value_words,
                  move_line=search.move_line(suggestion.player, suggestion.move),
                  alternative_lines=tuple(search.move_line(suggestion.player, alternative.move)
                                          for alternative in suggestion.alternatives),
                  level=level, ms=ms, warnings=tuple(warnings))
