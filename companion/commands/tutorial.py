"""``totem-companion tutorial [--game G] [--demo [--seed N]]``: the learn-by-doing lessons.

Without ``--demo`` it is the box (as ``run``: the configured hardware, or the simulator, or
``--input``/``--display``/``--data``) with the lesson of ``--game`` on screen from the
start, resumed where it was left. With ``--demo`` the box plays the learner's part itself
and prints one line a step and ``lesson complete: N steps``, in the box's language. With ``--demo --data DIR``
the demo holds that data folder while it runs, as the box does (``hold_data_folder``).
"""

from __future__ import annotations

import argparse
import random
from contextlib import nullcontext

from companion.commands.demo import spoken
from companion.config import Config, load_config
from companion.errors import UsageError, UserError
from companion.games import GAMES
from companion.table.data_lock import hold_data_folder
from companion.table.tutorial_demo import run_lesson_demo
from companion.table.tutorial_store import TutorialStore
from companion.ui.text import speaking

#: The names the set-up offers the demo's learners when none are configured.
DEMO_NAMES = ("Ana", "Ben", "Cleo", "Dan")


def run(args: argparse.Namespace) -> int:
    """Run the lesson of ``--game`` (the first game of the registry by default)."""
    game: str = getattr(args, "game", None) or next(iter(GAMES))
    if not args.demo:
        if args.seed is not None:
            raise UsageError("--seed is for --demo")
        from companion.commands import app
        args.lesson = game
        return app.run(args)
    if getattr(args, "input", None):
        raise UsageError("--input is for the lesson played by people, not with --demo")
    config = load_config(getattr(args, "config", None),
                         {"display": getattr(args, "display", None) or "none",
                          "data": getattr(args, "data", None), "language": getattr(args, "language", None)})
    data_dir: str | None = getattr(args, "data", None)
    with hold_data_folder(data_dir) if data_dir is not None else nullcontext():
        return _demo(args, config, game, data_dir)


def _demo(args: argparse.Namespace, config: Config, game: str, data_dir: str | None) -> int:
    """``tutorial --demo``, its data folder (if any) held."""
    if data_dir is not None and TutorialStore(data_dir).load(game) is not None:
        raise UserError(f"{data_dir}: a lesson of {GAMES[game].shown_title()} is under way there; "
                        "finish it, or give the demo another data folder")
    seed: int = args.seed if args.seed is not None else random.randrange(1_000_000)
    players = tuple(config.players) if len(config.players) >= 2 else DEMO_NAMES

    from hardware.displays import open_display  # hardware only inside the command

    display = open_display(config)
    try:
        with speaking(spoken(args, config)):  # the screens and the printed steps
            run_lesson_demo(game, seed, display, data_dir=data_dir, players=players,
                            out=lambda line: print(line, flush=True))
    finally:
        display.close()
    return 0
