"""Wakanda scoring (rules/wakanda.md W7, W8, R4, R5): points per owned village, sun penalty.

A player's villages all score over the pieces on *all* of that player's poles (W7):

>>> b = breakdown(0, ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"],
...               [("teepee", "eagle", "skin"), ("chief", "sun", "tomahawk"),
...                ("chief", "teepee", "sun", "skin"), (), (), ()], [0, 0, 0, None, None, None])
>>> b.villages, b.sun_penalty, b.total
({'teepee': 4, 'eagle': 8, 'chief': 10}, -2, 20)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.wakanda.rules import PIECE_VILLAGE_POINTS


@dataclass(frozen=True)
class ScoreBreakdown:
    """One player's score: points per owned village (row order), the sun penalty (≤ 0), total."""

    player: int
    villages: dict[str, int]
    sun_penalty: int
    total: int


def village_points(village: str, counts: Counter[str], tallest: int) -> int:
    """Points of one owned village given the owner's piece counts over all their poles (W7)."""
    if village in PIECE_VILLAGE_POINTS:
        return PIECE_VILLAGE_POINTS[village] * counts[village]
    if village == "variety":
        return 2 * sum(1 for n in counts.values() if n)  # R4: distinct types over all poles
    if village == "height":
        return 2 * tallest  # R5: only the tallest pole; headdresses do not count
    if village == "sun":
        return counts["sun"]
    raise ValueError(f"unknown village {village!r}")


def breakdown(player: int, villages: Sequence[str | None], poles: Sequence[Sequence[str]],
              owners: Sequence[int | None]) -> ScoreBreakdown:
    """Score ``player`` from the row of villages, the six poles and their owners (W7, W8).

    A village not yet turned up (hidden variant) cannot be owned, so ``None`` never scores.
    """
    owned = [i for i, owner in enumerate(owners) if owner == player]
    counts: Counter[str] = Counter()
    tallest = 0
    for i in owned:
        counts.update(poles[i])
        tallest = max(tallest, len(poles[i]))
    points = {village: village_points(village, counts, tallest)
              for village in (villages[i] for i in owned) if village is not None}
    # W8: once, whether or not the sun tile is in play; its owner pays nothing.
    penalty = 0 if "sun" in points else -counts["sun"]
    return ScoreBreakdown(player, points, penalty, sum(points.values()) + penalty)
