"""Information-set Monte Carlo for a Totem Wars placement, from one seat's information: its
hand, the public table (totems, cards down, points taken, hand sizes) and the unseen cards.

Each sample re-deals the cards the seat cannot see — the other hands at their known sizes,
the rest as the deck in a random order (a determinization) — and plays every candidate
placement out (``playout.py``: the others greedy, T8; the seat ``canny``) for a number of
rounds or to the end of the small game, valued as a ``Judge`` says: the seat's lead in
points (T15), a card of a player's totem tribe in hand counting for that player, a win.
All candidates share each sample's deal (common random numbers): their differences are
measured on the same cards. Other hands are never looked at: only ``TotemWars``' public
state and the seat's own hand go in."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from companion.games.totem_wars.deck import Card
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.playout import ROUND_LIMIT, Playout, Policy, Scores, canny, greedy

#: How much one point of lead (T15) adds to a play-out's value, against 1 for a win
#: (``Judge.win``): enough to order games of the same result.
MARGIN = 0.02


@lru_cache(maxsize=2)
def scores_of(cards: tuple[Card, ...], totems: tuple[Card, ...]) -> Scores:
    """One ``Scores`` per deck and totems: its look-ups serve every decision of a game (two
    kept: the game under way and the one before, so the box's memory does not grow)."""
    return Scores(cards, totems)


class Root:
    """The position a seat decides in, as numbers: ``deal`` gives one determinization."""

    def __init__(self, game: TotemWars, seat: int, hand: Sequence[Card]):
        totems = game.totems
        assert all(t is not None for t in totems), "the totems are down before any play"
        cards = game.deck.cards
        self.index = {c: i for i, c in enumerate(cards)}
        self.scores = scores_of(cards, tuple(t for t in totems if t is not None))
        self.seat = seat
        self.hand = [self.index[c] for c in hand]
        self.hand_sizes = game.hand_sizes
        mine = set(self.hand)
        self.others = sorted(self.index[c] for c in game.unseen if self.index[c] not in mine)
        self.points = list(game.all_points())
        self.table = [sum(1 << self.index[c] for c in down) for down in game.table]
        self.down = [len(down) for down in game.table]
        self.laid = game.table
        self.level = game.level
        self.starter = game.round_starter
        self.opened = [p for p in range(len(totems)) if game.table[p]]

    def deal(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """The other hands at their sizes and the deck, dealt from the unseen cards."""
        pool = self.others[:]
        rng.shuffle(pool)
        hands: list[list[int]] = []
        at = 0
        for p, size in enumerate(self.hand_sizes):
            if p == self.seat:
                hands.append(self.hand[:])
            else:
                hands.append(pool[at:at + size])
                at += size
        return hands, pool[at:]

    def playout(self, hands: list[list[int]], deck: list[int]) -> Playout:
        """A play-out of the position with these hands and deck (copied)."""
        out = Playout(self.scores, [h[:] for h in hands], deck, self.points[:], self.starter or 0)
        out.table = self.table[:]
        out.laid = [[self.index[c] for c in down] for down in self.laid]
        out.down = self.down[:]
        out.level = self.level
        return out


@dataclass
class Stats:
    """What one candidate's play-outs gave: the sum of their values (``value``), of the
    seat's margin over the best other seat at the end (T15), how many took the round and
    how many fought a war in it (T9, T10), over ``samples`` play-outs."""

    value: float = 0.0
    margin: float = 0.0
    takes: int = 0
    wars: int = 0
    samples: int = 0


def margin(points: Sequence[int], seat: int) -> int:
    """The seat's points less the best other seat's (T15)."""
    return points[seat] - max(v for p, v in enumerate(points) if p != seat)


@dataclass(frozen=True)
class Judge:
    """How a play-out is played and valued: ``rounds`` rounds (0: to the end of the game);
    its value ``win`` for a win (shared: split), plus ``MARGIN`` a point of the seat's lead
    (over the best other seat, or the mean of the others with ``mean``), a card of the
    seat's totem tribe still in its hand counting ``hand`` points (less the others')."""

    rounds: int = 0
    win: float = 1.0
    mean: bool = False
    hand: float = 0.0

    def value(self, out: Playout, seat: int) -> float:
        """The value of a played-out ``out`` for ``seat``."""
        points = [float(v) for v in out.points]
        if self.hand:
            own, tribe = out.scores.own, out.scores.tribe
            for p, held in enumerate(out.hands):
                points[p] += self.hand * sum(tribe[c] == own[p] for c in held)
        top = max(out.points)
        share = 1 / out.points.count(top) if out.points[seat] == top else 0.0
        return self.win * share + MARGIN * self.lead(points, seat)

    def lead(self, points: Sequence[float], seat: int) -> float:
        """The seat's points less the best other seat's, or the others' mean with ``mean``."""
        others = [v for p, v in enumerate(points) if p != seat]
        return points[seat] - (sum(others) / len(others) if self.mean else max(others))


def evaluate(root: Root, candidates: Sequence[tuple[int, ...]], samples: int, rng: random.Random,
             judge: Judge = Judge(), own: Policy = canny, screen: int = 0, keep: int = 0) -> list[Stats]:
    """Each candidate placement's play-outs over ``samples`` shared determinizations; with
    ``keep``, only the ``keep`` best after the first ``screen`` samples play the others
    (their figures then come from fewer samples)."""
    stats = [Stats() for _ in candidates]
    seat = root.seat
    policies = [own if p == seat else greedy for p in range(len(root.hand_sizes))]
    opened = root.opened + [seat]
    playing = list(range(len(candidates)))
    for sample in range(samples):
        if keep and sample == screen and len(playing) > keep:
            playing = sorted(playing, key=lambda i: stats[i].value, reverse=True)[:keep]
        hands, deck = root.deal(rng)
        for i in playing:
            cards, tally = candidates[i], stats[i]
            out = root.playout(hands, deck)
            out.place(seat, cards)
            if seat not in root.opened:
                out.level = max(out.level, len(cards))
            points = out.play(policies, opened, judge.rounds or ROUND_LIMIT)
            tally.value += judge.value(out, seat)
            tally.margin += margin(points, seat)
            assert out.first is not None
            tally.takes += out.first[0] == seat
            tally.wars += out.first[1]
            tally.samples += 1
    return stats

