"""Search benchmark (budget: a hint ≤ 50 ms median a decision at the default level, on the
development machine). Prints the median and 95th percentile per level of each game:
.venv/bin/python -m pytest tests/test_bench_search.py --benchmark-enable --benchmark-only -s

Each round asks for the next of a fixed set of real decisions, so the figures cover whole
games: for Wakanda every turn with more than one legal move of eight seeded games between
greedy players (the opening's wide choices and the short end); for Totem Wars every
placement of six seeded games of two to four greedy players.
"""

import itertools
import random
import statistics
import time

import pytest

from companion.games.totem_wars import read_record, write_record
from companion.games.totem_wars import search as totem_wars_search
from companion.games.totem_wars.simulation import deal
from companion.games.totem_wars.simulation import greedy_bot as totem_wars_greedy
from companion.games.wakanda import search as wakanda_search
from companion.games.wakanda.bots import greedy_bot
from companion.games.wakanda.chance import sample_draw
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.setup import random_setup

BUDGET_MS = 50


def wakanda_decisions(games=8):
    """The positions of ``games`` seeded greedy games where the player to move has a choice."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        game = Wakanda(random_setup(rng), first=seed % 2)
        while game.phase != "over":
            if game.phase == "draw":
                game.push(sample_draw(game, rng))
                continue
            if len(game.legal_moves()) > 1:
                found.append(game.copy())
            game.push(greedy_bot(game, rng))
    return found


def totem_wars_decisions(games=6):
    """Every placement of ``games`` seeded greedy games: (the record so far, the hand)."""
    found = []
    for seed in range(games):
        sim = deal(random.Random(seed), ("Ana", "Ben", "Cleo", "Dan")[:2 + seed % 3])
        sim.push(totem_wars_greedy(sim, random.Random(seed)))
        while sim.game.phase != "over":
            if sim.game.phase == "play":
                found.append((write_record(sim.game), [c.name for c in sim.hands[sim.seat]]))
            sim.push(totem_wars_greedy(sim, random.Random(seed)))
    return found


WAKANDA = wakanda_decisions()
TOTEM_WARS = totem_wars_decisions()


def report(game, level, default, times):
    if len(times) > 1:
        median = statistics.median(times) * 1000
        p95 = sorted(times)[int(0.95 * len(times))] * 1000
        mark = " (the default)" if level == default else ""
        print(f"\n{game} {level}{mark}: median {median:.1f} ms, p95 {p95:.1f} ms over {len(times)} "
              f"decisions — budget {BUDGET_MS} ms median: {'kept' if median <= BUDGET_MS else 'OVER'}")


@pytest.mark.parametrize("level", wakanda_search.LEVELS)
def test_bench_wakanda_decision_time_per_level(benchmark, level):
    positions = itertools.cycle(enumerate(WAKANDA))
    times = []

    def decide():
        seed, game = next(positions)
        start = time.perf_counter()
        move = wakanda_search.suggest(game, level=level, seed=seed).move
        times.append(time.perf_counter() - start)
        return move

    benchmark.pedantic(decide, rounds=len(WAKANDA), iterations=1)
    report("wakanda", level, wakanda_search.DEFAULT_LEVEL, times)


@pytest.mark.parametrize("level", totem_wars_search.LEVELS)
def test_bench_totem_wars_decision_time_per_level(benchmark, level):
    positions = itertools.cycle(enumerate(TOTEM_WARS))
    times = []

    def setup():
        seed, (record, hand) = next(positions)
        return (read_record(record)[0], hand, seed), {}

    def decide(game, hand, seed):
        start = time.perf_counter()
        move = totem_wars_search.suggest(game, level=level, seed=seed, hand=hand).move
        times.append(time.perf_counter() - start)
        return move

    benchmark.pedantic(decide, setup=setup, rounds=len(TOTEM_WARS), iterations=1)
    report("totem-wars", level, totem_wars_search.DEFAULT_LEVEL, times)
