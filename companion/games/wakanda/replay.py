"""The OLED frames of a Wakanda record, for ``replay``: the board after each line, with a
note of what the line did."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from PIL import Image

from companion.games.wakanda.flow import describe
from companion.games.wakanda.record import games_by_line, read_record
from companion.games.wakanda.screens import board_screen
from companion.games.wakanda.words import t
from companion.table.replay_frames import LineNotes


def frames(text: str, data_dir: Path | None = None) -> Iterator[tuple[Image.Image, str]]:
    """The board after each line of a record: ``(image, note)`` pairs, in order; each line
    is played once. ``data_dir`` is not needed (a Wakanda record names nothing in it).

    ``RecordError`` (``line N: reason``) when the record is bad, before any frame.
    """
    read_record(text)  # the whole record checked first: a bad one gives no frame
    notes = LineNotes(describe)
    for number, game in enumerate(games_by_line(text)):
        note = notes.after(game) if number else t("replay.set_up", names=" v ".join(game.players))
        yield board_screen(game, message=note), note
