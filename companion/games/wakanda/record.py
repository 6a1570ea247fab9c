"""Wakanda game records: JSON Lines, a header then one event a line (rules/wakanda.md).

>>> text = write_record(Wakanda(["teepee", "eagle", "chief", "variety", "sun", "tomahawk"],
...                             players=("Ana", "Ben")))
>>> print(text, end="")  # doctest: +ELLIPSIS
{"game": "wakanda", "players": ["Ana", "Ben"], "villages": ["teepee", "eagle", ..., "tomahawk"], "first": 0}
>>> game, warnings = read_record(text + '{"p": 0, "draw": "sun"}\\n{"p": 0, "build": "sun", "village": 4}\\n')
Traceback (most recent call last):
...
companion.errors.RecordError: line 3: village 4 is not open yet (W4)
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from typing import Any

from companion.engine import IllegalMove
from companion.errors import RecordError
from companion.files import shown
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.levels import LEVELS
from companion.games.wakanda.moves import Build, Claim, Draw, Move, Pass, Reveal
from companion.games.wakanda.rules import ROW
from companion.games.wakanda.setup import SetupError
from companion.records import check_keys, check_names, dump_line, integer, parse_lines, shown_value

_HEADER_REQUIRED = {"game", "players", "villages", "first"}
_HEADER_OPTIONAL = {"variant", "empty_claim", "open_hands", "hints", "box"}

#: The key naming each kind of event line → (required keys, optional keys).
_EVENTS = {
    "draw": {"p", "draw"},
    "build": {"p", "build", "village"},
    "claim": {"p", "claim"},
    "pass": {"p", "pass"},
    "reveal": {"reveal"},
    "undo": {"undo"},
}


def header_line(game: Wakanda) -> dict[str, object]:
    """The header of ``game``'s record; settings at their defaults are left out."""
    header: dict[str, object] = {"game": "wakanda", "players": list(game.players),
                                 "villages": list(game.setup_villages), "first": game.first}
    if game.variant != "open":
        header["variant"] = game.variant
    if game.empty_claim != "when_stuck":
        header["empty_claim"] = game.empty_claim
    if game.open_hands:
        header["open_hands"] = True
    if game.hints:
        header["hints"] = True
    if game.box:
        header["box"] = {str(seat): level for seat, level in sorted(game.box.items())}
    return header


def event_line(player: int | None, move: Move) -> dict[str, object]:
    """The record line of ``move`` by ``player`` (a reveal has no player).

    >>> event_line(1, Build("eagle", 2))
    {'p': 1, 'build': 'eagle', 'village': 2}
    """
    if isinstance(move, Reveal):
        return {"reveal": move.village}
    if isinstance(move, Draw):
        return {"p": player, "draw": move.piece}
    if isinstance(move, Build):
        return {"p": player, "build": move.piece, "village": move.village}
    if isinstance(move, Claim):
        return {"p": player, "claim": move.village}
    if isinstance(move, Pass):
        return {"p": player, "pass": True}
    raise TypeError(f"not a Wakanda move: {move!r}")


def write_record(game: Wakanda) -> str:
    """The whole record of ``game``: its header and one line per move still on the board."""
    lines = [dump_line(header_line(game))]
    lines.extend(dump_line(event_line(player, move)) for player, move in game.history)
    return "".join(lines)


def read_record(text: str, data_dir: str | os.PathLike[str] | None = None) -> tuple[Wakanda, list[str]]:
    """Replay a record; returns the game and warnings (a torn last line is dropped).

    ``RecordError(line, "reason (RULE)")`` at the first bad line; nothing after it is applied.
    A refused move's reason is the English text of its ``IllegalMove``. ``data_dir``, where
    a record may name things of the data folder, is not needed: a Wakanda record names none.
    """
    warnings: list[str] = []
    (game,) = deque(games_by_line(text, warnings), maxlen=1)
    return game, warnings


def games_by_line(text: str, warnings: list[str] | None = None) -> Iterator[Wakanda]:
    """The game after each line of a record, the header first: one game played on line by
    line, each line read once (copy a game you keep past the next line). A torn last line
    adds its warning to ``warnings``; ``RecordError`` at the first bad line."""
    lines, found = parse_lines(text)
    number, header = lines[0]
    game = _game_from_header(number, header)
    yield game
    for number, obj in lines[1:]:
        try:
            _apply_line(game, number, obj)
        except IllegalMove as exc:
            raise RecordError(number, str(exc)) from None
        except _BadLine as exc:
            raise RecordError(number, str(exc)) from None
        yield game
    if warnings is not None:
        warnings.extend(found)


class _BadLine(Exception):
    """A line that is not a well-formed event (its reason is the message)."""


def _game_from_header(number: int, header: dict[str, Any]) -> Wakanda:
    check_keys(number, header, _HEADER_REQUIRED, _HEADER_OPTIONAL)
    if header["game"] != "wakanda":
        raise RecordError(number, f"not a Wakanda record (game {shown_value(header['game'])})")
    integer(number, header, "first", 0, 1, "W3", "player 0 or 1")
    check_names(number, header["players"], "W1")
    try:
        return Wakanda(header["villages"], first=header["first"], players=header["players"],
                       variant=header.get("variant", "open"),
                       empty_claim=header.get("empty_claim", "when_stuck"),
                       open_hands=header.get("open_hands", False),
                       hints=header.get("hints", False), box=_box(number, header.get("box", {})))
    except SetupError as exc:
        raise RecordError(number, str(exc)) from None


def _box(number: int, box: object) -> dict[int, str]:
    """The header's ``"box"``: the seats the box plays (``"0"``, ``"1"``) → a search level."""
    if not isinstance(box, dict) or not all(seat in ("0", "1") and level in LEVELS
                                           for seat, level in box.items()):
        raise RecordError(number, f'box must map a seat "0" or "1" to a level ({", ".join(LEVELS)}), '
                                  f"got {shown_value(box)}")
    return {int(seat): level for seat, level in box.items()}


def _apply_line(game: Wakanda, number: int, obj: dict[str, Any]) -> None:
    kinds = [key for key in _EVENTS if key in obj]
    if len(kinds) != 1:
        unknown = sorted(set(obj) - {"p"})
        if not kinds and unknown:
            raise _BadLine(f"unknown key {shown(unknown[0])}")
        raise _BadLine("an event line needs exactly one of " + ", ".join(_EVENTS))
    kind = kinds[0]
    unknown = sorted(set(obj) - _EVENTS[kind])
    if unknown:
        raise _BadLine(f"unknown key {shown(unknown[0])} in a {kind} line")
    missing = sorted(_EVENTS[kind] - set(obj))
    if missing:
        raise _BadLine(f"missing key '{missing[0]}' in a {kind} line")
    if kind == "undo":
        if obj["undo"] is not True:
            raise _BadLine('an undo line is {"undo": true}')
        game.pop()
        return
    if kind == "reveal":
        if not isinstance(obj["reveal"], str):
            raise _BadLine("reveal must name a village tile")
        game.check_turn(None)
        game.push(Reveal(obj["reveal"]))
        return
    player = integer(number, obj, "p", 0, 1, "W1", "player 0 or 1")
    game.check_turn(player)
    game.push(_move(kind, number, obj))


def _move(kind: str, number: int, obj: dict[str, Any]) -> Move:
    if kind == "draw":
        if not isinstance(obj["draw"], str):
            raise _BadLine("draw must name a piece")
        return Draw(obj["draw"])
    if kind == "build":
        if not isinstance(obj["build"], str):
            raise _BadLine("build must name a piece")
        return Build(obj["build"], integer(number, obj, "village", rule="W2", what=f"a village number from 1 to {ROW}"))
    if kind == "claim":
        return Claim(integer(number, obj, "claim", rule="W2", what=f"a village number from 1 to {ROW}"))
    if obj["pass"] is not True:
        raise _BadLine('a pass line is {"p": N, "pass": true}')
    return Pass()
