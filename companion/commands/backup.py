"""``totem-companion backup [--to DIR]`` and ``restore ARCHIVE``: the data folder in one
archive, made while the box plays, and put back after every file of it is checked
(``companion/backup.py``)."""

from __future__ import annotations

import argparse

from companion.backup import make_backup, restore_backup
from companion.commands.records_each import data_folder
from companion.files import printable, shown_path


def run(args: argparse.Namespace) -> int:
    """Make a backup (``backup``) or put one back (``restore``); 0 when done."""
    data = data_folder(args)
    if args.command == "backup":
        made = make_backup(data, args.to)
        for what in made.skipped:
            print(f"left out: {printable(what)}")
        print(f"{shown_path(made.path)}: a backup of {made.files} files of {shown_path(data)}")
        return 0
    restored = restore_backup(args.archive, data)
    print(f"restored {restored.files} files into {shown_path(data)}"
          + (f"; what it held before is kept in {shown_path(restored.aside)}" if restored.aside else ""))
    return 0
