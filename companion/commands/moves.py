"""``totem-companion moves RECORD… [--json]``: the legal moves after each record."""

from __future__ import annotations

import argparse
import contextlib

from companion.commands.records_each import print_each
from companion.ui.text import speaking


def run(args: argparse.Namespace) -> int:
    """Print the legal next moves of each record, a JSON object a line with ``--json``; the
    words (and the records' warnings) in ``--language`` when given, the JSON in the
    records' machine English."""
    lang: str | None = getattr(args, "language", None)
    with speaking(lang) if lang else contextlib.nullcontext():
        return print_each(args,
                          lambda game, state: game.report.moves_json(state),
                          lambda game, state: game.report.format_moves(state))
