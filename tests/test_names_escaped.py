"""Players' names with terminal escape codes: a record made elsewhere may hold any text in
a name (``\\x1b]0;…\\x07`` retitles a terminal, ``\\x1b[2J`` clears it). Reading such a
record is fine; what the command line prints shows the control characters escaped, and
the box's own set-up never takes such a name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reliability import RAW, run_cli

from companion.records import dump_line
from companion.table.settings import SETTINGS_FILE, SettingsStore, is_name

EVIL = ("Ana\x1b]0;owned\x07", "Ben\x1b[2J\x9b1m")
SHOWN = ("Ana\\x1b]0;owned\\x07", "Ben\\x1b[2J\\x9b1m")
DATA = Path(__file__).parent / "data"


def record(game: str) -> str:
    """A short record of ``game`` whose players are the EVIL names."""
    if game == "wakanda":
        header = json.loads((DATA / "wakanda_worked_example.jsonl").read_text().splitlines()[0])
        lines = [{"p": 0, "draw": "chief"}]              # Ana builds next
    else:
        header = {"game": "totem-wars", "players": ["x", "y"], "dealer": 0, "deck": "default"}
        lines = []
    header["players"] = list(EVIL)
    return "".join(dump_line(line) for line in [header, *lines])


@pytest.mark.parametrize("game", ["wakanda", "totem-wars"])
@pytest.mark.parametrize("command", [["score"], ["moves"]])
def test_score_and_moves_print_names_escaped(tmp_path, game, command):
    path = tmp_path / "game.jsonl"
    path.write_text(record(game))
    outcome = run_cli([*command, str(path)])
    assert outcome.kind == "ok", outcome
    assert not RAW.search(outcome.out)
    if command == ["score"] or game == "wakanda":   # Totem Wars' moves name nobody here
        assert SHOWN[0] in outcome.out


def test_score_json_keeps_the_names_exactly(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(record("wakanda"))
    outcome = run_cli(["score", "--json", str(path)])
    assert [player["name"] for player in json.loads(outcome.out)["players"]] == list(EVIL)


def test_a_hint_names_the_player_escaped(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(record("wakanda"))
    outcome = run_cli(["hint", "--level", "easy", str(path)])
    assert outcome.kind == "ok" and outcome.out.startswith(SHOWN[0])


def test_the_box_shows_a_resumed_games_names_escaped_in_text_frames_and_the_demo(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "current.jsonl").write_text(record("wakanda"))
    script = tmp_path / "script.txt"
    script.write_text("press ok\npress down\n")                 # resume, then the status page
    for command in (["run", "--display", "text"], ["demo"]):
        outcome = run_cli([*command, "--input", str(script), "--data", str(data)])
        assert outcome.kind == "ok", outcome
        assert SHOWN[1] in outcome.out and not RAW.search(outcome.out)


def test_the_demo_escapes_what_it_prints_but_not_the_terminal_display(tmp_path, mocker):
    # The demo's own lines go through the escaping; the display keeps the real output.
    from hardware import displays
    opened = mocker.spy(displays, "open_display")
    outcome = run_cli(["demo", "--seed", "2", "--display", "none"])
    assert outcome.kind == "ok"
    assert opened.call_args.kwargs["stream"] is not None


@pytest.mark.parametrize("name", [*EVIL, "Ana\n", "\u202eanA", "Cleo\x00", "\ud800", " ", "", "x" * 17])
def test_a_name_with_control_characters_is_no_name(name):
    assert not is_name(name)


def test_a_settings_file_naming_such_players_is_damaged_and_not_used(tmp_path):
    (tmp_path / SETTINGS_FILE).write_text(json.dumps({"version": 1, "names": ["Ana", EVIL[1]]}))
    store, problem = SettingsStore.load(tmp_path, names=("Cleo",))
    assert problem is not None and "damaged" in problem
    assert store.names == ("Cleo",)


def test_a_finished_games_names_are_remembered_only_when_they_are_names(tmp_path):
    store = SettingsStore(tmp_path / SETTINGS_FILE)
    store.remember([*EVIL, "Dan"])
    assert store.names == ("Dan",)
