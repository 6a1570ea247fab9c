"""The reliability harness: hostile input through the command line, in this process.

``run_cli(argv)`` runs ``companion.cli.main`` under a deadline and says what came of it:

* ``ok``: exit 0;
* ``clear``: exit 1 or 2 with one short error line (warnings of one line each may come
  before it), as the command line promises;
* ``traceback``: an exception escaped (``detail`` holds it);
* ``hang``: the deadline passed (a blocked read, a loop without end);
* ``messy``: an error that is not one short line, or an exit status other than 0, 1, 2;
* ``raw``: control characters (terminal escape codes) reached the output.

The fuzzers make one case of a kind from a seeded ``random.Random``: the files of the case
in a folder of its own and the command line to run, so a failure is reproduced by running
that command line on those files (``Case.reproduce``). ``KINDS`` lists them; the fast
suite (tests/test_reliability.py) runs a few of each, the soak (``./setup.sh soak``)
thousands, and docs/reliability.md keeps the figures.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shlex
import shutil
import signal
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from companion.cli import main

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
#: The longest a command may take on any input before it counts as hung.
DEADLINE = float(os.environ.get("TOTEM_FUZZ_DEADLINE", "10"))
#: Longer than any line of an error: a "one line" longer than this repeats the input.
LINE_CHARS = 1000
#: Control characters that must never reach a terminal unescaped (tab and newline may).
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")

OUTCOMES = ("ok", "clear", "traceback", "hang", "messy", "raw")


class Hang(BaseException):
    """The deadline passed (a BaseException: ``except Exception`` in the code cannot eat it)."""


def _alarm(signum, frame):
    raise Hang()


@dataclass
class Outcome:
    """What one run of the command line came to (see the module's docstring)."""

    kind: str
    status: int | None
    out: str
    err: str
    detail: str = ""


def run_cli(argv: list[str], *, seconds: float = DEADLINE, stdin: bytes = b"",
            out: io.StringIO | None = None, stdout_closed: bool = False) -> Outcome:
    """Run ``totem-companion ARGV`` in this process with ``stdin``, its output captured (in
    ``out`` when given: another thread may watch it; none at all, as with ``>&-``, when
    ``stdout_closed``) and a deadline of ``seconds``; the outcome."""
    out, err = out if out is not None else io.StringIO(), io.StringIO()
    watched = (signal.SIGTERM, signal.SIGINT, signal.SIGALRM)
    saved = {sig: signal.getsignal(sig) for sig in watched}   # ``run`` takes SIGTERM
    saved_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    status: int | None = None
    detail = ""
    try:
        try:
            with contextlib.redirect_stdout(None if stdout_closed else out), contextlib.redirect_stderr(err):
                status = main(list(argv))
        except SystemExit as exc:             # argparse: usage errors and --help
            status = exc.code if isinstance(exc.code, int) else 1
    except Hang:
        detail = f"no end within {seconds:g} s"
    except BaseException:  # noqa: BLE001 - the point: anything that escapes is a defect
        detail = traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        sys.stdin = saved_stdin
    if detail:
        return Outcome("hang" if detail.startswith("no end") else "traceback", None,
                       out.getvalue(), err.getvalue(), detail)
    return Outcome(classify(status, out.getvalue(), err.getvalue()), status, out.getvalue(),
                   err.getvalue())


def classify(status: int | None, out: str, err: str) -> str:
    """``ok``, ``clear``, ``messy`` or ``raw`` for a run that ended with ``status``."""
    if RAW.search(out) or RAW.search(err):
        return "raw"
    lines = err.splitlines()
    if any(len(line) > LINE_CHARS for line in lines):
        return "messy"
    if status == 0:
        return "ok"
    if status not in (1, 2) or not lines:
        return "messy"
    # The error is the last line; before it only notes of one line each.
    notes = lines[:-1]
    return "clear" if all(": warning: " in line or line.startswith("totem-companion:")
                          for line in notes) else "messy"


# --- cases -------------------------------------------------------------------------------

@dataclass
class Case:
    """One input of a kind: its folder (the files it uses), its command line and, for a
    journal, the record lines a run must never lose."""

    kind: str
    folder: Path
    argv: list[str]
    stdin: bytes = b""
    keep: bytes = b""
    notes: list[str] = field(default_factory=list)
    #: Exit 1 with the findings on standard output is the answer (``doctor``: problems found).
    answers_on_stdout: bool = False

    def reproduce(self) -> str:
        """The shell command that reproduces the case (its files are in ``folder``); a long
        command line is kept in the folder's ``argv.json``."""
        python = f"{ROOT}/.venv/bin/python"
        line = " ".join(shlex.quote(arg) for arg in self.argv)
        if len(line) > 200 or not line.isprintable():
            (self.folder / "argv.json").write_text(json.dumps(self.argv))
            line = ("-c 'import json, sys; from companion.cli import main; "
                    "sys.exit(main(json.load(open(\"argv.json\"))))'")
        else:
            line = "-m companion " + line
        return f"cd {shlex.quote(str(self.folder))} && {python} {line}" + (" < stdin.txt" if self.stdin else "")


def lost(case: Case) -> str | None:
    """For a journal case: what is lost — None when the record lines ``case.keep`` still
    begin the journal or a file kept under ``games/`` (the game as it was, set aside or
    going on)."""
    if not case.keep:
        return None
    data = case.folder / "data"
    candidates = [data / "current.jsonl", *sorted((data / "games").glob("*"))] if data.is_dir() else []
    for path in candidates:
        try:
            if not path.is_symlink() and path.is_file():
                with open(path, "rb") as file:
                    if file.read(len(case.keep)) == case.keep:
                        return None
        except OSError:
            continue
    count = case.keep.count(b"\n")
    return f"the first {count} lines of the journal are nowhere in {data}"


@contextlib.contextmanager
def inside(folder: Path):
    """Work in ``folder``, with the configuration and data folders of the user in it too
    (a command without ``--config``/``--data`` uses theirs)."""
    saved = os.getcwd(), {name: os.environ.get(name) for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME")}
    os.environ["XDG_CONFIG_HOME"] = str(folder / "user-config")
    os.environ["XDG_DATA_HOME"] = str(folder / "user-data")
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(saved[0])
        for name, value in saved[1].items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def check(case: Case, seconds: float = DEADLINE) -> Outcome:
    """Run ``case`` in its folder; a journal's lines lost turn the outcome into ``lost``."""
    if case.stdin:
        (case.folder / "stdin.txt").write_bytes(case.stdin)
    with inside(case.folder):
        outcome = run_cli(case.argv, seconds=seconds, stdin=case.stdin)
    if case.answers_on_stdout and outcome.kind == "messy" and outcome.status == 1 and not outcome.err:
        outcome.kind = "clear"
    gone = lost(case)
    if gone is not None and outcome.kind in ("ok", "clear"):
        outcome.kind, outcome.detail = "lost", gone
    return outcome


def report(case: Case, outcome: Outcome) -> str:
    """A failure, for a test's message: the kind, what happened and how to reproduce it."""
    err = outcome.err if len(outcome.err) < 600 else outcome.err[:600] + "…"
    detail = outcome.detail.strip().splitlines()[-1] if outcome.detail.strip() else ""
    notes = " ".join(case.notes)
    notes = notes if len(notes) < 100 else notes[:100] + "…"
    return (f"[{case.kind}] {outcome.kind} (exit {outcome.status}) {notes}\n"
            f"  reproduce: {case.reproduce()}\n  stderr: {err!r}\n  {detail}")


# --- corpora: valid inputs the fuzzers start from ----------------------------------------

@cache
def wakanda_records() -> tuple[str, ...]:
    """Records of whole and half Wakanda games (bots, both variants, the worked example)."""
    from companion.games.wakanda import write_record
    from companion.games.wakanda.bots import greedy_bot, play_game, random_bot
    texts = [(DATA / "wakanda_worked_example.jsonl").read_text(encoding="utf-8")]
    for seed in range(4):
        game = play_game(seed, bots=(greedy_bot, random_bot), variant=("open", "hidden")[seed % 2],
                         players=("Ana", "Ben"))
        text = write_record(game)
        texts.append(text)
        lines = text.splitlines(keepends=True)
        texts.append("".join(lines[: len(lines) // 2]))
    return tuple(texts)


@cache
def totem_wars_records() -> tuple[str, ...]:
    """Records of Totem Wars games: the project's examples and bots' games of 2-4 players."""
    from companion.games.totem_wars.simulation import play_game
    texts = [path.read_text(encoding="utf-8") for path in sorted(DATA.glob("totem_wars_*.jsonl"))]
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        _, text = play_game(seed, n_players=players)
        texts.append(text)
        lines = text.splitlines(keepends=True)
        texts.append("".join(lines[: len(lines) // 2]))
    return tuple(texts)


def records() -> tuple[str, ...]:
    """Records of both games."""
    return wakanda_records() + totem_wars_records()


@cache
def scripts() -> tuple[tuple[str, dict[str, str]], ...]:
    """Input scripts of whole games, each with the tags its UIDs stand for: the project's
    first games, and demo games of both games recorded event by event."""
    found = [((DATA / name).read_text(encoding="utf-8"), {})
             for name in ("first_game_wakanda.txt", "first_game_totem_wars.txt")]
    for game, seed in (("wakanda", 5), ("totem-wars", 6)):
        found.append(demo_script(game, seed))
    return tuple(found)


def demo_script(game: str, seed: int) -> tuple[str, dict[str, str]]:
    """The events a demo game of ``game`` sends to the box, as an input script, and the
    tags it was played with (``UID -> item``)."""
    from companion.events import format_event
    from companion.table.session import Session

    sent: list[str] = []
    handle = Session.handle

    def recording(session, event):
        sent.append(format_event(event))
        return handle(session, event)

    tags: dict[str, str] = {}
    if game == "wakanda":
        from companion.games.wakanda.demo import demo_tags
        tags = demo_tags()
    Session.handle = recording  # type: ignore[method-assign]
    try:
        outcome = run_cli(["demo", "--game", game, "--seed", str(seed), "--display", "none"])
    finally:
        Session.handle = handle  # type: ignore[method-assign]
    assert outcome.kind == "ok", outcome
    return "\n".join(sent) + "\n", tags


@cache
def configs() -> tuple[str, ...]:
    """Configuration files: the example and a few typical ones."""
    return ((ROOT / "hardware" / "config.example.toml").read_text(encoding="utf-8"),
            'players = ["Ana", "Ben"]\nlanguage = "bg"\n[display]\nkind = "none"\n[reader]\nkind = "none"\n'
            '[buttons]\nkind = "none"\n',
            '[display]\nkind = "text"\ni2c_address = 0x3D\nrotation = 2\n[buttons]\nkind = "none"\n'
            'hold_seconds = 1.5\n[buttons.pins]\nv1 = 4\n[feedback]\nbuzzer_pin = 18\n'
            '[feedback.leds]\ngreen = 12\n[reader]\nkind = "none"\n')


@cache
def decks() -> tuple[str, ...]:
    """Totem Wars deck files: the bundled deck and the tests' transcribed one."""
    bundled = ROOT / "companion" / "games" / "totem_wars" / "default_deck.toml"
    return (bundled.read_text(encoding="utf-8"), (DATA / "totem_wars_deck.toml").read_text(encoding="utf-8"))


# --- mutations ---------------------------------------------------------------------------

#: JSON values that broke readers before: huge and deep numbers and nests, floats and
#: booleans where integers belong, NUL, lone surrogates, escape codes, paths, duplicates.
NASTY_JSON = (
    "9" * 5000, "-" + "9" * 400, "1e400", "-0.0", "1.0", "0.0", "true", "false", "null", "NaN",
    "Infinity", '""', '"\\u0000"', '"\\ud800"', '"\\u001b[2J\\u001b]0;owned\\u0007"', '"' + "x" * 100_000 + '"',
    "[" * 3000 + "]" * 3000, "{" + '"a":{' * 1500 + "}" * 1501, "[]", "{}", '"/dev/zero"', '"../../etc/passwd"',
    '"default"', "[1, 2, 3]", '{"p": 0, "p": 1}', "0x10", "01", "1_000", '"\\u202e"', "-1", "7", "255",
    "2147483648", "18446744073709551616",
)

#: Words an input script may hold, good and bad.
SCRIPT_WORDS = (
    "press ok", "press down", "press up", "press back", "press v1", "press v3", "press v6", "hold v2",
    "press hint", "press undo", "hold ok", "tag eagle", "gone eagle", "tag sun pad", "tag chief slot3",
    "tag village:sun", "tag indians/snake", "tag 0A1B2C3D4E", "gone 0A1B2C3D4E pad",
    "reader pad disconnected", "reader pad connected", "wait 0", "wait 0.001",
    "wait 1e10", "wait 9.3e9", "wait 1e309", "wait nan", "wait inf", "wait -1", "wait 0x10",
    "wait " + "9" * 5000, "press", "press v9", "press ok ok", "tag", "tag a b c", "hold",
    "\x00", "\x1b[2J", "press \x1b[2J", "tag \x1b]0;owned\x07", "tag \ud800", "\ufeffpress ok",
    "x" * 100_000, "# comment", "", "   ", "press OK", "PRESS ok", "tag " + "A" * 5000,
)

#: Values for a TOML key.
NASTY_TOML = (
    "0x" + "F" * 5000, "9" * 5000, "1e999", "inf", "nan", "-1", "0", "1.5", "true", '""', '"\\u0000"',
    '"\\u001b[2J"', '"' + "x" * 100_000 + '"', "[" * 3000 + "]" * 3000, "[]", "{}", "1979-05-27", "'/dev/zero'",
    '"/dev/zero"', '"socket://127.0.0.1:9"', '"rdm6300:socket://127.0.0.1:9"', '"png:/dev/full"',
    '["Ana\\u001b[2J", "Ben"]', '["A", "A"]', '["' + "B" * 40 + '"]', '"hub:loop://"', "0x3C", "0x78",
    '"\\ud800"', '"loop://"', '"none"', '"text"', '"keyboard"', "[1, 2]", '["air"]', '["fire"]', '[]',
)


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """``data`` with a few random byte-level changes: flipped, inserted, deleted, repeated
    or cut off."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(6)
        at = rng.randrange(len(buf) + 1)
        if op == 0 and buf:
            buf[min(at, len(buf) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            buf[at:at] = bytes(rng.choice((0, 0x1B, 0xFF, 0x0A, 0x22, 0x7B, 0x5B, rng.randrange(256)))
                               for _ in range(rng.randint(1, 8)))
        elif op == 2:
            del buf[at:at + rng.randint(1, 16)]
        elif op == 3:
            span = buf[at:at + rng.randint(1, 64)]
            buf[at:at] = span * rng.randint(1, 4)
        elif op == 4:
            del buf[at:]
        else:
            buf[at:at] = b"\x00" * rng.randint(1, 40) + b"\n"
    return bytes(buf)


def _json_paths(value, path=()):
    """Every place in a JSON value, as key/index paths."""
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _json_paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _json_paths(child, (*path, index))


def mutate_json_line(rng: random.Random, line: str) -> str:
    """One JSON line with one value swapped for a nasty one, a key dropped, added or
    repeated; text that is not JSON comes back changed at byte level."""
    try:
        value = json.loads(line)
    except ValueError:
        return mutate_bytes(rng, line.encode()).decode("utf-8", "surrogateescape")
    marker = "\u0000NASTY\u0000"
    paths = list(_json_paths(value))
    path = rng.choice(paths)
    op = rng.randrange(4)
    if not path or op == 0:
        target = value if not path else _at(value, path[:-1])
        if isinstance(target, dict) and rng.random() < 0.5:
            target[rng.choice(("p", "game", "players", "deck", "first", "villages", "x", "undo"))] = marker
        else:
            return rng.choice(NASTY_JSON) if not path else json.dumps(value)
    elif op == 1 and isinstance(_at(value, path[:-1]), dict):
        del _at(value, path[:-1])[path[-1]]
    else:
        _at(value, path[:-1])[path[-1]] = marker
    text = json.dumps(value, ensure_ascii=False)
    if op == 3 and isinstance(value, dict) and value:
        key = rng.choice(list(value))
        text = text[:-1] + f", {json.dumps(key)}: {rng.choice(NASTY_JSON)}}}"  # a repeated key
    return text.replace(json.dumps(marker), rng.choice(NASTY_JSON))


def _at(value, path):
    for step in path:
        value = value[step]
    return value


def mutate_lines(rng: random.Random, text: str, line_mutation: Callable[[random.Random, str], str],
                 nasty: tuple[str, ...]) -> tuple[str, int]:
    """``text`` with one or two lines changed, dropped, repeated, swapped or added; and the
    index of the first line touched."""
    lines = text.splitlines()
    first = len(lines)
    for _ in range(rng.randint(1, 2)):
        if not lines:
            lines.append(rng.choice(nasty))
            first = 0
            continue
        i = rng.randrange(len(lines))
        op = rng.randrange(6)
        if op == 0:
            lines[i] = line_mutation(rng, lines[i])
        elif op == 1:
            del lines[i]
        elif op == 2:
            lines.insert(i, lines[i])
        elif op == 3:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            i = min(i, j)
        elif op == 4:
            lines.insert(i, rng.choice(nasty))
        else:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]   # a torn line
            del lines[i + 1:]
        first = min(first, i)
    return "\n".join(lines) + rng.choice(("\n", "", "\n\n", "\r\n")), first


def mutate_toml(rng: random.Random, text: str) -> str:
    """A TOML file with a value swapped, a line changed, or a key or table added."""
    def line_mutation(rng, line):
        key, sep, _ = line.partition("=")
        if sep and rng.random() < 0.8:
            return f"{key}= {rng.choice(NASTY_TOML)}"
        return mutate_bytes(rng, line.encode()).decode("utf-8", "surrogateescape")
    nasty = tuple(f"{key} = {value}" for key, value in zip(
        ("players", "language", "kind", "i2c_address", "x", "v1", "eagle", "[data]\ndir", "[reader]\nkind"),
        rng.sample(NASTY_TOML, 9))) + ("[display", "[[x]]", "[indians]", "[display]\n[display]")
    return mutate_lines(rng, text, line_mutation, nasty)[0]


def mutate_script(rng: random.Random, text: str) -> str:
    """An input script with lines swapped for others, good or bad, or changed at byte level."""
    def line_mutation(rng, line):
        if rng.random() < 0.7:
            return rng.choice(SCRIPT_WORDS)
        return mutate_bytes(rng, line.encode()).decode("utf-8", "surrogateescape")
    return mutate_lines(rng, text, line_mutation, SCRIPT_WORDS)[0]


def encoded(text: str) -> bytes:
    """``text`` as the bytes of a file (lone surrogates from the mutations as they were)."""
    return text.encode("utf-8", "surrogateescape") if not _has_lone_surrogates(text) else \
        text.encode("utf-8", "surrogatepass")


def _has_lone_surrogates(text: str) -> bool:
    return any(0xD800 <= ord(ch) <= 0xDFFF and not 0xDC80 <= ord(ch) <= 0xDCFF for ch in text)


# --- special files -------------------------------------------------------------------------

SPECIALS = ("fifo", "/dev/zero", "/dev/urandom", "/dev/null", "/dev/full", "folder", "dangling link",
            "link loop", "link to /dev/zero", "huge", "missing", "newline in name", "escape in name",
            "surrogate in name", "long name")


def special(folder: Path, kind: str, name: str = "input") -> str:
    """A path in ``folder`` that is not what a command expects: a pipe, a device, a folder,
    a link going nowhere, a 20 MB sparse file, a name a terminal would act on."""
    path = folder / name
    if kind == "fifo":
        os.mkfifo(path)
    elif kind.startswith("/dev/"):
        return kind
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling link":
        path.symlink_to(folder / "nowhere")
    elif kind == "link loop":
        path.symlink_to(path)
    elif kind == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    elif kind == "huge":
        with open(path, "wb") as file:
            file.truncate(20 * 1024 * 1024)
    elif kind == "newline in name":
        path = folder / f"{name}\nline 2"
        path.write_text("x\n")
    elif kind == "escape in name":
        path = folder / f"{name}\x1b[2J\x1b]0;owned\x07"
        path.write_text("x\n")
    elif kind == "surrogate in name":
        path = folder / os.fsdecode(name.encode() + b"\xff\xfe")
        path.write_text("x\n")
    elif kind == "long name":
        path = folder / ("n" * 250)
        path.write_text("x\n")
    return str(path)


# --- the kinds of input --------------------------------------------------------------------

def _folder(base: Path, kind: str, n: int) -> Path:
    folder = base / f"{kind}-{n}"
    folder.mkdir(parents=True)
    return folder


def _short_script(rng: random.Random) -> str:
    return "\n".join(rng.choice(SCRIPT_WORDS[:22]) for _ in range(rng.randint(1, 12))) + "\n"


def case_record(rng: random.Random, base: Path, n: int) -> Case:
    """A record changed line by line or byte by byte, read by score, moves, replay or hint."""
    folder = _folder(base, "record", n)
    text = rng.choice(records())
    if rng.random() < 0.6:
        data = encoded(mutate_lines(rng, text, mutate_json_line, NASTY_JSON)[0])
    else:
        data = mutate_bytes(rng, text.encode())
    (folder / "record.jsonl").write_bytes(data)
    command = rng.choice((["score"], ["score", "--json"], ["moves"], ["moves", "--json"],
                          ["replay", "--out", "frames"], ["hint", "--level", "easy"]))
    return Case("record", folder, [*command, "record.jsonl"])


def case_config(rng: random.Random, base: Path, n: int) -> Case:
    """A configuration changed at a value or a line, loaded by run, demo or listen."""
    folder = _folder(base, "config", n)
    text = mutate_toml(rng, rng.choice(configs())) if rng.random() < 0.7 else \
        mutate_bytes(rng, rng.choice(configs()).encode()).decode("utf-8", "surrogateescape")
    (folder / "config.toml").write_bytes(encoded(text))
    (folder / "script.txt").write_text(_short_script(rng))
    command = rng.choice((["run", "--input", "script.txt", "--data", "data"],
                          ["demo", "--seed", str(rng.randrange(100))],
                          ["listen", "--input", "script.txt"]))
    # The display is text (a terminal display draws with escape codes); the file's
    # [display] is still read and checked.
    return Case("config", folder, ["--config", "config.toml", "--display", "text", *command])


def case_deck(rng: random.Random, base: Path, n: int) -> Case:
    """A deck file changed, named by a record's header or offered at a Totem Wars set-up."""
    folder = _folder(base, "deck", n)
    decks_folder = folder / "data" / "decks"
    decks_folder.mkdir(parents=True)
    text = mutate_toml(rng, rng.choice(decks())) if rng.random() < 0.7 else \
        mutate_bytes(rng, rng.choice(decks()).encode()).decode("utf-8", "surrogateescape")
    (decks_folder / "fuzz.toml").write_bytes(encoded(text))
    if rng.random() < 0.5:
        record = rng.choice(totem_wars_records())
        header, _, rest = record.partition("\n")
        head = json.loads(header)
        head["deck"] = "fuzz"
        (folder / "record.jsonl").write_text(json.dumps(head) + "\n" + rest)
        return Case("deck", folder, ["score", "--data", "data", "record.jsonl"])
    # The set-up lists the decks of the data folder: choose each in turn.
    script = "press down\npress ok\n" + "press ok\n" * rng.randint(1, 6) + "press down\npress ok\n" * 2
    (folder / "script.txt").write_text(script)
    return Case("deck", folder, ["run", "--game", "totem-wars", "--input", "script.txt", "--data", "data",
                                 "--display", "none"])


def case_script(rng: random.Random, base: Path, n: int) -> Case:
    """A whole game's input script changed, played by run, listen or demo."""
    folder = _folder(base, "script", n)
    text, tags = rng.choice(scripts())
    (folder / "data").mkdir()
    if tags:
        (folder / "data" / "tags.json").write_text(json.dumps({"version": 1, "tags": tags}))
    (folder / "script.txt").write_bytes(encoded(mutate_script(rng, text)))
    command = rng.choice((["run", "--display", "text", "--data", "data"],
                          ["run", "--display", "none", "--data", "data"], ["listen"], ["demo", "--data", "data"]))
    return Case("script", folder, [*command, "--input", "script.txt"])


def case_journal(rng: random.Random, base: Path, n: int) -> Case:
    """An unfinished game's journal damaged, then the box started on it: the lines before
    the damage must never be lost."""
    folder = _folder(base, "journal", n)
    data = folder / "data"
    data.mkdir()
    text = rng.choice(records())
    raw = encoded(mutate_lines(rng, text, mutate_json_line, NASTY_JSON)[0]) if rng.random() < 0.6 else \
        mutate_bytes(rng, text.encode())
    (data / "current.jsonl").write_bytes(raw)
    # The whole lines before the first byte changed: the game as it was up to the damage.
    same = os.path.commonprefix([raw, text.encode()])
    keep = same[: same.rfind(b"\n") + 1]
    events = rng.choice(("press ok\n", "press ok\npress ok\n", "press down\npress ok\n",
                         "press ok\n" + _short_script(rng)))
    (folder / "script.txt").write_text(events)
    return Case("journal", folder, ["run", "--input", "script.txt", "--data", "data", "--display",
                                    rng.choice(("none", "text"))], keep=keep)


def case_data_file(rng: random.Random, base: Path, n: int) -> Case:
    """A file the box keeps in its data folder damaged: tags, settings, big game, lessons."""
    folder = _folder(base, "data-file", n)
    data = folder / "data"
    data.mkdir()
    good = {
        "tags.json": '{"version": 1, "tags": {"0A1B2C3D4E": "eagle", "0A1B2C3D4F": "village:sun"}}',
        "settings.json": '{"version": 1, "names": ["Ana", "Ben"], "language": "bg", "sound": false, '
                         '"games": {"wakanda": {"variant": "hidden"}}}',
        "big_game.json": (DATA / "totem_wars_big_game_before_a_tie.json").read_text(encoding="utf-8"),
    }
    name = rng.choice(sorted(good))
    text = good[name]
    damaged = mutate_json_line(rng, text) if rng.random() < 0.7 else \
        mutate_bytes(rng, text.encode()).decode("utf-8", "surrogateescape")
    (data / name).write_bytes(encoded(damaged))
    (folder / "script.txt").write_text("press ok\n" + _short_script(rng))
    game = ["--game", "totem-wars"] if name == "big_game.json" else []
    return Case("data-file", folder, ["run", *game, "--input", "script.txt", "--data", "data",
                                      "--display", "text"], notes=[name])


def case_path(rng: random.Random, base: Path, n: int) -> Case:
    """A pipe, a device, a folder, a broken link or an odd name where a file is expected."""
    folder = _folder(base, "path", n)
    kind = rng.choice(SPECIALS)
    where = rng.choice(("record", "config", "script", "data", "out", "current", "tags", "settings", "deck",
                        "demo record"))
    (folder / "script.txt").write_text("press ok\n")
    (folder / "record.jsonl").write_text(wakanda_records()[0])
    if where in ("current", "tags", "settings", "deck"):
        data = folder / "data"
        (data / "decks").mkdir(parents=True)
        name = {"current": "current.jsonl", "tags": "tags.json", "settings": "settings.json",
                "deck": "decks/odd.toml"}[where]
        target = special(data, kind, name)
        if "name" in kind:  # the odd name is the file's own: the expected one is missing
            target = name
        argv = ["run", "--input", "script.txt", "--data", "data", "--display", "text"]
        if where == "deck":
            argv[1:1] = ["--game", "totem-wars"]
    else:
        target = special(folder, kind)
        argv = {"record": ["score", target], "config": ["--config", target, "demo", "--seed", "1"],
                "script": ["run", "--input", target, "--data", "data", "--display", "none"],
                "data": ["run", "--input", "script.txt", "--data", target, "--display", "none"],
                "out": ["replay", "record.jsonl", "--out", target],
                "demo record": ["demo", "--seed", "1", "--record", target]}[where]
    return Case("path", folder, argv, notes=[f"{kind} as {where}"])


def case_option(rng: random.Random, base: Path, n: int) -> Case:
    """Numbers and words where the command line takes them, out of range or not numbers."""
    folder = _folder(base, "option", n)
    (folder / "record.jsonl").write_text(rng.choice(wakanda_records()))
    (folder / "script.txt").write_text("press ok\n")
    bad = ("-1", "1e309", "nan", "inf", "-inf", "9" * 5000, "", " ", "0x10", "\x1b[2J", "\ud800",
           "99999999999999999999", "-0", "1e10")
    value = rng.choice(bad + ("0", "1e-320", "2", "1.5"))
    argv = rng.choice((["demo", "--seed", value], ["listen", "--input", "script.txt", "--count", value],
                       ["listen", "--input", "script.txt", "--seconds", value],
                       ["hint", "record.jsonl", "--seat", value], ["hint", "record.jsonl", "--level", value],
                       ["hint", "record.jsonl", "--seed", value],
                       ["run", "--input", "script.txt", "--display", value, "--data", "data"],
                       ["run", "--input", "script.txt", "--reader", value, "--data", "data"],
                       ["run", "--input", "script.txt", "--buttons", value, "--data", "data"],
                       ["doctor", "--display", "none", "--buttons", "none", "--reader", f"rdm6300:/dev/{value}"],
                       ["tutorial", "--demo", "--seed", value]))
    if rng.random() < 0.15:             # a pause between turns: a good one makes a long demo
        value = rng.choice(bad)
        argv = ["demo", "--delay", value, "--seed", "1"]
    return Case("option", folder, argv, notes=[repr(value)], answers_on_stdout=argv[0] == "doctor")


#: kind -> the function making one case of it from (rng, base folder, number).
KINDS: dict[str, Callable[[random.Random, Path, int], Case]] = {
    "record": case_record, "config": case_config, "deck": case_deck, "script": case_script,
    "journal": case_journal, "data-file": case_data_file, "path": case_path, "option": case_option,
}


def fuzz(kind: str, count: int, base: Path, *, seed: int = 0,
         seconds: float = DEADLINE) -> tuple[dict[str, int], list[str]]:
    """Run ``count`` cases of ``kind``: the outcomes counted, and a report of each failure."""
    counts = dict.fromkeys((*OUTCOMES, "lost"), 0)
    failures = []
    for n in range(count):
        rng = random.Random(f"{kind}-{seed}-{n}")
        case = KINDS[kind](rng, base, n)
        outcome = check(case, seconds)
        counts[outcome.kind] += 1
        if outcome.kind not in ("ok", "clear"):
            failures.append(report(case, outcome))
        else:
            shutil.rmtree(case.folder, ignore_errors=True)  # a failing case's files stay, to reproduce it
    return counts, failures


# --- kill -9 during play -------------------------------------------------------------------

def journal_lines(data: Path) -> int:
    """The complete lines of the box's records in ``data``: the unfinished game and the
    games kept under ``games/`` (a finished game moves there whole)."""
    total = 0
    for path in [data / "current.jsonl", *sorted((data / "games").glob("*.jsonl"))]:
        if path.is_file() and not path.is_symlink():
            total += path.read_bytes().count(b"\n")
    return total


def frames_and_lines(folder: Path, script: str, tags: dict[str, str]) -> tuple[list[str], list[int]]:
    """Play ``script`` in this process (``run --display text``) in ``folder``: the text of
    each frame shown, and the journal lines on disk when it was shown."""
    from hardware.text_display import TextDisplay

    data = _game_folder(folder, script, tags)
    counts: list[int] = []
    show = TextDisplay.show

    def counting(display, image):
        written = show(display, image)
        if written:
            counts.append(journal_lines(data))
        return written

    TextDisplay.show = counting  # type: ignore[method-assign]
    try:
        with inside(folder):
            outcome = run_cli(["run", "--input", "script.txt", "--data", "data", "--display", "text"])
    finally:
        TextDisplay.show = show  # type: ignore[method-assign]
    assert outcome.kind == "ok", outcome
    return frame_texts(outcome.out), counts


def frame_texts(out: str) -> list[str]:
    """The frames of ``--display text`` output, complete lines only."""
    return [line for line in out.split("\n")[:-1] if line.startswith("frame ")]


def _game_folder(folder: Path, script: str, tags: dict[str, str]) -> Path:
    data = folder / "data"
    data.mkdir(parents=True)
    if tags:
        (data / "tags.json").write_text(json.dumps({"version": 1, "tags": tags}))
    (folder / "script.txt").write_text(script)
    return data


@dataclass
class KillTrial:
    """One ``kill -9`` of the box in play: the actions it had confirmed on screen, the
    record lines on disk after it died and after a restart resumed the game, and what
    went wrong (empty when nothing)."""

    confirmed: int
    on_disk: int
    resumed: int
    problems: list[str]

    @property
    def lost(self) -> int:
        """Confirmed actions not on disk."""
        return max(0, self.confirmed - self.on_disk)


def kill_trial(rng: random.Random, folder: Path, script: str, tags: dict[str, str],
               reference: tuple[list[str], list[int]]) -> KillTrial:
    """Run the box on ``script`` in a process of its own, kill it with SIGKILL at a random
    moment of play, then start it again on the same data folder. ``reference`` is the
    script's frames and journal lines when each was shown (``frames_and_lines``): an
    action counts as confirmed once the frame after it was printed."""
    import subprocess
    import threading
    import time

    data = _game_folder(folder, "", tags)
    paced = "".join(f"{line}\nwait 0.003\n" for line in script.splitlines() if line.strip())
    (folder / "script.txt").write_text(paced)
    env = {**os.environ, "XDG_CONFIG_HOME": str(folder / "user-config"),
           "XDG_DATA_HOME": str(folder / "user-data"), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "companion", "run", "--input", "script.txt",
                                "--data", "data", "--display", "text"], cwd=folder, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    chunks: list[bytes] = []
    started = threading.Event()

    def read():
        assert process.stdout is not None
        while chunk := process.stdout.read1(65536):
            chunks.append(chunk)
            started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    problems = []
    if not started.wait(30):
        problems.append("the box showed no frame within 30 s")
    # Play takes about 4 ms an event: the kill lands anywhere in it (or just after).
    time.sleep(rng.uniform(0, 1.2 * 0.004 * paced.count("wait")))
    process.kill()
    process.wait(30)
    reader.join(30)
    frames = frame_texts(b"".join(chunks).decode("utf-8", "replace"))
    ref_frames, ref_lines = reference
    if frames != ref_frames[:len(frames)]:
        problems.append("the killed box showed other frames than the same script in this process")
    confirmed = ref_lines[len(frames) - 1] if frames else 0
    on_disk = journal_lines(data)
    (folder / "resume.txt").write_text("press ok\n")
    with inside(folder):
        outcome = run_cli(["run", "--input", "resume.txt", "--data", "data", "--display", "none"])
    if outcome.kind != "ok":
        problems.append(f"the restart: {outcome.kind} {outcome.err.strip()} {outcome.detail.strip()[-300:]}")
    resumed = journal_lines(data)
    if resumed < on_disk:
        problems.append(f"the restart dropped {on_disk - resumed} complete lines")
    return KillTrial(confirmed, on_disk, resumed, problems)


# --- serial noise --------------------------------------------------------------------------

@dataclass
class Noise:
    """Bytes of noise fed to a reader's decoder with good frames among them: how many
    frames were sent whole and with one byte damaged, how many were read (a frame damaged
    only where nothing is checked still reads right), how many tags were read that no
    frame carried."""

    reader: str
    noise_bytes: int = 0
    whole: int = 0
    damaged: int = 0
    read: int = 0
    false: int = 0


def serial_noise(rng: random.Random, total: int) -> list[Noise]:
    """About ``total`` bytes of noise through each reader's decoder (RDM6300 frames, the
    hub's lines, PN532 frames), good frames among it, some with one byte changed."""
    from hardware import hub_protocol, pn532, rdm6300

    def uid(n):
        return "".join(rng.choice("0123456789ABCDEF") for _ in range(n))

    def damage(frame: bytes) -> bytes:
        at = rng.randrange(len(frame))
        return frame[:at] + bytes([rng.choice([b for b in range(256) if b != frame[at]])]) + frame[at + 1:]

    results = []
    # RDM6300: STX, ten hex digits, two of checksum, ETX.
    decoder, noise = rdm6300.Rdm6300Decoder(), Noise("rdm6300")
    sent: set[str] = set()
    while noise.noise_bytes < total:
        junk = rng.randbytes(rng.randint(1, 400))
        noise.noise_bytes += len(junk)
        tag = uid(10)
        sent.add(tag)
        frame = rdm6300.frame(tag)
        if rng.random() < 0.5:
            noise.whole += 1
        else:
            frame = damage(frame)
            noise.damaged += 1
        for found in decoder.feed(junk + frame):
            noise.read += 1
            noise.false += found not in sent
    results.append(noise)
    # The reader hub: "<seq> on <slot> <UID> *hh" lines.
    link, noise = hub_protocol.HubLink(), Noise("hub")
    link.connected(hub_protocol.decode(hub_protocol.encode(0, "hello totem-hub 1.0 slots=7")[:-1]))
    sent = set()
    seq = 1
    while noise.noise_bytes < total:
        junk = rng.randbytes(rng.randint(1, 400)).replace(b"\n", b"")
        noise.noise_bytes += len(junk)
        tag = uid(8)
        sent.add(tag)
        line = hub_protocol.encode(seq, f"on {rng.randrange(7)} {tag}")
        seq = (seq + 1) % 10000
        if rng.random() < 0.5:
            noise.whole += 1
        else:
            line = damage(line[:-1]) + b"\n"
            noise.damaged += 1
        for event in link.feed(junk + b"\n" + line):
            uid_read = getattr(event, "uid", None)
            if uid_read is not None and type(event).__name__ == "Tag":
                noise.read += 1
                noise.false += uid_read not in sent
        link.board.clear()  # each tag lifted again: a slot holds at most MAX_TAGS at once
    results.append(noise)
    # PN532: frames of the answer to InListPassiveTarget.
    parser, noise = pn532.FrameParser(), Noise("pn532")
    sent_frames: set[bytes] = set()
    while noise.noise_bytes < total:
        junk = rng.randbytes(rng.randint(1, 400))
        noise.noise_bytes += len(junk)
        payload = bytes([0x4B, 0x01, 0x01, 0x00, 0x04, 0x08, 0x04]) + rng.randbytes(4)
        sent_frames.add(payload)
        frame = pn532.build_frame(payload, tfi=pn532.PN532_TO_HOST)
        if rng.random() < 0.5:
            noise.whole += 1
        else:
            frame = damage(frame)
            noise.damaged += 1
        for found in parser.feed(junk + frame):
            noise.read += 1
            noise.false += found.kind != "data" or found.data not in sent_frames
    results.append(noise)
    return results


# --- the soak ------------------------------------------------------------------------------

def rss() -> int:
    """This process's resident memory, in bytes."""
    with open("/proc/self/statm") as file:
        return int(file.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def random_events(rng: random.Random, count: int) -> str:
    """``count`` input events weighted like play: presses, holds, scans of both games'
    pieces and cards, tags taken off, a reader coming and going."""
    buttons = ("ok", "ok", "ok", "down", "down", "up", "back", "v1", "v2", "v3", "v4", "v5", "v6", "hint", "undo")
    items = ("eagle", "chief", "tomahawk", "skin", "teepee", "sun", "wings", "crests", "village:eagle",
             "village:sun", "village:teepee", "village:height", "village:variety", "village:chief",
             "village:skin", "village:tomahawk", "indians/snake", "africans/lion", "eskimos/seal",
             "aborigines/emu", "indians/wolf", "eskimos/wolf", "africans/snake", "indians/eagle", "0A1B2C3D4E")
    lines = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.55:
            lines.append(f"press {rng.choice(buttons)}")
        elif roll < 0.6:
            lines.append(f"hold {rng.choice(buttons)}")
        elif roll < 0.8:
            lines.append(f"tag {rng.choice(items)} {rng.choice(('pad', 'pad', 'slot2'))}")
        elif roll < 0.99:
            lines.append(f"gone {rng.choice(items)}")
        else:
            lines.append(f"reader pad {rng.choice(('connected', 'disconnected'))}")
    return "\n".join(lines) + "\n"


def soak(base: Path, games: int = 500, events: int = 100_000, *, chunk: int = 10_000,
         out: Callable[[str], None] = print) -> dict[str, float]:
    """Play ``games`` demo games (both games in turn), then ``events`` random events in
    chunks of ``chunk`` (one box, one data folder), all in this process; the memory it
    holds after the first few of each, at the end, and the time taken."""
    import gc
    import time

    figures: dict[str, float] = {}
    start = time.perf_counter()
    warm, half = max(1, games // 20), max(1, games // 2)
    for n in range(games):
        game = ("wakanda", "totem-wars")[n % 2]
        outcome = run_cli(["demo", "--game", game, "--seed", str(n), "--display", "none"], seconds=60)
        assert outcome.kind == "ok", f"demo {game} seed {n}: {outcome}"
        if n + 1 in (warm, half):
            gc.collect()
            if n + 1 == warm:
                figures["demo_rss_warm"] = rss()
                out(f"soak: caches after {warm} games: {cache_fill()}")
            if n + 1 == half:
                figures["demo_rss_half"] = rss()
    gc.collect()
    figures["demo_rss_end"] = rss()
    figures["demo_seconds"] = time.perf_counter() - start
    out(f"soak: caches after {games} games: {cache_fill()}")
    out(f"soak: {games} demo games in {figures['demo_seconds']:.0f} s; memory after {warm}: "
        f"{figures['demo_rss_warm'] / 2**20:.1f} MB, after {half}: {figures['demo_rss_half'] / 2**20:.1f} MB, "
        f"after {games}: {figures['demo_rss_end'] / 2**20:.1f} MB")

    folder = base / "soak-events"
    (folder / "data").mkdir(parents=True)
    rng = random.Random(2024)
    start = time.perf_counter()
    done = 0
    while done < events:
        count = min(chunk, events - done)
        (folder / "events.txt").write_text(random_events(rng, count))
        with inside(folder):
            outcome = run_cli(["run", "--input", "events.txt", "--data", "data", "--display", "none"],
                              seconds=600)
        assert outcome.kind == "ok", f"events {done}-{done + count}: {outcome}"
        done += count
        if done == min(chunk, events):
            gc.collect()
            figures["events_rss_warm"] = rss()
    gc.collect()
    figures["events_rss_end"] = rss()
    figures["events_seconds"] = time.perf_counter() - start
    out(f"soak: {events} random events in {figures['events_seconds']:.0f} s; memory after {min(chunk, events)}: "
        f"{figures['events_rss_warm'] / 2**20:.1f} MB, after {events}: {figures['events_rss_end'] / 2**20:.1f} MB")
    # From the first measure to the last, not each part on its own: what the box holds more
    # after a day of play. The part of it after the caches are full is given apart.
    figures["growth"] = figures["events_rss_end"] - figures["demo_rss_warm"]
    figures["growth_filled"] = figures["events_rss_end"] - figures["demo_rss_half"]
    return figures


def cache_fill() -> str:
    """The program's bounded caches that hold anything: ``name entries/bound``, largest first."""
    import functools
    import gc

    found = [(o.cache_info(), f"{o.__module__.rsplit('.', 1)[-1]}.{o.__qualname__}") for o in gc.get_objects()
             if isinstance(o, functools._lru_cache_wrapper) and o.__module__.startswith("companion")]
    return ", ".join(f"{name} {info.currsize}/{info.maxsize}" for info, name in
                     sorted(found, key=lambda f: -f[0].currsize) if info.currsize and info.maxsize)
