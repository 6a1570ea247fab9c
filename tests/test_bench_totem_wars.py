"""Totem Wars timings (budgets: best arrangement of 5 cards ≤ 0.2 ms; a whole random
4-player game ≤ 50 ms; the search's play-out of a whole 4-player game ≤ 1 ms — ``standard``
plays several hundred a decision, tests/test_bench_search.py). Print the figures with
``.venv/bin/python -m pytest tests/test_bench_totem_wars.py --benchmark-enable --benchmark-only``."""

import itertools
import random

from companion.games.totem_wars import ChooseTotems, best_arrangement, default_deck, play_game, war_grouping
from companion.games.totem_wars.arrangement import _best_by_tribe, _grouping_in
from companion.games.totem_wars.ismcts import Root
from companion.games.totem_wars.playout import greedy
from companion.games.totem_wars.simulation import deal

C = default_deck().card
# Five cards with shared animals: the search has guests and anchors to weigh.
TOTEM = C("indians/eagle")
FIVE = [C(n) for n in ("indians/snake", "africans/snake", "aborigines/snake", "africans/eagle", "aborigines/turtle")]


def test_bench_best_arrangement_of_5_cards_uncached(benchmark):
    def fresh():
        _best_by_tribe.cache_clear()
        return best_arrangement(TOTEM, FIVE)
    assert benchmark(fresh).points == 9


def test_bench_best_arrangement_of_5_cards_cached(benchmark):
    assert benchmark(best_arrangement, TOTEM, FIVE).points == 9


def test_bench_war_grouping_of_5_cards_uncached(benchmark):
    def fresh():
        _grouping_in.cache_clear()
        return war_grouping(TOTEM, FIVE)
    assert benchmark(fresh).points > 0


def test_bench_whole_random_4_player_game(benchmark):
    seeds = itertools.count()
    game, _ = benchmark(lambda: play_game(next(seeds), 4))
    assert game.phase == "over"


def test_bench_play_out_of_a_4_player_game_from_its_first_round(benchmark):
    """One play-out of the search (``playout.py``): a whole 4-player game, every seat greedy."""
    sim = deal(random.Random(3), ("Ana", "Ben", "Cleo", "Dan"), dealer=0)
    sim.push(ChooseTotems(tuple(hand[0] for hand in sim.hands)))
    root = Root(sim.game, sim.seat, sim.hands[sim.seat])
    deals = itertools.cycle([root.deal(random.Random(seed)) for seed in range(50)])

    def play_out():
        out = root.playout(*next(deals))
        return out.play([greedy] * 4)

    assert sum(benchmark(play_out)) >= 4
