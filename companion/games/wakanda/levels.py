"""The levels of Wakanda's search, weakest first (by the measured strength: docs/search.md):
the search plays them, a record's header names the level of each seat the box plays
(``"box"``), the set-up offers them. Apart from the search, so that reading a record does
not take the search.

>>> LEVELS
('easy', 'baseline30', 'standard', 'strong')
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """How hard a level searches. ``method`` is ``"tree"`` (``budget`` iterations) or
    ``"flat"`` (``budget`` playouts per action); ``exact`` is the node budget of the exact
    endgame search (0: none)."""

    name: str
    method: str
    budget: int
    exact: int = 0


#: The levels, weakest first.
ALL_LEVELS = (
    Level("easy", "tree", 40),
    Level("baseline30", "flat", 30),
    Level("standard", "tree", 150, exact=3000),
    Level("strong", "tree", 320, exact=20000),
)
#: Their names.
LEVELS: tuple[str, ...] = tuple(level.name for level in ALL_LEVELS)
