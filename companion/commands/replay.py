"""``totem-companion replay RECORD --out DIR``: the OLED frames of a game, as PNG files.

One frame per line of the record (``0001.png`` is the board after the header, ``0002.png``
after the first event, …), each the board the box showed with a note of what that line did.
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.errors import UserError
from companion.games import game_of_record
from companion.games.wakanda import read_record
from companion.records import dump_line, parse_lines, read_text
from companion.table.wakanda_flow import describe
from companion.ui.wakanda_screens import board_screen


def frames(text: str):
    """The board after each line of a Wakanda record: ``(image, note)`` pairs, in order.

    ``RecordError`` (``line N: reason``) when the record is bad.
    """
    read_record(text)  # the whole record first: a bad line is reported before any frame
    lines, _ = parse_lines(text)
    previous = None
    for count in range(1, len(lines) + 1):
        game, _ = read_record("".join(dump_line(obj) for _, obj in lines[:count]))
        note = _note(previous, game)
        previous = game
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


def run(args) -> int:
    """Write one PNG per record line into ``--out``."""
    path = args.record
    text = read_text(path)
    try:
        if game_of_record(text) != "wakanda":
            raise UserError(f"{path}: replaying Totem Wars records comes in a later version")
        _, warnings = read_record(text)
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        written = 0
        for written, (image, _) in enumerate(frames(text), start=1):
            image.save(out / f"{written:04d}.png")
    except UserError as exc:
        message = str(exc)
        raise UserError(message if message.startswith(f"{path}:") else f"{path}: {message}") from None
    except OSError as exc:
        raise UserError(f"{args.out}: cannot write the frames ({exc.strerror})") from None
    for warning in warnings:
        print(f"{path}: warning: {warning}", file=sys.stderr)
    print(f"{written} frames written to {out}")
    return 0
