"""``totem-companion demo``: bots play one whole game through the full stack (input events →
session → screens → display), printing each turn and the result. Each game's driver is its
``demo.py`` (``companion/games/<game>/``), reached through the registry. With ``--data DIR``
the demo plays in that data folder and holds it while it runs, as the box does
(``hold_data_folder``); without, in a temporary folder of its own.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
from pathlib import Path
from typing import TextIO

from companion.config import Config, load_config
from companion.errors import UsageError
from companion.files import printable
from companion.games import GAMES, game_entry
from companion.table.app_loop import Display
from companion.table.data_lock import hold_data_folder
from companion.table.demo_player import check_record_path
from companion.table.registry import TAGS_FILE, TagRegistry
from companion.table.script_demo import narrate_script
from companion.table.session import Session
from companion.table.settings import SettingsStore
from companion.table.table_game import DemoOptions
from companion.ui import text

#: The longest pause between turns (``--delay``) worth watching.
MAX_DELAY = 60


class _PrintableLines(io.TextIOBase):
    """Standard output for what the demo prints: each line with its control characters
    escaped (``printable``), since the names it prints come from the configuration and
    from the journal of a data folder, which may hold terminal escape codes."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write("\n".join(printable(line) for line in text.split("\n")))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()


def run(args: argparse.Namespace) -> int:
    """Play one demo game; prints the turns and the result, writes ``--record`` if asked."""
    stdout = sys.stdout
    with contextlib.redirect_stdout(_PrintableLines(stdout)):
        return _run(args, stdout)


def _run(args: argparse.Namespace, stdout: TextIO) -> int:
    if getattr(args, "web", None) is not None:
        # A demo plays in a scratch folder at its own pace: no table for a phone to follow.
        raise UsageError("--web: a demo serves no phone page (run or sim --web PORT does)")
    game_name = getattr(args, "game", None) or next(iter(GAMES))
    config = load_config(getattr(args, "config", None),
                         {"display": getattr(args, "display", None) or "none",
                          "data": getattr(args, "data", None), "language": getattr(args, "language", None)})
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    data = getattr(args, "data", None)
    with hold_data_folder(data) if data else contextlib.nullcontext(), text.speaking(spoken(args, config)):
        return _demo(args, config, game_name, seed, stdout)


def _demo(args: argparse.Namespace, config: Config, game_name: str, seed: int, stdout: TextIO) -> int:
    """``_run`` with the data folder (if any) held."""
    from hardware.displays import open_display  # hardware only inside the command

    # The display writes to the real standard output: a terminal display draws with
    # escape codes.
    if getattr(args, "input", None):
        return _narrate(args, config, open_display(config, stream=stdout))

    if not 0 <= args.delay <= MAX_DELAY:   # NaN too: it compares false
        raise UsageError(f"--delay: seconds between turns, from 0 to {MAX_DELAY}")
    if args.record:
        check_record_path(args.record)
    data_dir = Path(args.data) if getattr(args, "data", None) else None
    table = game_entry(game_name).table
    display = open_display(config, stream=stdout)
    try:
        box = getattr(args, "box", None)
        return table.demo(DemoOptions(seed, args.record, display, tuple(config.players), data_dir,
                                      args.delay, None if box is None else box - 1))
    finally:
        display.close()


def spoken(args: argparse.Namespace, config: Config) -> str:
    """The language a demo speaks, the box's: ``--language``, else the one chosen in
    Settings in ``--data``, else the configuration's."""
    given: str | None = getattr(args, "language", None)
    data: str | None = getattr(args, "data", None)
    if not given and data:
        # Settings' choice in that folder; a damaged file leaves the configuration's language.
        given = SettingsStore.load(data, language=config.language, games=tuple(GAMES),
                                   languages=text.languages())[0].language
    return given or config.language


def _narrate(args: argparse.Namespace, config: Config, display: Display) -> int:
    """``demo --input FILE``: the script through a session, each step printed."""
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
