"""The things that carry a tag, whatever the game: an item name resolves once into a typed
item of its game (``companion/games/<game>/items.py``: a Wakanda ``Piece``, ``Tile`` or
``Headdress``, a Totem Wars ``CardTag``), which the flows take as it is.

Item names are the words of the input scripts (the README's "Input scripts"): ``eagle``,
``village:sun``, ``wings``, ``indians/snake``.

>>> parse_item("village:sun")
Tile(village='sun')
>>> parse_item("village:sun").game, label("wings"), parse_item("hello") is None
('wakanda', 'Wings headdress', True)
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.contract import Item
from companion.games import GAMES


def parse_item(name: str, first: str | None = None) -> Item | None:
    """The item called ``name`` in whichever game knows it (the game ``first`` before the
    others: two games may both have an ``eagle``), or ``None``."""
    for entry in sorted(GAMES.values(), key=lambda entry: entry.name != first):
        item = entry.items.parse(name)
        if item is not None:
            return item
    return None


def is_item(name: str) -> bool:
    """Whether ``name`` is the name of a taggable item of any game."""
    return parse_item(name) is not None


def label(name: str) -> str:
    """The display label of an item name (``"Eagle piece"``, ``"Snake card (Indians)"``);
    ``ValueError`` for a name that is not an item."""
    item = parse_item(name)
    if item is None:
        raise ValueError(f"not an item: {name!r}")
    return item.label


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
