"""What every game's search offers the command line (``hint``, ``engine``, ``match``),
whatever the game: the ``Suggestion`` it answers with, the ``Duel`` of one game between two
levels, and the ``Search`` a game's definition names (``advice.py`` looks them up through the
registry).

A game that can give hints names a ``Search`` in its definition (``load_search``; its
``search.py`` gives ``SEARCH``, docs/internals.md "A game package"):

- ``levels``: the level names, weakest first; ``default_level``, the strongest that keeps
  the hint budget (shared/DESIGN.md, "Budgets": ≤ 50 ms median a decision); what a
  suggestion's ``value`` estimates is the game's catalogue's ``hint.value_words``
  ("chance to win");
- ``suggest(game, seat=None, *, level=None, seed=0, hand=None) -> Suggestion``: the move
  for ``seat`` (default: the player to move) from what that seat knows, the same for the
  same seat's information, level and seed. ``IllegalMove`` when the seat cannot move now
  (another's turn, a chance move due, the game over); ``UserError`` for a bad level or hand;
- ``move_line(player, move) -> dict``: a suggested move as the line ``hint`` and ``engine``
  answer with (a record line, or what the record format lacks, like a totem choice);
  ``move_words(move) -> str``, a move in the language spoken, as ``hint`` lists the next best;
- ``duel(levels, seed, first, variant) -> Duel``: one whole game, ``levels[i]`` playing
  seat ``i`` (as many levels as players, one of ``players``: ``match --players``), the
  chance drawn from ``seed`` (the same seed, the same draws), ``first`` the start player,
  ``variant`` one of ``variants`` (``match --variant``) or None for the rulebook's.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Protocol

from companion.errors import UsageError
from companion.files import shown


@dataclass(frozen=True)
class Alternative:
    """A move the search weighed and its ``value``, from 0 to 1: what the game's search
    estimates for the seat that asked (its ``hint.value_words``: for Wakanda the chance to win,
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
    suggest: Suggest
    move_line: Callable[[int, Any], dict[str, Any]]
    #: Its first argument, the levels: a tuple of two names (Wakanda), or one a seat.
    duel: Callable[[Any, int, int, str | None], Duel]
    variants: tuple[str, ...] = ()
    players: tuple[int, ...] = (2,)
    move_words: Callable[[Any], str] = str


def check_level(search: Search, level: str | None) -> str:
    """``level``, or the search's default when ``None``; ``UsageError`` naming the levels
    when it is not one of them."""
    if level is None:
        return search.default_level
    if level not in search.levels:
        raise UsageError(f"unknown level {shown(level)} (levels: {', '.join(search.levels)})")
    return level
