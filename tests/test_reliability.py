"""Reliability: hostile input through the command line, faults of the machine, kill -9 in
play, noise on the serial line, and (``./setup.sh soak``) a long soak.

The fuzzers of tests/reliability.py make inputs of each kind — records, configurations,
decks, input scripts, journals, the data folder's files, odd paths and options — and run
the command line on them in this process: no input may end in a traceback, a hang, an
error of more than one line, escape codes on the terminal or a journal's lines lost. A
failure prints the command that reproduces it. With ``TOTEM_SOAK=1`` every count is forty
times larger, and the figures of docs/reliability.md are printed (``pytest -s``).
"""

from __future__ import annotations

import errno
import fcntl
import functools
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fakes import CountingBus, Plug
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability import (
    KINDS,
    ROOT,
    frames_and_lines,
    fuzz,
    inside,
    journal_lines,
    kill_trial,
    records,
    run_cli,
    scripts,
    serial_noise,
    soak,
)

from companion.games import read_any_record

SOAK = os.environ.get("TOTEM_SOAK") == "1"
SCALE = 40 if SOAK else 1
#: Cases of each kind in the fast suite (a few seconds in all).
COUNTS = {"record": 24, "config": 10, "deck": 8, "script": 8, "journal": 16, "data-file": 10, "path": 24,
          "option": 12}
FIRST_GAME = (ROOT / "tests" / "data" / "first_game_wakanda.txt").read_text(encoding="utf-8")


def say(line: str) -> None:
    """A figure for docs/reliability.md (shown with ``pytest -s``)."""
    print(f"\n[reliability] {line}", end="")


# --- fuzzed input ----------------------------------------------------------------------------

@pytest.mark.parametrize("kind", list(KINDS))
def test_no_input_ends_in_a_traceback_a_hang_or_a_lost_game(kind, tmp_path):
    counts, failures = fuzz(kind, COUNTS[kind] * SCALE, tmp_path)
    say(f"{kind}: {sum(counts.values())} inputs: " + ", ".join(f"{n} {what}" for what, n in counts.items()))
    assert not failures, f"{len(failures)} of {sum(counts.values())} {kind} inputs failed:\n" + "\n".join(failures)


#: Any JSON value: what a record made by another program may hold where a seat, a piece or a
#: name belongs.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8)


@settings(max_examples=20 * SCALE, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_json_value_anywhere_in_a_record_is_read_or_refused_in_one_line(tmp_path, data):
    text = data.draw(st.sampled_from(records()), label="record")
    lines = [json.loads(line) for line in text.splitlines()]
    n = data.draw(st.integers(0, len(lines) - 1), label="line")
    key = data.draw(st.sampled_from(sorted(lines[n]) + ["x"]), label="key")
    lines[n][key] = data.draw(JSON_VALUES, label="value")
    path = tmp_path / "record.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    command = data.draw(st.sampled_from((["score"], ["score", "--json"], ["moves"], ["moves", "--json"])))
    outcome = run_cli([*command, str(path)])
    assert outcome.kind in ("ok", "clear"), outcome


def test_noise_on_the_serial_line_makes_no_false_tag():
    rng = random.Random(11)
    for noise in serial_noise(rng, 60_000 * SCALE):
        say(f"serial noise {noise.reader}: {noise.noise_bytes} bytes, {noise.whole} whole frames and "
            f"{noise.damaged} with a byte changed among them: {noise.read} read, {noise.false} false tags")
        assert noise.false == 0 and noise.read >= noise.whole


# --- kill -9 during play -------------------------------------------------------------------

def test_kill_9_during_play_loses_no_confirmed_action(tmp_path):
    trials = 2 * SCALE
    lost = confirmed = 0
    problems = []
    references = {}
    for n in range(trials):
        script, tags = scripts()[n % len(scripts())]
        if n % len(scripts()) not in references:
            references[n % len(scripts())] = frames_and_lines(tmp_path / f"reference-{n}", script, tags)
        trial = kill_trial(random.Random(n), tmp_path / f"trial-{n}", script, tags, references[n % len(scripts())])
        lost += trial.lost
        confirmed += trial.confirmed
        problems += [f"trial {n}: {problem}" for problem in trial.problems]
    say(f"kill -9: {trials} trials, {confirmed} confirmed record lines, {lost} lost")
    assert lost == 0 and not problems, "\n".join(problems)


# --- faults of the machine ---------------------------------------------------------------------

class FullDisk:
    """Every write to a file of ``data`` fails with ENOSPC once its records hold ``after``
    lines: through the journal's and the atomic writes' files and ``os.write``."""

    def __init__(self, data: Path, after: int):
        self.data = data
        self.after = after
        self.full = False
        self.refused = 0

    def check(self) -> None:
        self.full = self.full or journal_lines(self.data) >= self.after
        if self.full:
            self.refused += 1
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def open(self, real_open, *args, **kwargs):
        return _Guarded(real_open(*args, **kwargs), self)

    def write(self, real_write, fd, data):
        try:
            inside_data = os.readlink(f"/proc/self/fd/{fd}").startswith(str(self.data))
        except OSError:
            inside_data = False
        if inside_data:
            self.check()
        return real_write(fd, data)


class _Guarded:
    """A file whose writes go through ``FullDisk.check``."""

    def __init__(self, file, disk: FullDisk):
        self._file = file
        self._disk = disk

    def write(self, data):
        self._disk.check()
        return self._file.write(data)

    def __getattr__(self, name):
        return getattr(self._file, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._file.close()


def first_game(folder: Path, *, display: str = "text", script: str = FIRST_GAME, **options) -> tuple:
    """The project's first game of Wakanda played in ``folder``: the outcome and the record."""
    (folder / "data").mkdir(parents=True, exist_ok=True)
    (folder / "script.txt").write_text(script)
    with inside(folder):
        outcome = run_cli(["run", "--input", "script.txt", "--data", "data", "--display", display], **options)
    return outcome, (folder / "data" / "current.jsonl").read_text(encoding="utf-8")


def test_a_full_disk_confirms_nothing_it_did_not_keep(tmp_path, mocker):
    _, reference = first_game(tmp_path / "reference")
    disk = FullDisk(tmp_path / "full" / "data", after=6)
    import companion.files
    import companion.table.journal
    for module in (companion.table.journal, companion.files):
        mocker.patch.object(module, "open", functools.partial(disk.open, open), create=True)
    mocker.patch("os.write", functools.partial(disk.write, os.write))
    outcome, kept = first_game(tmp_path / "full")
    mocker.stopall()
    assert outcome.kind == "ok", outcome
    assert disk.refused and "Cannot save the game: | not played" in outcome.out
    # What is on disk is the game up to the disk filling, line for line: nothing confirmed
    # and lost, nothing half written.
    assert kept.splitlines() == reference.splitlines()[:6]
    (tmp_path / "full" / "resume.txt").write_text("press ok\n")
    with inside(tmp_path / "full"):
        resumed = run_cli(["run", "--input", "resume.txt", "--data", "data", "--display", "text"])
    assert resumed.kind == "ok" and "Game resumed" in resumed.out
    say(f"full disk: {disk.refused} writes refused, the record kept whole, resumed")


def read_only(folder: Path, argv: list[str]) -> list[str]:
    """``argv`` run with ``folder`` read-only: a read-only bind mount in a mount namespace of
    its own (EROFS, as a card remounted read-only), else ``chmod`` (not for root)."""
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True) if shutil.which("unshare") else None
    if probe is not None and probe.returncode == 0:
        mount = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" && exec "$@"'
        return ["unshare", "-rm", "sh", "-c", mount, str(folder), *argv]
    if os.geteuid() == 0:
        pytest.skip("no mount namespace, and root writes past chmod")
    folder.chmod(0o555)
    return argv


def test_a_read_only_data_folder_is_one_line_and_keeps_the_game(tmp_path):
    _, record = first_game(tmp_path, display="none")
    data = tmp_path / "data"
    command = [sys.executable, "-m", "companion", "run", "--input", "script.txt", "--data", "data", "--display",
               "text"]
    for variant in ("no lock file", "a lock file left"):
        if variant == "no lock file":
            (data / ".lock").unlink()
        try:
            done = subprocess.run(read_only(data, command), cwd=tmp_path, capture_output=True, text=True,
                                  timeout=60)
        finally:
            data.chmod(0o755)
        assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
        assert done.returncode == 0 or done.stderr.count("\n") == 1, done.stderr
        assert (data / "current.jsonl").read_text(encoding="utf-8") == record
        say(f"read-only data folder ({variant}): exit {done.returncode}, "
            f"{(done.stderr.strip().splitlines() or [''])[-1]}")


def test_a_data_folder_held_by_another_box_is_refused_in_one_line_and_records_still_read(tmp_path):
    _, record = first_game(tmp_path / "game", display="none")
    game = tmp_path / "game"
    fd = os.open(game / "data" / ".lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.ftruncate(fd, 0)
        os.write(fd, b"4242\n")
        with inside(game):
            refused = run_cli(["run", "--input", "script.txt", "--data", "data", "--display", "none"])
            read = run_cli(["score", "data/current.jsonl"])
    finally:
        os.close(fd)
    assert refused.kind == "clear" and "in use by another box" in refused.err and "4242" in refused.err
    assert read.kind == "ok"
    assert (game / "data" / "current.jsonl").read_text(encoding="utf-8") == record
    say("lock held: the second box refused in one line naming the holder; score still reads")


def test_a_reader_unplugged_and_plugged_back_mid_game(tmp_path, mocker):
    from hardware import inputs
    from hardware.rdm6300 import frame
    from hardware.serial_reader import open_reader

    mocker.patch.object(inputs, "open_reader", functools.partial(open_reader, retry_seconds=0.05))
    plug = Plug(str(tmp_path / "ttyUSB0"))
    out = io.StringIO()
    seen: list[str] = []

    def wait_for(words: str, times: int = 1) -> None:
        deadline = time.monotonic() + 10
        while out.getvalue().count(words) < times:
            assert time.monotonic() < deadline, f"never shown: {words!r}"
            time.sleep(0.01)
        seen.append(words)

    def table():
        try:
            wait_for("frame 1:")
            plug.write(frame("0A1B2C3D4E"))           # a tag nobody enrolled
            wait_for("Unknown tag")
            plug.unplug()
            wait_for("Reader unplugged")
            plug.plug()
            wait_for("Reader connected", 2)           # the first said so at the start
            plug.write(frame("0A1B2C3D4F"))
            wait_for("Unknown tag", 2)
        finally:
            os.kill(os.getpid(), signal.SIGTERM)      # the service stops: the box ends cleanly

    player = threading.Thread(target=table, daemon=True)
    player.start()
    try:
        outcome = run_cli(["run", "--reader", f"rdm6300:{plug.path}", "--buttons", "none", "--display", "text",
                           "--data", str(tmp_path / "data")], seconds=20, out=out)
    finally:
        player.join(20)
        plug.close()
    assert outcome.kind == "ok", outcome
    assert seen == ["frame 1:", "Unknown tag", "Reader unplugged", "Reader connected", "Unknown tag"], out.getvalue()
    assert outcome.err == ""
    say("unplugged reader: said so, reconnected, read tags again, no traceback")


class FlakyBus(CountingBus):
    """An I2C bus that stops answering at write ``start`` for ``writes`` writes (None: never)."""

    def __init__(self, start: int | None = None, writes: int = 3):
        super().__init__(keep_writes=False)
        self.calls = self.failed = 0
        self.start, self.writes = start, writes

    def write_i2c_block_data(self, address, control, data):
        self.calls += 1
        down = self.start is not None and self.start <= self.calls < self.start + self.writes
        self.error = errno.EREMOTEIO if down else None
        self.failed += self.error is not None
        super().write_i2c_block_data(address, control, data)


def test_an_oled_that_stops_answering_loses_nothing(tmp_path, mocker, caplog):
    from hardware import displays, oled
    # The panel is tried again at each frame (no pause between tries: the bus counts its
    # writes, not the seconds, so a loaded machine cannot change what happens).
    mocker.patch.object(oled, "Oled", functools.partial(oled.Oled, first_delay=0.0))
    steady = FlakyBus()
    mocker.patch.object(displays, "open_display", functools.partial(displays.open_display, i2c_bus=steady))
    _, reference = first_game(tmp_path / "steady", display="ssd1306")
    # The OLED stops answering a third into the game, for a few writes.
    bus = FlakyBus(steady.calls // 3)
    mocker.patch.object(displays, "open_display", functools.partial(displays.open_display, i2c_bus=bus))
    caplog.set_level("INFO", logger="hardware.oled")
    outcome, kept = first_game(tmp_path / "flaky", display="ssd1306")
    assert outcome.kind == "ok", outcome
    assert kept == reference
    said = [record.getMessage() for record in caplog.records]
    assert sum("stopped answering" in line for line in said) == 1 and "the OLED answers again" in said
    assert bus.failed >= 1 and bus.error is None
    say("OLED errors: logged once, the game went on and was kept whole, the panel taken back when it answered")


# --- the harness itself ------------------------------------------------------------------

def test_the_harness_sees_a_hang_and_gives_the_process_back_as_it_was(tmp_path):
    before = signal.getsignal(signal.SIGTERM), sys.stdin, os.getcwd()
    (tmp_path / "script.txt").write_text("press ok\nwait 30\n")
    outcome = run_cli(["run", "--input", str(tmp_path / "script.txt"), "--data", str(tmp_path / "data"),
                       "--display", "none"], seconds=0.5)
    assert outcome.kind == "hang"
    assert (signal.getsignal(signal.SIGTERM), sys.stdin, os.getcwd()) == before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_the_harness_sees_a_traceback(mocker):
    mocker.patch("companion.commands.score.run", side_effect=KeyError("surprise"))
    outcome = run_cli(["score", "x.jsonl"])
    assert outcome.kind == "traceback" and "KeyError: 'surprise'" in outcome.detail


@pytest.mark.parametrize("status, out, err, kind", [
    (0, "Ana wins\n", "", "ok"),
    (1, "", "totem-companion score: x.jsonl: no such file\n", "clear"),
    (1, "", "x.jsonl: warning: a torn last line\nx.jsonl: line 3: not Ben's turn (W4)\n", "clear"),
    (2, "", "totem-companion demo: error: argument --seed (--help lists the options)\n", "clear"),
    (2, "", "usage: totem-companion demo [-h]\ntotem-companion demo: error: argument --seed\n", "messy"),
    (1, "", "totem-companion score: bad\nline 2 of the error\n", "messy"),
    (1, "", "totem-companion score: " + "x" * 2000 + "\n", "messy"),
    (1, "", "", "messy"),
    (3, "", "totem-companion: odd\n", "messy"),
    (0, "Ana\x1b[2J wins\n", "", "raw"),
    (1, "", "totem-companion score: \x9b31m\n", "raw"),
])
def test_the_harness_tells_one_clear_line_from_the_rest(status, out, err, kind):
    from reliability import classify
    assert classify(status, out, err) == kind


# --- the soak --------------------------------------------------------------------------------

@pytest.mark.skipif(not SOAK, reason="the soak runs with TOTEM_SOAK=1 (./setup.sh soak)")
def test_soak_500_games_and_100000_events_keep_memory_flat(tmp_path):
    figures = soak(tmp_path, out=say)
    say(f"soak: memory growth {figures['growth'] / 2**20:.2f} MB from the first measure to the last "
        f""
        f"{figures['growth_filled'] / 2**20:.2f} MB of it after half the games (goal: under 5 MB)")
    # The caches fill to their bounds during the first half (and the events' screens churn
    # the text masks' 1,024): the goal holds for what comes after.
    assert figures["growth_filled"] < 5 * 2**20


def test_a_short_soak_plays_and_reads_back(tmp_path):
    figures = soak(tmp_path, games=2, events=300, chunk=150, out=lambda line: None)
    assert figures["demo_seconds"] > 0 and figures["events_seconds"] > 0
    record = (tmp_path / "soak-events" / "data" / "current.jsonl")
    if record.exists():
        read_any_record(record.read_text(encoding="utf-8"))
