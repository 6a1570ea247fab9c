"""The big game (T16): totals to 42, ties, the dealer moving one seat each small game."""

import pytest

from companion.errors import UserError
from companion.games.totem_wars import Match, play_game


def test_small_games_add_up_and_the_dealer_moves_each_game():
    match = Match(("Ana", "Ben", "Cleo"), first_dealer=2)
    seen_dealers = []
    seed = 0
    while not match.over and seed < 60:
        seen_dealers.append(match.dealer)
        game, _ = play_game(seed, 3, dealer=match.dealer)
        match = match.add(game)
        seed += 1
    assert match.over and max(match.totals) >= 42
    assert seen_dealers[:4] == [2, 0, 1, 2]
    assert match.totals == tuple(sum(g[p] for g in match.games) for p in range(3))
    assert match.totals[match.winner] == max(match.totals)


def test_first_to_42_wins():
    match = Match(("Ana", "Ben")).add_points((41, 10))
    assert match.winner is None and not match.over
    match = match.add_points((1, 5))
    assert match.winner == 0 and match.over


def test_several_over_42_the_highest_wins_and_a_tie_plays_another_game():
    assert Match(("Ana", "Ben", "Cleo")).add_points((44, 43, 10)).winner == 0
    tied = Match(("Ana", "Ben")).add_points((42, 42))
    assert tied.winner is None and tied.dealer == 1
    assert tied.add_points((3, 5)).winner == 1


def test_a_finished_match_takes_no_more_games():
    done = Match(("Ana", "Ben")).add_points((42, 0))
    with pytest.raises(UserError, match=r"the big game is over: Ana won \(T16\)"):
        done.add_points((1, 1))
    with pytest.raises(UserError, match=r"\(T16\)"):
        done.new_game()


def test_only_the_next_finished_small_game_counts():
    match = Match(("Ana", "Ben", "Cleo"))
    unfinished = match.new_game()
    with pytest.raises(UserError, match=r"only a finished small game counts"):
        match.add(unfinished)
    other_dealer, _ = play_game(1, 3, dealer=2)
    with pytest.raises(UserError, match=r"not the next of the match"):
        match.add(other_dealer)
    with pytest.raises(UserError, match=r"3 whole points"):
        match.add_points((1, 2))


def test_json_round_trip_and_bad_stored_data():
    match = Match(("Ana", "Ben"), 1).add_points((5, 7)).add_points((9, 3))
    assert Match.from_json(match.to_json()) == match
    assert match.to_json() == {"players": ["Ana", "Ben"], "first_dealer": 1, "games": [[5, 7], [9, 3]]}
    for bad, message in [({"players": ["Ana"], "first_dealer": 0, "games": []}, "players must be 2 to 4"),
                         ({"players": ["Ana", "Ben"], "first_dealer": 5, "games": []}, "first_dealer"),
                         ({"players": ["Ana", "Ben"], "first_dealer": 0, "games": [[1, -2]]}, "0 or more"),
                         ({"players": ["Ana", "Ben"], "first_dealer": 0, "games": "x"}, "games must be a list"),
                         ({"players": ["Ana", "Ben"]}, "exactly players, first_dealer and games")]:
        with pytest.raises(UserError, match=message):
            Match.from_json(bad)
