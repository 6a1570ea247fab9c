"""The big game kept across small games (T16): counted once, saved atomically, readable, won
by the highest total or shared by those tied on it."""

import json
from pathlib import Path

import pytest
from tw_table_helpers import make, match_of

from companion.errors import UserError
from companion.events import Press
from companion.games.totem_wars import Match, read_record
from companion.games.totem_wars.big_game_store import (
    BIG_GAME_FILE,
    BigGame,
    count_game,
    load_big_game,
    next_dealer,
    save_big_game,
    with_game,
)
from companion.games.totem_wars.round_screens import big_game_footer

DATA = Path(__file__).parent / "data"
FINISHED = (DATA / "totem_wars_finished.jsonl").read_text()
#: Ana, Ben and Cleo at 37, 38 and 36 after four small games; Ben deals the fifth.
BEFORE_A_TIE = (DATA / "totem_wars_big_game_before_a_tie.json").read_text()


def finished():
    return read_record(FINISHED)[0]  # Ana, Ben, Cleo; Ben dealt; 5, 4, 5 points


def test_a_game_is_counted_once_and_the_dealer_moves_on(tmp_path):
    game = finished()
    big = count_game(tmp_path, game)
    assert big.match.totals == (5, 4, 5) and big.match.dealer == 2 and len(big.counted) == 1
    assert count_game(tmp_path, game) == big                     # finished again: not twice
    assert load_big_game(tmp_path) == big
    assert not (tmp_path / (BIG_GAME_FILE + ".tmp")).exists()


def test_a_game_that_does_not_follow_on_starts_a_new_big_game():
    game = finished()
    other = BigGame(match_of(("Ana", "Ben"), (40, 4)), ("x",))
    assert with_game(other, game).match.games == ((5, 4, 5),)
    wrong_dealer = BigGame(Match(game.players, first_dealer=0), ())   # Ana was due to deal
    assert with_game(wrong_dealer, game).match.first_dealer == 1
    won = BigGame(match_of(game.players, (42, 4, 4)), ())
    assert won.match.over and with_game(won, game).match.totals == (5, 4, 5)


def test_the_winner_at_42(tmp_path):
    game = finished()
    save_big_game(tmp_path, BigGame(match_of(game.players, (38, 10, 30), first_dealer=1)))
    big = count_game(tmp_path, game)
    assert big.match.totals == (43, 14, 35) and big.match.winners == (0,)
    assert next_dealer(big, game.players) is None                # a new big game comes next


def test_42_42_41_after_the_same_small_game_is_a_win_shared_by_the_first_two(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / BIG_GAME_FILE).write_text(BEFORE_A_TIE)
    (tmp_path / "data" / "current.jsonl").write_text(FINISHED)   # 5, 4, 5 points
    t = make(tmp_path)
    assert t.screen == "score" and t.flow.match.totals == (42, 42, 41)
    assert t.flow.match.winners == (0, 1) and big_game_footer(t.flow.match) == "Shared: Ana & Ben (T16)"
    t.handle(Press("ok"))                                         # counted, the record kept
    big = load_big_game(tmp_path / "data")
    assert big.match.winners == (0, 1) and next_dealer(big, finished().players) is None


@pytest.mark.parametrize("text", ["{", '{"match": {}, "counted": []}', '[1, 2]',
                                  '{"match": {"players": ["A"], "first_dealer": 0, "games": []}, '
                                  '"counted": []}',
                                  # a small game worth 0 to Ana: her totem alone scores 1 (T15)
                                  '{"match": {"players": ["Ana", "Ben"], "first_dealer": 0, "games": [[0, 4]]}, '
                                  '"counted": []}'])
def test_a_damaged_file_is_one_clear_line(tmp_path, text):
    (tmp_path / BIG_GAME_FILE).write_text(text)
    with pytest.raises(UserError) as exc:
        load_big_game(tmp_path)
    assert str(exc.value).startswith(str(tmp_path / BIG_GAME_FILE)) and "\n" not in str(exc.value)


def test_the_score_pages_count_the_game_on_ok_and_say_so_when_they_cannot(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "current.jsonl").write_text(FINISHED)
    (tmp_path / "data" / BIG_GAME_FILE).write_text("{")
    t = make(tmp_path)
    assert t.screen == "score" and t.flow.match is None          # the page says unavailable
    out = t.handle(Press("ok"))
    assert out.signal == "refused" and "big game" in t.message and t.screen == "score"
    (tmp_path / "data" / BIG_GAME_FILE).unlink()
    t.handle(Press("ok"))
    assert t.screen == "menu"
    data = json.loads((tmp_path / "data" / BIG_GAME_FILE).read_text())
    assert data["match"]["games"] == [[5, 4, 5]]


def test_back_on_the_score_pages_takes_the_last_placement_back(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "current.jsonl").write_text(FINISHED)
    t = make(tmp_path)
    t.handle(Press("back"))
    assert t.screen == "confirm"
    t.handle(Press("ok"))
    assert t.game.phase == "play" and t.screen == "board"
    assert not (tmp_path / "data" / BIG_GAME_FILE).exists()


def test_the_dealer_step_says_whether_the_big_game_goes_on(tmp_path):
    count_game(tmp_path / "data", finished())                   # Ana, Ben, Cleo; Cleo deals next
    t = make(tmp_path)
    t.handle(Press("down")); t.handle(Press("ok"))              # 3 players
    for name in ("Ana", "Ben", "Cleo"):
        while t.view.choice.value != name:
            t.handle(Press("down"))
        t.handle(Press("ok"))
    assert t.view.choice.title == "Who deals?" and t.view.choice.value == 2
    assert t.view.footer == "Big game goes on (T16)"
    t.handle(Press("down"))
    assert t.view.footer == "New big game (T16)"
