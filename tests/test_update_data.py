"""The pieces of an update that live in the data folder (issue 34): its format migrated on a
copy, the old files kept until the new release is healthy and put back when it is undone,
whatever moment a power cut takes; and the line the box shows when an update was undone."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PIL import Image

from companion import data_format, update_note
from companion.errors import UserError
from companion.events import Press
from companion.table.app_loop import AppLoop
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.ui.canvas import SMALL, WIDTH, frame_words, text_width
from companion.ui.text import languages, t


def a_data_folder(folder: Path) -> dict[str, bytes]:
    """A data folder as a box leaves it (games, a journal, settings, a lock); its files."""
    (folder / "games").mkdir(parents=True)
    (folder / "games" / "2026-12-01-a.jsonl").write_bytes(b'{"game": "wakanda"}\n')
    (folder / "games" / "2026-12-02-b.jsonl").write_bytes(b'{"game": "totem-wars"}\n')
    (folder / "current.jsonl").write_bytes(b'{"game": "wakanda"}\n{"a": 1}\n')
    (folder / "settings.json").write_text('{"language": "fr"}')
    (folder / ".lock").write_text("")
    return files(folder)


def files(folder: Path) -> dict[str, bytes]:
    """The box's files in ``folder`` (not its lock nor the migrations' own folder)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.relative_to(folder).parts[0] not in data_format.STAYS}


def index_games(folder: Path) -> None:
    """A format change for the tests: format 2 has an index of the finished games."""
    (folder / "index.txt").write_text("\n".join(sorted(p.name for p in (folder / "games").iterdir())))


@pytest.fixture
def format_two(mocker):
    mocker.patch.object(data_format, "FORMAT", 2)
    mocker.patch.dict(data_format.MIGRATIONS, {1: index_games})


def migrated(old: dict[str, bytes]) -> dict[str, bytes]:
    return {**old, "format.json": b'{"format": 2}', "index.txt": b"2026-12-01-a.jsonl\n2026-12-02-b.jsonl"}


def test_a_folder_in_the_release_s_format_is_left_alone(tmp_path):
    old = a_data_folder(tmp_path / "data")
    assert data_format.migrate(tmp_path / "data") is None
    assert data_format.restore(tmp_path / "data") is None
    assert files(tmp_path / "data") == old and not (tmp_path / "data" / data_format.FORMATS).exists()
    assert data_format.migrate(tmp_path / "none") is None  # a box's first start: no folder yet


def test_a_new_format_migrates_a_copy_keeps_the_old_files_and_drops_them_once_healthy(tmp_path, format_two):
    data = tmp_path / "data"
    old = a_data_folder(data)
    assert data_format.migrate(data) == ("the data folder went from format 1 to 2; the old files are kept "
                                         "until the box is healthy")
    assert files(data) == migrated(old)
    assert files(data / ".formats" / "kept-1") == old
    assert (data / ".lock").exists()
    assert data_format.migrate(data) is None            # the next start: nothing more to do
    data_format.drop_kept(data)
    assert files(data) == migrated(old) and list((data / ".formats").iterdir()) == []


def test_a_release_undone_puts_the_old_files_back(tmp_path, format_two):
    data = tmp_path / "data"
    old = a_data_folder(data)
    data_format.migrate(data)
    assert data_format.restore(data) == "the data folder is back in format 1"
    assert files(data) == old
    assert data_format.format_of(data) == 1


def replaces(mocker, at: int):
    """``os.replace`` as in the migration, cut off (a power cut) at its ``at``-th call."""
    real, calls = os.replace, []

    def cut(*args, **kwargs):
        calls.append(args)
        if len(calls) == at:
            raise OSError("the power went")
        return real(*args, **kwargs)
    return mocker.patch.object(data_format.os, "replace", side_effect=cut)


def moves(tmp_path, mocker, step) -> int:
    """How many renames ``step`` makes on a fresh folder."""
    data = tmp_path / "count"
    a_data_folder(data)
    if step is data_format.restore:
        data_format.migrate(data)
    counted = replaces(mocker, 0)
    step(data)
    mocker.stop(counted)
    return counted.call_count


def test_a_migration_cut_off_at_any_rename_leaves_one_whole_folder(tmp_path, mocker, format_two):
    total = moves(tmp_path, mocker, data_format.migrate)
    assert total >= 6
    for at in range(1, total + 1):
        data = tmp_path / f"data-{at}"
        old = a_data_folder(data)
        cut = replaces(mocker, at)
        with pytest.raises(OSError):
            data_format.migrate(data)
        mocker.stop(cut)
        # The next start finishes what was begun, or begins again: the new format, whole.
        data_format.migrate(data)
        assert files(data) == migrated(old), at
        assert files(data / ".formats" / "kept-1") == old, at


def test_an_undo_cut_off_at_any_rename_leaves_the_old_folder_whole(tmp_path, mocker, format_two):
    total = moves(tmp_path, mocker, data_format.restore)
    for at in range(1, total + 1):
        data = tmp_path / f"data-{at}"
        old = a_data_folder(data)
        data_format.migrate(data)
        cut = replaces(mocker, at)
        with pytest.raises(OSError):
            data_format.restore(data)
        mocker.stop(cut)
        data_format.restore(data)
        assert files(data) == old, at


def test_a_folder_newer_than_the_release_or_a_bad_marker_is_one_line(tmp_path):
    data = tmp_path / "data"
    a_data_folder(data)
    (data / "format.json").write_text('{"format": 7}')
    with pytest.raises(UserError, match=r"the data is in format 7, newer than this release's \(1\): update the box, "
                                        "or restore a backup$"):
        data_format.migrate(data)
    for bad in ('{"format": "2"}', "[", '{"format": 0}', '{"format": true}'):
        (data / "format.json").write_text(bad)
        with pytest.raises(UserError, match="not a data format marker$"):
            data_format.migrate(data)
    (data / "format.json").unlink()
    (data / ".formats").mkdir()
    (data / ".formats" / "swap.json").write_text('{"in": "../x", "out": "y", "phase": "in"}')
    with pytest.raises(UserError, match="damaged; the data folder's files are in"):
        data_format.migrate(data)
    assert data_format.main(["--data", str(data)]) == 1


class Display:
    def __init__(self) -> None:
        self.frames: list[Image.Image] = []

    def show(self, image: Image.Image) -> int:
        self.frames.append(image)
        return 1

    def close(self) -> None:
        pass


def test_the_box_says_an_update_was_undone_until_a_button_is_pressed_then_the_note_is_gone(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    update_note.leave(data, "timeout")
    display = Display()
    loop = AppLoop(Session(data, TagRegistry(tmp_path / "tags.json")), display)
    loop.put(Press("down"))
    loop.stop()
    loop.run()
    first, after = frame_words(display.frames[0]), frame_words(display.frames[-1])
    assert first[0] == "Update too slow: undone"
    assert "Update too slow: undone" not in after
    assert not (data / update_note.NOTE).exists()
    # The next start says nothing.
    display = Display()
    loop = AppLoop(Session(data, TagRegistry(tmp_path / "tags.json")), display)
    loop.stop()
    loop.run()
    assert "Update too slow: undone" not in frame_words(display.frames[0])


@pytest.mark.parametrize("note", [b"[", b"\xff", b'{"why": "bored"}', b"{}", b'{"why": 3}'])
def test_a_note_that_is_not_one_is_dropped_and_the_box_plays_on(tmp_path, note):
    (tmp_path / update_note.NOTE).write_bytes(note)
    assert update_note.take(tmp_path) is None
    assert not (tmp_path / update_note.NOTE).exists()
    (tmp_path / update_note.NOTE).mkdir()
    assert update_note.take(tmp_path) is None


@pytest.mark.parametrize("lang", languages())
def test_the_update_s_lines_fit_one_line_of_the_box_over_the_screen(lang):
    for key in update_note.WHYS.values():
        line = t(key, lang)
        assert line and text_width(line, SMALL) <= WIDTH - 4, (lang, line)
        assert lang == "en" or line != t(key, "en"), (lang, line)


def test_the_note_is_written_atomically_as_json(tmp_path):
    update_note.leave(tmp_path, "failed")
    assert json.loads((tmp_path / update_note.NOTE).read_text()) == {"why": "failed"}
    assert update_note.take(tmp_path) == "update.undone_failed"


def a_home_on_trial(home: Path, data: Path) -> None:
    """A home whose update to ``new`` is on trial (its start made), the data migrated for it."""
    from companion import update

    for name in ("old", "new"):
        (home / "releases" / name).mkdir(parents=True)
    update._point(home, "good", "old")
    update._point(home, "previous", "old")
    update._point(home, "current", "new")
    update._write_state(home, {"step": "trial", "from": "old", "to": "new", "back": None, "starts": 1})


@pytest.mark.parametrize("result, why", [("timeout", "update.undone_slow"), ("exit-code", "update.undone_failed")])
def test_an_undo_cut_off_at_any_step_is_finished_at_the_next_start(tmp_path, mocker, format_two, result, why):
    from companion import update

    def run(at: int) -> Path:
        home, data = tmp_path / f"home-{at}", tmp_path / f"data-{at}"
        old = a_data_folder(data)
        data_format.migrate(data)
        a_home_on_trial(home, data)
        real, calls = update._point, []

        def cut(*args: object) -> None:
            calls.append(args)
            if len(calls) == at:
                raise OSError("the power went")
            real(*args)
        patched = mocker.patch.object(update, "_point", side_effect=cut)
        try:
            update.guard(home, "stopped", data, result)
        except OSError:
            pass
        mocker.stop(patched)
        update.guard(home, "start", data)        # the next boot
        assert update.release_of(home) == "old" and not (home / update.STATE).exists(), at
        assert files(data) == {**old, update_note.NOTE: files(data).get(update_note.NOTE, b"")}, at
        assert update_note.take(data) in (why, "update.undone_slow"), at
        return home

    homes = [run(at) for at in range(1, 4)]
    assert update.release_of(homes[-1], "previous") is None
    assert not (homes[-1] / "releases" / "new").exists()


def test_the_guard_starts_no_python_when_no_update_is_under_way(tmp_path):
    import subprocess

    from companion import update

    home = tmp_path / "home"
    home.mkdir()
    update.write_guard(home)
    (home / "good").symlink_to("releases/none")   # no release there at all: nothing is run
    for event in ("start", "migrate", "ready", "stopped"):
        done = subprocess.run([str(home / update.GUARD), event, "--data", str(tmp_path)], capture_output=True,
                              timeout=60)
        assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert sorted(p.name for p in home.iterdir()) == ["good", "guard"]
