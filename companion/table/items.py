"""The catalogue of things that carry a tag, with their names and display labels.

Item names are the words of the input scripts (the README's "Input scripts"): Wakanda
pieces (``eagle`` … ``sun``), village tiles (``village:sun``), headdresses (``wings`` for
player 1, ``crests`` for player 2), and Totem Wars cards (``<tribe>/<animal>``, e.g.
``indians/snake``).

>>> label("village:sun")
'Village tile: Sun'
>>> [step.prompt for step in wakanda_enrollment_steps()[:2]]
['Scan an Eagle piece', 'Scan Chief piece 1 of 2']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.games.totem_wars.deck import TRIBES
from companion.games.wakanda.rules import HEADDRESSES, HEADDRESSES_EACH, PIECES, VILLAGES

#: Prefix of a village tile's item name.
VILLAGE_PREFIX = "village:"

# A card of any deck, the default one or a transcribed physical one: the tribe is one of
# the four, the animal any name without "/" or outer spaces (as the deck loader checks).
_CARD = re.compile(r"^(?P<tribe>[a-z]+)/(?P<animal>[^/\s](?:[^/]*[^/\s])?)$")


@dataclass(frozen=True)
class EnrollmentStep:
    """One tag to scan while enrolling: the ``number``-th of ``count`` items named ``item``."""

    item: str
    number: int = 1
    count: int = 1

    @property
    def label(self) -> str:
        """The item's display label, e.g. ``"Chief piece"``."""
        return label(self.item)

    @property
    def description(self) -> str:
        """The label with its place among items of its kind: ``"Chief piece 2 of 2"``."""
        return f"{self.label} {self.number} of {self.count}" if self.count > 1 else self.label

    @property
    def prompt(self) -> str:
        """What the player is asked: ``"Scan an Eagle piece"``, ``"Scan Chief piece 2 of 2"``."""
        if self.count > 1:
            return f"Scan {self.description}"
        article = "an" if self.label[0].lower() in "aeiou" else "a"
        return f"Scan {article} {self.label}"


def wakanda_items() -> tuple[str, ...]:
    """Every Wakanda item name: pieces, village tiles, headdresses (rules W1)."""
    return (*PIECES, *(VILLAGE_PREFIX + v for v in VILLAGES), *HEADDRESSES)


def card_parts(name: str) -> tuple[str, str] | None:
    """``(tribe, animal)`` of a Totem Wars card name, or ``None`` if it is not one."""
    match = _CARD.match(name)
    if match is None or match["tribe"] not in TRIBES:
        return None
    return match["tribe"], match["animal"]


def game_of_item(name: str) -> str | None:
    """``"wakanda"`` or ``"totem-wars"`` for an item name; ``None`` for anything else."""
    if name in wakanda_items():
        return "wakanda"
    if card_parts(name) is not None:
        return "totem-wars"
    return None


def is_item(name: str) -> bool:
    """Whether ``name`` is the name of a taggable item of either game."""
    return game_of_item(name) is not None


def label(name: str) -> str:
    """The display label of an item: ``"Eagle piece"``, ``"Village tile: Sun"``,
    ``"Wings headdress"``, ``"Snake card (Indians)"``.

    Raises ``ValueError`` for a name that is not an item.
    """
    if name in PIECES:
        return f"{name.capitalize()} piece"
    if name.startswith(VILLAGE_PREFIX) and name[len(VILLAGE_PREFIX):] in VILLAGES:
        return f"Village tile: {name[len(VILLAGE_PREFIX):].capitalize()}"
    if name in HEADDRESSES:
        return f"{name.capitalize()} headdress"
    parts = card_parts(name)
    if parts is not None:
        tribe, animal = parts
        animal = animal.replace("_", " ")
        return f"{animal[0].upper()}{animal[1:]} card ({tribe.capitalize()})"
    raise ValueError(f"not an item: {name!r}")


def wakanda_enrollment_steps() -> list[EnrollmentStep]:
    """The Wakanda items in the order ``enroll`` asks for them: the pieces type by type
    (best first), the eight village tiles, then three Wings and three Crests headdresses."""
    steps = [EnrollmentStep(piece, n, count)
             for piece, count in PIECES.items() for n in range(1, count + 1)]
    steps += [EnrollmentStep(VILLAGE_PREFIX + village) for village in VILLAGES]
    steps += [EnrollmentStep(headdress, n, HEADDRESSES_EACH)
              for headdress in HEADDRESSES for n in range(1, HEADDRESSES_EACH + 1)]
    return steps


def card_enrollment_steps(card_names) -> list[EnrollmentStep]:
    """One step per Totem Wars card, in the order given (a deck's order).

    Raises ``ValueError`` naming the first entry that is not a card name or comes twice.
    """
    seen: set[str] = set()
    for name in card_names:
        if card_parts(name) is None:
            raise ValueError(f"'{name}' is not a card name (tribe/animal, tribes: {', '.join(TRIBES)})")
        if name in seen:
            raise ValueError(f"card '{name}' is listed twice")
        seen.add(name)
    return [EnrollmentStep(name) for name in card_names]
