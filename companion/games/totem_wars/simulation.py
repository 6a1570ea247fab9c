"""Simulation with known hands: a shuffled deck dealt by the rules, bots that play it.

The engine only counts hands; a ``Simulation`` also knows their faces, dealing and refilling
exactly as the engine counts (T2, T12, T13), so bots, the demo and tests can play whole games.
Every bot declares the habitat the game offers first, the best for it, when a war asks (R2).

>>> game, record = play_game(seed=7, n_players=3)
>>> game.phase, record.startswith('{"game": "totem-wars"')
('over', True)
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from companion.games.totem_wars.arrangement import best_arrangement
from companion.games.totem_wars.deck import Card, Deck
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.moves import ChooseTotems, Declare, Move, Play
from companion.games.totem_wars.record import write_record
from companion.games.totem_wars.rounds import HAND_SIZE, UNDER_DECK

NAMES = ("Ana", "Ben", "Cleo", "Dan")


@dataclass
class Simulation:
    """A game plus every hand's faces and the deck in order (top first). Forward only."""

    game: TotemWars
    hands: list[list[Card]]
    pile: deque[Card]

    @property
    def seat(self) -> int:
        """The player to move; ``ValueError`` once the game is over."""
        if self.game.to_move is None:
            raise ValueError("the game is over: nobody is to move")
        return self.game.to_move

    def push(self, move: Move) -> None:
        """Push ``move`` on the game, keeping hands and deck in step with it."""
        if isinstance(move, ChooseTotems):
            owners = list(enumerate(move.cards))
        elif isinstance(move, Play) and self.game.to_move is not None:
            owners = [(self.game.to_move, c) for c in move.cards]
        else:
            owners = []  # a declaration (R2) moves no card
        for p, card in owners:
            if card not in self.hands[p]:
                raise ValueError(f"{card.name} is not in {self.game.players[p]}'s hand")
        rounds_before = len(self.game.rounds)
        player = self.game.to_move
        self.game.push(move)
        if isinstance(move, ChooseTotems):
            n = len(self.hands)
            for p, card in enumerate(move.cards):
                self.hands[p].remove(card)
            for i in range(n):  # T2: one more card each, clockwise from the dealer's left
                self.hands[(self.game.dealer + 1 + i) % n].append(self.pile.popleft())
            return
        assert player is not None, "a play or a declaration has a player"
        if isinstance(move, Play):
            for card in move.cards:
                self.hands[player].remove(card)
        result = self.game.last_round
        if len(self.game.rounds) > rounds_before and result is not None:
            if result.destination == UNDER_DECK:
                self.pile.extend(result.cards)  # T12
            for p, count in result.refill:     # T13
                self.hands[p].extend(self.pile.popleft() for _ in range(count))


#: A bot: the move of the seat to move, from the simulation (its hand) and the game's chance.
Bot = Callable[[Simulation, random.Random], Move]


def deal(rng: random.Random, players: Sequence[str], dealer: int = 0, deck: Deck | None = None) -> Simulation:
    """Shuffle the deck with ``rng`` and deal 5 cards each, one at a time clockwise (T2)."""
    game = TotemWars(players, dealer, deck)
    pile = deque(rng.sample(game.deck.cards, len(game.deck)))
    n = len(game.players)
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i in range(HAND_SIZE * n):
        hands[(dealer + 1 + i) % n].append(pile.popleft())
    return Simulation(game, hands, pile)


def best_declaration(game: TotemWars) -> Declare:
    """The declaration the war waits for (R2) with the habitat best for its owner: the one
    the game offers first. ``ValueError`` when no declaration is due."""
    due = game.declaration_due
    if due is None:
        raise ValueError("no habitat declaration is due")
    return Declare(due.habitats[0])


def random_bot(sim: Simulation, rng: random.Random) -> Move:
    """Random totems, then a random legal count of random cards from the hand; the best
    habitat when a war asks for one (R2)."""
    if sim.game.phase == "totems":
        return ChooseTotems(tuple(rng.choice(hand) for hand in sim.hands))
    if sim.game.phase == "declare":
        return best_declaration(sim.game)
    hand = sim.hands[sim.seat]
    return Play(tuple(rng.sample(hand, rng.choice(sim.game.legal_counts()))))


#: Rounds after which a greedy seat plays at random. Some deals make greedy seats go round
#: for ever: a war nobody wins puts its cards under a deck that still holds some (T12; R4
#: only when the deck is empty), and the refill (T13) deals the same hands back. Players at
#: a table would change their play; so does the bot, and a demo never hangs. Games end far
#: sooner: the longest of 900 all-greedy deals took 34 moves.
ROUND_LIMIT = 60


def greedy_bot(sim: Simulation, rng: random.Random) -> Move:
    """Totem of the tribe most held; then the placement that scores most this round (fewest
    cards on a tie, keeping cards of the totem's tribe when it can); the best habitat when a
    war asks for one (R2). Past ``ROUND_LIMIT`` rounds, a random legal placement."""
    game = sim.game
    if game.phase == "play" and len(game.rounds) >= ROUND_LIMIT:
        return random_bot(sim, rng)
    if game.phase == "totems":
        return ChooseTotems(tuple(max(sorted(hand), key=lambda c: sum(o.tribe == c.tribe for o in hand))
                                  for hand in sim.hands))
    if game.phase == "declare":
        return best_declaration(game)
    p = sim.seat
    totem, down = game.totems[p], game.table[p]
    assert totem is not None, "the totems are down before any play"
    best: tuple[Card, ...] = ()
    best_key = None
    for count in game.legal_counts():
        for cards in combinations(sorted(sim.hands[p]), count):
            own = sum(c.tribe == totem.tribe for c in cards)
            key = (best_arrangement(totem, down + cards).points, -count, -own, rng.random())
            if best_key is None or key > best_key:
                best, best_key = cards, key
    return Play(best)


def play_game(seed: int, n_players: int = 4, bots: Iterable[Bot] | None = None, dealer: int = 0,
              deck: Deck | None = None) -> tuple[TotemWars, str]:
    """Deal from a deck shuffled by ``seed`` and let bots play to the end: ``(game, record)``.

    ``bots`` gives one bot per seat (default: ``random_bot`` everywhere); totems are chosen
    by each seat's bot for its own hand.
    """
    rng = random.Random(seed)
    bots = list(bots) if bots is not None else [random_bot] * n_players
    sim = deal(rng, NAMES[:n_players], dealer, deck)
    while sim.game.phase != "over":
        if sim.game.phase == "totems":
            picks = [_totems(bots[p](sim, rng)).cards[p] for p in range(n_players)]
            sim.push(ChooseTotems(tuple(picks)))
        else:
            sim.push(bots[sim.seat](sim, rng))
    return sim.game, write_record(sim.game)


def _totems(move: Move) -> ChooseTotems:
    """A bot's move while the totems are chosen: its ``ChooseTotems``."""
    if not isinstance(move, ChooseTotems):
        raise ValueError(f"a bot answered {move} while the totems are chosen")
    return move
