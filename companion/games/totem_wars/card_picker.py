"""Totem Wars cards at the table: which scanned card can be in a hand, and the card picker.

The companion never sees hands, so a scanned card is accepted when it could be in one: not
a totem, not on the table, not taken, not out of the game (T2, T9, R4). Without a reader
(or with a card whose tag is lost) a card is entered with the buttons: first its tribe,
then its animal, among the cards that could be in a hand.

>>> from companion.games.totem_wars import TotemWars, ChooseTotems, default_deck
>>> d = default_deck().card
>>> g = TotemWars(["Ana", "Ben"])
>>> g.push(ChooseTotems((d("indians/snake"), d("africans/lion"))))
>>> problem = card_problem(g, d("indians/snake"))
>>> problem.key, problem.rule, card_problem(g, d("indians/wolf")) is None
('card.totem', 'T2', True)
>>> from companion.ui.text import refusal_text
>>> refusal_text(problem.refusal, "en"), refusal_text(problem.refusal, "bg")
('Snake (Indians) is a totem — T2', 'Змия (Индианци) е тотем — T2')
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace

from companion.engine import IllegalMove
from companion.games.totem_wars import TRIBES, Card, TotemWars
from companion.games.totem_wars.words import animal_name, illegal, t
from companion.table.choice import Choice


def card_problem(game: TotemWars, card: Card, held: Collection[Card] = ()) -> IllegalMove | None:
    """Why ``card`` cannot be in a hand now, or ``None`` when it can: an ``IllegalMove``
    (not raised) whose ``refusal`` a screen shows — the short ``card.*`` keys of the
    catalogue, the card as a raw parameter, the rule.

    ``held`` are the cards already scanned for the placement (or the totems) under way.
    """
    if card not in game.deck:  # T1a: the cards of this game's deck
        return illegal("card.not_in_deck", rule="T1a", card=card)
    if card in held:  # T4: a card is placed once
        return illegal("card.scanned", rule="T4", card=card)
    if card in game.unseen:
        return None
    if card in game.totems:  # T2: a totem stays on the table all game
        return illegal("card.totem", rule="T2", card=card)
    if any(card in cards for cards in game.table):  # T4: already placed this round
        return illegal("card.on_table", rule="T4", card=card)
    if any(card in cards for cards in game.taken):  # T9: taken cards are out of the hands
        return illegal("card.taken", rule="T9", card=card)
    return illegal("card.left", rule="R4", card=card)  # R4: out of the game


def tribe_label(tribe: str) -> str:
    """A tribe as players read it: ``Indians``."""
    return t(f"tribe.{tribe}")


def animal_label(card: Card) -> str:
    """A card's animal as players read it: ``Polar bear``."""
    return animal_name(card.animal)


@dataclass(frozen=True)
class CardPicker:
    """Two lists in a row: the tribe, then the animal among ``cards`` of that tribe."""

    title: str
    cards: tuple[Card, ...]
    choice: Choice
    tribe: str | None = None

    @classmethod
    def open(cls, title: str, cards: Iterable[Card]) -> CardPicker | None:
        """A picker over ``cards``; ``None`` when there is no card to pick."""
        cards = tuple(sorted(cards))
        tribes = tuple(tribe for tribe in TRIBES if any(c.tribe == tribe for c in cards))
        if not tribes:
            return None
        return cls(title, cards, Choice(title, tuple(map(tribe_label, tribes)), tribes))

    def moved(self, step: int) -> CardPicker:
        """The picker with the selection moved by ``step``."""
        return replace(self, choice=self.choice.moved(step))

    def ok(self) -> tuple[CardPicker | None, Card | None]:
        """OK: the tribe chosen opens its animals; an animal chosen gives its card."""
        if self.tribe is None:
            tribe = self.choice.value
            own = tuple(c for c in self.cards if c.tribe == tribe)
            choice = Choice(t("tw.tribe_title", tribe=tribe_label(tribe)),
                            tuple(map(animal_label, own)), own)
            return replace(self, choice=choice, tribe=tribe), None
        return None, self.choice.value

    def back(self) -> CardPicker | None:
        """Back: from the animals to the tribes; from the tribes, closed."""
        if self.tribe is None:
            return None
        reopened = CardPicker.open(self.title, self.cards)
        assert reopened is not None  # its cards hold the tribe being browsed
        return replace(reopened, choice=reopened.choice.select(self.tribe))
