"""Where a lesson stands (``companion/table/lesson_position.py``): a lesson kept by the box's
earlier versions (``tests/data/lesson_<game>_kept_v1``, written before the position was one
value) resumes at its step and plays on as it did then."""

from __future__ import annotations

import shutil

import pytest
from tutorial_helpers import DATA, frames_of

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
