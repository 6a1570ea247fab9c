"""``demo --game totem-wars --box SEAT``: a whole game with the box in a seat, through the same
flow as at the table (``box_seat.py``).

The people are bots with known hands (``simulation.deal``); the set-up seats the box with the
buttons ("The box" for its seat, its default level). Whenever the box asks for a card, the
dealer's next card for it is put on the pad (``Tag``/``TagGone``) — the box's five, its card
after the totems (T2), its refills (T13) —; its totem and the spots it lays are the cards it
names, scanned as a player would lay them. The game on the table is kept in step with the
box's journal, so a card the box did not take stops the demo with one line.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from companion.events import Event, Press, Tag, TagGone
from companion.games.totem_wars import Card, ChooseTotems, Deal, Move, RoundResult, Simulation, TotemWars, deal
from companion.games.totem_wars.box_setup import BOX
from companion.games.totem_wars.flow import TotemWarsFlow, totem_order
from companion.games.totem_wars.words import card_label, t
from companion.signals import Signal
from companion.table.demo_player import DemoError
from companion.table.session import Session

#: Events enough for any game: a stuck demo stops instead of going round for ever.
MAX_STEPS = 5000

#: A bot: its move in a game whose hands it knows (``simulation.py``).
Bot = Callable[[Simulation, random.Random], Move]
#: Where a demo prints its lines.
Out = Callable[[str], object]


class TablePlayer(Protocol):
    """The players at the table as the demo drives them (``demo.TotemWarsPlayer``)."""

    def choose(self, value: object) -> None: ...

    def send(self, event: Event) -> Signal | None: ...

    def play(self, move: Move) -> None: ...

    def turn_pages(self) -> None: ...


def set_up(player: TablePlayer, names: Sequence[str], box: int, dealer: int) -> None:
    """The number of players, each seat's name ("The box" for ``box``, then its level), the
    dealer; ``names`` are the people's, in seat order."""
    people = iter(names)
    player.choose(len(names) + 1)
    for seat in range(len(names) + 1):
        if seat == box:
            player.choose(BOX)
            player.send(Press("ok"))  # its default level, lit first
        else:
            player.choose(next(people))
    player.choose(dealer)


def scan(player: TablePlayer, card: Card) -> None:
    """Put ``card`` on the pad and take it off."""
    player.send(Tag(card.name))
    player.send(TagGone(card.name))


def _in_step(sim: Simulation, game: TotemWars) -> int:
    """Play on the simulated table the moves the box's game has and it has not (the box's
    declarations, every placement): how many rounds were resolved."""
    public = [move for _, move in game.history if not isinstance(move, Deal)]
    before = len(sim.game.rounds)
    for move in public[len(sim.game.history):]:
        try:
            sim.push(move)
        except ValueError as exc:
            raise DemoError(f"the box took a card nobody holds: {exc}") from None
    if [move for _, move in sim.game.history] != public:
        raise DemoError("the box's game and the table's differ")
    return len(sim.game.rounds) - before


def play_with_box(table: Session, player: TablePlayer, names: Sequence[str], box: int, dealer: int,
                  bots: Sequence[Bot], rng: random.Random, out: Out,
                  print_round: Callable[[TotemWars, RoundResult, Out], None]) -> TotemWars:
    """Set up with the box in seat ``box`` and play to the end pages; the finished game.
    ``bots`` play the people's seats (``bots[box]`` is not used); ``print_round(game,
    result, out)`` prints each round."""
    set_up(player, names, box, dealer)
    game: TotemWars = table.game
    sim = deal(rng, game.players, dealer, game.deck)
    flow = table.play
    assert isinstance(flow, TotemWarsFlow) and flow.box is not None  # the set-up seated the box
    totems: Move | None = None
    for _ in range(MAX_STEPS):
        if game.phase == "over":
            break
        due = game.deal_due
        if due is not None:
            scan(player, next(c for c in sim.hands[due.seat] if c not in game.box_hand(due.seat)))
            continue
        if game.phase == "totems":
            if totems is None:
                # The people's totems, from their own hands (the box's seat is its own).
                totems = bots[(box + 1) % len(game.players)](sim, rng)
            assert isinstance(totems, ChooseTotems)  # a bot's move at the totems (T2)
            seat = totem_order(game)[len(flow.totems)]
            scan(player, flow.box.totem(game, seat) if seat == box else totems.cards[seat])
            if game.phase != "totems":
                _in_step(sim, game)
                out(t("tw.demo.totems", list=", ".join(f"{game.players[p]} {card_label(c)}"
                                                       for p, c in enumerate(game.totems))))
                player.turn_pages()
            continue
        mover = game.to_move
        assert mover is not None  # not over: someone places or declares
        if mover == box:
            move = flow.box.placement(game)
            if move is None:
                raise DemoError("the box does not say what it lays")
            for card in move.cards:
                scan(player, card)
        else:
            player.play(bots[mover](sim, rng))
        if _in_step(sim, game):
            print_round(game, game.rounds[-1], out)
            player.turn_pages()
    else:
        raise DemoError("the game does not end")
    return game
