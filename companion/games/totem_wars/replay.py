"""The OLED frames of a Totem Wars record, for ``replay``.

The screen after an action follows from the game alone (the deal reminder after the totems,
the first result page after a round, else the board: ``views.after_action``), so replaying
a record line by line gives the frames the box showed.
"""

from __future__ import annotations

from collections.abc import Iterator

from PIL import Image

from companion.games.totem_wars.flow import describe
from companion.games.totem_wars.moves import ChooseTotems
from companion.games.totem_wars.record import read_record
from companion.games.totem_wars.views import frame_after
from companion.records import games_line_by_line
from companion.table.replay_frames import line_note
from companion.ui.text import t


def frames(text: str) -> Iterator[tuple[Image.Image, str]]:
    """``(image, note)`` after each line of a record, in order.

    ``RecordError`` (``line N: reason``) when the record is bad, before any frame.
    """
    for before, game in games_line_by_line(text, read_record):
        if before is None:
            note = t("replay.dealt", names=", ".join(game.players), dealer=game.players[game.dealer])
        elif len(game.history) > len(before.history) and isinstance(game.history[-1][1], ChooseTotems):
            note = t("replay.totems_down")
        else:
            note = line_note(before, game, describe)
        yield frame_after(game, note), note
