"""Reliability, second round (issue 22): the attacks that found the last defects, kept.

A lock nobody can delete, no link followed on a write inside the data folder, no stall from
a long name or a hub, no traceback when output fails. Each test plays the attack through
the command line or the module a player reaches and checks that no confirmed action is lost
or corrupted, nothing is written outside the data folder, nothing stalls and nothing ends in
a traceback. ``./setup.sh soak`` runs them with the rest (``TOTEM_SOAK=1``: more trials).
"""

from __future__ import annotations

import errno
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reliability import DATA, ROOT, inside, run_cli

from companion.errors import UserError
from companion.files import LinkRefused, write_atomically
from companion.games.wakanda import write_record
from companion.games.wakanda.bots import greedy_bot, play_game
from companion.table.data_lock import LOCK_FILE, hold_data_folder
from companion.table.journal import CURRENT, Journal

SOAK = os.environ.get("TOTEM_SOAK") == "1"
JOIN = 30  # seconds: no process may hang

#: A box holding the data folder ``argv[1]`` with a game in its journal: it appends one line
#: for each line read on its standard input and says ``wrote N`` once it is on disk.
PLAYING_BOX = """
import json, sys
from companion.table.data_lock import hold_data_folder
from companion.table.journal import Journal
lines = [json.loads(line) for line in open(sys.argv[2])]
with hold_data_folder(sys.argv[1]) as data:
    journal = Journal.start(data, lines[0])
    print("held", flush=True)
    for n, line in enumerate(lines[1:], 1):
        if not sys.stdin.readline():
            break
        journal.append(line)
        print(f"wrote {n}", flush=True)
    sys.stdin.read()
"""


def game_lines() -> list[str]:
    """The lines of a whole greedy game of Wakanda: header first."""
    return write_record(play_game(3, bots=(greedy_bot, greedy_bot))).splitlines()


@pytest.fixture
def playing_box(tmp_path):
    """``start(data)``: a box in another process playing a game in ``data``; ended after."""
    started: list[subprocess.Popen] = []
    record = tmp_path / "game.jsonl"
    record.write_text("\n".join(game_lines()) + "\n")

    def start(data: Path) -> subprocess.Popen:
        box = subprocess.Popen([sys.executable, "-c", PLAYING_BOX, str(data), str(record)], cwd=ROOT,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        started.append(box)
        assert box.stdout is not None and box.stdout.readline() == "held\n"
        return box

    yield start
    for box in started:
        if box.poll() is None:
            box.kill()
        box.wait(JOIN)


def play(box: subprocess.Popen, count: int) -> None:
    """Have ``box`` confirm ``count`` more actions (each on disk when this returns)."""
    assert box.stdin is not None and box.stdout is not None
    for _ in range(count):
        box.stdin.write("\n")
        box.stdin.flush()
        assert box.stdout.readline().startswith("wrote ")


# --- 1. the lock survives the deletion of any file -------------------------------------------

DELETIONS = {
    "the lock file": [LOCK_FILE],
    "the journal": [CURRENT],
    "the lock file and the journal": [LOCK_FILE, CURRENT],
}


@pytest.mark.parametrize("what", list(DELETIONS))
def test_a_second_box_is_refused_whatever_was_deleted_and_no_confirmed_action_is_lost(
        what, tmp_path, playing_box):
    data = tmp_path / "data"
    box = playing_box(data)
    play(box, 5)
    for name in DELETIONS[what]:
        (data / name).unlink()
    (tmp_path / "script.txt").write_text("press ok\n")
    with inside(tmp_path):
        second = run_cli(["run", "--input", "script.txt", "--data", "data", "--display", "none"])
    assert second.kind == "clear" and "in use by another box" in second.err, second
    play(box, 5)  # the first box goes on: a journal removed is written back whole
    lines = game_lines()
    assert (data / CURRENT).read_text().splitlines() == lines[:11]


def test_a_journal_removed_between_two_actions_is_written_back_whole(tmp_path):
    lines = [json.loads(line) for line in game_lines()]
    with hold_data_folder(tmp_path / "data") as data:
        journal = Journal.start(data, lines[0])
        for n, line in enumerate(lines[1:], 1):
            if n % 4 == 0:
                (data / CURRENT).unlink()
            journal.append(line)
        journal.close()
    assert (tmp_path / "data" / CURRENT).read_text().splitlines() == game_lines()


def test_a_journal_replaced_by_another_file_confirms_nothing_more(tmp_path):
    lines = [json.loads(line) for line in game_lines()]
    with hold_data_folder(tmp_path / "data") as data:
        journal = Journal.start(data, lines[0])
        journal.append(lines[1])
        (data / CURRENT).rename(data / "moved.jsonl")
        (data / CURRENT).write_text("someone else's\n")
        with pytest.raises(UserError, match="another file took its place"):
            journal.append(lines[2])
        journal.close()
    assert (tmp_path / "data" / CURRENT).read_text() == "someone else's\n"
    assert (tmp_path / "data" / "moved.jsonl").read_text().splitlines() == game_lines()[:2]


# --- 2. no write through a link inside the data folder ---------------------------------------

@pytest.fixture
def elsewhere(tmp_path):
    """A folder outside the data folder, which must stay empty."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    yield folder
    assert list(folder.iterdir()) == [], "written outside the data folder"


@pytest.mark.parametrize("link", ["games", "tutorial"])
def test_a_link_in_the_data_folder_is_never_written_through(link, tmp_path, elsewhere):
    data = tmp_path / "data"
    data.mkdir()
    (data / link).symlink_to(elsewhere)
    command = ["demo", "--data", "data", "--seed", "1"] if link == "games" else \
        ["tutorial", "--demo", "--data", "data", "--seed", "1"]
    with inside(tmp_path):
        outcome = run_cli(command)
    assert outcome.kind in ("ok", "clear"), outcome
    assert ("Finished game not kept: a link in the data folder" if link == "games" else
            "is a link; the box writes only inside its data folder") in outcome.err
    if link == "games":  # the finished game stays in the journal until it can be kept
        assert (data / CURRENT).read_text().count("\n") > 10


@pytest.mark.parametrize("where", ["decks/NAME.toml", "tutorial/progress.json", "games/x/y.json"])
def test_every_atomic_write_below_the_data_folder_refuses_a_link_on_its_way(where, tmp_path, elsewhere):
    data = tmp_path / "data"
    data.mkdir()
    (data / Path(where).parts[0]).symlink_to(elsewhere)
    with hold_data_folder(data), pytest.raises(LinkRefused, match="is a link"):
        write_atomically(data / where, "text")


def test_a_write_left_half_done_by_a_full_disk_leaves_no_temporary_file(tmp_path, mocker):
    mocker.patch("os.fsync", side_effect=OSError(28, "No space left on device"))
    with hold_data_folder(tmp_path / "data") as data, pytest.raises(OSError):
        write_atomically(data / "tags.json", "{}")
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == [LOCK_FILE]


# --- 6, 7. output that fails, Ctrl-C at any moment --------------------------------------------

class FullOutput(io.StringIO):
    """Standard output on a full disk (``> /dev/full``): what is written fails when it is
    flushed (at a newline, as on a terminal, or at the end)."""

    def write(self, text):
        if "\n" in text:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return super().write(text)

    def flush(self):
        if self.getvalue():
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


RECORD = str(DATA / "wakanda_worked_example.jsonl")
#: The worked example before its end: a game a hint is asked for.
BEFORE_OVER = "under-way.jsonl"
#: Every command that writes on standard output, as the adversary ran them.
WRITERS = {
    "score": ["score", RECORD],
    "score --json": ["score", "--json", RECORD],
    "moves": ["moves", RECORD],
    "hint": ["hint", BEFORE_OVER],
    "engine": ["engine"],
    "listen": ["listen", "--input", str(DATA / "first_game_wakanda.txt")],
    "demo wakanda": ["demo", "--seed", "1"],
    "demo totem-wars": ["demo", "--game", "totem-wars", "--seed", "1"],
    "tutorial --demo": ["tutorial", "--demo", "--seed", "1"],
    "doctor": ["doctor", "--display", "none", "--reader", "none", "--buttons", "none"],
    "match": ["match", "--a", "easy", "--b", "easy", "--games", "1"],
    "run --display text": ["run", "--input", str(DATA / "first_game_wakanda.txt"), "--display", "text",
                           "--data", "data"],
}


@pytest.mark.parametrize("how", ["full", "closed"])
@pytest.mark.parametrize("command", list(WRITERS))
def test_output_that_cannot_be_written_is_one_line_and_a_failure(command, how, tmp_path):
    stdin = b'{"game": "wakanda"}\n' if command == "engine" else b""
    (tmp_path / BEFORE_OVER).write_text("".join(Path(RECORD).read_text().splitlines(True)[:20]))
    with inside(tmp_path):
        outcome = run_cli(WRITERS[command], stdin=stdin, out=FullOutput() if how == "full" else None,
                          stdout_closed=how == "closed")
    reason = "No space left on device" if how == "full" else "standard output is closed"
    assert outcome.kind == "clear" and outcome.status == 1, outcome
    assert outcome.err.splitlines()[-1].endswith(f"cannot write the output: {reason}"), outcome.err


@pytest.mark.parametrize("redirect", [">/dev/full", ">&-", ">&- 2>&-"])
def test_a_real_full_or_closed_output_leaves_the_process_with_one_line(redirect, tmp_path):
    done = subprocess.run(["sh", "-c", f'"$@" {redirect}', "sh", sys.executable, "-m", "companion", "score", RECORD],
                          cwd=tmp_path, capture_output=True, text=True, timeout=JOIN)
    assert done.returncode == 1
    expected = [] if "2>&-" in redirect else [
        "totem-companion score: cannot write the output: "
        + ("No space left on device" if "full" in redirect else "standard output is closed")]
    assert done.stderr.splitlines() == expected


#: A box started as the program is started (``totem-companion ARGS``), which interrupts
#: itself (Ctrl-C) at ``argv[1]``: while its modules load, while its parser is built, or
#: (``output``) never: the test sends it once the box has printed a given line.
INTERRUPTED = """
import os, signal, sys
at, args = sys.argv[1], sys.argv[2:]
sys.argv = ["totem-companion", *args]
import companion
if at == "loading":
    os.kill(os.getpid(), signal.SIGINT)
import companion.cli
if at == "parser":
    real = companion.cli.build_parser
    def build_parser(*args):
        os.kill(os.getpid(), signal.SIGINT)
        return real(*args)
    companion.cli.build_parser = build_parser
sys.exit(companion.cli.main())
"""


@pytest.mark.parametrize("at", ["loading", "parser", *(f"line {n}" for n in (1, 5, 15))])
def test_ctrl_c_at_any_moment_is_one_line(at, tmp_path):
    box = subprocess.Popen([sys.executable, "-c", INTERRUPTED, at.split()[0], "demo", "--seed", "2"], cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if at.startswith("line"):
        assert box.stdout is not None
        for _ in range(int(at.split()[1])):
            assert box.stdout.readline()
        box.send_signal(signal.SIGINT)
    _, err = box.communicate(timeout=JOIN)
    assert box.returncode == 130 and err.splitlines() == [
        "totem-companion: interrupted" if at == "loading" else
        "totem-companion demo: interrupted" if at.startswith("line") else "totem-companion: interrupted"], err



#: The program as ``./setup.sh`` installs it (its launcher, beside the venv's Python).
LAUNCHER = Path(sys.executable).parent / "totem-companion"


@pytest.mark.skipif(not LAUNCHER.is_file() or b"write_launcher" not in LAUNCHER.read_bytes(),
                    reason="the companion was not installed by ./setup.sh")
def test_ctrl_c_while_the_installed_program_starts_is_one_line_or_nothing(tmp_path):
    """Ctrl-C at moments spread over the start (the interpreter, its site, the imports, the
    first frames): the program ends with its one line and 130, or, before Python runs a
    line of ours, quietly by the signal itself, or, once the box plays, as q ends it; never
    a traceback."""
    rng = random.Random(29)
    (tmp_path / "wait.txt").write_text("wait 60\n")  # a box that ends only by the Ctrl-C
    for trial in range(24):
        box = subprocess.Popen([str(LAUNCHER), "run", "--display", "none", "--input", str(tmp_path / "wait.txt"),
                                "--data", str(tmp_path / str(trial))],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(0.0, 0.3))  # the moment of the Ctrl-C: random on purpose
        box.send_signal(signal.SIGINT)
        _, err = box.communicate(timeout=JOIN)
        # Once the box plays, Ctrl-C ends it as q does (status 0, its game kept).
        assert (box.returncode, err) in ((-signal.SIGINT, ""), (0, "")) or (
            box.returncode == 130 and len(err.splitlines()) == 1 and err.endswith("interrupted\n")), (trial, err)

# --- 3. names bounded, wrap linear ---------------------------------------------------------

STALL = 2.0  # seconds: no command may take longer on a long name


def with_name(name: str) -> str:
    """The first lines of a greedy game with Ben called ``name``."""
    lines = game_lines()[:4]
    header = json.loads(lines[0])
    header["players"][1] = name
    return "\n".join([json.dumps(header), *lines[1:]]) + "\n"


@pytest.mark.parametrize("command", [["score"], ["score", "--json"], ["moves"], ["hint"],
                                     ["replay", "--out", "frames"]])
def test_a_record_with_a_name_of_a_megabyte_is_refused_with_its_line_at_once(command, tmp_path):
    (tmp_path / "record.jsonl").write_text(with_name("B" * 1_000_000))
    argv = [command[0], "record.jsonl", *command[1:]]
    with inside(tmp_path):
        outcome = run_cli(argv, seconds=STALL)
    assert outcome.kind == "clear", outcome
    assert "line 1: a player's name has at most 16 characters, not 1,000,000" in outcome.err


def test_a_journal_with_a_name_of_a_megabyte_is_set_aside_at_once_and_kept(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / CURRENT).write_text(with_name("B" * 1_000_000))
    (tmp_path / "script.txt").write_text("press ok\n")
    with inside(tmp_path):
        outcome = run_cli(["run", "--input", "script.txt", "--data", "data", "--display", "text"], seconds=STALL)
    assert outcome.kind == "ok", outcome
    kept = list((tmp_path / "data" / "games").glob("*-wakanda-damaged.jsonl"))
    assert len(kept) == 1 and kept[0].read_text() == with_name("B" * 1_000_000)


def test_a_configuration_naming_a_player_twice_is_refused_in_one_line(tmp_path):
    (tmp_path / "config.toml").write_text('players = ["Ana", "Ana"]\n')
    with inside(tmp_path):
        outcome = run_cli(["demo", "--config", "config.toml", "--seed", "1"])
    assert outcome.kind == "clear" and "players: 'Ana' is named twice" in outcome.err, outcome


def reference_wrap(text: str, room: int, max_lines: int | None) -> list[str]:
    """What ``wrap`` gives, the slow way (every cut sliced off the rest)."""
    from companion.ui.canvas import SMALL, fit

    lines, line = [], ""
    for word in text.split():
        while len(word) > room:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:room])
            word = word[room:]
        if line and len(line) + 1 + len(word) <= room:
            line += " " + word
        else:
            if line:
                lines.append(line)
            line = word
    if line:
        lines.append(line)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit(lines[-1] + "…", room * SMALL.width, SMALL)
    return lines


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab c", max_size=120), st.integers(1, 30), st.none() | st.integers(1, 5))
def test_wrap_cuts_a_long_word_as_it_always_did(text, room, max_lines):
    from companion.ui.canvas import SMALL, wrap

    assert wrap(text, room * SMALL.width, SMALL, max_lines) == reference_wrap(text, room, max_lines)


@pytest.mark.parametrize("size", [1_000_000, 2_000_000])
def test_wrap_of_a_word_of_megabytes_gives_every_line(size):
    from companion.ui.canvas import SMALL, wrap

    room = 120 // SMALL.width
    lines = wrap("B" * size, 120, SMALL)
    assert len(lines) == -(-size // room) and "".join(lines) == "B" * size
    assert wrap("Ana " + "B" * size, 120, SMALL, max_lines=2) == ["Ana", "B" * (room - 1) + "…"]


# --- 4, 5, 9. a hub that does not read, floods or says odd things -------------------------------

HUB_WAIT = 10  # seconds: the longest the host may take to report what a hub did


class HostileHub:
    """A hub on a pty that answers the host's first ``hello?`` and then does what the test
    says: reads nothing more (``reads=False``) or reads and drops everything."""

    def __init__(self, path: str, *, reads: bool, slots: str = "4"):
        import threading

        from fakes import Plug

        self.plug = Plug(path)
        self.slots = slots
        self.seq = 0
        self.reads = reads
        self._stop = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.greeted = threading.Event()

    def say(self, body: str) -> None:
        """Send one line, waiting as long as the host takes to read it."""
        from hardware.hub_protocol import encode

        assert self.plug.master is not None
        os.write(self.plug.master, encode(self.seq, body))
        self.seq += 1

    def _read(self) -> None:
        import select

        while not self._stop.is_set():
            if select.select([self.plug.master], [], [], 0.05)[0]:
                data = os.read(self.plug.master, 65536)
                if not self.greeted.is_set() and b"hello?" in data:
                    self.greeted.set()
                    self.say(f"hello totem-hub 2.0 slots={self.slots}")
                    if not self.reads:
                        return

    def close(self) -> None:
        self._stop.set()
        self._reader.join(JOIN)
        self.plug.close()


def hub_events(reader, until, timeout: float = HUB_WAIT) -> list:
    """The events ``reader`` reports until one is ``until`` (fails after ``timeout``)."""
    import queue
    import time

    events: queue.SimpleQueue = queue.SimpleQueue()
    reader.start(events.put)
    came: list = []
    deadline = time.monotonic() + timeout
    while not came or came[-1] != until:
        try:
            came.append(events.get(timeout=max(0.01, deadline - time.monotonic())))
        except queue.Empty:
            pytest.fail(f"{until} did not come within {timeout} s; came {len(came)}: {came[-5:]}")
    return came


@pytest.mark.parametrize("reads", [False, True], ids=["a hub that does not read", "a hub that reads"])
def test_a_flood_of_unasked_hellos_never_stops_the_host_reading(reads, tmp_path):
    from companion.events import ReaderState, Tag
    from hardware.hub_reader import HubReader

    hub = HostileHub(str(tmp_path / "ttyACM0"), reads=reads)
    try:
        reader = HubReader(hub.plug.path, retry_seconds=0.05)
        hub.greeted.wait(JOIN)
        import threading

        def flood():
            for _ in range(3200):
                hub.say("hello totem-hub 2.0 slots=4")
            hub.say("on 1 04A1B2C3D4E5F6")

        flooding = threading.Thread(target=flood, daemon=True)
        flooding.start()
        # The host reads on: the tag after the flood comes (a hub that reads), or the hub,
        # filling its line with answers it never takes, is reported lost.
        until = Tag("04A1B2C3D4E5F6", "slot1") if reads else ReaderState("hub", False)
        came = hub_events(reader, until)
        assert came[0] == ReaderState("hub", True)
        reader.close()
        flooding.join(JOIN)
    finally:
        hub.close()


def test_a_hub_reporting_thousands_of_tags_on_one_slot_keeps_eight():
    from hardware.hub_protocol import MAX_TAGS, SEQ_MODULO, HubLine, HubLink, encode

    link = HubLink()
    link.connected(HubLine(0, "hello", ("totem-hub", "2.0", "slots=4")))
    count = 20_000 if SOAK else 5_000
    data = b"".join(encode((n + 1) % SEQ_MODULO, f"on 2 {n:08X}") for n in range(count))
    events = link.feed(data)
    assert len(events) == MAX_TAGS and len(link.board[2]) == MAX_TAGS
    assert link.bad_lines == count - MAX_TAGS


@pytest.mark.parametrize("slots", ["17", "0", "99999"])
def test_a_hub_with_an_impossible_count_of_slots_is_told_as_such(slots, tmp_path):
    from hardware.hub_reader import HubReader

    hub = HostileHub(str(tmp_path / "ttyACM0"), reads=True, slots=slots)
    try:
        with pytest.raises(UserError, match=f"answered 'hello totem-hub 2.0 slots={slots}', not a hello "
                                            "this box can use"):
            HubReader(hub.plug.path)
    finally:
        hub.close()


def test_doctor_on_a_device_that_is_no_serial_port_says_so(tmp_path):
    with inside(tmp_path):
        outcome = run_cli(["doctor", "--reader", "rdm6300:/dev/zero", "--display", "none", "--buttons", "none"])
    assert outcome.status == 1 and "it is no serial port" in outcome.out and "minicom" not in outcome.out, outcome


# --- 8. a finished game that cannot be kept -------------------------------------------------------

@pytest.mark.parametrize("blocker", ["link", "file", "full"])
def test_a_finished_game_that_cannot_be_kept_says_so_and_stays_until_it_can(blocker, tmp_path, mocker, request):
    import random

    from tw_table_helpers import make

    from companion.events import Press
    from companion.games.totem_wars import greedy_bot, read_record
    from companion.games.totem_wars.demo import TotemWarsPlayer, _play

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    held = hold_data_folder(tmp_path / "data")  # as the box holds it, all its life
    held.__enter__()
    request.addfinalizer(lambda: held.__exit__(None, None, None))
    t = make(tmp_path)
    rng = random.Random(4)
    game = _play(t, TotemWarsPlayer(t, rng), ("Ana", "Ben"), 0, [greedy_bot] * 2, rng, lambda line: None,
                 kept=False)
    games = tmp_path / "data" / "games"
    if blocker == "link":
        games.symlink_to(elsewhere)
    elif blocker == "file":
        games.write_text("a file where the folder goes")
    else:
        mocker.patch("os.rename", side_effect=OSError(errno.ENOSPC, "No space left on device"))
    journal = (tmp_path / "data" / CURRENT).read_text()
    t.handle(Press("ok"))
    reason = {"link": "a link in the data folder", "file": "a file where a folder goes",
              "full": "the SD card is full"}[blocker]
    assert t.message == f"Finished game not kept: {reason}. OK tries again"
    assert t.screen == "score" and (tmp_path / "data" / CURRENT).read_text() == journal
    mocker.stopall()
    if blocker != "full":
        games.unlink()
    t.handle(Press("ok"))
    assert t.message == "Finished game kept" and not (tmp_path / "data" / CURRENT).exists()
    kept = list(games.iterdir())
    assert len(kept) == 1 and read_record(kept[0].read_text())[0].outcome() == game.outcome()
    assert list(elsewhere.iterdir()) == []


def test_a_game_that_cannot_start_for_want_of_room_says_why_whole(tmp_path, mocker):
    from tw_table_helpers import choose, make

    real_open = os.open

    def no_inodes(path, flags, *args, **kwargs):
        if path == CURRENT and flags & os.O_CREAT:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_open(path, flags, *args, **kwargs)

    with hold_data_folder(tmp_path / "data"):
        t = make(tmp_path)
        mocker.patch("os.open", no_inodes)
        for value in (2, "Ana", "Ben", 0):  # two players, their names, the dealer
            choose(t, value)
    assert t.message == "Game not started: the SD card is full"
    assert not (tmp_path / "data" / CURRENT).exists()
