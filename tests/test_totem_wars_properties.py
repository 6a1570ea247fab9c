"""Whole games with known hands (simulation) and properties that hold in every game.

Hypothesis draws every choice of a game (the shuffle, the totems, each placement, each
habitat a war asks for, R2), so a failing game shrinks to a short, plain one."""

import random
from collections import deque
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import indices, pick

from companion.games.totem_wars import (
    ChooseTotems,
    Declare,
    Play,
    TotemWars,
    default_deck,
    read_record,
    write_record,
)
from companion.games.totem_wars.simulation import ROUND_LIMIT, Simulation, deal, greedy_bot, play_game, random_bot

NAMES = ("Ana", "Ben", "Cleo", "Dan")

#: How a seat plays: its totem and placements drawn by hypothesis, or greedy_bot's.
SEAT = st.sampled_from(["drawn", "greedy"])
#: Moves after which every seat plays random_bot: a round nobody wins sends its cards under
#: the deck (T12), so seats that keep laying the same cards can go round while the deck holds
#: cards (R4 takes them out only once it is empty) — players at a table change their play.
#: greedy_bot does not: two greedy seats can lay the same hands for ever (see
#: test_greedy_seats_can_go_round_for_ever_while_the_deck_holds_cards).
LONG = 300


class Played(NamedTuple):
    """A game hypothesis drew, in card names: the hands as dealt, the rest of the deck (top
    first), how each seat played, and each move's cards (the totems, then each placement)
    or, for a war's declaration (R2), its habitat."""

    dealer: int
    hands: tuple
    pile: tuple
    seats: tuple
    moves: tuple


def names(cards):
    return tuple(card.name for card in cards)


@st.composite
def games(draw):
    """A whole game. The shuffle comes from a Random hypothesis draws; a "drawn" seat's totem,
    count and cards are drawn from its hand and the legal counts. greedy_bot asks for a float
    per candidate placement to break ties: drawn by hypothesis those would cost most of the
    run, so its ties come from a fixed-seed Random (the same draws still give the same game)."""
    n = draw(st.integers(2, 4))
    dealer = draw(st.integers(0, n - 1))
    seats = draw(st.tuples(*[SEAT] * n))
    sim = deal(draw(st.randoms(use_true_random=False)), NAMES[:n], dealer)
    ties = random.Random(0)
    hands, pile = tuple(names(hand) for hand in sim.hands), names(sim.pile)
    moves = []
    while sim.game.phase != "over":
        assert len(moves) < 2 * LONG, "a game must end"
        if sim.game.phase == "totems":
            move = ChooseTotems(tuple(greedy_bot(sim, ties).cards[p] if seats[p] == "greedy"
                                      else pick(draw, sim.hands[p]) for p in range(n)))
        elif len(moves) >= LONG:
            move = random_bot(sim, ties)
        elif seats[sim.game.to_move] == "greedy":
            move = greedy_bot(sim, ties)
        elif sim.game.phase == "declare":
            move = Declare(pick(draw, list(sim.game.declaration_due.habitats)))
        else:
            hand = list(sim.hands[sim.game.to_move])
            count = pick(draw, sim.game.legal_counts())
            move = Play(tuple(hand.pop(draw(indices(len(hand)))) for _ in range(count)))
        sim.push(move)
        moves.append(move.habitat if isinstance(move, Declare) else names(move.cards))
    return Played(dealer, hands, pile, seats, tuple(moves))


def dealt(played):
    """The simulation of ``played`` as dealt, before the totems."""
    game = TotemWars(NAMES[:len(played.hands)], played.dealer)
    card = game.deck.card
    return Simulation(game, [[card(c) for c in hand] for hand in played.hands],
                      deque(card(c) for c in played.pile))


def as_move(game, cards):
    """The move of ``played.moves`` that comes next in ``game``."""
    if isinstance(cards, str):
        return Declare(cards)
    return (ChooseTotems if game.phase == "totems" else Play)(tuple(game.deck.card(c) for c in cards))


def public_state(game):
    return (game.phase, game.to_move, game.level, game.round_starter, game.hand_sizes, game.deck_count,
            game.unseen, game.table, game.taken, game.totems, game.removed, game.rounds, game.history,
            game.legal_moves(), game.declaration_due, game.outcome())


def check_cards_accounted_for(game):
    # Every card is in exactly one place: unseen (hands + deck), totem, table, taken or removed.
    places = [list(game.unseen), [t for t in game.totems if t], *game.table, *game.taken, list(game.removed)]
    flat = [c for place in places for c in place]
    assert len(flat) == 52 and set(flat) == set(default_deck())
    assert len(game.unseen) == game.deck_count + sum(game.hand_sizes)


@settings(max_examples=40, deadline=None)
@given(games())
def test_every_game_ends_cards_are_accounted_for_and_undo_restores_the_exact_state(played):
    sim = dealt(played)
    n = len(played.hands)
    for cards in played.moves:
        move = as_move(sim.game, cards)
        before = public_state(sim.game)
        sim.game.push(move)
        assert sim.game.pop() == move and public_state(sim.game) == before
        deck, rounds = sim.game.deck_count, len(sim.game.rounds)  # a round leaves the deck alone
        sim.push(move)
        if len(sim.game.rounds) > rounds:  # R4: no winner and the deck empty, and only then
            result = sim.game.last_round
            assert (result.destination == "removed") == (result.taker is None and deck == 0)
        check_cards_accounted_for(sim.game)
        assert len(sim.pile) == sim.game.deck_count
        assert [len(h) for h in sim.hands] == list(sim.game.hand_sizes)
    outcome = sim.game.outcome()
    assert sim.game.phase == "over"
    assert sim.game.deck_count == 0 and not any(sim.game.hand_sizes) and sim.game.unseen == frozenset()
    points = sim.game.all_points()
    assert set(outcome.winners) == {p for p in range(n) if points[p] == max(points)}
    final = public_state(sim.game)
    moves = [move for _, move in sim.game.history]
    while sim.game.history:
        sim.game.pop()
    for move in moves:
        sim.game.push(move)
    assert public_state(sim.game) == final


@settings(max_examples=15, deadline=None)
@given(games())
def test_a_played_record_replays_to_the_same_game(played):
    sim = dealt(played)
    for cards in played.moves:
        sim.push(as_move(sim.game, cards))
    again, warnings = read_record(write_record(sim.game))
    assert warnings == [] and public_state(again) == public_state(sim.game)


def test_a_round_of_each_kind_turns_up_in_simulated_games():
    kinds = set()
    for seed in range(40):
        game, _ = play_game(seed, 2 + seed % 3, bots=[greedy_bot, random_bot, greedy_bot, random_bot])
        for r in game.rounds:
            kinds.add("war" if r.war else "plain")
            kinds.add(r.destination)
            kinds.add("T14" if r.last_player else "shared")
    assert kinds == {"war", "plain", "taken", "under the deck", "removed", "T14", "shared"}


#: A 2-player deal (dealer Ana) where two greedy seats go round for ever: hands as dealt and
#: the rest of the deck, top first.
LOOPING_DEAL = Played(0, (
    ("africans/zebra", "indians/hawk", "africans/giraffe", "africans/gorilla", "indians/bear"),
    ("aborigines/turtle", "aborigines/kangaroo", "indians/buffalo", "aborigines/kookaburra", "eskimos/owl"),
), (
    "indians/raven", "eskimos/raven", "eskimos/caribou", "africans/hippo", "indians/beaver", "aborigines/emu",
    "indians/owl", "eskimos/salmon", "eskimos/polar_bear", "africans/vulture", "eskimos/narwhal",
    "aborigines/shark", "aborigines/cockatoo", "aborigines/snake", "indians/wolf", "aborigines/dingo",
    "aborigines/goanna", "eskimos/walrus", "aborigines/eagle", "indians/salmon", "indians/snake",
    "africans/snake", "africans/elephant", "eskimos/hare", "aborigines/crocodile", "africans/leopard",
    "indians/coyote", "indians/turtle", "africans/ostrich", "africans/crocodile", "eskimos/fox",
    "aborigines/koala", "africans/flamingo", "eskimos/whale", "eskimos/orca", "indians/deer",
    "africans/eagle", "eskimos/seal", "aborigines/platypus", "africans/lion", "indians/eagle", "eskimos/wolf",
), ("greedy", "greedy"), ())


def test_greedy_seats_can_go_round_for_ever_while_the_deck_holds_cards():
    # Totems giraffe and kangaroo, both land. From round 7 each greedy seat lays its whole
    # hand, the war ties 9-9 on equal habitats (T11), the 10 cards go under the 2 left in the
    # deck (T12, not R4: the deck is not empty) and the refill (T13) swaps the two hands:
    # every two rounds the game is back where it was. Seats that change their play end it.
    sim, ties = dealt(LOOPING_DEAL), random.Random(0)
    sim.push(greedy_bot(sim, ties))
    states = {}
    while len(sim.game.rounds) < 11:
        sim.push(greedy_bot(sim, ties))
        if sim.game.rounds and sim.game.to_move == sim.game.round_starter and not any(sim.game.table):
            states[len(sim.game.rounds)] = (tuple(map(tuple, sim.hands)), tuple(sim.pile), sim.game.to_move)
    for result in sim.game.rounds[6:]:
        assert (result.taker, result.war, result.destination) == (None, True, "under the deck")
        assert sim.game.deck_count == 2 and sim.game.hand_sizes == (5, 5)
    assert states[7] == states[9] == states[11] and states[8] == states[10] != states[7]
    # The bot changes its play past ROUND_LIMIT rounds, as players would: the game ends.
    for _ in range(LONG):
        if sim.game.phase == "over":
            break
        sim.push(greedy_bot(sim, ties))
    assert sim.game.phase == "over" and ROUND_LIMIT <= len(sim.game.rounds) < ROUND_LIMIT + LONG // 2


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
