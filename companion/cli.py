"""The command line: ``totem-companion [COMMAND] [OPTIONS]`` (the contract is the README's
"Command line").

Every command lives in ``companion/commands/<name>.py`` with ``run(args) -> int``. Errors a
user can cause are one line on stderr and exit status 1 (bad input) or 2 (bad usage).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from companion import __version__
from companion.errors import UsageError, UserError
from companion.games import GAMES

GAME_CHOICES = tuple(GAMES)


def _common(parser: argparse.ArgumentParser, default=None) -> None:
    """Options every command accepts (the README: common options).

    Sub-commands get ``argparse.SUPPRESS`` defaults so that an option given before the
    command (``totem-companion --data D demo``) is not reset by the sub-command's default.
    """
    parser.add_argument("--config", metavar="FILE", default=default, help="configuration file (TOML)")
    parser.add_argument("--display", metavar="KIND", default=default,
                        help="ssd1306 | sh1106 | terminal | png:DIR | none")
    parser.add_argument("--reader", metavar="KIND", default=default,
                        help="rdm6300:PORT | pn532:PORT | hub:PORT | keyboard | none")
    parser.add_argument("--buttons", metavar="KIND", default=default, help="gpio | keyboard | none")
    parser.add_argument("--data", metavar="DIR", default=default,
                        help="data folder: journal, finished games, tag registry")


def _playing(parser: argparse.ArgumentParser, default=None) -> None:
    """Options of the modes that play a game."""
    parser.add_argument("--game", choices=GAME_CHOICES, default=default,
                        help="the game to play (default: asked on the device; wakanda for demo)")
    parser.add_argument("--input", metavar="FILE", default=default,
                        help="read input events from a script instead of the hardware")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``totem-companion``."""
    parser = argparse.ArgumentParser(
        prog="totem-companion",
        description="A companion box for a physical game of Wakanda or Totem Wars. "
                    "With no command it runs on the device, or in the terminal simulator "
                    "when there is no hardware.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _common(parser)
    _playing(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name, help_text):
        p = sub.add_parser(name, help=help_text, description=help_text)
        _common(p, argparse.SUPPRESS)
        return p

    _playing(add("run", "run on the device (the default command)"), argparse.SUPPRESS)
    _playing(add("sim", "terminal simulator: the OLED drawn in the terminal, keys for buttons"),
             argparse.SUPPRESS)

    p = add("demo", "bots play one whole game through the full stack and print each turn")
    _playing(p, argparse.SUPPRESS)
    p.add_argument("--seed", type=int, default=None, help="random seed (a game per seed)")
    p.add_argument("--record", metavar="FILE", help="write the game record to FILE")
    p.add_argument("--delay", type=float, default=0.0, metavar="SECONDS",
                   help="pause between turns (to watch a frame display)")

    for name, what in (("score", "final (or provisional) score of game records"),
                       ("moves", "legal moves after each game record")):
        p = add(name, what)
        p.add_argument("records", nargs="+", metavar="RECORD", help="game record (JSON Lines)")
        p.add_argument("--json", action="store_true", help="one JSON object per record, a line each")

    p = add("replay", "the OLED frames of a game as PNG files")
    p.add_argument("record", metavar="RECORD")
    p.add_argument("--out", metavar="DIR", required=True, help="folder for the PNG frames")

    p = add("listen", "print input events as the hardware delivers them")
    p.add_argument("--input", metavar="FILE", default=argparse.SUPPRESS,
                   help="print the events of an input script instead")
    p.add_argument("--count", type=int, default=None, metavar="N", help="stop after N events")
    p.add_argument("--seconds", type=float, default=None, help="stop after this long")

    add("doctor", "check the configured display, reader and buttons")

    p = add("enroll", "bind RFID tags to pieces, tiles, headdresses and cards")
    _playing(p, argparse.SUPPRESS)
    p.add_argument("--deck", metavar="FILE", help="(Totem Wars) the deck file to enroll")
    p.add_argument("--transcribe", metavar="NAME",
                   help="(Totem Wars) transcribe a physical deck card by card into DATA/decks/NAME.toml")
    return parser


#: Command → module in companion/commands.
MODULES = {"run": "app", "sim": "app", "demo": "demo", "score": "score", "moves": "moves",
           "replay": "replay", "listen": "listen", "doctor": "doctor", "enroll": "enroll"}


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``totem-companion``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    command = args.command or "run"
    args.command = command
    try:
        module = importlib.import_module(f"companion.commands.{MODULES[command]}")
        return module.run(args)
    except UsageError as exc:
        print(f"totem-companion {command}: {exc}", file=sys.stderr)
        return 2
    except UserError as exc:
        print(f"totem-companion {command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head` and the like: not an error of ours.
        sys.stderr.close()
        return 0
