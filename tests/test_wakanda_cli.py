"""``totem-companion score`` and ``moves`` on Wakanda records (the JSON shapes of the README's command line)."""

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.wakanda import write_record
from companion.games.wakanda.bots import greedy_bot, play_game, random_bot

WORKED = str(Path(__file__).parent / "data" / "wakanda_worked_example.jsonl")


def worked_lines():
    return Path(WORKED).read_text().splitlines(keepends=True)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_score_of_the_worked_example_as_json(capsys):
    assert main(["score", WORKED, "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == {
        "game": "wakanda", "finished": True, "winners": [0],
        "players": [{"name": "Ana", "total": 20, "villages": {"teepee": 4, "eagle": 8, "chief": 10},
                     "sun_penalty": -2},
                    {"name": "Ben", "total": 16, "villages": {"variety": 8, "sun": 4, "tomahawk": 4},
                     "sun_penalty": 0}]}
    assert len(out.splitlines()) == 1


def test_score_of_the_worked_example_as_a_table(capsys):
    assert main(["score", WORKED]) == 0
    lines = capsys.readouterr().out.splitlines()
    table = {line[:14].strip(): line[14:].split() for line in lines[2:10]}
    assert table["1 teepee"] == ["4", "."] and table["2 eagle"] == ["8", "."]
    assert table["3 chief"] == ["10", "."] and table["4 variety"] == [".", "8"]
    assert table["5 sun"] == [".", "4"] and table["6 tomahawk"] == [".", "4"]
    assert table["sun penalty"] == ["-2", "0"] and table["total"] == ["20", "16"]
    assert lines[-1] == "Winner: Ana, higher total (W9)."


def test_score_names_the_tie_break(tmp_path, capsys):
    # Find a finished random game that is a tie, so the table must explain the tie-break.
    game = next(g for g in (play_game(seed) for seed in range(2000))
                if g.score(0).total == g.score(1).total)
    path = write(tmp_path, "tie.jsonl", write_record(game))
    assert main(["score", path]) == 0
    winner = game.players[game.third_headdress_order[0]]
    assert capsys.readouterr().out.splitlines()[-1] == \
        f"Winner: {winner}, tie broken by the third headdress (W9)."


def test_unfinished_game_gives_provisional_figures(tmp_path, capsys):
    path = write(tmp_path, "part.jsonl", "".join(worked_lines()[:20]))
    assert main(["score", path, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["finished"] is False and result["winners"] == []
    assert result["players"][0] == {"name": "Ana", "total": 9, "villages": {"teepee": 2, "eagle": 8},
                                    "sun_penalty": -1}
    assert main(["score", path]) == 0
    out = capsys.readouterr().out
    assert "provisional" in out and out.splitlines()[-1] == "Ben to move."


def test_moves_in_the_action_and_draw_phases(tmp_path, capsys):
    action = write(tmp_path, "action.jsonl", "".join(worked_lines()[:20]))
    draw = write(tmp_path, "draw.jsonl", "".join(worked_lines()[:21]))
    assert main(["moves", action, draw, WORKED, "--json"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert results == [
        {"to_move": 1, "moves": [{"p": 1, "build": "teepee", "village": v} for v in (3, 4, 5)]
         + [{"p": 1, "claim": 3}]},
        {"to_move": 0, "moves": [{"p": 0, "draw": p} for p in ("tomahawk", "skin", "teepee", "sun")]},
        {"to_move": None, "moves": []},
    ]


def test_moves_as_text(capsys):
    assert main(["moves", WORKED]) == 0
    assert capsys.readouterr().out.strip() == "The game is over: no moves."


def test_moves_offers_reveals_in_the_hidden_variant(tmp_path, capsys):
    header = {"game": "wakanda", "players": ["Ana", "Ben"], "variant": "hidden",
              "villages": ["teepee", "eagle", "chief", None, None, None], "first": 0}
    events = [{"p": 0, "draw": "sun"}, {"p": 0, "build": "sun", "village": 1},
              {"p": 1, "draw": "sun"}, {"p": 1, "claim": 1}]
    path = write(tmp_path, "hidden.jsonl", "".join(json.dumps(o) + "\n" for o in [header, *events]))
    assert main(["moves", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "to_move": 0, "moves": [{"reveal": n} for n in ("tomahawk", "skin", "variety", "height", "sun")]}
    assert main(["score", path]) == 0
    assert "4 (face down)" in capsys.readouterr().out


def test_several_records_give_one_json_line_each_in_order(tmp_path, capsys):
    games = [play_game(seed, bots=(greedy_bot, random_bot)) for seed in range(3)]
    paths = [write(tmp_path, f"g{i}.jsonl", write_record(g)) for i, g in enumerate(games)]
    assert main(["score", *paths, "--json"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["players"][0]["total"] for r in results] == [g.score(0).total for g in games]
    assert [r["winners"] for r in results] == [list(g.outcome().winners) for g in games]


@pytest.mark.parametrize("command, last", [("score", "Winner: Ana, higher total (W9)."),
                                           ("moves", "The game is over: no moves.")])
def test_several_records_as_text_are_headed_by_their_file(tmp_path, capsys, command, last):
    second = write(tmp_path, "again.jsonl", Path(WORKED).read_text())
    assert main([command, WORKED, second]) == 0
    blocks = capsys.readouterr().out.split("\n\n")
    assert [block.splitlines()[0] for block in blocks] == [f"== {WORKED}", f"== {second}"]
    assert [block.splitlines()[-1] for block in blocks] == [last, last]


@pytest.mark.parametrize("command", ["score", "moves"])
def test_a_bad_record_exits_1_with_file_line_and_reason(tmp_path, capsys, command):
    lines = worked_lines()
    bad_line = '{"p": 0, "draw": "sun"}\n'  # Ana has just played
    path = write(tmp_path, "bad.jsonl", "".join(lines[:3]) + bad_line)
    assert main([command, WORKED, path, "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"{path}: line 4: it is Ben's turn (W4)\n"
    assert len(captured.out.splitlines()) == 1  # the good record is still shown


def test_a_torn_last_line_is_a_warning_not_an_error(tmp_path, capsys):
    path = write(tmp_path, "torn.jsonl", "".join(worked_lines()[:20]) + '{"p": 1, "dr')
    assert main(["score", path, "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == f"{path}: warning: line 21: torn last line ignored (an interrupted write)\n"
    assert json.loads(captured.out)["finished"] is False


def test_bad_json_in_the_middle_is_an_error(tmp_path, capsys):
    path = write(tmp_path, "broken.jsonl", "".join(worked_lines()[:5]) + "{oops\n")
    assert main(["score", path]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}: line 6: not valid JSON") and err.count("\n") == 1
