"""Wakanda bots and self-play: legal choices, determinism per seed, greedy beats random."""

import random
from types import SimpleNamespace

import pytest

from companion.games.wakanda import Build, Claim, Draw, Wakanda, sample_draw
from companion.games.wakanda.bots import greedy_bot, play_game, random_bot

ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]


@pytest.mark.parametrize("bot", [random_bot, greedy_bot])
def test_bots_choose_a_legal_action(bot):
    game = Wakanda(ROW)
    game.push(Draw("eagle"))
    for seed in range(20):
        assert bot(game, random.Random(seed)) in game.legal_moves()


@pytest.mark.parametrize("bot", [random_bot, greedy_bot])
def test_bots_do_not_play_chance_moves(bot):
    with pytest.raises(ValueError, match="action phase, not the draw phase"):
        bot(Wakanda(ROW), random.Random(0))


def test_sampled_draws_come_from_the_bag_and_an_empty_bag_is_an_error():
    rng = random.Random(3)
    only_suns = SimpleNamespace(bag={"eagle": 0, "chief": 0, "sun": 2})
    assert {sample_draw(only_suns, rng) for _ in range(20)} == {Draw("sun")}
    with pytest.raises(ValueError, match=r"the bag is empty \(W4\)"):
        sample_draw(SimpleNamespace(bag={"eagle": 0, "sun": 0}), rng)


def test_greedy_claims_the_rich_pole_and_leaves_the_sunny_one():
    game = Wakanda(ROW, players=("Ana", "Ben"))
    pieces = ["eagle"] + ["chief"] * 2 + ["tomahawk"] * 3 + ["skin"] * 4 + ["teepee"] * 5 + ["sun"] * 5
    for piece in pieces:  # village 1 (teepee) gets the teepees, eagle and chiefs; 2 the rest
        game.push(Draw(piece))
        game.push(Build(piece, 1 if piece in ("eagle", "chief", "teepee") else 2))
    game.push(Draw("sun"))  # the last piece: claims now cost no future
    assert greedy_bot(game, random.Random(0)) == Claim(1)  # 10 points, where 2 would cost 5 suns


def test_play_game_is_the_same_game_for_the_same_seed():
    a = play_game(11, bots=(greedy_bot, random_bot), variant="hidden")
    b = play_game(11, bots=(greedy_bot, random_bot), variant="hidden")
    assert a.history == b.history and a.phase == "over" and None not in a.villages[:3]
    assert play_game(12).history != a.history


def test_greedy_beats_random_most_of_the_time():
    wins = 0
    for seed in range(60):
        greedy_side = seed % 2
        bots = (greedy_bot, random_bot) if greedy_side == 0 else (random_bot, greedy_bot)
        wins += play_game(seed, bots=bots).outcome().winners == (greedy_side,)
    assert wins >= 42  # about 90 % over many seeds
