"""``totem-companion replay RECORD --out DIR``: the OLED frames of a game, as PNG files.

One frame per line of the record (``0001.png`` is the screen after the header, ``0002.png``
after the first event, …), each what the box showed, with a note of what that line did;
a finished game whose end has pages of its own (Totem Wars) ends with them.
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.errors import UserError
from companion.games import game_entry, game_of_record
from companion.records import read_text


def run(args) -> int:
    """Write one PNG per record line into ``--out``."""
    path = args.record
    text = read_text(path)
    try:
        game = game_entry(game_of_record(text))
        _, warnings = game.engine.read_record(text)
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        written = 0
        for written, (image, _) in enumerate(game.table.frames(text), start=1):
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
