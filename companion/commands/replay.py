"""``totem-companion replay RECORD --out DIR``: the OLED frames of a game, as PNG files.

One frame per line of the record (``0001.png`` is the screen after the header, ``0002.png``
after the first event, …), each what the box showed, with a note of what that line did;
a finished game whose end has pages of its own (Totem Wars) ends with them.
"""

from __future__ import annotations

import contextlib
import sys
from argparse import Namespace
from pathlib import Path

from companion.commands.records_each import about, data_folder, read_record_file
from companion.errors import UserError
from companion.files import plain_path, shown_path
from companion.games import game_entry, game_of_record
from companion.ui.text import speaking, t


def run(args: Namespace) -> int:
    """Write one PNG per record line into ``--out``; each line of the record is played once.
    The frames and the line that counts them are in ``--language`` when given."""
    lang = getattr(args, "language", None)
    with speaking(lang) if lang else contextlib.nullcontext():
        return _run(args)


def _run(args: Namespace) -> int:
    path: str = args.record
    text = read_record_file(path)
    out = Path(plain_path(args.out))
    data_dir = data_folder(args)
    try:
        game = game_entry(game_of_record(text))
        _, warnings = game.record.read_record(text, data_dir)  # a bad record writes no frame
    except UserError as exc:
        raise UserError(about(path, exc)) from None
    try:
        out.mkdir(parents=True, exist_ok=True)
        written = 0
        for written, (image, _) in enumerate(game.table.frames(text, data_dir), start=1):
            image.save(out / f"{written:04d}.png")
    except OSError as exc:
        raise UserError(f"{shown_path(out)}: cannot write the frames ({exc.strerror})") from None
    for warning in warnings:
        print(t("record.warning", path=shown_path(path), warning=warning), file=sys.stderr)
    print(t("replay.written", n=written, folder=shown_path(out)))
    return 0
