"""The Totem Wars demo end to end: bots' choices as raw events through the table session; the
bots and the demo declare a war's habitat when one is asked (R2)."""

from pathlib import Path

import pytest

from companion.games.totem_wars import Declare, greedy_bot, play_game, random_bot, read_record
from companion.games.totem_wars.demo import run_totem_wars_demo
from companion.games.totem_wars.report import result_line


class CountingDisplay:
    def __init__(self):
        self.frames = 0

    def show(self, image):
        assert image.size == (128, 64) and image.mode == "1"
        self.frames += 1
        return 0


@pytest.mark.parametrize("players", [("Ana", "Ben"), ("Ana", "Ben", "Cleo"),
                                     ("Ana", "Ben", "Cleo", "Dan")])
def test_a_whole_game_for_2_3_and_4_players(tmp_path, players):
    lines, display = [], CountingDisplay()
    record = tmp_path / "game.jsonl"
    assert run_totem_wars_demo(11, record, display, lines.append, players=players) == 0
    game = read_record(record.read_text())[0]
    assert game.players == players and game.outcome() is not None
    assert lines[0].startswith("Seed 11 · Totem Wars · Ana (")
    assert sum(line.startswith("Round ") for line in lines) == len(game.rounds)
    assert lines[-2] == result_line(game) and lines[-1] == f"Record written to {record}"
    assert display.frames > 10 * len(game.rounds)


def test_the_same_seed_plays_the_same_game():
    first, second = [], []
    run_totem_wars_demo(5, out=first.append)
    run_totem_wars_demo(5, out=second.append)
    assert first == second and any("war (T10)" in line or "takes" in line for line in first)


def test_the_data_folder_keeps_the_record_and_the_big_game(tmp_path):
    run_totem_wars_demo(3, out=lambda line: None, data_dir=tmp_path)
    run_totem_wars_demo(4, out=lambda line: None, data_dir=tmp_path)
    assert len(list((tmp_path / "games").glob("*-totem-wars*.jsonl"))) == 2
    assert (tmp_path / "big_game.json").exists()


def test_bad_player_count_is_one_line():
    from companion.errors import UserError
    with pytest.raises(UserError, match="2 to 4 players, not 5 .T1."):
        run_totem_wars_demo(1, players=("A", "B", "C", "D", "E"))


def test_bots_declare_the_habitat_offered_first_when_a_war_asks_r2():
    # Seed 5: a greedy Ana and a random Ben both declare (tests/data keeps the record).
    game, record = play_game(5, 2, bots=[greedy_bot, random_bot])
    assert record == (Path(__file__).parent / "data" / "totem_wars_bots_declare.jsonl").read_text()
    replayed, _ = read_record(record.splitlines(True)[0])
    declared = set()
    for player, move in game.history:
        if isinstance(move, Declare):
            assert move == replayed.legal_moves()[0]  # the best for the owner (R2)
            declared.add(player)
        replayed.push(move)
    assert declared == {0, 1}


def test_the_demo_answers_the_box_when_a_war_asks_for_a_habitat(tmp_path):
    lines = []
    record = tmp_path / "game.jsonl"
    run_totem_wars_demo(0, record, out=lines.append)  # seed 0: Ana (greedy) declares
    assert '{"p": 0, "habitat": "land"}' in record.read_text().splitlines()
    assert any("· declared (R2): Ana land ·" in line for line in lines)
