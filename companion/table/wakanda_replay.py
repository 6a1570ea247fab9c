"""The OLED frames of a Wakanda record, for ``replay``: the board after each line, with a
note of what the line did."""

from __future__ import annotations

from companion.games.wakanda import read_record
from companion.records import games_line_by_line
from companion.table.wakanda_flow import describe
from companion.ui.wakanda_screens import board_screen


def frames(text: str):
    """The board after each line of a Wakanda record: ``(image, note)`` pairs, in order.

    ``RecordError`` (``line N: reason``) when the record is bad.
    """
    for before, game in games_line_by_line(text, read_record):
        note = _note(before, game)
        yield board_screen(game, message=note), note


def _note(before, after) -> str:
    """What one record line did, for the frame's message band."""
    if before is None:
        return f"{after.players[0]} v {after.players[1]}: set up"
    if len(after.history) < len(before.history):
        player, move = before.history[-1]
        return f"Taken back: {describe(before, player, move)}"
    player, move = after.history[-1]
    return describe(after, player, move)
