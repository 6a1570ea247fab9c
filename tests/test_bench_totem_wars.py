"""Totem Wars timings (budgets: best arrangement of 5 cards ≤ 0.2 ms; a whole random
4-player game ≤ 50 ms). Print the figures with
``.venv/bin/python -m pytest tests/test_bench_totem_wars.py --benchmark-enable --benchmark-only``."""

import itertools

from companion.games.totem_wars import best_arrangement, default_deck, play_game, war_grouping
from companion.games.totem_wars.arrangement import _best_by_tribe, _grouping_in

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
