"""The settings and the resume entry through the commands: a name spelled from an input
script and offered at the next start, a damaged settings file, the resume line that names
the game, and the word the simulator's quit leaves on the terminal."""

import json

import pytest
from box_helpers import first_menu, presses_to, script_to

from companion.cli import main
from companion.events import Press
from companion.table.flow import ToTutorial
from companion.table.settings import SETTINGS_FILE

ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]
HEADER = {"game": "wakanda", "players": ["Ana", "Ben"], "villages": ROW, "first": 0}


@pytest.fixture
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    return tmp_path


def run(folders, capsys, *lines, data="data"):
    """``run`` an input script of ``lines`` with the text display: (status, frames, stderr)."""
    script = folders / "script.txt"
    script.write_text("".join(f"{line}\n" for line in lines))
    status = main(["run", "--input", str(script), "--display", "text",
                   "--data", str(folders / data)])
    out, err = capsys.readouterr()
    return status, [line.split(": ", 1)[1] for line in out.splitlines()], err


def menu_lines(folders):
    """The menu's lines on an empty data folder, every registered game's among them."""
    return first_menu(folders / "menu").view.choice.labels


def test_a_name_spelled_in_a_script_is_offered_at_the_next_start(folders, capsys):
    status, frames, err = run(
        folders, capsys,
        *script_to(first_menu(folders / "menu"), "settings"),   # Settings, after New and Learn
        "press ok", "press ok",                            # Names, New name…
        "press ok",                                        # A
        *["press down"] * 13, "press ok",                  # n
        *["press up"] * 13, "press ok",                    # a
        "press up", "press ok",                            # Done
        "press back", "press back")
    assert status == 0 and err == ""
    assert "New name 3/16 | Ana | ▲ - Done a b c d e ▼ | ▲▼ · OK add · BACK delete" in frames
    assert frames[-1] == " | ".join(("Totem Companion", *menu_lines(folders)[:4], "▼"))
    kept = json.loads((folders / "data" / SETTINGS_FILE).read_text(encoding="utf-8"))
    assert kept == {"version": 1, "names": ["Ana"]}
    status, frames, _ = run(folders, capsys, "press ok")
    assert frames[-1] == "Wings: who? | Ana | Player 1 | The box | ▲▼ choose · OK"


def test_a_damaged_settings_file_is_one_line_and_the_box_starts(folders, capsys):
    (folders / "data").mkdir()
    (folders / "data" / SETTINGS_FILE).write_text("{\"version\": 1, \"sound\": ")
    status, frames, err = run(folders, capsys, "press down")
    assert status == 0
    assert err == (f"totem-companion: {folders / 'data' / SETTINGS_FILE}: the settings are "
                   "damaged (not JSON text); the defaults are used\n")
    assert frames[0].endswith(f"| {menu_lines(folders)[3]} ▼ | Damaged settings ignored")
    assert not frames[1].endswith("Damaged settings ignored")   # said once, then gone


def test_the_resume_line_names_the_game_and_the_game_says_where_it_is(folders, capsys):
    data = folders / "data"
    data.mkdir()
    lines = [HEADER, {"p": 0, "draw": "sun"}, {"p": 0, "build": "sun", "village": 1},
             {"p": 1, "draw": "eagle"}]
    (data / "current.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    status, frames, _ = run(folders, capsys, "press ok")
    assert frames[0] == " | ".join(("Totem Companion", "Resume Wakanda", *menu_lines(folders)[:3])) + \
        " ▼ | Ana v Ben"
    assert frames[1].replace(" | ", " ").endswith("Game resumed: turn 2, Ben to play")


class QuittingKeyboard:
    """Keys a player presses in the simulator, then q (the input sources' on_quit)."""

    def __init__(self, events, on_quit):
        self.events, self.on_quit = events, on_quit

    def start(self, put):
        for event in self.events:
            put(event)
        self.on_quit()

    def close(self):
        pass


@pytest.mark.parametrize("keys,kept", [
    ([], False),                                            # nothing under way: no word
    ([Press("ok"), Press("ok")] + [Press("ok")] * 6 + [Press("ok")], True),   # a game started
])
def test_quitting_the_simulator_says_the_game_is_kept(folders, capsys, monkeypatch, keys, kept):
    import hardware.inputs
    monkeypatch.setattr(hardware.inputs, "open_inputs",
                        lambda config, *, script, echo, on_quit, **_: [QuittingKeyboard(keys, on_quit)])
    status = main(["sim", "--display", "none", "--data", str(folders / "data")])
    out = capsys.readouterr().out
    assert status == 0
    assert (folders / "data" / "current.jsonl").exists() is kept
    assert out == ("Game kept: the next start offers to resume it\n" if kept else "")


def test_quitting_the_simulator_in_a_lesson_says_the_lesson_is_kept(folders, capsys, monkeypatch):
    import hardware.inputs
    learn = presses_to(first_menu(folders / "menu"), ToTutorial("wakanda"))
    keys = [Press("down")] * learn + [Press("ok"), Press("ok")]   # Learn Wakanda, its first page read
    monkeypatch.setattr(hardware.inputs, "open_inputs",
                        lambda config, *, script, echo, on_quit, **_: [QuittingKeyboard(keys, on_quit)])
    assert main(["--language", "fr", "sim", "--display", "none", "--data", str(folders / "data")]) == 0
    assert capsys.readouterr().out == "Leçon gardée: Apprendre Wakanda reprend à cette étape\n"


def test_a_totem_wars_game_resumed_before_its_totems_says_to_scan_them(folders, capsys):
    from tw_table_helpers import WAR_RECORD
    data = folders / "data"
    data.mkdir()
    (data / "current.jsonl").write_text(WAR_RECORD.splitlines(True)[0])   # the header only
    status, frames, _ = run(folders, capsys, "press ok")
    assert frames[0].startswith("Totem Companion | Resume Totem Wars |")
    assert frames[0].endswith("| Ana, Ben, Cleo")
    assert frames[1].replace(" | ", " ").endswith("Game resumed: scan the totems (T2)")
