"""Totem Wars' part of the public view (``companion/table/public_view.py``): what the phone
page, its event stream and the voice may show of a game.

No card face before it is laid face up: the hands are never seen (T2), the cards placed in
a round are counted until the round is resolved (T4, T9: its result pages show them), the
taken cards lie face down (T9); the totems are faces once all are down (T2). So while a
game is played the hint's hand screen and the lists a card is picked from with the buttons
(tribe, then animal) stay on the OLED, and a text or a refusal that names a card not laid
face up says "1 card" instead ("1 card taken off: not placed").
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Protocol

from companion.contract import Note
from companion.engine import Refusal
from companion.games.totem_wars import Card, TotemWars
from companion.games.totem_wars.words import card_label, cards
from companion.table.public_view import GamePublic
from companion.ui.text import language

#: Views that may name cards in a hand: the hint's hand screen and the card pickers.
SECRET_KINDS = frozenset({"hand", "menu", "picker"})


class OnTotemWars(Protocol):
    """A flow on screen during a game of Totem Wars (its play, set-up or score)."""

    @property
    def game(self) -> TotemWars:
        """The game the flow shows."""
        ...


def hides(flow: OnTotemWars, view: object) -> bool:
    """Whether none of ``view``'s words may be seen: a view that may name cards in a hand,
    while the game is played."""
    return flow.game.phase != "over" and getattr(view, "kind", None) in SECRET_KINDS


@lru_cache(maxsize=16)
def _labels(deck: tuple[Card, ...], lang: str) -> tuple[tuple[Card, str], ...]:
    """Each card of ``deck`` with its label in ``lang``, the longest first (no label is cut
    by a shorter one inside it)."""
    return tuple(sorted(((card, card_label(card, lang)) for card in deck), key=lambda pair: -len(pair[1])))


def note(flow: OnTotemWars, text: Note) -> Note:
    """``text`` (a string or a refusal) with each card not face up said as "1 card"."""
    game = flow.game
    if game.phase == "over":
        return text
    face_up = frozenset(card for card in game.totems if card is not None)
    one = cards(1)
    if isinstance(text, Refusal):
        params = {key: one if isinstance(value, Card) and value not in face_up else value
                  for key, value in text.params.items()}
        return dataclasses.replace(text, params=params) if params != text.params else text
    if not isinstance(text, str):
        return text
    for card, label in _labels(game.deck.cards, language()):
        if card not in face_up and label in text:
            text = text.replace(label, one)
    return text


PUBLIC = GamePublic(hides=hides, note=note)
