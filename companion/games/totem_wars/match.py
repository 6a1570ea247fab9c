"""The big game (T16): small games one after another, points added up to 42.

Immutable: ``add`` returns the match with one more small game. The app keeps it in its data
folder as the small JSON object of ``to_json``.

>>> m = Match(("Ana", "Ben"))
>>> m = m.add_points((30, 12)).add_points((13, 30))
>>> m.totals, m.winner, m.dealer
((43, 42), 0, 0)
>>> Match(("Ana", "Ben")).add_points((42, 42)).winner is None   # a tie plays another game
True
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import UserError
from companion.games.totem_wars.deck import Deck
from companion.games.totem_wars.game import TotemWars

TARGET = 42


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
    def winner(self) -> int | None:
        """The player with the highest total once someone reaches 42; ``None`` before, or on a tie."""
        totals = self.totals
        top = max(totals)
        leaders = [p for p, t in enumerate(totals) if t == top]
        return leaders[0] if top >= TARGET and len(leaders) == 1 else None

    @property
    def over(self) -> bool:
        """Whether the big game has a winner."""
        return self.winner is not None

    def new_game(self, deck: Deck | None = None) -> TotemWars:
        """The next small game, dealt by ``dealer``."""
        self._check_not_over()
        return TotemWars(self.players, self.dealer, deck)

    def _check_not_over(self) -> None:
        """``UserError`` naming the winner once the big game is won (T16)."""
        winner = self.winner
        if winner is not None:
            raise UserError(f"the big game is over: {self.players[winner]} won (T16)")

    def add(self, game: TotemWars) -> Match:
        """The match with a finished small game of these players, dealt by ``dealer``, added:
        its T15 points (``game.all_points()``)."""
        if game.outcome() is None:
            raise UserError("only a finished small game counts towards the big game (T16)")
        if game.players != self.players or game.dealer != self.dealer:
            raise UserError(f"this small game is not the next of the match: expected players "
                            f"{', '.join(self.players)} with dealer {self.players[self.dealer]} (T16)")
        return self.add_points(game.all_points())

    def add_points(self, points) -> Match:
        """The match with one more small game's points (T15), e.g. entered by hand."""
        points = tuple(points)
        self._check_not_over()
        if len(points) != len(self.players) or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in points):
            raise UserError(f"a small game gives {len(self.players)} whole points of 0 or more (T15)")
        return Match(self.players, self.first_dealer, self.games + (points,))

    def to_json(self) -> dict:
        """A small JSON-ready dict."""
        return {"players": list(self.players), "first_dealer": self.first_dealer,
                "games": [list(g) for g in self.games]}

    @classmethod
    def from_json(cls, data) -> Match:
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
            match = match.add_points(points)
        return match
