"""``totem-companion moves RECORD… [--json]``: the legal moves after each record."""

from __future__ import annotations

import argparse

from companion.commands.records_each import print_each


def run(args: argparse.Namespace) -> int:
    """Print the legal next moves of each record, a JSON object a line with ``--json``."""
    return print_each(args,
                      lambda game, state: game.report.moves_json(state),
                      lambda game, state: game.report.format_moves(state))
