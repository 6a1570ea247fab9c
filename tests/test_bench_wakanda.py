"""Wakanda engine benchmarks (budget: a whole random game with legal moves at every step
≤ 2 ms). Figures: .venv/bin/python -m pytest tests/test_bench_wakanda.py --benchmark-enable --benchmark-only
"""

import random

from companion.games.wakanda import Wakanda, random_setup, read_record, sample_draw, sample_reveal, write_record
from companion.games.wakanda.bots import play_game


def random_game(seed, variant="open"):
    """A whole game of random legal moves, generating the legal moves at every step."""
    rng = random.Random(seed)
    game = Wakanda(random_setup(rng, variant), variant=variant)
    while game.phase != "over":
        moves = game.legal_moves()
        if game.phase == "draw":
            game.push(sample_draw(game, rng))
        elif game.phase == "reveal":
            game.push(sample_reveal(game, rng))
        else:
            game.push(rng.choice(moves))
    return game


def test_bench_whole_random_game(benchmark):
    seeds = iter(range(10**9))
    game = benchmark(lambda: random_game(next(seeds)))
    assert game.outcome() is not None


def test_bench_whole_random_game_hidden(benchmark):
    seeds = iter(range(10**9))
    game = benchmark(lambda: random_game(next(seeds), "hidden"))
    assert game.outcome() is not None


def test_bench_legal_moves_push_pop(benchmark):
    """One step as the table session does it: legal moves, apply, take back (mid-game)."""
    game = play_game(3)
    while len(game.history) > 20 or game.phase != "action":
        game.pop()
    assert game.phase == "action"

    def step():
        moves = game.legal_moves()
        game.push(moves[-1])
        game.pop()
        return moves
    assert benchmark(step)


def test_bench_score_and_outcome(benchmark):
    game = play_game(5)
    result = benchmark(lambda: (game.score(0), game.score(1), game.outcome()))
    assert result[2] is not None


def test_bench_read_record(benchmark):
    text = write_record(play_game(7))
    game, _ = benchmark(read_record, text)
    assert game.phase == "over"
