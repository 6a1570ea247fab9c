"""``totem-companion hint RECORD [--seat N] [--level L] [--json]`` (shared/DESIGN.md)."""

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.wakanda import write_record

DATA = Path(__file__).parent / "data"
WORKED = str(DATA / "wakanda_worked_example.jsonl")


@pytest.fixture
def midgame_file(tmp_path, midgame):
    path = tmp_path / "midgame.jsonl"
    path.write_text(write_record(midgame))
    return str(path)


def test_the_hint_names_the_player_the_move_and_why(midgame_file, capsys):
    assert main(["hint", midgame_file, "--level", "standard"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Ana: ") and ": " in lines[0][5:]
    assert lines[1].startswith("level standard, chance to win ") and lines[1].endswith("; next best:")
    assert 1 <= len(lines[2:]) <= 5 and all(line.startswith("  ") and line.endswith("%") for line in lines[2:])


def test_the_json_hint_is_a_legal_record_line_with_its_alternatives(midgame_file, midgame, capsys):
    assert main(["hint", midgame_file, "--json", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    hint = json.loads(out)
    assert len(out.splitlines()) == 1 and set(hint) == {"move", "reason", "value", "alternatives"}
    assert main(["moves", midgame_file, "--json"]) == 0
    legal = json.loads(capsys.readouterr().out)["moves"]
    assert hint["move"] in legal and hint["reason"] and 0 <= hint["value"] <= 1
    others = [a["move"] for a in hint["alternatives"]]
    assert all(m in legal for m in others) and len(others) == len(legal) - 1 and hint["move"] not in others
    assert main(["hint", midgame_file, "--json", "--seed", "3"]) == 0
    assert json.loads(capsys.readouterr().out) == hint   # the same seed, the same answer


@pytest.mark.parametrize("args,message", [
    (["--seat", "1"], "line 26: not Ben's turn (W4)"),
    (["--seat", "5"], "seat must be 0 or 1, got 5"),
])
def test_a_seat_that_cannot_move_is_one_line_and_status_1(midgame_file, capsys, args, message):
    assert main(["hint", midgame_file, *args]) == 1
    err = capsys.readouterr().err
    assert err == f"totem-companion hint: {midgame_file}: {message}\n"


def test_a_finished_game_a_draw_due_and_a_bad_record_are_one_line(tmp_path, capsys):
    assert main(["hint", WORKED]) == 1
    assert capsys.readouterr().err == f"totem-companion hint: {WORKED}: line 47: the game is over (W6)\n"
    lines = Path(WORKED).read_text().splitlines(keepends=True)
    due = tmp_path / "due.jsonl"
    due.write_text("".join(lines[:3]))
    assert main(["hint", str(due)]) == 1
    assert capsys.readouterr().err == f"totem-companion hint: {due}: line 3: draw first: the bag is not empty (W4)\n"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + '{"p": 1, "draw": "sun"}\n')
    assert main(["hint", str(bad)]) == 1
    assert capsys.readouterr().err == f"totem-companion hint: {bad}: line 2: it is Ana's turn (W4)\n"
    assert main(["hint", str(tmp_path / "none.jsonl")]) == 1
    assert "no such file" in capsys.readouterr().err


def test_an_unknown_level_is_bad_usage(midgame_file, capsys):
    assert main(["hint", midgame_file, "--level", "hardest"]) == 2
    assert capsys.readouterr().err == ("totem-companion hint: unknown level 'hardest' "
                                       "(levels: easy, baseline30, standard, strong)\n")
