"""Wakanda components and scoring tables (rules/wakanda.md W1, W7)."""

from __future__ import annotations

#: Piece types and how many of each are in the bag at the start (W1), best first.
PIECES: dict[str, int] = {"eagle": 1, "chief": 2, "tomahawk": 3, "skin": 4, "teepee": 5, "sun": 6}

#: The eight village tiles (W1).
VILLAGES: tuple[str, ...] = ("eagle", "chief", "tomahawk", "skin", "teepee", "variety", "height", "sun")

#: Points per piece of the village's own type (W7); variety, height and sun are special.
PIECE_VILLAGE_POINTS: dict[str, int] = {"eagle": 8, "chief": 5, "tomahawk": 4, "skin": 3, "teepee": 2}

#: Headdress names per player (W1): player 0 has Wings, player 1 Crests.
HEADDRESSES: tuple[str, str] = ("wings", "crests")

HEADDRESSES_EACH = 3
ROW = 6
OPEN_AT_START = 3

#: The house-rule settings of R1.
EMPTY_CLAIM = ("when_stuck", "never", "always")
