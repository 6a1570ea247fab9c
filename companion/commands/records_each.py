"""The loop shared by ``score`` and ``moves``: read each record, report problems per file."""

from __future__ import annotations

import json
import sys

from companion.errors import UserError
from companion.games import read_any_record
from companion.records import read_text


def each_record(paths, show, err) -> int:
    """Call ``show(path, module, state, first)`` for each good record, in order.

    A bad record prints ``FILE: line N: reason`` on ``err`` and makes the exit status 1;
    the other records are still shown.
    """
    status = 0
    first = True
    for path in paths:
        try:
            module, state, warnings = read_any_record(read_text(path))
        except UserError as exc:
            message = str(exc)
            print(message if message.startswith(f"{path}:") else f"{path}: {message}", file=err)
            status = 1
            continue
        for warning in warnings:
            print(f"{path}: warning: {warning}", file=err)
        show(path, module, state, first)
        first = False
    return status


def print_each(paths, as_json: bool, to_json, to_text) -> int:
    """Print a report of each record: ``to_json(module, state)`` as one JSON line with
    ``as_json``, else ``to_text(module, state)``, under ``== FILE`` when there are several
    and a blank line apart. The exit status of :func:`each_record`."""
    def show(path, module, state, first):
        if as_json:
            print(json.dumps(to_json(module, state), ensure_ascii=False))
            return
        if not first:
            print()
        if len(paths) > 1:
            print(f"== {path}")
        print(to_text(module, state))
    return each_record(paths, show, sys.stderr)
