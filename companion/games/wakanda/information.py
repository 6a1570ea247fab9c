"""What one seat knows of a Wakanda game: its information set (rules/wakanda.md R2).

A hint or the box's own play may use only what the player at that seat knows at the table:
the row of tiles, the poles, the claims and headdresses, the seat's own hand, and of the
other hand only its **size**. The record holds the other hand too (the box saw those
scans), so this view is built without reading it: the other hand's size comes from the
public moves (draws minus builds, W4), and the pieces nobody at the seat can see — the bag
and the other hand together — are the full set (W1) minus the poles and the seat's hand.
Reading ``game.bag`` would give the other hand away (the unseen minus the bag), so the bag
enters only as its size.

>>> from companion.games.wakanda import Build, Draw, Wakanda
>>> g = Wakanda(["teepee", "eagle", "chief", "variety", "sun", "tomahawk"], players=("Ana", "Ben"))
>>> g.push(Draw("eagle")); g.push(Build("eagle", 2)); g.push(Draw("chief"))
>>> info = information_set(g, 0)
>>> info.hand, info.other_hand_size, info.bag_size, info.unseen
((0, 0, 0, 0, 0, 0), 1, 19, (0, 2, 3, 4, 5, 6))
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.moves import Build, Draw, Pass
from companion.games.wakanda.rules import PIECES

#: Piece types in a fixed order; counts in this module are tuples in this order.
PIECE_TYPES: tuple[str, ...] = tuple(PIECES)


@dataclass(frozen=True)
class InformationSet:
    """A Wakanda position as seat ``seat`` sees it. Two games that differ only in the
    contents of the other hand (its size the same) give equal information sets.

    Counts of pieces are tuples in ``PIECE_TYPES`` order. ``passes`` is the number of
    passes in a row just played (R6: two end the game).
    """

    seat: int
    players: tuple[str, str]
    to_move: int | None
    phase: str
    villages: tuple[str | None, ...]
    poles: tuple[tuple[str, ...], ...]
    owners: tuple[int | None, ...]
    headdresses: tuple[int, int]
    third_headdress_order: tuple[int, ...]
    hand: tuple[int, ...]
    other_hand_size: int
    bag_size: int
    unseen: tuple[int, ...]
    passes: int
    empty_claim: str
    variant: str

    @property
    def other(self) -> int:
        """The other seat."""
        return 1 - self.seat


def information_set(game: Wakanda, seat: int) -> InformationSet:
    """What ``seat`` (0 or 1) knows of ``game``; never the other hand's contents."""
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, got {seat!r}")
    other = 1 - seat
    draws = [0, 0]
    builds = [0, 0]
    passes = 0
    for player, move in game.history:
        kind = type(move)
        if player is not None and kind is Draw:
            draws[player] += 1
        elif player is not None and kind is Build:
            builds[player] += 1
        # R6: only passes in a row count; a draw in between does not break the row, any
        # build or claim does (a reveal only follows a claim).
        if kind is Pass:
            passes += 1
        elif kind is not Draw:
            passes = 0
    own = game.hands[seat]
    hand = tuple(own[piece] for piece in PIECE_TYPES)
    on_poles = {piece: 0 for piece in PIECE_TYPES}
    for pole in game.poles:
        for piece in pole:
            on_poles[piece] += 1
    unseen = tuple(PIECES[piece] - on_poles[piece] - own[piece] for piece in PIECE_TYPES)
    return InformationSet(
        seat=seat, players=(game.players[0], game.players[1]), to_move=game.to_move,
        phase=game.phase, villages=game.villages, poles=game.poles, owners=game.owners,
        headdresses=game.headdresses, third_headdress_order=game.third_headdress_order,
        hand=hand, other_hand_size=draws[other] - builds[other],
        bag_size=sum(PIECES.values()) - draws[0] - draws[1], unseen=unseen, passes=passes,
        empty_claim=game.empty_claim, variant=game.variant)
