"""Whole games with known hands (simulation) and properties that hold in every game."""

import random

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.totem_wars import (ChooseTotems, Play, deal, default_deck, greedy_bot,
                                        play_game, random_bot, read_record)

games = st.tuples(st.integers(0, 10**6), st.integers(2, 4),
                  st.lists(st.sampled_from([random_bot, greedy_bot]), min_size=4, max_size=4))


def public_state(game):
    return (game.phase, game.to_move, game.level, game.round_starter, game.hand_sizes, game.deck_count,
            game.unseen, game.table, game.taken, game.totems, game.removed, game.rounds, game.history,
            game.legal_counts(), game.outcome())


def check_cards_accounted_for(game):
    # Every card is in exactly one place: unseen (hands + deck), totem, table, taken or removed.
    places = [list(game.unseen), [t for t in game.totems if t], *game.table, *game.taken, list(game.removed)]
    flat = [c for place in places for c in place]
    assert len(flat) == 52 and set(flat) == set(default_deck())
    assert len(game.unseen) == game.deck_count + sum(game.hand_sizes)


@settings(max_examples=40, deadline=None)
@given(games)
def test_every_game_ends_cards_are_accounted_for_and_undo_restores_the_exact_state(case):
    seed, n, bots = case
    rng = random.Random(seed)
    sim = deal(rng, ["Ana", "Ben", "Cleo", "Dan"][:n], dealer=seed % n)
    steps = 0
    while sim.game.phase != "over":
        steps += 1
        assert steps < 400, "a game must end (R4)"
        if sim.game.phase == "totems":
            move = ChooseTotems(tuple(bots[p](sim, rng).cards[p] for p in range(n)))
        else:
            move = bots[sim.game.to_move](sim, rng)
        before = public_state(sim.game)
        sim.game.push(move)
        assert sim.game.pop() == move and public_state(sim.game) == before
        sim.push(move)
        check_cards_accounted_for(sim.game)
        assert len(sim.pile) == sim.game.deck_count
        assert [len(h) for h in sim.hands] == list(sim.game.hand_sizes)
    outcome = sim.game.outcome()
    assert sim.game.deck_count == 0 and not any(sim.game.hand_sizes) and sim.game.unseen == frozenset()
    assert set(outcome.winners) == {p for p in range(n) if outcome.points[p] == max(outcome.points)}
    final = public_state(sim.game)
    moves = [move for _, move in sim.game.history]
    while sim.game.history:
        sim.game.pop()
    for move in moves:
        sim.game.push(move)
    assert public_state(sim.game) == final


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4))
def test_a_played_record_replays_to_the_same_game(seed, n):
    game, text = play_game(seed, n)
    again, warnings = read_record(text)
    assert warnings == [] and public_state(again) == public_state(game)


def test_a_round_of_each_kind_turns_up_in_simulated_games():
    kinds = set()
    for seed in range(40):
        game, _ = play_game(seed, 2 + seed % 3, bots=[greedy_bot, random_bot, greedy_bot, random_bot])
        for r in game.rounds:
            kinds.add("war" if r.war else "plain")
            kinds.add(r.destination)
            kinds.add("T14" if r.last_player else "shared")
    assert kinds == {"war", "plain", "taken", "under the deck", "removed", "T14", "shared"}


def test_simulation_refuses_a_card_not_in_the_hand():
    sim = deal(random.Random(1), ["Ana", "Ben"])
    with pytest.raises(ValueError, match="not in Ana's hand"):
        sim.push(ChooseTotems((sim.pile[0], sim.hands[1][0])))
    sim.push(ChooseTotems((sim.hands[0][0], sim.hands[1][0])))
    with pytest.raises(ValueError, match="not in Ben's hand"):
        sim.push(Play((sim.hands[0][0],)))
    assert sim.game.table == ((), ())


def test_greedy_bot_beats_random_bot_more_often_than_not():
    wins = {"greedy": 0, "random": 0}
    for seed in range(60):
        bots = [greedy_bot, random_bot] if seed % 2 else [random_bot, greedy_bot]
        game, _ = play_game(seed, 2, bots=bots)
        winners = game.outcome().winners
        if len(winners) == 1:
            wins["greedy" if bots[winners[0]] is greedy_bot else "random"] += 1
    assert wins["greedy"] > wins["random"]
