"""The game journal: durable appends, resume after a crash or a torn line, keeping records."""

from __future__ import annotations

import errno
import gc
import os
from datetime import datetime

import pytest

from companion.errors import UserError
from companion.records import dump_line, parse_lines
from companion.table.journal import CURRENT, GAMES, Journal, archive_unfinished

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


def test_resume_of_a_damaged_file_is_one_clear_error(tmp_path):
    (tmp_path / CURRENT).write_bytes(b'{"game": "wakanda"}\n\xff\xfe\n')
    with pytest.raises(UserError, match="damaged"):
        Journal.resume(tmp_path)
    assert (tmp_path / CURRENT).read_bytes() == b'{"game": "wakanda"}\n\xff\xfe\n'


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
