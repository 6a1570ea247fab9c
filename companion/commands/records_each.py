"""What the commands that read records share (``score``, ``moves``, ``replay``, ``hint``,
``engine``): reading a record file, the data folder a record may name a deck of, and the
loop of ``score`` and ``moves`` that reports problems per file."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from companion.errors import UserError, one_line
from companion.files import RECORD_BYTES, read_text, shown_path
from companion.games import read_any_record
from companion.records import json_text


def read_record_file(path: str | os.PathLike) -> str:
    """The text of a record file: a regular file of at most 16 MB, UTF-8; else one
    ``UserError`` line naming it."""
    return read_text(path, "a record", RECORD_BYTES)


def data_folder(args) -> Path:
    """The data folder of a command that reads records (a Totem Wars record's header may
    name a deck of its ``decks/``): ``--data``, else the configuration's."""
    if getattr(args, "data", None):
        return Path(args.data).expanduser()
    from companion.config import config_from_args  # only without --data: it reads the configuration
    return config_from_args(args).data_dir


def about(path: str | os.PathLike, exc: UserError) -> str:
    """A problem with the record file ``path`` as one line: ``FILE: line N: reason``."""
    return f"{shown_path(path)}: {exc}"


def each_record(paths, show, err, data_dir=None) -> int:
    """Call ``show(path, game, state, first)`` for each good record, in order.

    A bad record prints ``FILE: line N: reason`` on ``err`` and makes the exit status 1;
    the other records are still shown.
    """
    status = 0
    first = True
    for path in paths:
        try:
            text = read_record_file(path)  # its errors name the file already
            try:
                game, state, warnings = read_any_record(text, data_dir)
            except UserError as exc:
                raise UserError(about(path, exc)) from None
        except UserError as exc:
            print(one_line(str(exc)), file=err)
            status = 1
            continue
        for warning in warnings:
            print(f"{shown_path(path)}: warning: {warning}", file=err)
        show(path, game, state, first)
        first = False
    return status


def print_each(args, to_json, to_text) -> int:
    """Print a report of each record of ``args.records``: ``to_json(game, state)`` (``game``:
    its ``GameDefinition``) as one JSON line with ``--json``, else ``to_text(game, state)``,
    under ``== FILE`` when there are several and a blank line apart. The exit status of :func:`each_record`."""
    paths = args.records

    def show(path, game, state, first):
        if args.json:
            print(json_text(to_json(game, state)))
            return
        if not first:
            print()
        if len(paths) > 1:
            print(f"== {shown_path(path)}")
        print(to_text(game, state))
    return each_record(paths, show, sys.stderr, data_folder(args))
