"""The players' ratings: OpenSkill's Plackett-Luce model, one rating a player a game.

Ratings are derived: the games are the truth. Each game, in the order the club received
it, moves its players' ratings; ``recompute`` replays every game from scratch and gives the
same figures as the ratings kept as games arrived. A game's ranking: its winners first
(tied), the others by their points (equal points tied).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.club.results import Result

if TYPE_CHECKING:
    from openskill.models import PlackettLuce  # imported on the club server only


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game: OpenSkill's mean and uncertainty, games and wins."""

    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> float:
        """The figure shown on the leaderboard: the conservative estimate mu - 3 sigma."""
        return self.mu - 3 * self.sigma


_MODEL: PlackettLuce | None = None


def _model() -> PlackettLuce:
    global _MODEL
    if _MODEL is None:
        from openskill.models import PlackettLuce  # only on the club server
        _MODEL = PlackettLuce()
    return _MODEL


def fresh() -> Rating:
    """A new player's rating."""
    model = _model()
    return Rating(model.mu, model.sigma)


def ranks(result: Result) -> list[int]:
    """Each seat's rank (0 the best): winners first, then by points, ties shared."""
    keys = [(seat not in result.winners, -points) for seat, points in enumerate(result.points)]
    order = sorted(set(keys))
    return [order.index(key) for key in keys]


def rate(result: Result, before: list[Rating]) -> list[Rating]:
    """The ratings of ``result``'s seats after the game, from ``before`` (one a seat)."""
    model = _model()
    teams = [[model.create_rating([r.mu, r.sigma])] for r in before]
    places: list[float] = list(ranks(result))  # the model takes any numbers as ranks
    after = model.rate(teams, ranks=places)
    return [Rating(team[0].mu, team[0].sigma, r.games + 1, r.wins + (seat in result.winners))
            for seat, (team, r) in enumerate(zip(after, before))]


def recompute(results: Iterable[Result]) -> dict[tuple[str, str], Rating]:
    """Every player's rating, ``(game, name)`` → rating, from the games in their order."""
    table: dict[tuple[str, str], Rating] = {}
    for result in results:
        keys = [(result.game, name) for name in result.players]
        after = rate(result, [table.get(key) or fresh() for key in keys])
        table.update(zip(keys, after))
    return table
