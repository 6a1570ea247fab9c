"""The OLED frames of a record, for ``replay``: what the box showed after each line, with a
note of what the line did.

Wakanda frames are the board after each line. A Totem Wars screen after an action follows
from the game alone (the deal reminder after the totems, the first result page after a
round, else the board), so replaying its record line by line gives the frames the box showed.
"""

from __future__ import annotations

from companion.games import totem_wars, wakanda
from companion.records import games_line_by_line
from companion.table import totem_wars_flow, wakanda_flow
from companion.table.tag_tracker import TagTracker
from companion.table.totem_wars_flow import TotemWarsFlow
from companion.ui.text import t
from companion.ui.wakanda_screens import board_screen


def wakanda_frames(text: str):
    """The board after each line of a Wakanda record: ``(image, note)`` pairs, in order.

    ``RecordError`` (``line N: reason``) when the record is bad, before any frame.
    """
    for before, game in games_line_by_line(text, wakanda.read_record):
        if before is None:
            note = t("replay.set_up", names=" v ".join(game.players))
        else:
            note = _note(before, game, wakanda_flow.describe)
        yield board_screen(game, message=note), note


def totem_wars_frames(text: str):
    """``(image, note)`` after each line of a Totem Wars record, in order.

    ``RecordError`` (``line N: reason``) when the record is bad, before any frame.
    """
    for before, game in games_line_by_line(text, totem_wars.read_record):
        if before is None:
            note = t("replay.dealt", names=", ".join(game.players),
                     dealer=game.players[game.dealer])
        elif len(game.history) > len(before.history) \
                and isinstance(game.history[-1][1], totem_wars.ChooseTotems):
            note = t("replay.totems_down")
        else:
            note = _note(before, game, totem_wars_flow.describe)
        flow = TotemWarsFlow(game, journal=None, tracker=TagTracker())
        flow.note = note if flow.showing is None else None
        yield flow.frame(), note


#: Record name → the frames of its game.
FRAMES = {"wakanda": wakanda_frames, "totem-wars": totem_wars_frames}


def _note(before, after, describe) -> str:
    """What one event line did: ``describe`` its move, or what an undo took back."""
    if len(after.history) < len(before.history):
        player, move = before.history[-1]
        return t("undo.done", what=describe(before, player, move))
    player, move = after.history[-1]
    return describe(after, player, move)
