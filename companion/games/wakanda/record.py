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

from companion.engine import IllegalMove
from companion.errors import RecordError
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.moves import Build, Claim, Draw, Move, Pass, Reveal
from companion.games.wakanda.setup import SetupError
from companion.records import check_keys, dump_line, parse_lines

_HEADER_REQUIRED = {"game", "players", "villages", "first"}
_HEADER_OPTIONAL = {"variant", "empty_claim", "open_hands"}

#: The key naming each kind of event line → (required keys, optional keys).
_EVENTS = {
    "draw": {"p", "draw"},
    "build": {"p", "build", "village"},
    "claim": {"p", "claim"},
    "pass": {"p", "pass"},
    "reveal": {"reveal"},
    "undo": {"undo"},
}


def header_line(game: Wakanda) -> dict:
    """The header of ``game``'s record; settings at their defaults are left out."""
    header = {"game": "wakanda", "players": list(game.players),
              "villages": list(game.setup_villages), "first": game.first}
    if game.variant != "open":
        header["variant"] = game.variant
    if game.empty_claim != "when_stuck":
        header["empty_claim"] = game.empty_claim
    if game.open_hands:
        header["open_hands"] = True
    return header


def event_line(player: int | None, move: Move) -> dict:
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


def read_record(text: str) -> tuple[Wakanda, list[str]]:
    """Replay a record; returns the game and warnings (a torn last line is dropped).

    ``RecordError(line, "reason (RULE)")`` at the first bad line; nothing after it is applied.
    A refused move's reason is the English text of its ``IllegalMove``.
    """
    lines, warnings = parse_lines(text)
    number, header = lines[0]
    game = _game_from_header(number, header)
    for number, obj in lines[1:]:
        try:
            _apply_line(game, obj)
        except IllegalMove as exc:
            raise RecordError(number, str(exc)) from None
        except _BadLine as exc:
            raise RecordError(number, str(exc)) from None
    return game, warnings


class _BadLine(Exception):
    """A line that is not a well-formed event (its reason is the message)."""


def _game_from_header(number: int, header: dict) -> Wakanda:
    check_keys(number, header, _HEADER_REQUIRED, _HEADER_OPTIONAL)
    if header["game"] != "wakanda":
        raise RecordError(number, f"not a Wakanda record (game {header['game']!r})")
    try:
        return Wakanda(header["villages"], first=header["first"], players=header["players"],
                       variant=header.get("variant", "open"),
                       empty_claim=header.get("empty_claim", "when_stuck"),
                       open_hands=header.get("open_hands", False))
    except SetupError as exc:
        raise RecordError(number, str(exc)) from None


def _apply_line(game: Wakanda, obj: dict) -> None:
    kinds = [key for key in _EVENTS if key in obj]
    if len(kinds) != 1:
        unknown = sorted(set(obj) - {"p"})
        if not kinds and unknown:
            raise _BadLine(f"unknown key '{unknown[0]}'")
        raise _BadLine("an event line needs exactly one of " + ", ".join(_EVENTS))
    kind = kinds[0]
    unknown = sorted(set(obj) - _EVENTS[kind])
    if unknown:
        raise _BadLine(f"unknown key '{unknown[0]}' in a {kind} line")
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
    player = obj["p"]
    if isinstance(player, bool) or player not in (0, 1):
        raise _BadLine(f"p must be player 0 or 1, got {player!r}")
    game.check_turn(player)
    game.push(_move(kind, obj))


def _move(kind: str, obj: dict) -> Move:
    if kind == "draw":
        if not isinstance(obj["draw"], str):
            raise _BadLine("draw must name a piece")
        return Draw(obj["draw"])
    if kind == "build":
        if not isinstance(obj["build"], str):
            raise _BadLine("build must name a piece")
        return Build(obj["build"], _village(obj["village"]))
    if kind == "claim":
        return Claim(_village(obj["claim"]))
    if obj["pass"] is not True:
        raise _BadLine('a pass line is {"p": N, "pass": true}')
    return Pass()


def _village(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _BadLine(f"a village is a number from 1 to 6, got {value!r}")
    return value
