"""Totem Wars' tagged items: the cards, named ``<tribe>/<animal>`` (``indians/snake``).

A card of any deck, the default one or a transcribed physical one: the tribe is one of the
four, the animal any name without ``/`` or outer spaces (as the deck loader checks). Which
habitats a card has is the deck's business (``Deck.card``).

>>> parse("indians/snake"), parse("indians/snake").label
(CardTag(tribe='indians', animal='snake'), 'Snake card (Indians)')
>>> parse("martians/snake") is None
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.games.totem_wars.deck import TRIBES
from companion.table.items import EnrollmentStep

_CARD = re.compile(r"^(?P<tribe>[a-z]+)/(?P<animal>[^/\s](?:[^/]*[^/\s])?)$")


@dataclass(frozen=True)
class CardTag:
    """The card a tag stands for."""

    tribe: str
    animal: str
    game: ClassVar[str] = "totem-wars"

    @property
    def name(self) -> str:
        """The item name, as in a deck: ``indians/snake``."""
        return f"{self.tribe}/{self.animal}"

    @property
    def label(self) -> str:
        """``"Snake card (Indians)"``, ``"Polar bear card (Eskimos)"``."""
        animal = self.animal.replace("_", " ")
        return f"{animal[0].upper()}{animal[1:]} card ({self.tribe.capitalize()})"


def parse(name: str) -> CardTag | None:
    """The card called ``name``, or ``None`` if it is not a card name."""
    match = _CARD.match(name)
    if match is None or match["tribe"] not in TRIBES:
        return None
    return CardTag(match["tribe"], match["animal"])


def enrollment_steps(card_names: Sequence[str]) -> list[EnrollmentStep]:
    """One step per card, in the order given (a deck's order).

    Raises ``ValueError`` naming the first entry that is not a card name or comes twice.
    """
    seen: set[str] = set()
    for name in card_names:
        if parse(name) is None:
            raise ValueError(f"'{name}' is not a card name (tribe/animal, tribes: {', '.join(TRIBES)})")
        if name in seen:
            raise ValueError(f"card '{name}' is listed twice")
        seen.add(name)
    return [EnrollmentStep(name) for name in card_names]
