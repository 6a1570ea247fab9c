"""The OLED frames of a Totem Wars record, for ``replay``: what the box showed after each line.

The screen after an action follows from the game alone (the deal reminder after the
totems, the first result page after a round, else the board), so replaying the record
line by line gives the frames the box showed, each with a note of what the line did.
"""

from __future__ import annotations

from companion.games.totem_wars import ChooseTotems, read_record
from companion.records import games_line_by_line
from companion.table.tag_tracker import TagTracker
from companion.table.totem_wars_flow import TotemWarsFlow, describe


def frames(text: str):
    """``(image, note)`` after each line of a Totem Wars record, in order.

    ``RecordError`` (``line N: reason``) when the record is bad, before any frame.
    """
    for before, game in games_line_by_line(text, read_record):
        note = _note(before, game)
        flow = TotemWarsFlow(game, journal=None, tracker=TagTracker())
        flow.note = note if flow.showing is None else None
        yield flow.frame(), note


def _note(before, after) -> str:
    """What one record line did."""
    if before is None:
        return f"{', '.join(after.players)}: set up, {after.players[after.dealer]} deals"
    if len(after.history) < len(before.history):
        player, move = before.history[-1]
        return f"Taken back: {describe(before, player, move)}"
    player, move = after.history[-1]
    return "All totems are down" if isinstance(move, ChooseTotems) else describe(after, player, move)
