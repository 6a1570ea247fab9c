"""The names of Totem Wars' search levels, weakest first: the search plays them (how each
places is the search's), a record's header names the level of each seat the box plays
(``"box"``), the set-up offers the players' ones. Apart from the search, so that reading a
record does not take the search.

>>> PLAYER_LEVELS
('easy', 'standard', 'strong')
"""

from __future__ import annotations

#: Every level; ``standard-2026`` is the default before play-outs went to the end of the
#: game, and ``ismc-20`` a yardstick, both kept to measure against (``match``).
LEVELS: tuple[str, ...] = ("easy", "standard-2026", "ismc-20", "standard", "strong")
#: The levels offered to players (the box's seat): the others are yardsticks for ``match``.
PLAYER_LEVELS: tuple[str, ...] = ("easy", "standard", "strong")
