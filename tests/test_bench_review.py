"""After-game review benchmark (review.py): the time to review a whole Wakanda game, as the
score pages make it on their thread. Prints the median and 95th percentile over 50 seeded
games, a greedy player against a random one (a game with blunders to find):
.venv/bin/python -m pytest tests/test_bench_review.py --benchmark-enable --benchmark-only -s

The box never waits for it (score_flow.py); the budget is that it is done before players
have turned to it: about 1 s here, ten times that on a Pi Zero 2 W.
"""

import itertools
import statistics
import time

from companion.games.wakanda.bots import greedy_bot, play_game, random_bot
from companion.games.wakanda.review import review

GAMES = 50
BUDGET_S = 1.0


def test_bench_review_of_a_whole_game(benchmark):
    games = itertools.cycle([play_game(seed, bots=(greedy_bot, random_bot) if seed % 2 else (random_bot, greedy_bot))
                             for seed in range(GAMES)])
    times = []

    def one_game():
        game = next(games)
        start = time.perf_counter()
        made = review(game)
        times.append(time.perf_counter() - start)
        return made

    benchmark.pedantic(one_game, rounds=GAMES, iterations=1)
    median, p95 = statistics.median(times), sorted(times)[int(0.95 * len(times))]
    print(f"\nwakanda review of a whole game: median {median:.2f} s, p95 {p95:.2f} s over {GAMES} "
          f"games — budget {BUDGET_S} s median: {'kept' if median <= BUDGET_S else 'OVER'}")
