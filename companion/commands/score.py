"""``totem-companion score RECORD… [--json]``: the final or provisional score of records."""

from __future__ import annotations

from companion.commands.records_each import print_each


def run(args) -> int:
    """Print the score of each record, a JSON object a line with ``--json``."""
    return print_each(args.records, args.json,
                      lambda game, state: game.score_json(state),
                      lambda game, state: game.format_score(state))
