"""What the club keeps of a game, after the rules engines re-checked its record.

The club trusts no box: every record is replayed by its game's engine (the registry's,
as ``totem-companion score`` reads one), so an illegal move is refused with its line and
rule (``line 7: … (W4)``), and so is a record that does not match its id or whose game is
not over. Players, points and winners come from the game's own report.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.club.outbox import game_id
from companion.errors import UserError, one_line


class Refused(Exception):
    """A record the club does not count; ``str()`` is the reason told back to the box."""


@dataclass(frozen=True)
class Result:
    """A finished game as the club keeps it: the game's name, each seat's name and points,
    and the winning seats."""

    game: str
    players: tuple[str, ...]
    points: tuple[float, ...]
    winners: tuple[int, ...]


def check(key: str, record: bytes) -> Result:
    """The result of the record ``record`` sent as the game ``key``; ``Refused`` with the
    reason when the club cannot count it."""
    if game_id(record) != key:
        raise Refused("the record does not match its id (changed after the game?)")
    try:
        text = record.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused("the record is not UTF-8 text") from None
    from companion.games import read_any_record
    try:
        game, state, _ = read_any_record(text, None)
    except UserError as exc:
        raise Refused(one_line(str(exc))) from None
    score = game.report.score_json(state)
    if not score.get("finished"):
        raise Refused("the game is not finished")
    seats = score["players"]
    names = tuple(str(seat["name"]) for seat in seats)
    if len(set(names)) != len(names):
        raise Refused("two seats have the same name: the club cannot tell them apart")
    return Result(game=str(score["game"]), players=names,
                  points=tuple(float(seat.get(game.report.points, 0)) for seat in seats),
                  winners=tuple(int(w) for w in score["winners"]))
