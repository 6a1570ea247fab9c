"""The game journal: durable appends, resume after a crash or a torn line, keeping records;
a damaged journal resumed without its damaged end, and anything but a regular file set aside
unread."""

from __future__ import annotations

import errno
import gc
import os
import stat
from datetime import datetime

import pytest

from companion.errors import RecordError, UserError
from companion.files import RECORD_BYTES
from companion.records import MAX_LINES, dump_line, parse_lines
from companion.table.journal import CURRENT, GAMES, Journal, SetAside, archive_unfinished

HEADER = {"game": "wakanda", "players": ["Аня", "Ben"],
          "villages": ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"], "first": 0}
EVENTS = [{"p": 0, "draw": "eagle"}, {"p": 0, "build": "eagle", "village": 2},
          {"p": 1, "draw": "sun"}, {"p": 1, "build": "sun", "village": 1},
          {"undo": True}, {"p": 1, "claim": 2}]
NOON = datetime(2024, 5, 1, 12, 0, 0)


def record_text(lines):
    return "".join(dump_line(line) for line in lines)


def test_start_writes_the_header_and_append_each_line(tmp_path):
    journal = Journal.start(tmp_path, HEADER)
    for event in EVENTS:
        journal.append(event)
    journal.close()
    assert (tmp_path / CURRENT).read_text(encoding="utf-8") == record_text([HEADER, *EVENTS])
    assert (tmp_path / CURRENT).exists()


def test_start_creates_missing_folders(tmp_path):
    journal = Journal.start(tmp_path / "a" / "b", HEADER)
    journal.close()
    assert (tmp_path / "a" / "b" / CURRENT).read_text(encoding="utf-8") == record_text([HEADER])


def test_start_refuses_while_an_unfinished_game_exists(tmp_path):
    Journal.start(tmp_path, HEADER).close()
    before = (tmp_path / CURRENT).read_bytes()
    with pytest.raises(UserError, match="unfinished game"):
        Journal.start(tmp_path, {"game": "totem-wars"})
    assert (tmp_path / CURRENT).read_bytes() == before


def test_a_data_folder_that_cannot_be_written_is_one_clear_error(tmp_path):
    blocked = tmp_path / "data"
    blocked.write_text("a file where the folder should be")
    with pytest.raises(UserError, match="cannot write to the data folder") as info:
        Journal.start(blocked, HEADER)
    assert "\n" not in str(info.value)


def test_append_is_on_disk_before_it_returns(tmp_path, mocker):
    journal = Journal.start(tmp_path, HEADER)
    seen = []
    real_fsync = os.fsync

    def look_then_sync(fd):
        seen.append((tmp_path / CURRENT).read_text(encoding="utf-8"))
        real_fsync(fd)

    fsync = mocker.patch.object(os, "fsync", side_effect=look_then_sync)
    journal.append(EVENTS[0])
    assert fsync.call_count == 1 and seen == [record_text([HEADER, EVENTS[0]])]
    journal.append(EVENTS[1])
    assert fsync.call_count == 2 and seen[-1] == record_text([HEADER, *EVENTS[:2]])
    journal.close()


def test_a_failed_write_is_taken_back_and_reported(tmp_path, mocker):
    journal = Journal.start(tmp_path, HEADER)
    journal.append(EVENTS[0])
    full_disk = mocker.patch.object(os, "fsync", side_effect=OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    with pytest.raises(UserError, match="cannot write the game journal"):
        journal.append(EVENTS[1])
    full_disk.assert_called_once()
    mocker.stop(full_disk)                        # room on the disk again
    journal.append(EVENTS[2])
    journal.close()
    assert (tmp_path / CURRENT).read_text(encoding="utf-8") == record_text([HEADER, EVENTS[0], EVENTS[2]])


@pytest.mark.parametrize("count", range(len(EVENTS) + 1))
def test_resume_after_a_crash_at_every_line(tmp_path, count):
    journal = Journal.start(tmp_path, HEADER)
    for event in EVENTS[:count]:
        journal.append(event)
    del journal  # the power goes: no close
    gc.collect()
    journal, text = Journal.resume(tmp_path)
    assert text == record_text([HEADER, *EVENTS[:count]])
    journal.append({"p": 0, "pass": True})
    journal.close()
    lines, warnings = parse_lines((tmp_path / CURRENT).read_text(encoding="utf-8"))
    assert warnings == []
    assert [obj for _, obj in lines] == [HEADER, *EVENTS[:count], {"p": 0, "pass": True}]


def test_resume_with_the_last_line_cut_at_every_byte(tmp_path):
    complete = record_text([HEADER, *EVENTS[:-1]]).encode("utf-8")
    last = dump_line({"p": 1, "claim": 2, "note": "Аня"}).encode("utf-8")
    for cut in range(len(last)):
        (tmp_path / CURRENT).write_bytes(complete + last[:cut])
        journal, text = Journal.resume(tmp_path)
        # Cut just before its newline, the last line is whole JSON and is kept.
        expected = complete + last if cut == len(last) - 1 else complete
        assert text == expected.decode("utf-8"), cut
        journal.append(EVENTS[-1])
        journal.close()
        lines, warnings = parse_lines((tmp_path / CURRENT).read_text(encoding="utf-8"))
        assert warnings == [], cut
        assert lines[-1][1] == EVENTS[-1]
        assert len(lines) == len(EVENTS) + 1 + (cut == len(last) - 1)


def test_resume_without_an_unfinished_game(tmp_path):
    assert Journal.resume(tmp_path) is None
    assert Journal.resume(tmp_path / "missing") is None


@pytest.mark.parametrize("content", [b"", b'{"game": "waka', b"  \n"])
def test_resume_of_a_file_without_a_complete_line_starts_afresh(tmp_path, content):
    (tmp_path / CURRENT).write_bytes(content)
    assert Journal.resume(tmp_path) is None
    assert not (tmp_path / CURRENT).exists()
    Journal.start(tmp_path, HEADER).close()




def test_finish_keeps_the_record_under_games(tmp_path):
    journal = Journal.start(tmp_path, HEADER)
    journal.append(EVENTS[0])
    kept = journal.finish(now=NOON)
    assert kept == tmp_path / GAMES / "20240501-120000-wakanda.jsonl"
    assert kept.read_text(encoding="utf-8") == record_text([HEADER, EVENTS[0]])
    assert not (tmp_path / CURRENT).exists()


def test_finish_never_overwrites_a_kept_record(tmp_path):
    first = Journal.start(tmp_path, HEADER).finish(now=NOON)
    second = Journal.start(tmp_path, {**HEADER, "first": 1}).finish(now=NOON)
    third = Journal.start(tmp_path, HEADER).finish(now=NOON)
    assert first.name == "20240501-120000-wakanda.jsonl"
    assert second.name == "20240501-120000-wakanda-2.jsonl"
    assert third.name == "20240501-120000-wakanda-3.jsonl"
    assert '"first": 0' in first.read_text(encoding="utf-8")


def test_finish_after_resume_keeps_the_game_name(tmp_path):
    Journal.start(tmp_path, {"game": "totem-wars", "players": ["A", "B"]}).close()
    journal, _ = Journal.resume(tmp_path)
    assert journal.finish(now=NOON).name == "20240501-120000-totem-wars.jsonl"


def test_archive_unfinished_keeps_the_file_as_it_is(tmp_path):
    torn = (record_text([HEADER, EVENTS[0]]) + '{"p": 0, "bui').encode("utf-8")
    (tmp_path / CURRENT).write_bytes(torn)
    kept = archive_unfinished(tmp_path, now=NOON)
    assert kept.name == "20240501-120000-wakanda-unfinished.jsonl"
    assert kept.read_bytes() == torn
    assert not (tmp_path / CURRENT).exists()
    Journal.start(tmp_path, HEADER).close()
    assert archive_unfinished(tmp_path, now=NOON).name == "20240501-120000-wakanda-unfinished-2.jsonl"


def test_archive_unfinished_without_a_game(tmp_path):
    assert archive_unfinished(tmp_path) is None


def test_archive_of_an_unreadable_header_still_keeps_it(tmp_path):
    (tmp_path / CURRENT).write_bytes(b"not json\n")
    assert archive_unfinished(tmp_path, now=NOON).name == "20240501-120000-game-unfinished.jsonl"


def test_a_finish_that_cannot_keep_the_record_leaves_the_game_playable(tmp_path):
    journal = Journal.start(tmp_path, HEADER)
    journal.append(EVENTS[0])
    (tmp_path / GAMES).write_text("a file where the folder should be")
    with pytest.raises(UserError, match="cannot write to the data folder"):
        journal.finish(now=NOON)
    journal.append({"undo": True})                # the game goes on: an undo is still kept
    journal.close()
    assert (tmp_path / CURRENT).read_text(encoding="utf-8") == record_text(
        [HEADER, EVENTS[0], {"undo": True}])


# --- a damaged journal -------------------------------------------------------------------

#: Complete lines no record holds, each with the reason resume gives for it.
BAD_LINES = {
    "a huge integer": (b'{"p": ' + b"9" * 5000 + b', "draw": "sun"}', "a number too long"),
    "nesting 2000 deep": (b'{"p": ' + b"[" * 2000 + b"]" * 2000 + b"}", "nested too deep"),
    "NUL bytes": (b"\0" * 40, "NUL bytes"),
    "NUL bytes in a string": (b'{"p": 0, "draw": "s\0n"}', "NUL bytes"),
    "bad UTF-8": (b'{"p": 0, "draw": "\xff\xfe"}', "not UTF-8 text"),
    "not JSON": (b'{"p": 0, "draw": ', "not valid JSON"),
    "not an object": (b"[0, 1]", "not a JSON object"),
}


def damaged(tmp_path, bad: bytes, after=()) -> bytes:
    """A journal whose line 3 is ``bad``, then the ``after`` lines; its bytes."""
    data = (record_text([HEADER, *EVENTS[:1]]).encode("utf-8") + bad + b"\n"
            + record_text(after).encode("utf-8"))
    (tmp_path / CURRENT).write_bytes(data)
    return data


def kept_files(tmp_path):
    return sorted((tmp_path / GAMES).iterdir()) if (tmp_path / GAMES).exists() else []


def test_millions_of_lines_are_never_all_read_the_game_before_them_resumes(tmp_path):
    # A hostile journal within the size limit: split whole and read, it took 1.6 GB.
    data = (record_text([HEADER, *EVENTS[:2]]) + "\n" * (3 * MAX_LINES)).encode("utf-8")
    (tmp_path / CURRENT).write_bytes(data)
    journal, text = Journal.resume(tmp_path, now=NOON)
    assert text.rstrip("\n") == record_text([HEADER, *EVENTS[:2]]).rstrip("\n")
    dropped = journal.dropped
    assert dropped.line == MAX_LINES + 1 and dropped.reason.startswith("more lines than a game has")
    assert dropped.kept.read_bytes() == data                 # kept whole, aside
    journal.close()
    assert (tmp_path / CURRENT).stat().st_size < len(data)


@pytest.mark.parametrize("kind", BAD_LINES)
def test_a_damaged_line_is_dropped_and_the_game_resumes_before_it(tmp_path, kind):
    bad, reason = BAD_LINES[kind]
    data = damaged(tmp_path, bad)
    journal, text = Journal.resume(tmp_path, now=NOON)
    assert text == record_text([HEADER, EVENTS[0]])
    dropped = journal.dropped
    assert (dropped.line, dropped.count) == (3, 1) and dropped.reason.startswith(reason)
    assert dropped.kept == tmp_path / GAMES / "20240501-120000-wakanda-damaged.jsonl"
    assert dropped.kept.read_bytes() == data                 # nothing is lost: kept whole
    message = str(dropped)
    assert f"line 3 dropped: {reason}" in message and str(dropped.kept) in message
    assert "\n" not in message and "\0" not in message and len(message) < 300
    journal.append(EVENTS[1])                                # the game goes on from there
    journal.close()
    assert (tmp_path / CURRENT).read_text(encoding="utf-8") == record_text([HEADER, *EVENTS[:2]])
    again, _ = Journal.resume(tmp_path)                      # repaired once, for good
    assert again.dropped is None and len(kept_files(tmp_path)) == 1
    again.close()


def test_the_lines_after_a_damaged_one_are_dropped_with_it(tmp_path):
    data = damaged(tmp_path, b"\0" * 8, after=EVENTS[1:3])
    journal, text = Journal.resume(tmp_path, now=NOON)
    journal.close()
    assert text == record_text([HEADER, EVENTS[0]])
    assert (journal.dropped.line, journal.dropped.count) == (3, 3)
    assert "line 3 dropped: NUL bytes (a write lost in a crash) (and the 2 lines after it)" in str(
        journal.dropped)
    assert journal.dropped.kept.read_bytes() == data


def test_a_damaged_line_and_a_torn_one_after_it(tmp_path):
    data = damaged(tmp_path, b"[1]") + b'{"p": 1, "dr'
    (tmp_path / CURRENT).write_bytes(data)
    journal, text = Journal.resume(tmp_path)
    journal.close()
    assert text == record_text([HEADER, EVENTS[0]])
    assert journal.dropped.count == 1                        # the torn line was never confirmed
    assert journal.dropped.kept.read_bytes() == data
    assert (tmp_path / CURRENT).read_bytes() == text.encode("utf-8")


def test_the_record_reader_decides_which_lines_are_the_game(tmp_path):
    damaged(tmp_path, dump_line({"p": 7, "draw": "sun"}).rstrip("\n").encode(), after=EVENTS[1:2])
    seen = []

    def read(text):
        seen.append(text.count("\n"))
        if text.count("\n") >= 3:
            raise RecordError(3, "p must be 0 or 1, got 7 (W1)")
        return "the game"

    journal, value = Journal.resume(tmp_path, read)
    journal.close()
    assert value == "the game" and seen == [4, 2]
    assert (journal.dropped.line, journal.dropped.reason) == (3, "p must be 0 or 1, got 7 (W1)")
    assert (tmp_path / CURRENT).read_text(encoding="utf-8") == record_text([HEADER, EVENTS[0]])


@pytest.mark.parametrize("failure", [RecordError(1, "players must be 2 names (W1)"),
                                     RecordError(9, "a line the text does not have"),
                                     UserError("deck 'x' not found"), ValueError("bad"),
                                     RecursionError()])
def test_a_game_the_reader_cannot_read_at_all_is_set_aside(tmp_path, failure):
    data = record_text([HEADER, *EVENTS]).encode("utf-8")
    (tmp_path / CURRENT).write_bytes(data)

    def read(text):
        raise failure

    with pytest.raises(SetAside) as info:
        Journal.resume(tmp_path, read, now=NOON)
    assert info.value.kept == tmp_path / GAMES / "20240501-120000-wakanda-damaged.jsonl"
    assert info.value.kept.read_bytes() == data and not (tmp_path / CURRENT).exists()
    assert "set aside as" in str(info.value) and "\n" not in str(info.value)
    Journal.start(tmp_path, HEADER).close()                  # a new game can start


@pytest.mark.parametrize("kind", BAD_LINES)
def test_a_damaged_header_sets_the_game_aside(tmp_path, kind):
    bad, reason = BAD_LINES[kind]
    data = bad + b"\n" + record_text(EVENTS).encode("utf-8")
    (tmp_path / CURRENT).write_bytes(data)
    with pytest.raises(SetAside, match=f"line 1: {reason}") as info:
        Journal.resume(tmp_path, now=NOON)
    assert info.value.kept == tmp_path / GAMES / "20240501-120000-game-damaged.jsonl"
    assert info.value.kept.read_bytes() == data
    assert Journal.resume(tmp_path) is None
    Journal.start(tmp_path, HEADER).close()


def test_a_journal_too_big_for_a_game_is_set_aside_unread(tmp_path):
    with open(tmp_path / CURRENT, "wb") as f:                 # sparse: no 16 MB written
        f.write(dump_line(HEADER).encode("utf-8"))
        f.truncate(RECORD_BYTES + 1)
    with pytest.raises(SetAside, match="too big") as info:
        Journal.resume(tmp_path, now=NOON)
    assert info.value.kept.name == "20240501-120000-wakanda-damaged.jsonl"
    assert info.value.kept.stat().st_size == RECORD_BYTES + 1


def test_a_damaged_journal_in_a_folder_that_cannot_keep_it_is_left_as_it_was(tmp_path):
    data = damaged(tmp_path, b"\0")
    (tmp_path / GAMES).write_text("a file where the folder should be")
    with pytest.raises(UserError, match="cannot write to the data folder"):
        Journal.resume(tmp_path)
    assert (tmp_path / CURRENT).read_bytes() == data         # nothing cut without a copy


# --- anything but a regular file -------------------------------------------------------------

def odd_current(tmp_path, kind):
    """Make ``current.jsonl`` a ``kind`` of file that is not a regular file of the folder;
    the file a link points to, if any, and its bytes."""
    current = tmp_path / "data" / CURRENT
    current.parent.mkdir()
    outside = tmp_path / "outside.jsonl"
    if kind == "dangling link":
        current.symlink_to(tmp_path / "nowhere.jsonl")
    elif kind == "link to a folder":
        (tmp_path / "folder").mkdir()
        current.symlink_to(tmp_path / "folder")
    elif kind == "link to a record outside":
        outside.write_text(record_text([HEADER, EVENTS[0]]))
        current.symlink_to(outside)
    elif kind == "link to /dev/full":
        current.symlink_to("/dev/full")
    elif kind == "link to /dev/zero":
        current.symlink_to("/dev/zero")
    elif kind == "pipe":
        os.mkfifo(current)
    elif kind == "folder":
        current.mkdir()
    return current.parent


ODD = ["dangling link", "link to a folder", "link to a record outside", "link to /dev/full",
       "link to /dev/zero", "pipe", "folder"]


@pytest.mark.parametrize("kind", ODD)
def test_a_journal_that_is_not_a_regular_file_is_set_aside_unread(tmp_path, kind):
    data = odd_current(tmp_path, kind)
    outside = tmp_path / "outside.jsonl"
    before = outside.read_bytes() if outside.exists() else None
    with pytest.raises(SetAside, match="not a game record: set aside as") as info:
        Journal.resume(data, now=NOON)
    word = {"pipe": "pipe", "folder": "folder"}.get(kind, "link")
    assert info.value.kept == data / GAMES / f"20240501-120000-current-{word}-damaged"
    assert not os.path.lexists(data / CURRENT)
    assert stat.S_ISLNK(os.lstat(info.value.kept).st_mode) == (word == "link")   # moved as it was
    if before is not None:
        assert outside.read_bytes() == before                # the link's target untouched
        assert "a link to " + str(outside) in str(info.value)
    Journal.start(data, HEADER).close()                      # a new game can start
    assert Journal.resume(data)[1] == record_text([HEADER])


@pytest.mark.parametrize("kind", ODD)
def test_archiving_a_journal_that_is_not_a_regular_file_never_reads_it(tmp_path, kind):
    data = odd_current(tmp_path, kind)
    word = {"pipe": "pipe", "folder": "folder"}.get(kind, "link")
    assert archive_unfinished(data, now=NOON).name == f"20240501-120000-current-{word}-damaged"
    Journal.start(data, HEADER).close()


def test_a_device_as_the_journal_is_set_aside(tmp_path):
    device = tmp_path / CURRENT
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))   # what /dev/null is
    except PermissionError:
        pytest.skip("making a device node needs privileges")
    with pytest.raises(SetAside, match="was a device"):
        Journal.resume(tmp_path, now=NOON)
    assert stat.S_ISCHR(os.lstat(tmp_path / GAMES / "20240501-120000-current-device-damaged").st_mode)


def test_a_kept_name_held_by_a_dangling_link_is_not_taken(tmp_path):
    (tmp_path / GAMES).mkdir()
    (tmp_path / GAMES / "20240501-120000-wakanda.jsonl").symlink_to(tmp_path / "nowhere")
    kept = Journal.start(tmp_path, HEADER).finish(now=NOON)
    assert kept.name == "20240501-120000-wakanda-2.jsonl"
    assert os.path.islink(tmp_path / GAMES / "20240501-120000-wakanda.jsonl")
