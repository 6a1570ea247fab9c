"""The safe reads and writes of companion/files.py, on hostile files."""

from __future__ import annotations

import os
import threading

import pytest

from companion.errors import UserError
from companion.files import read_bytes, read_text, write_atomically

DEADLINE = 10


def written_within_deadline(path, text) -> None:
    """``write_atomically`` on another thread, so that a write blocked on a pipe fails the
    test instead of hanging the suite."""
    errors: list[BaseException] = []

    def write():
        try:
            write_atomically(path, text)
        except BaseException as exc:  # reported on the test's thread
            errors.append(exc)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    thread.join(DEADLINE)
    assert not thread.is_alive(), "the write blocked"
    if errors:
        raise errors[0]


def test_a_pipe_left_at_the_temporary_name_neither_blocks_nor_is_written_to(tmp_path):
    target = tmp_path / "settings.json"
    os.mkfifo(tmp_path / "settings.json.tmp")                 # nobody reads it
    written_within_deadline(target, '{"version": 1}\n')
    assert target.read_text() == '{"version": 1}\n' and not target.is_symlink()
    assert not (tmp_path / "settings.json.tmp").exists()


def test_a_link_at_the_temporary_name_is_not_followed(tmp_path):
    victim = tmp_path / "elsewhere.txt"
    victim.write_text("keep me")
    (tmp_path / "data").mkdir()
    target = tmp_path / "data" / "tags.json"
    (tmp_path / "data" / "tags.json.tmp").symlink_to(victim)
    written_within_deadline(target, "{}\n")
    assert victim.read_text() == "keep me"                    # the file the link named: untouched
    assert target.read_text() == "{}\n" and not target.is_symlink()


def test_a_folder_at_the_temporary_name_is_an_os_error(tmp_path):
    (tmp_path / "big_game.json.tmp").mkdir()
    with pytest.raises(OSError):
        write_atomically(tmp_path / "big_game.json", "{}\n")
    assert not (tmp_path / "big_game.json").exists()


def test_reads_take_regular_files_of_bounded_size_only(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(UserError, match="not a regular file"):
        read_bytes(tmp_path / "pipe", "a record", 100)
    with pytest.raises(UserError, match="is a folder"):
        read_bytes(tmp_path, "a record", 100)
    (tmp_path / "big").write_bytes(b"x" * 101)
    with pytest.raises(UserError, match="too big"):
        read_bytes(tmp_path / "big", "a record", 100)
    (tmp_path / "latin").write_bytes(b"caf\xe9")
    with pytest.raises(UserError, match="not a UTF-8 text file"):
        read_text(tmp_path / "latin", "a record", 100)
    assert read_bytes(tmp_path / "missing", "the settings", 100, missing_ok=True) is None
    with pytest.raises(UserError, match="cannot hold a NUL byte"):
        read_bytes("a\0b", "a record", 100)
