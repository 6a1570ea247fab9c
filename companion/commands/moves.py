"""``totem-companion moves RECORD… [--json]``: the legal moves after each record."""

from __future__ import annotations

import json
import sys

from companion.commands.records_each import each_record


def run(args) -> int:
    """Print the legal next moves of each record, a JSON object a line with ``--json``."""
    def show(path, module, state, first):
        if args.json:
            print(json.dumps(module.moves_json(state), ensure_ascii=False))
        else:
            if not first:
                print()
            if len(args.records) > 1:
                print(f"== {path}")
            print(module.format_moves(state))
    return each_record(args.records, show, sys.stderr)
