"""Totem Wars moves: small immutable values, like python-chess's ``Move``.

A ``Play`` does not carry its player; the game knows whose turn it is. The companion never
sees hands, so a move names the cards as they reach the table (scanned or entered).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import UserError
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


Move = ChooseTotems | Play


class IllegalMove(UserError):
    """A move the rules forbid; ``str(exc)`` is ``"reason (T5)"`` and ``exc.rule`` is ``"T5"``."""

    def __init__(self, reason: str, rule: str):
        super().__init__(f"{reason} ({rule})")
        self.reason = reason
        self.rule = rule
