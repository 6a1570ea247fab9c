"""``totem-companion demo``: bots play one whole game through the full stack (input events →
session → screens → display), printing each turn and the result. Each game's driver is its
``demo.py`` (``companion/games/<game>/``), reached through the registry.
"""

from __future__ import annotations

import random
from pathlib import Path

from companion.config import load_config
from companion.errors import UsageError
from companion.games import GAMES, game_entry
from companion.table.demo_player import check_record_path
from companion.table.registry import TAGS_FILE, TagRegistry
from companion.table.script_demo import narrate_script
from companion.table.session import Session
from companion.table.table_game import DemoOptions


def run(args) -> int:
    """Play one demo game; prints the turns and the result, writes ``--record`` if asked."""
    game_name = getattr(args, "game", None) or next(iter(GAMES))
    config = load_config(getattr(args, "config", None),
                         {"display": getattr(args, "display", None) or "none",
                          "data": getattr(args, "data", None)})
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)

    from hardware.displays import open_display  # hardware only inside the command

    if getattr(args, "input", None):
        return _narrate(args, config, open_display(config))

    if args.record:
        check_record_path(args.record)
    data_dir = Path(args.data) if getattr(args, "data", None) else None
    table = game_entry(game_name).table
    display = open_display(config)
    try:
        return table.demo(DemoOptions(seed, args.record, display, tuple(config.players), data_dir,
                                      args.delay))
    finally:
        display.close()


def _narrate(args, config, display) -> int:
    """``demo --input FILE``: the script through a session, each step printed."""
    import sys
    import tempfile

    from hardware.script_input import ScriptInput

    items = ScriptInput(args.input).events()
    if args.record or args.seed is not None:
        raise UsageError("--seed and --record are for the bots' game, not with --input")
    with tempfile.TemporaryDirectory(prefix="totem-demo-") as scratch:
        data_dir = getattr(args, "data", None) or scratch
        session = Session(data_dir, TagRegistry.load(Path(data_dir) / TAGS_FILE),
                          players=config.players, game=getattr(args, "game", None))
        try:
            display.show(session.frame())
            narrate_script(items, session, display, sys.stdout)
        finally:
            display.close()
    return 0
