"""Wakanda moves: small immutable values, like python-chess's ``Move``.

A move does not carry its player; the game knows whose turn it is. Villages are numbered
1 to 6 in row order, as printed on the device and in records.

>>> Build("eagle", 2)
Build(piece='eagle', village=2)
>>> str(Claim(4))
'claim village 4'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Draw:
    """Draw one piece from the bag (chance: scanned in live play, sampled in simulation). W4(1)."""

    piece: str

    def __str__(self) -> str:
        return f"draw {self.piece}"


@dataclass(frozen=True)
class Build:
    """Put a piece from the hand on top of the pole of an open, unclaimed village. W4 A."""

    piece: str
    village: int

    def __str__(self) -> str:
        return f"build {self.piece} on village {self.village}"


@dataclass(frozen=True)
class Claim:
    """Put a headdress on an open, unclaimed village's pole; it is finished and owned. W4 B."""

    village: int

    def __str__(self) -> str:
        return f"claim village {self.village}"


@dataclass(frozen=True)
class Pass:
    """The forced pass when no action is legal (W5, R3)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Reveal:
    """Hidden variant (W10): the face-down tile that just became available is turned up."""

    village: str

    def __str__(self) -> str:
        return f"reveal {self.village}"


Move = Draw | Build | Claim | Pass | Reveal
