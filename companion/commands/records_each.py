"""What the commands that read records share (``score``, ``moves``, ``replay``, ``hint``,
``engine``): reading a record file, the data folder a record may name a deck of, and the
loop of ``score`` and ``moves`` that reports problems per file."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO

from companion.errors import UserError, one_line
from companion.files import shown_path
from companion.games import read_any_record
from companion.games.definition import GameDefinition
from companion.record_files import read_record_file as read_record_file  # the commands' name for it
from companion.records import json_text
from companion.ui.text import t


def data_folder(args: argparse.Namespace) -> Path:
    """The data folder of a command that reads records (a Totem Wars record's header may
    name a deck of its ``decks/``): ``--data``, else the configuration's."""
    if getattr(args, "data", None):
        return Path(args.data).expanduser()
    from companion.config import config_from_args  # only without --data: it reads the configuration
    return config_from_args(args).data_dir


def about(path: str | os.PathLike[str], exc: UserError) -> str:
    """A problem with the record file ``path`` as one line: ``FILE: line N: reason``."""
    return f"{shown_path(path)}: {exc}"


#: What ``each_record`` calls for a good record: ``(path, game, state, first)``.
Show = Callable[[str, GameDefinition[Any], Any, bool], None]


def each_record(paths: Iterable[str], show: Show, err: TextIO, data_dir: Path | None = None) -> int:
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
            print(t("record.warning", path=shown_path(path), warning=warning), file=err)
        show(path, game, state, first)
        first = False
    return status


def print_each(args: argparse.Namespace, to_json: Callable[[GameDefinition[Any], Any], Any],
               to_text: Callable[[GameDefinition[Any], Any], str]) -> int:
    """Print a report of each record of ``args.records``: ``to_json(game, state)`` (``game``:
    its ``GameDefinition``) as one JSON line with ``--json``, else ``to_text(game, state)``,
    under ``== FILE`` when there are several and a blank line apart. The exit status of :func:`each_record`."""
    paths = args.records

    def show(path: str, game: GameDefinition[Any], state: Any, first: bool) -> None:
        if args.json:
            print(json_text(to_json(game, state)))
            return
        if not first:
            print()
        if len(paths) > 1:
            print(f"== {shown_path(path)}")
        print(to_text(game, state))
    return each_record(paths, show, sys.stderr, data_folder(args))
