"""A USB stick plugged into the box is offered a backup (issue 34): the box looks under its
stick folders (a temporary folder here, its "mounts" named by the test), asks over the top
of the screen, and OK writes the archive on the stick."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fakes import WordsDisplay

from companion.backup import restore_backup
from companion.cli import main
from companion.events import Press
from companion.stick import FOLDER, ROOTS, StickOffer, sticks
from companion.table.app_loop import AppLoop
from companion.table.registry import TagRegistry
from companion.table.session import Session

#: The longest the box may take to see a stick or answer, on a loaded machine.
WAIT = 30.0


def test_sticks_are_the_mounts_one_or_two_folders_down(tmp_path):
    root = tmp_path / "media"
    for folder in ("pi/STICK", "pi/not-mounted", "OTHER", "pi/STICK/deeper"):
        (root / folder).mkdir(parents=True)
    (root / "a-file").write_text("")
    (root / "a-link").symlink_to(root / "OTHER")
    mounted = {root / "pi" / "STICK", root / "OTHER", root / "pi" / "STICK" / "deeper", root / "a-link"}
    assert sticks([root, tmp_path / "missing"], mounted.__contains__) == {root / "pi" / "STICK", root / "OTHER"}


def test_the_stick_folders_are_the_system_s_unless_named(tmp_path):
    assert StickOffer(tmp_path).roots == ROOTS == ("/media", "/run/media")
    assert StickOffer(tmp_path, ["/mnt/a", "/mnt/b"]).roots == ("/mnt/a", "/mnt/b")
    assert StickOffer(None, ["/mnt/a"]).roots == ()    # no data folder: nothing to back up


@pytest.fixture
def box(tmp_path):
    """A box playing with a data folder holding a finished game, its stick folder, and the
    sticks "mounted" there (the test adds them)."""
    data, root = tmp_path / "data", tmp_path / "media"
    assert main(["demo", "--seed", "3", "--data", str(data)]) == 0
    (root / "pi" / "THERE").mkdir(parents=True)
    mounted = {root / "pi" / "THERE"}   # there before the box started: never offered

    class Box:
        def __init__(self) -> None:
            self.data, self.root, self.mounted, self.display = data, root, mounted, WordsDisplay(WAIT)
            self.loop = AppLoop(Session(data, TagRegistry(tmp_path / "tags.json")), self.display,
                                stick=StickOffer(data, [root], is_mount=lambda p: p in mounted, every=0.0))
            self.thread = threading.Thread(target=self.loop.run)
            self.thread.start()

        def plug(self, name: str) -> Path:
            stick = root / "pi" / name
            stick.mkdir()
            mounted.add(stick)
            return stick

    made = Box()
    yield made
    made.loop.stop()
    made.thread.join(WAIT)


def test_a_stick_plugged_in_is_offered_a_backup_and_ok_writes_it_there(box, tmp_path):
    stick = box.plug("FAMILY")
    box.display.wait_for("Back up to stick? OK")
    box.loop.put(Press("ok"))
    box.display.wait_for("Backup on the stick")
    (archive,) = (stick / FOLDER).iterdir()
    assert archive.name.startswith("totem-backup-") and archive.name.endswith(".tar.gz")
    restored = restore_backup(archive, tmp_path / "restored")
    assert restored.files == sum(1 for p in box.data.rglob("*") if p.is_file() and p.name != ".lock")
    menu = box.display.shown[-1]
    box.loop.put(Press("down"))   # the next press is the game's again
    box.display.wait_for("Backup on the stick", present=False)
    assert box.display.shown[-1] != menu
    assert not list((box.root / "pi" / "THERE").iterdir())


def test_back_declines_and_a_stick_pulled_out_takes_its_offer_away(box):
    stick = box.plug("ONE")
    box.display.wait_for("Back up to stick? OK")
    box.loop.put(Press("back"))
    box.display.wait_for("Back up to stick? OK", present=False)
    assert not (stick / FOLDER).exists()
    box.plug("TWO")
    box.display.wait_for("Back up to stick? OK")
    box.mounted.clear()
    box.display.wait_for("Back up to stick? OK", present=False)


def test_a_stick_that_cannot_take_the_backup_says_so_in_one_line(box, capsys):
    stick = box.plug("FULL")
    (stick / FOLDER).write_text("not a folder")
    box.display.wait_for("Back up to stick? OK")
    box.loop.put(Press("ok"))
    box.display.wait_for("Backup to stick failed")
    assert (stick / FOLDER).read_text() == "not a folder"
    box.loop.stop()
    box.thread.join(WAIT)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("totem-companion: the backup to the stick failed: ")


def test_a_look_is_made_at_most_every_few_seconds(tmp_path):
    now = [0.0]
    looks: list[Path] = []

    def is_mount(path: Path) -> bool:
        looks.append(path)
        return True
    (tmp_path / "media" / "S").mkdir(parents=True)
    offer = StickOffer(tmp_path, [tmp_path / "media"], is_mount=is_mount, clock=lambda: now[0])
    assert len(looks) == 1 and not offer.look()     # the first look, at the start: S is never offered
    assert len(looks) == 2 and offer.line() is None
    (tmp_path / "media" / "T").mkdir()
    now[0] = 1.0
    assert not offer.look() and len(looks) == 2
    now[0] = 2.5
    assert offer.look() and offer.line() == "stick.offer"
    assert not offer.heard("not a press") and offer.line() == "stick.offer"
    assert not offer.heard(Press("up")) and offer.line() is None
