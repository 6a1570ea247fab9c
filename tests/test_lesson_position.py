"""Where a lesson stands (``companion/table/lesson_position.py``): a lesson kept by the box's
earlier versions (``tests/data/lesson_<game>_kept_v1``, written before the position was one
value) resumes at its step and plays on as it did then; the position is kept as it is, its
order too, and moves by values."""

from __future__ import annotations

import json
import shutil

import pytest
from tutorial_helpers import DATA, frames_of

from companion.table.lesson_position import Position, Record
from companion.table.tutorial_store import PROGRESS_FILE, TutorialStore

SCRIPTS = {"wakanda": DATA / "lesson_wakanda_2.txt",
           "totem-wars": DATA / "lesson_totem-wars_kept_v1" / "script.txt"}


@pytest.fixture(autouse=True)
def own_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))


@pytest.mark.parametrize("game", sorted(SCRIPTS))
def test_a_lesson_kept_by_an_earlier_version_resumes_as_it_did(tmp_path, capsys, game):
    kept = DATA / f"lesson_{game}_kept_v1"
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(kept / "tutorial.json", data / "tutorial.json")
    shutil.copytree(kept / "tutorial", data / "tutorial")
    frames = frames_of(game, SCRIPTS[game], data, capsys)
    assert frames == (kept / "frames.txt").read_text(encoding="utf-8").splitlines()


# --- the position kept as it is ---------------------------------------------------------------

STEPS = ("a", "b", "c", "d")


def test_a_position_is_kept_as_it_is_and_read_back(tmp_path):
    store = TutorialStore(tmp_path)
    # A run of optional steps played out of the lesson's order: the order is kept too.
    position = Position(STEPS).left("done", 0).brought_forward("d").begun(2, True)
    assert position.order == ("a", "d", "c", "b") and position.step == "d"
    store.keep("wakanda", position)
    assert store.resumed("wakanda", STEPS) == (position, False)
    entry = json.loads((tmp_path / PROGRESS_FILE).read_text())["lessons"]["wakanda"]
    assert entry["step"] == "d"  # what the box's version before reads


def test_a_position_kept_without_its_order_takes_the_lessons_order(tmp_path):
    (tmp_path / PROGRESS_FILE).write_text(json.dumps({"version": 1, "lessons": {"wakanda": {
        "step": "c", "start": None, "taught": ["a"], "records": [["a", "done", 0]]}}}))
    position, damaged = TutorialStore(tmp_path).resumed("wakanda", STEPS)
    assert not damaged and position == Position(("a", "c", "b", "d"), (Record("a", "done", 0),), None, ("a",))


def test_a_lesson_changed_since_its_position_was_kept_keeps_what_was_played(tmp_path):
    store = TutorialStore(tmp_path)
    store.keep("wakanda", Position(STEPS).left("done", 0).brought_forward("c"))
    position, _ = store.resumed("wakanda", ("a", "new", "b", "c", "d"))
    assert position is not None and position.order == ("a", "c", "new", "b", "d")
    assert store.resumed("wakanda", ("b", "c", "d")) == (None, False)  # "a" is gone: begin again


@pytest.mark.parametrize("entry", [
    {"step": "b", "order": ["a", "c", "b"], "records": [["a", "done", 0]]},  # the step is not the order's
    {"step": None, "order": ["a", "b"], "records": [["a", "done", 0]]},
    {"step": "b", "order": ["b", "a"], "records": [["a", "done", 0]]},       # records out of order
    {"step": "b", "order": "ab", "records": [["a", "done", 0]]},
    {"step": "b", "order": [1, 2], "records": []},
])
def test_a_position_that_does_not_hold_together_is_a_damaged_file(tmp_path, entry):
    (tmp_path / PROGRESS_FILE).write_text(json.dumps({"version": 1, "lessons": {"wakanda": entry}}))
    assert TutorialStore(tmp_path).resumed("wakanda", STEPS) == (None, True)


def test_the_position_moves_by_values():
    start = Position(STEPS).begun(0, True)
    skipped = start.skipped(1, {"a", "b"})
    assert [(r.key, r.status, r.at) for r in skipped.records] == [("a", "skipped", 1), ("b", "passed", 1)]
    assert skipped.step == "c" and skipped.number == 2 and skipped.done == 0 and start.step == "a"
    done = skipped.begun(1, False).left("done", 3)
    assert done.done == 1 and done.last_done == Record("c", "done", 3) and done.taught == ("a",)
    assert done.stepped_back() == Position(STEPS, skipped.records, None, ("a",))
    assert Position(STEPS).stepped_back() == Position(STEPS)
    assert done.rewound(3, lambda record: True) is done
    assert done.rewound(2, lambda record: record.at <= 2).step == "c"
    with pytest.raises(ValueError):
        Position(("a", "b"), (Record("b", "done", 0),))
