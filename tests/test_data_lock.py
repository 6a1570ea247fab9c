"""One box per data folder: every command that writes the data folder holds it, a second one
is refused in one line naming the first, a holder that died never blocks, and the commands
that only read records take no lock."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import UserError
from companion.games.wakanda import write_record
from companion.games.wakanda.bots import greedy_bot, play_game, random_bot
from companion.table.data_lock import LOCK_FILE, hold_data_folder

ROOT = Path(__file__).resolve().parent.parent
JOIN = 20  # seconds: no process may hang
VILLAGES = ("teepee", "eagle", "chief", "variety", "sun", "tomahawk")
TORN = b'{"game": "wakanda", "players": ["Ana", "Ben"], "villages": ' \
       b'["teepee", "eagle", "chief", "variety", "sun", "tomahawk"], "first": 0}\n{"p": 0, "dr'

#: A process holding the data folder ``argv[1]`` until its standard input closes.
HOLDER = """
import sys
from companion.table.data_lock import hold_data_folder
with hold_data_folder(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.read()
"""


@pytest.fixture
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    return tmp_path


@pytest.fixture
def holder(tmp_path):
    """``start(folder)``: another process that holds ``folder``; it is ended after the test."""
    started: list[subprocess.Popen] = []

    def start(folder: Path) -> subprocess.Popen:
        process = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], cwd=ROOT,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        started.append(process)
        assert process.stdout is not None and process.stdout.readline() == "held\n"
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait(JOIN)


def held_by(folder: Path, pid: str = "4242") -> int:
    """Lock ``folder`` as another box would (another open file, so flock conflicts even in
    this process), with ``pid`` written as its holder; the descriptor to close."""
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.write(fd, pid.encode())
    return fd


def is_free(folder: Path) -> bool:
    """Whether nobody holds ``folder`` (a lock can be taken now)."""
    fd = os.open(folder / LOCK_FILE, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def script(folder: Path, text: str = "press ok\n") -> str:
    path = folder / "script.txt"
    path.write_text(text)
    return str(path)


def test_a_second_box_is_refused_naming_the_process_that_holds_the_folder(folders, holder, capsys):
    data = folders / "data"
    first = holder(data)
    (data / "current.jsonl").write_bytes(TORN)
    assert main(["run", "--input", script(folders), "--display", "none", "--data", str(data)]) == 1
    err = capsys.readouterr().err
    assert err == (f"totem-companion run: the data folder {data} is in use by another box "
                   f"(process {first.pid})\n")
    # Nothing was read or written: the torn line the first box will cut is still there.
    assert (data / "current.jsonl").read_bytes() == TORN
    assert sorted(p.name for p in data.iterdir()) == [LOCK_FILE, "current.jsonl"]


def test_two_boxes_in_two_processes(folders):
    data = folders / "data"
    with hold_data_folder(data):
        done = subprocess.run([sys.executable, "-m", "companion", "run", "--input", script(folders),
                               "--display", "none", "--data", str(data)],
                              cwd=ROOT, capture_output=True, text=True, timeout=JOIN)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (f"totem-companion run: the data folder {data} is in use by another box "
                           f"(process {os.getpid()})\n")


def test_the_folder_is_free_again_when_its_box_ends(folders, holder):
    data = folders / "data"
    first = holder(data)
    assert not is_free(data)
    first.stdin.close()                                     # the first box quits
    assert first.wait(JOIN) == 0
    assert main(["run", "--input", script(folders), "--display", "none", "--data", str(data)]) == 0
    assert is_free(data)                                    # and so did the second


def test_a_box_killed_mid_game_never_blocks_the_next_start(folders, holder):
    data = folders / "data"
    first = holder(data)
    first.send_signal(signal.SIGKILL)
    first.wait(JOIN)
    assert (data / LOCK_FILE).read_text() == f"{first.pid}\n"   # the stale lock file stays
    set_up = "press ok\npress ok\n" + "".join(f"tag village:{v}\ngone village:{v}\n" for v in VILLAGES)
    assert main(["run", "--input", script(folders, set_up + "press ok\n"), "--display", "none",
                 "--data", str(data)]) == 0
    assert (data / "current.jsonl").exists()                # the second box set up a game


def test_a_lock_file_left_by_a_process_long_gone_is_no_lock(folders):
    data = folders / "data"
    data.mkdir()
    (data / LOCK_FILE).write_text("999999\n")
    with hold_data_folder(data):
        assert (data / LOCK_FILE).read_text() == f"{os.getpid()}\n"


WRITERS = {
    "run": ["run", "--display", "none", "--input", "SCRIPT"],
    "sim": ["sim", "--display", "none", "--input", "SCRIPT"],
    "tutorial": ["tutorial", "--display", "none", "--input", "SCRIPT"],
    "tutorial --demo": ["tutorial", "--demo", "--seed", "1"],
    "demo": ["demo", "--seed", "1"],
    "demo --input": ["demo", "--input", "SCRIPT"],
    "enroll": ["enroll", "--display", "none", "--input", "SCRIPT"],
}


@pytest.mark.parametrize("command", WRITERS)
def test_every_command_that_writes_the_data_folder_holds_it(folders, capsys, command):
    data = folders / "data"
    argv = [script(folders) if arg == "SCRIPT" else arg for arg in WRITERS[command]]
    fd = held_by(data)
    try:
        assert main([*argv, "--data", str(data)]) == 1
    finally:
        os.close(fd)
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.endswith(f"the data folder {data} is in use by another box (process 4242)\n")
    assert main([*argv, "--data", str(data)]) == 0          # once free, the command runs
    assert is_free(data)


def test_the_commands_that_only_read_records_take_no_lock(folders, capsys):
    data = folders / "data"
    game = play_game(4, bots=(greedy_bot, random_bot))
    finished = data / "games" / "finished.jsonl"
    finished.parent.mkdir(parents=True)
    finished.write_text(write_record(game))
    unfinished = data / "current.jsonl"
    unfinished.write_text("".join(write_record(game).splitlines(True)[:10]))
    fd = held_by(data)
    try:
        assert main(["score", str(finished)]) == 0
        assert main(["moves", str(unfinished)]) == 0
        assert main(["hint", str(unfinished)]) == 0
        assert main(["replay", str(unfinished), "--out", str(folders / "frames")]) == 0
    finally:
        os.close(fd)
    assert "in use" not in capsys.readouterr().err


def test_the_lock_is_held_once_per_process(tmp_path):
    data = tmp_path / "data"
    with hold_data_folder(data):
        with hold_data_folder(tmp_path / "." / "data"):     # the same folder, named otherwise
            assert not is_free(data)
        assert not is_free(data)                            # the outer hold still holds
    assert is_free(data)


def test_a_child_process_does_not_inherit_the_lock(tmp_path):
    data = tmp_path / "data"
    with hold_data_folder(data):
        child = subprocess.Popen([sys.executable, "-c", "print('ready', flush=True); input()"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                 close_fds=False)
        assert child.stdout.readline() == "ready\n"         # its program runs: exec is done
    try:
        assert is_free(data)                                # though the child lives on
    finally:
        child.stdin.close()
        child.wait(JOIN)


def test_a_holder_that_has_not_written_its_process_yet(tmp_path):
    data = tmp_path / "data"
    fd = held_by(data, pid="")
    try:
        with pytest.raises(UserError) as info, hold_data_folder(data):
            pass
    finally:
        os.close(fd)
    assert str(info.value) == f"the data folder {data} is in use by another box"


def test_a_missing_data_folder_is_made(tmp_path):
    with hold_data_folder(tmp_path / "a" / "b") as folder:
        assert folder.is_dir() and (folder / LOCK_FILE).is_file()


@pytest.mark.parametrize("make, message", [
    (lambda data: (data / LOCK_FILE).symlink_to("/dev/null"), "the lock file is a link; remove it"),
    (lambda data: os.mkfifo(data / LOCK_FILE), "the lock file is not a regular file; remove it"),
    (lambda data: (data / LOCK_FILE).mkdir(), "cannot lock the data folder"),
])
def test_a_lock_file_that_is_not_a_file_is_one_clear_line(folders, capsys, make, message):
    data = folders / "data"
    data.mkdir()
    make(data)
    assert main(["run", "--input", script(folders), "--display", "none", "--data", str(data)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_a_data_folder_that_is_a_file_is_one_clear_line(folders, capsys):
    (folders / "data").write_text("not a folder")
    assert main(["run", "--input", script(folders), "--display", "none",
                 "--data", str(folders / "data")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a folder" in err
