"""Input scripts: parsing up front, item names, playing with waits, errors."""

import queue
import threading

import pytest

from companion.errors import UserError
from companion.events import Hold, Press, ReaderState, Tag, TagGone, Wait
from hardware.script_input import MAX_WAIT_SECONDS, ScriptInput

SCRIPT = """\
# a short turn
press v3
hold V1
wait 0.5
tag eagle
gone eagle           # taken off the pad
tag 04a1b2c3d4 slot2
reader pad disconnected

tag village:sun
"""


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "turn.txt"
    path.write_text(SCRIPT)
    return path


def test_events_are_parsed_up_front(script):
    assert list(ScriptInput(script).events()) == [
        Press("v3"), Hold("v1"), Wait(0.5), Tag("eagle", "pad"), TagGone("eagle", "pad"),
        Tag("04A1B2C3D4", "slot2"), ReaderState("pad", False), Tag("village:sun", "pad"),
    ]


def test_item_names_are_resolved_to_enrolled_uids(script):
    enrolled = {"eagle": "0A1B2C3D4E"}
    events = list(ScriptInput(script, resolve=enrolled.get).events())
    assert Tag("0A1B2C3D4E", "pad") in events
    assert TagGone("0A1B2C3D4E", "pad") in events
    assert Tag("village:sun", "pad") in events      # not enrolled: kept as written
    assert Tag("04A1B2C3D4", "slot2") in events


@pytest.mark.parametrize("text, line, reason", [
    ("press v3\npress v9\n", 2, "unknown button 'v9'"),
    ("\n\nwait soon\n", 3, "'wait' takes a number of seconds"),
    ("jump v1\n", 1, "unknown event 'jump'"),
    ("tag\n", 1, "'tag' takes a UID or item name"),
])
def test_a_bad_line_names_the_file_and_line(tmp_path, text, line, reason):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(UserError) as info:
        ScriptInput(path)
    assert str(info.value).startswith(f"{path}: line {line}: {reason}")
    assert "\n" not in str(info.value)


def test_missing_and_unreadable_files_are_one_line(tmp_path):
    with pytest.raises(UserError, match=r"nothing\.txt: no such file$"):
        ScriptInput(tmp_path / "nothing.txt")
    with pytest.raises(UserError, match="is a folder"):
        ScriptInput(tmp_path)
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"press v1\n\xff\xfe\n")
    with pytest.raises(UserError, match="not a UTF-8 text file"):
        ScriptInput(binary)


def test_start_plays_in_order_honouring_waits(script):
    slept, ended = [], threading.Event()
    q = queue.Queue()

    def sleep(seconds):
        q.put(("slept", seconds))
        slept.append(seconds)

    source = ScriptInput(script, on_end=ended.set, sleep=sleep)
    source.start(q.put)
    assert ended.wait(3)
    played = [q.get(timeout=1) for _ in range(8)]
    assert played[:4] == [Press("v3"), Hold("v1"), ("slept", 0.5), Tag("eagle", "pad")]
    assert played[-1] == Tag("village:sun", "pad")
    assert q.empty()
    source.close()


def test_close_cuts_a_long_wait_short_and_skips_on_end(tmp_path):
    path = tmp_path / "slow.txt"
    path.write_text("press v1\nwait 60\npress v2\n")
    ended = threading.Event()
    q = queue.Queue()
    source = ScriptInput(path, on_end=ended.set)
    source.start(q.put)
    assert q.get(timeout=3) == Press("v1")
    source.close()
    assert q.empty() and not ended.is_set()


def test_on_end_can_be_set_after_construction(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("# nothing but a comment\n")
    source = ScriptInput(path)
    assert list(source.events()) == []
    ended = threading.Event()
    source.on_end = ended.set
    source.start(lambda event: None)
    assert ended.wait(3)
    source.close()


@pytest.mark.parametrize("wait", ["1e10", "3600.5", "inf", "nan", "-1"])
def test_a_wait_is_a_finite_number_of_seconds_up_to_an_hour(tmp_path, wait):
    path = tmp_path / "waits.txt"
    path.write_text(f"press v1\nwait {wait}\npress v2\n")
    with pytest.raises(UserError, match=rf"^{path}: line 2: 'wait' ") as info:
        ScriptInput(path)
    assert "\n" not in str(info.value)


def test_an_hour_is_the_longest_wait(tmp_path):
    path = tmp_path / "hour.txt"
    path.write_text(f"wait {MAX_WAIT_SECONDS}\n")
    assert list(ScriptInput(path).events()) == [Wait(MAX_WAIT_SECONDS)]


@pytest.mark.parametrize("line, quoted", [
    ("press " + "v" * 500_000, "unknown button 'vvvv"),
    ("bogus" + "A" * 900_000, "unknown event 'bogusAAAA"),
    ("\0" * 900_000 + " x y", r"unprintable characters in '\x00\x00"),
    ("tag eagle\x1b[2J", r"unprintable characters in 'tag eagle\x1b[2J'"),
    ("tag eagle\u200b pad", r"unprintable characters in 'tag eagle\u200b pad'"),
])
def test_a_bad_line_is_quoted_short_and_escaped(tmp_path, line, quoted):
    path = tmp_path / "long.txt"
    path.write_text(f"press v1\n{line}\n")
    with pytest.raises(UserError) as info:
        ScriptInput(path)
    message = str(info.value)
    assert message.startswith(f"{path}: line 2: {quoted}")
    assert message.isprintable() and len(message) < len(str(path)) + 500


# A pipe and /dev/zero are tried through the command line (tests/test_cli.py): were they
# read as a file is, a test here would hang.
@pytest.mark.parametrize("make", [
    lambda p: p.write_text("press v1\n" * 200_000),            # 1.8 MB: over the 1 MB of a script
    lambda p: p.mkdir(),
])
def test_only_a_regular_file_of_at_most_1_mb_is_read(tmp_path, make):
    path = tmp_path / "script"
    make(path)
    with pytest.raises(UserError) as info:
        ScriptInput(path)
    assert str(info.value).startswith(f"{path}: ") and "\n" not in str(info.value)


@pytest.mark.parametrize("name", ["a\0b.txt", "a\ud800b.txt"])
def test_a_path_no_file_can_have_is_one_line(tmp_path, name):
    with pytest.raises(UserError, match="file name") as info:
        ScriptInput(f"{tmp_path}/{name}")
    assert str(info.value).isprintable()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_the_end_is_told_even_when_playing_fails(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("press v1\n")
    ended = threading.Event()

    def put(event):
        raise RuntimeError("the queue is gone")

    source = ScriptInput(path, on_end=ended.set)
    source.start(put)
    assert ended.wait(3)
    source.close()
