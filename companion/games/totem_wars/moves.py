"""Totem Wars moves: small immutable values, like python-chess's ``Move``.

A ``Play`` does not carry its player; the game knows whose turn it is. The companion never
sees hands, so a move names the cards as they reach the table (scanned or entered).

What ``legal_moves()`` lists is what the companion can know of the legal moves: hands are
hidden, so not cards but how many may be placed — a ``Count`` for the player to move
(any ``Play`` of that many cards they hold is legal), or ``TotemsDue`` before the first
round (one totem per player, in a ``ChooseTotems``). While a war waits for the habitat of
a two-habitat totem (R2), the legal moves are that owner's ``Declare`` moves themselves.

>>> Count(2), str(Count(1)), str(TotemsDue(3)), str(Declare("land"))
(Count(n=2), 'place 1 card', 'lay 3 totems, one per player', 'declare land')
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.totem_wars.deck import Card


@dataclass(frozen=True)
class ChooseTotems:
    """Every player lays a totem at once (T2), one card per player in seat order."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "totems " + ", ".join(c.name for c in self.cards)


@dataclass(frozen=True)
class Play:
    """One placement (a first placement or an answer) by the player to move (T4–T6)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "play " + ", ".join(c.name for c in self.cards)


@dataclass(frozen=True)
class Declare:
    """The owner of a two-habitat totem declares the habitat it fights with in a war (R2):
    after the play that starts the war, when the choice can change who takes the cards."""

    habitat: str

    def __str__(self) -> str:
        return f"declare {self.habitat}"


@dataclass(frozen=True)
class Deal:
    """A card dealt face down to a seat the box plays, onto the first empty spot of its strip
    and scanned there (T2, T13): the box knows its own hand, nobody else sees it. Chance,
    not a decision: the card is whatever the dealer dealt."""

    card: Card

    def __str__(self) -> str:
        return f"deal {self.card.name}"


Move = ChooseTotems | Play | Declare | Deal


@dataclass(frozen=True)
class Count:
    """A legal placement as far as the companion can know it: the player to move places
    ``n`` cards (T4–T6, T14). The move itself is a ``Play`` of ``n`` cards from their hand."""

    n: int

    def __str__(self) -> str:
        return f"place {self.n} card{'s' * (self.n != 1)}"


@dataclass(frozen=True)
class TotemsDue:
    """Before the first round: every player lays one totem (T2), ``n`` cards in all, as one
    ``ChooseTotems`` in seat order."""

    n: int

    def __str__(self) -> str:
        return f"lay {self.n} totems, one per player"


@dataclass(frozen=True)
class DealDue:
    """The dealer deals a card to the seat the box plays, ``seat``, onto spot ``spot``
    (1 to 7) and scans it, before anything else (T2, T13); the move is a ``Deal``."""

    seat: int
    spot: int

    def __str__(self) -> str:
        return f"deal a card to seat {self.seat}, spot {self.spot}"


LegalMove = Count | TotemsDue | Declare | DealDue
