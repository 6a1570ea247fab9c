"""Wakanda's tagged items (rules W1): the 21 pieces, the 8 village tiles, the 6 headdresses.

>>> parse("village:sun"), parse("eagle"), parse("crests").player
(Tile(village='sun'), Piece(kind='eagle'), 1)
>>> [step.prompt for step in enrollment_steps()[:2]]
['Scan an Eagle piece', 'Scan Chief piece 1 of 2']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.wakanda.rules import HEADDRESSES, HEADDRESSES_EACH, PIECES, VILLAGES
from companion.table.items import EnrollmentStep

#: Prefix of a village tile's item name.
VILLAGE_PREFIX = "village:"


@dataclass(frozen=True)
class Piece:
    """A piece of one ``kind`` (``eagle`` … ``sun``)."""

    kind: str
    game: ClassVar[str] = "wakanda"

    @property
    def name(self) -> str:
        """The item name: the kind."""
        return self.kind

    @property
    def label(self) -> str:
        """``"Eagle piece"``."""
        return f"{self.kind.capitalize()} piece"


@dataclass(frozen=True)
class Tile:
    """A village tile (``teepee`` … ``sun``, ``variety``, ``height``)."""

    village: str
    game: ClassVar[str] = "wakanda"

    @property
    def name(self) -> str:
        """The item name: ``village:sun``."""
        return VILLAGE_PREFIX + self.village

    @property
    def label(self) -> str:
        """``"Village tile: Sun"``."""
        return f"Village tile: {self.village.capitalize()}"


@dataclass(frozen=True)
class Headdress:
    """A headdress: ``wings`` (player 1's) or ``crests`` (player 2's)."""

    kind: str
    game: ClassVar[str] = "wakanda"

    @property
    def name(self) -> str:
        """The item name: the kind."""
        return self.kind

    @property
    def player(self) -> int:
        """The seat whose headdress it is (0 for wings, 1 for crests)."""
        return HEADDRESSES.index(self.kind)

    @property
    def label(self) -> str:
        """``"Wings headdress"``."""
        return f"{self.kind.capitalize()} headdress"


WakandaItem = Piece | Tile | Headdress


def parse(name: str) -> WakandaItem | None:
    """The Wakanda item called ``name``, or ``None``."""
    if name in PIECES:
        return Piece(name)
    if name in HEADDRESSES:
        return Headdress(name)
    if name.startswith(VILLAGE_PREFIX) and name[len(VILLAGE_PREFIX):] in VILLAGES:
        return Tile(name[len(VILLAGE_PREFIX):])
    return None


def item_names() -> tuple[str, ...]:
    """Every Wakanda item name: pieces, village tiles, headdresses (W1)."""
    return (*PIECES, *(VILLAGE_PREFIX + v for v in VILLAGES), *HEADDRESSES)


def enrollment_steps() -> list[EnrollmentStep]:
    """The items in the order ``enroll`` asks for them: the pieces type by type (best
    first), the eight village tiles, then three Wings and three Crests headdresses."""
    steps = [EnrollmentStep(piece, n, count)
             for piece, count in PIECES.items() for n in range(1, count + 1)]
    steps += [EnrollmentStep(VILLAGE_PREFIX + village) for village in VILLAGES]
    steps += [EnrollmentStep(headdress, n, HEADDRESSES_EACH)
              for headdress in HEADDRESSES for n in range(1, HEADDRESSES_EACH + 1)]
    return steps
