"""The big game (T16): totals to 42, the highest total wins and a tie on it shares the win, at
most 13 points a small game, the dealer moving one seat each small game."""

import pytest
from tw_table_helpers import match_of

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
    assert all(match.totals[p] == max(match.totals) for p in match.winners)


def test_first_to_42_wins():
    match = match_of(("Ana", "Ben"), (41, 10))
    assert match.winners == () and not match.over
    match = match.add_points((1, 5))
    assert match.winners == (0,) and match.over


def test_several_reach_42_together_the_highest_total_wins():
    assert match_of(("Ana", "Ben", "Cleo"), (44, 43, 10)).winners == (0,)


def test_42_42_41_is_a_win_shared_by_the_first_two():
    match = match_of(("Ana", "Ben", "Cleo"), (39, 39, 39)).add_points((3, 3, 2))
    assert match.totals == (42, 42, 41) and match.winners == (0, 1) and match.over
    with pytest.raises(UserError, match=r"^the big game is over: Ana and Ben shared the win \(T16\)$"):
        match.add_points((1, 1, 13))  # no game to break the tie: Cleo cannot come through (T16)


def test_a_small_game_gives_at_most_13_points():
    match = Match(("Ana", "Ben"))
    assert match.add_points((13, 1)).totals == (13, 1)
    with pytest.raises(UserError, match=r"^a small game gives 2 whole points, each from 1 to 13 \(T15, T16\)$"):
        match.add_points((14, 1))


@pytest.mark.parametrize("points", [(0, 5), (5, 0), (0, 0)])
def test_a_small_game_gives_at_least_1_point_the_totem(points):
    # The totem alone scores 1 (T15): a small game worth 0 to anyone is refused, the match unchanged.
    match = Match(("Ana", "Ben")).add_points((3, 4))
    with pytest.raises(UserError, match=r"each from 1 to 13 \(T15, T16\)$"):
        match.add_points(points)
    assert match.totals == (3, 4)
    with pytest.raises(UserError, match=r"from 1 to 13"):
        Match.from_json({"players": ["Ana", "Ben"], "first_dealer": 0, "games": [list(points)]})


def test_a_finished_match_takes_no_more_games():
    done = match_of(("Ana", "Ben"), (42, 4))
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
                         ({"players": ["Ana", "Ben"], "first_dealer": 0, "games": [[1, -2]]}, "from 1 to 13"),
                         ({"players": ["Ana", "Ben"], "first_dealer": 0, "games": [[14, 2]]}, "from 1 to 13"),
                         ({"players": ["Ana", "Ben"], "first_dealer": 0, "games": "x"}, "games must be a list"),
                         ({"players": ["Ana", "Ben"]}, "exactly players, first_dealer and games")]:
        with pytest.raises(UserError, match=message):
            Match.from_json(bad)


def test_a_stored_match_that_went_on_after_a_tie_at_42_keeps_its_games_and_the_shared_win():
    # Stored when a tie on the top total played another game: T16 shares the win instead.
    stored = {"players": ["Ana", "Ben"], "first_dealer": 0,
              "games": [[13, 13], [13, 13], [13, 13], [3, 3], [2, 5]]}
    match = Match.from_json(stored)
    assert match.to_json() == stored and match.totals == (44, 47) and match.winners == (0, 1)
