"""The OLED frames of a Wakanda record, for ``replay``: the board after each line, with a
note of what the line did."""

from __future__ import annotations

from collections.abc import Iterator

from PIL import Image

from companion.games.wakanda.flow import describe
from companion.games.wakanda.record import read_record
from companion.games.wakanda.screens import board_screen
from companion.records import games_line_by_line
from companion.table.replay_frames import line_note
from companion.ui.text import t


def frames(text: str) -> Iterator[tuple[Image.Image, str]]:
    """The board after each line of a record: ``(image, note)`` pairs, in order.

    ``RecordError`` (``line N: reason``) when the record is bad, before any frame.
    """
    for before, game in games_line_by_line(text, read_record):
        if before is None:
            note = t("replay.set_up", names=" v ".join(game.players))
        else:
            note = line_note(before, game, describe)
        yield board_screen(game, message=note), note
