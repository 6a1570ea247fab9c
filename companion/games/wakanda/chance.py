"""Chance moves for simulation (OpenSpiel style): drawing from the bag, turning up a tile.

In live play these moves are observed from a scan; bots and tests sample them here.
"""

from __future__ import annotations

import random

from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.moves import Draw, Reveal
from companion.games.wakanda.rules import VILLAGES


def sample_draw(game: Wakanda, rng: random.Random) -> Draw:
    """A draw from the bag, each piece equally likely (so a type by its count). W4(1)."""
    bag = game.bag
    if not any(bag.values()):
        raise ValueError("the bag is empty (W4)")
    pick = rng.randrange(sum(bag.values()))
    for piece, count in bag.items():
        if pick < count:
            return Draw(piece)
        pick -= count
    raise AssertionError("unreachable: the pick is below the bag's total")


def sample_reveal(game: Wakanda, rng: random.Random) -> Reveal:
    """Turn up the tile that just became available (W10): uniform among the unseen tiles,
    i.e. the 8 minus those already showing (the 2 in the box are unseen too)."""
    shown = set(game.villages)
    unseen = [name for name in VILLAGES if name not in shown]
    return Reveal(rng.choice(unseen))
