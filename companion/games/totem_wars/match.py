"""The big game (T16): small games one after another, points added up to 42.

Immutable: ``add`` returns the match with one more small game. The app keeps it in its data
folder as the small JSON object of ``to_json``.

>>> m = Match(("Ana", "Ben", "Cleo"))
>>> for points in [(13, 13, 13)] * 3 + [(3, 3, 2)]:
...     m = m.add_points(points)
>>> m.totals, m.winners, m.dealer      # 42, 42, 41: the first two share the win
((42, 42, 41), (0, 1), 1)
>>> m.add_points((14, 0, 0))
Traceback (most recent call last):
...
companion.errors.UserError: the big game is over: Ana and Ben shared the win (T16)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.errors import UserError
from companion.games.totem_wars.deck import CARDS_PER_TRIBE, Deck
from companion.games.totem_wars.game import TotemWars

TARGET = 42
#: The most a small game gives a player (T16): the totem and the 12 other cards of its tribe.
MOST_POINTS = CARDS_PER_TRIBE
#: The least (T15): the totem alone scores 1, so no small game gives a player 0.
LEAST_POINTS = 1


@dataclass(frozen=True)
class Match:
    """Players, the dealer of the first small game and the points of each small game played."""

    players: tuple[str, ...]
    first_dealer: int = 0
    games: tuple[tuple[int, ...], ...] = ()

    @property
    def totals(self) -> tuple[int, ...]:
        """Points added up over the small games (T16)."""
        return tuple(sum(g[p] for g in self.games) for p in range(len(self.players)))

    @property
    def dealer(self) -> int:
        """The dealer of the next small game: one seat clockwise each game (T16)."""
        return (self.first_dealer + len(self.games)) % len(self.players)

    @property
    def winners(self) -> tuple[int, ...]:
        """Who won the big game (T16), in seat order: after the first small game that takes
        someone to 42, the highest total then — several players tied on it share the win;
        ``()`` while nobody has reached 42."""
        totals = [0] * len(self.players)
        for points in self.games:
            totals = [t + p for t, p in zip(totals, points)]
            top = max(totals)
            if top >= TARGET:
                return tuple(p for p, total in enumerate(totals) if total == top)
        return ()

    @property
    def over(self) -> bool:
        """Whether the big game has been won."""
        return bool(self.winners)

    def new_game(self, deck: Deck | None = None) -> TotemWars:
        """The next small game, dealt by ``dealer``."""
        self._check_not_over()
        return TotemWars(self.players, self.dealer, deck)

    def _check_not_over(self) -> None:
        """``UserError`` naming the winners once the big game is won (T16)."""
        winners = [self.players[p] for p in self.winners]
        if len(winners) == 1:
            raise UserError(f"the big game is over: {winners[0]} won (T16)")
        if winners:
            raise UserError(f"the big game is over: {', '.join(winners[:-1])} and {winners[-1]} "
                            "shared the win (T16)")

    def add(self, game: TotemWars) -> Match:
        """The match with a finished small game of these players, dealt by ``dealer``, added:
        its T15 points (``game.all_points()``)."""
        if game.outcome() is None:
            raise UserError("only a finished small game counts towards the big game (T16)")
        if game.players != self.players or game.dealer != self.dealer:
            raise UserError(f"this small game is not the next of the match: expected players "
                            f"{', '.join(self.players)} with dealer {self.players[self.dealer]} (T16)")
        return self.add_points(game.all_points())

    def add_points(self, points: Iterable[int]) -> Match:
        """The match with one more small game's points (T15), e.g. entered by hand;
        ``UserError`` for points no small game gives (T15, T16: 1 to 13 a player)."""
        self._check_not_over()
        return Match(self.players, self.first_dealer, self.games + (self._checked(points),))

    def _checked(self, points: Iterable[int]) -> tuple[int, ...]:
        """One small game's points, checked: a whole number from 1 to 13 per player — the totem
        alone scores 1 (T15), its tribe's 12 other cards at most 12 more (T16)."""
        points = tuple(points)
        if len(points) != len(self.players) or not all(
                isinstance(v, int) and not isinstance(v, bool) and LEAST_POINTS <= v <= MOST_POINTS for v in points):
            raise UserError(f"a small game gives {len(self.players)} whole points, each from {LEAST_POINTS} to "
                            f"{MOST_POINTS} (T15, T16)")
        return points

    def to_json(self) -> dict[str, object]:
        """A small JSON-ready dict."""
        return {"players": list(self.players), "first_dealer": self.first_dealer,
                "games": [list(g) for g in self.games]}

    @classmethod
    def from_json(cls, data: object) -> Match:
        """The match stored by ``to_json``; ``UserError`` naming the bad field."""
        if not isinstance(data, dict) or set(data) != {"players", "first_dealer", "games"}:
            raise UserError("a stored match has exactly players, first_dealer and games")
        players = data["players"]
        if not isinstance(players, list) or not 2 <= len(players) <= 4 or not all(
                isinstance(p, str) and p for p in players):
            raise UserError("stored match: players must be 2 to 4 names (T1)")
        dealer = data["first_dealer"]
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < len(players):
            raise UserError(f"stored match: first_dealer must be a seat from 0 to {len(players) - 1}")
        if not isinstance(data["games"], list):
            raise UserError("stored match: games must be a list of points per small game")
        match = cls(tuple(players), dealer)
        for points in data["games"]:
            if not isinstance(points, list):
                raise UserError("stored match: each game is a list of points")
            # Not add_points: a match stored when a tie at the top played another game may
            # hold games after its win (T16 now shares it); they are kept, the win stands.
            match = cls(match.players, dealer, match.games + (match._checked(points),))
        return match
