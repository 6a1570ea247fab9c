"""The command line: ``totem-companion [COMMAND] [OPTIONS]`` (the contract is the README's
"Command line").

Every command lives in ``companion/commands/<name>.py`` with ``run(args) -> int``. Errors a
user can cause are one line on stderr and exit status 1 (bad input) or 2 (bad usage): one
line whatever the message quotes (``one_line`` escapes and bounds it).

Whatever happens around the command is one line too: output that cannot be written (a full
disk, standard output closed) is ``cannot write the output: REASON`` and exit 1; output
piped into ``head`` that stops reading is silent, exit 0; Ctrl-C at any moment, even while
the program starts, is ``interrupted`` and exit 130; with standard error gone, silence. So
this module imports little at its top: the games and the commands load inside ``main``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import signal
import sys
from collections.abc import Callable, Collection, Iterator
from typing import NoReturn, TextIO

from companion import __version__, _interrupted_while_loading
from companion.errors import UsageError, UserError, one_line
from companion.files import QUOTE_CHARS
from companion.languages import LANGUAGES


def _game_choices() -> tuple[str, ...]:
    from companion.games import GAMES

    return tuple(GAMES)


def _common(parser: argparse.ArgumentParser, default: str | None = None) -> None:
    """Options every command accepts (the README: common options).

    Sub-commands get ``argparse.SUPPRESS`` defaults so that an option given before the
    command (``totem-companion --data D demo``) is not reset by the sub-command's default.
    """
    parser.add_argument("--config", metavar="FILE", default=default, help="configuration file (TOML)")
    parser.add_argument("--display", metavar="KIND", default=default,
                        help="ssd1306 | sh1106 | terminal | png:DIR | text | none")
    parser.add_argument("--reader", metavar="KIND", default=default,
                        help="rdm6300:PORT | pn532:PORT | hub:PORT | keyboard | none")
    parser.add_argument("--buttons", metavar="KIND", default=default, help="gpio | keyboard | none")
    parser.add_argument("--data", metavar="DIR", default=default,
                        help="data folder: journal, finished games, tag registry")
    parser.add_argument("--language", metavar="CODE", default=default,
                        help=f"the screens' language: {' '.join(LANGUAGES)} (on the box, Settings' choice wins)")
    parser.add_argument("--voice", metavar="MODE", default=default,
                        help="off | prompts | everything: what the box says aloud (Settings' choice wins)")


def _playing(parser: argparse.ArgumentParser, default: str | None = None) -> None:
    """Options of the modes that play a game."""
    parser.add_argument("--game", choices=_game_choices(), default=default,
                        help="the game to play (default: asked on the device; wakanda for demo and tutorial)")
    parser.add_argument("--input", metavar="FILE", default=default,
                        help="read input events from a script instead of the hardware")
    parser.add_argument("--web", metavar="PORT", default=default,
                        help="serve the live table to phones on PORT (the settings page may turn it off)")


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose error is one line (not the usage first) quoting a bad value
    short and escaped (it would repeat a 5,000-digit ``--seed`` whole); its subcommands'
    parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message, QUOTE_CHARS * 2)} "
                     f"(--help lists the options)\n")


class NotSure(Exception):
    """A ``Trial`` parser could not parse the command line alone."""


class Trial(Parser):
    """A parser of some commands only, tried first: whatever it cannot parse (an error, an
    exit) it leaves to the whole parser, which says it as always."""

    def error(self, message: str) -> NoReturn:
        raise NotSure(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise NotSure(message or "")


#: Options that print rather than parse (and their abbreviations): the whole parser's.
PRINTING = ("--help", "--version")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line parsed: first by a parser of only the command it names (its first
    word that is a command), then, when that one is not sure, by the whole parser."""
    words = sys.argv[1:] if argv is None else argv
    if not any(word.startswith("-h") or (len(word) > 2 and option.startswith(word))
               for word in words for option in PRINTING):
        try:
            return build_parser([word for word in words if word in MODULES][:1]).parse_args(words)
        except NotSure:
            pass
    return build_parser().parse_args(words)


def build_parser(commands: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser of ``totem-companion``; with ``commands``, one that knows only
    those commands (a ``Trial``: ``main`` tries it first, as building every command's
    options takes a sixth of the time to the starting frame)."""
    parser = (Parser if commands is None else Trial)(
        prog="totem-companion",
        description="A companion box for a physical game of Wakanda or Totem Wars. "
                    "With no command it runs on the device, or in the terminal simulator "
                    "when there is no hardware.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _common(parser)
    _playing(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def wanted(name: str) -> bool:
        return commands is None or name in commands

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        _common(p, argparse.SUPPRESS)
        return p

    if wanted("run"):
        _playing(add("run", "run on the device (the default command)"), argparse.SUPPRESS)
    if wanted("sim"):
        _playing(add("sim", "terminal simulator: the OLED drawn in the terminal, keys for buttons"),
                 argparse.SUPPRESS)

    if wanted("demo"):
        p = add("demo", "bots play one whole game through the full stack and print each turn")
        _playing(p, argparse.SUPPRESS)
        p.add_argument("--seed", type=int, default=None, help="random seed (a game per seed)")
        p.add_argument("--record", metavar="FILE", help="write the game record to FILE")
        p.add_argument("--delay", type=float, default=0.0, metavar="SECONDS",
                       help="pause between turns (to watch a frame display)")
        p.add_argument("--box", type=int, default=None, metavar="SEAT",
                       help="(Totem Wars) the box plays seat SEAT (1 to 4), the bots the others")

    if wanted("tutorial"):
        p = add("tutorial", "the learn-by-doing lessons: one real action a step, on the device")
        _playing(p, argparse.SUPPRESS)
        p.add_argument("--demo", action="store_true",
                       help="the box plays the learner's part and prints the lesson, a line a step")
        p.add_argument("--seed", type=int, default=None, help="(--demo) random seed (a lesson per seed)")

    for name, what in (("score", "final (or provisional) score of game records"),
                       ("moves", "legal moves after each game record")):
        if not wanted(name):
            continue
        p = add(name, what)
        p.add_argument("records", nargs="+", metavar="RECORD", help="game record (JSON Lines)")
        p.add_argument("--json", action="store_true", help="one JSON object per record, a line each")
        if name == "score":
            p.add_argument("--review", action="store_true",
                           help="(Wakanda) also where each player lost the most points")

    if wanted("replay"):
        p = add("replay", "the OLED frames of a game as PNG files")
        p.add_argument("record", metavar="RECORD")
        p.add_argument("--out", metavar="DIR", required=True, help="folder for the PNG frames")

    if wanted("listen"):
        p = add("listen", "print input events as the hardware delivers them")
        p.add_argument("--input", metavar="FILE", default=argparse.SUPPRESS,
                       help="print the events of an input script instead")
        p.add_argument("--count", type=int, default=None, metavar="N", help="stop after N events")
        p.add_argument("--seconds", type=float, default=None, help="stop after this long")

    if wanted("doctor"):
        add("doctor", "check the configured display, reader and buttons")

    if wanted("backup"):
        p = add("backup", "one archive of the data folder (games, lessons, settings, tags, decks), "
                          "even while the box plays")
        p.add_argument("--to", metavar="DIR", default=".", help="folder to write it in (default: here)")
    if wanted("restore"):
        p = add("restore", "put a backup back into the data folder (the box stopped), after checking all of it")
        p.add_argument("archive", metavar="ARCHIVE", help="a backup made by totem-companion backup")

    if wanted("enroll"):
        p = add("enroll", "bind RFID tags to pieces, tiles, headdresses and cards")
        _playing(p, argparse.SUPPRESS)
        p.add_argument("--deck", metavar="FILE", help="(Totem Wars) the deck file to enroll")
        p.add_argument("--transcribe", metavar="NAME",
                       help="(Totem Wars) transcribe a physical deck card by card into DATA/decks/NAME.toml")

    if wanted("hint"):
        p = add("hint", "the suggested next move after a game record, and why")
        p.add_argument("record", metavar="RECORD", help="game record (JSON Lines)")
        p.add_argument("--seat", type=int, default=None, metavar="N",
                       help="the seat to advise (default: the player to move)")
        p.add_argument("--level", metavar="L", default=None, help="search level (default: the game's default)")
        p.add_argument("--seed", type=int, default=0, help="random seed (the same seed, the same answer)")
        p.add_argument("--hand", metavar="CARDS", default=None,
                       help="(Totem Wars) the seat's cards, comma-separated: the box never sees hands")
        p.add_argument("--json", action="store_true",
                       help='{"move", "reason", "value", "alternatives"} as one JSON object')

    if wanted("engine"):
        p = add("engine", "the engine protocol: JSON requests on stdin, one JSON answer a line")
        p.add_argument("--level", metavar="L", default=None,
                       help="level of requests that name none (default: the game's default)")

    if wanted("match"):
        p = add("match", "two search levels play each other; the score with its 95%% interval")
        p.add_argument("--game", choices=_game_choices(), default="wakanda", help="the game (default: wakanda)")
        p.add_argument("--a", metavar="LEVEL", required=True, help="the level scored (A)")
        p.add_argument("--b", metavar="LEVEL", required=True, help="its opponent (B)")
        p.add_argument("--games", type=int, default=100, metavar="N", help="games to play (default: 100)")
        p.add_argument("--seed", type=int, default=0, help="random seed of tiles, draws and decisions")
        p.add_argument("--jobs", type=int, default=1, metavar="J", help="games played in parallel (default: 1)")
        p.add_argument("--players", type=int, default=2, metavar="N",
                       help="players a game: A in one seat, B in every other (totem-wars: 2 to 4; default: 2)")
        p.add_argument("--variant", metavar="V",
                       help="a variant of the rules (wakanda: hidden, W10; default: open)")
        p.add_argument("--json", action="store_true", help="the result as one JSON object")

    if wanted("club"):
        _club(add("club", "the club: share finished games with a club server, or run one"))
    return parser


def _club(parser: argparse.ArgumentParser) -> None:
    """``club sync``, ``club serve`` and ``club add-box`` (companion/commands/club.py)."""
    sub = parser.add_subparsers(dest="club_command", metavar="ACTION", required=True)
    p = sub.add_parser("sync", help="send the finished games waiting for the club, and say what it answered")
    _common(p, argparse.SUPPRESS)
    p.add_argument("--broker", metavar="HOST:PORT", help="the club's broker (default: [club] broker)")
    p.add_argument("--box", metavar="NAME", help="this box's name in the club (default: [club] box)")
    p.add_argument("--wait", type=float, default=10.0, metavar="SECONDS",
                   help="how long to wait for the club's answers (default: 10)")
    p = sub.add_parser("serve", help="run the club server: games in from the broker, the club's web pages")
    _common(p, argparse.SUPPRESS)
    p.add_argument("--broker", metavar="HOST:PORT", required=True, help="the broker the boxes publish to")
    p.add_argument("--db", metavar="PATH|URL", default=None,
                   help="an SQLite file (default: DATA/club.sqlite) or a postgresql:// URL")
    p.add_argument("--web", metavar="PORT", type=int, default=8080, help="the web pages' port (default: 8080)")
    p.add_argument("--bind", metavar="ADDRESS", default="0.0.0.0", help="the web pages' address (default: 0.0.0.0)")
    p.add_argument("--password-file", metavar="FILE", default=None,
                   help="a file holding the club's broker password (default: $TOTEM_CLUB_PASSWORD)")
    p = sub.add_parser("add-box", help="print a new box's password-file line and its [club] section")
    p.add_argument("name", metavar="NAME", help="the box's name (letters, digits, - and _)")
    p.add_argument("--broker", metavar="HOST:PORT", default="club.local:1883",
                   help="the broker's address as the box reaches it (default: club.local:1883)")
    sub.add_parser("acl", help="print the broker's ACL file (each box only its own topics)")
    sub.add_parser("server-login", help="print the club server's password-file line and its password")


#: Command → module in companion/commands.
MODULES = {"run": "app", "sim": "app", "demo": "demo", "score": "score", "moves": "moves",
           "replay": "replay", "listen": "listen", "doctor": "doctor", "enroll": "enroll",
           "hint": "hint", "engine": "engine", "match": "match", "tutorial": "tutorial",
           "backup": "backup", "restore": "backup", "club": "club"}


class OutputFailed(BaseException):
    """Standard output could not be written (``reason`` says why). A BaseException: no
    ``except Exception`` on the way (a display's, a watcher's) may take it for its own
    fault and go on writing into nothing."""

    def __init__(self, reason: str, broken_pipe: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.broken_pipe = broken_pipe


class _Output(io.TextIOBase):
    """Standard output as the commands see it: each write or flush that fails raises
    ``OutputFailed``; ``None`` (closed with ``>&-``) fails at the first write only, so a
    command that prints nothing runs as it would."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def _failed(self, exc: OSError) -> OutputFailed:
        return OutputFailed(exc.strerror or str(exc), isinstance(exc, BrokenPipeError))

    def write(self, text: str) -> int:
        """Write ``text``; ``OutputFailed`` when it cannot be."""
        if self._stream is None:
            raise OutputFailed("standard output is closed")
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise self._failed(exc) from None
        except ValueError:  # a closed file
            raise OutputFailed("standard output is closed") from None

    def flush(self) -> None:
        """Flush what was written; ``OutputFailed`` when it cannot be."""
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except OSError as exc:
            raise self._failed(exc) from None
        except ValueError:
            raise OutputFailed("standard output is closed") from None

    def isatty(self) -> bool:
        """Whether the output is a terminal."""
        return self._stream is not None and self._stream.isatty()

    def fileno(self) -> int:
        """The descriptor of the output; ``OSError`` when it has none."""
        if self._stream is None:
            raise io.UnsupportedOperation("standard output is closed")
        return self._stream.fileno()

    @property
    def encoding(self) -> str:
        """The encoding of the output (UTF-8 when it is closed)."""
        return getattr(self._stream, "encoding", None) or "utf-8"

    @encoding.setter
    def encoding(self, value: str) -> None:
        # Read-only, as io.TextIOBase's own is at run time (its type stubs call it writable).
        raise AttributeError("the output's encoding is its stream's")


def _say(line: str) -> None:
    """``line`` on standard error; silence when that is gone or fails."""
    err = sys.stderr
    if err is None:
        return
    with contextlib.suppress(OSError, ValueError):
        err.write(line + "\n")
        err.flush()


@contextlib.contextmanager
def _guarded_output() -> Iterator[None]:
    """Standard output through ``_Output`` while the command runs, and standard error a
    sink when it is gone (``print(file=None)`` would write on standard output)."""
    saved = sys.stdout, sys.stderr
    sys.stdout = _Output(saved[0])
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the process's, for its life
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved[0], saved[1] if saved[1] is not None else sys.stderr


def _drop_output() -> None:
    """After a failed write, what is still buffered for standard output goes nowhere: the
    interpreter's own flush at exit would fail again, with a traceback of its own."""
    stream = sys.stdout
    with contextlib.suppress(OSError, ValueError, AttributeError):
        if stream is not None and stream.fileno() == 1:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.close(null)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``totem-companion``; returns the exit status."""
    command = "?"
    try:
        if signal.getsignal(signal.SIGINT) is _interrupted_while_loading:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        with _guarded_output():
            try:
                args = parse(argv)
                command = args.command = args.command or "run"
                status = _run(command, args)
                sys.stdout.flush()
                return status
            except OutputFailed as exc:
                if exc.broken_pipe:
                    # Output piped into `head` and the like: not an error of ours.
                    _drop_output()
                    return 0
                _say(f"totem-companion{_of(command)}: cannot write the output: {exc.reason}")
                _drop_output()
                return 1
    except KeyboardInterrupt:
        # A second Ctrl-C while this line is said must not end in a traceback.
        with contextlib.suppress(ValueError):  # not the main thread: no signals to set
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        _say(f"totem-companion{_of(command)}: interrupted")
        return 130


def _of(command: str) -> str:
    return "" if command == "?" else f" {command}"


def _run(command: str, args: argparse.Namespace) -> int:
    """Run ``command``; its exit status, with a user's error as one line."""
    try:
        module = importlib.import_module(f"companion.commands.{MODULES[command]}")
        run: Callable[[argparse.Namespace], int] = module.run  # every command's contract
        return run(args)
    except UsageError as exc:
        _say(f"totem-companion {command}: {one_line(str(exc))}")
        return 2
    except UserError as exc:
        _say(f"totem-companion {command}: {one_line(str(exc))}")
        return 1
    except BrokenPipeError as exc:
        # A write that went round ``_Output`` (a file object taken before it).
        raise OutputFailed(exc.strerror or "broken pipe", True) from None
