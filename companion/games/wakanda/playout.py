"""A compact Wakanda state for search: sampled from a seat's information set, copied and
played out thousands of times a decision (rules/wakanda.md W4-W10, R1, R3, R6).

The rules engine (``game.py``) checks every move and keeps a history for undo and records;
a search needs none of that, only speed, so this state is flat lists of small integers. It
plays by the same rules; ``tests/test_search_wakanda.py`` plays games on both side by side
to keep them in step.

An action is one integer: a build of piece ``x`` on village index ``v`` (0-5) is
``v * 6 + x``, a claim of village index ``v`` is ``CLAIM + v``, the forced pass ``PASS``.
Pieces are indexed in ``PIECE_TYPES`` order (eagle … sun), tiles in ``TILES`` order.
"""

from __future__ import annotations

import random

from companion.games.wakanda.information import PIECE_TYPES, InformationSet
from companion.games.wakanda.moves import Build, Claim, Move, Pass
from companion.games.wakanda.rules import HEADDRESSES_EACH, OPEN_AT_START, PIECE_VILLAGE_POINTS, ROW, VILLAGES

#: Tiles in a fixed order: the five that score per piece of their own kind (W7), in piece
#: order, then variety, height and sun.
TILES: tuple[str, ...] = tuple(PIECE_VILLAGE_POINTS) + tuple(v for v in VILLAGES if v not in PIECE_VILLAGE_POINTS)
TILE_INDEX = {name: i for i, name in enumerate(TILES)}
PIECE_INDEX = {name: i for i, name in enumerate(PIECE_TYPES)}
VARIETY, HEIGHT = TILE_INDEX["variety"], TILE_INDEX["height"]
SUN = PIECE_INDEX["sun"]
#: Points per piece of a tile's own kind (W7), by tile index; 0 for the special tiles.
PER_PIECE = tuple(PIECE_VILLAGE_POINTS.get(name, 0) for name in TILES)
NTYPES = len(PIECE_TYPES)
HIDDEN = -1
CLAIM = ROW * NTYPES
PASS = CLAIM + ROW
LAST_REVEAL = ROW - OPEN_AT_START  # claims after which a face-down tile turns up (W10)
EMPTY_CLAIM_CODES = {"when_stuck": 0, "never": 1, "always": 2}
#: Random playouts claim with this probability when a build is possible too.
CLAIM_SHARE = 0.25
assert TILES[:5] == PIECE_TYPES[:5], "the five piece villages come first, in piece order"


def points(owned: list[int], agg: list[int], tallest: int) -> int:
    """The total of a player owning the tiles ``owned`` with ``agg`` pieces of each kind over
    their poles and a tallest pole of ``tallest`` (W7; W8 once, unless the sun tile is owned)."""
    total = 0
    has_sun = False
    for tile in owned:
        if tile < VARIETY:
            total += PER_PIECE[tile] * agg[tile]
        elif tile == VARIETY:
            total += 2 * (NTYPES - agg.count(0))  # R4: distinct kinds over all their poles
        elif tile == HEIGHT:
            total += 2 * tallest                  # R5: the tallest pole only
        else:
            total += agg[SUN]
            has_sun = True
    return total if has_sun else total - agg[SUN]


class Sim:
    """A Wakanda position with the chance sampled — a "world": both hands known, the bag in
    the order its pieces will be drawn (``bag[-1]`` next) and the face-down tiles in the
    order they will turn up (``unseen_tiles[-1]`` next). With the chance fixed in advance,
    every action tried in one world meets the same draws."""

    __slots__ = ("tiles", "unseen_tiles", "counts", "heights", "owners", "hands", "hand_total",
                 "bag", "heads", "third", "claims", "open", "to_move", "passes", "empty_claim")

    tiles: list[int]
    unseen_tiles: list[int]
    counts: list[int]
    heights: list[int]
    owners: list[int]
    hands: list[list[int]]
    hand_total: list[int]
    bag: list[int]
    heads: list[int]
    third: list[int]
    claims: int
    open: int
    to_move: int
    passes: int
    empty_claim: int

    def copy(self) -> Sim:
        """An independent copy (the tile lists are shared: a reveal replaces them)."""
        new = Sim.__new__(Sim)
        new.tiles = self.tiles
        new.unseen_tiles = self.unseen_tiles
        new.counts = self.counts[:]
        new.heights = self.heights[:]
        new.owners = self.owners[:]
        new.hands = [self.hands[0][:], self.hands[1][:]]
        new.hand_total = self.hand_total[:]
        new.bag = self.bag[:]
        new.heads = self.heads[:]
        new.third = self.third[:]
        new.claims = self.claims
        new.open = self.open
        new.to_move = self.to_move
        new.passes = self.passes
        new.empty_claim = self.empty_claim
        return new

    @property
    def over(self) -> bool:
        """W6: all six poles claimed; R6: two passes in a row."""
        return self.claims == ROW or self.passes >= 2

    def empty_claim_allowed(self) -> bool:
        """R1: an empty pole may be claimed only when the bag and both hands are empty
        (``when_stuck``), never, or always."""
        if self.empty_claim == 0:
            return not (self.bag or self.hand_total[0] or self.hand_total[1])
        return self.empty_claim == 2

    def actions(self) -> list[int]:
        """The legal actions of the player to move, after the draw: builds by village then
        piece, then claims; the forced pass when there are none (W4, W5, R3)."""
        p = self.to_move
        hand = self.hands[p]
        owners = self.owners
        moves: list[int] = []
        if self.hand_total[p]:
            held = [x for x in range(NTYPES) if hand[x]]
            for v in range(self.open):
                if owners[v] < 0:
                    base = v * NTYPES
                    moves.extend(base + x for x in held)
        if self.heads[p]:
            empty_ok = self.empty_claim_allowed()
            heights = self.heights
            moves.extend(CLAIM + v for v in range(self.open) if owners[v] < 0 and (empty_ok or heights[v]))
        return moves or [PASS]

    def apply(self, action: int) -> None:
        """Play ``action`` for the player to move and end the turn: a face-down tile that
        became available turns up (W10), the other player is to move (even once the game is
        over) and draws if the bag has pieces (W4) — so the state is always ready for
        ``actions()``, or over."""
        p = self.to_move
        if action < CLAIM:
            self.hands[p][action % NTYPES] -= 1
            self.hand_total[p] -= 1
            self.counts[action] += 1
            self.heights[action // NTYPES] += 1
            self.passes = 0
        elif action < PASS:
            self.owners[action - CLAIM] = p
            self.heads[p] -= 1
            if not self.heads[p]:
                self.third.append(p)
            self.claims += 1
            self.passes = 0
            if self.claims == ROW:
                self.to_move = 1 - p
                return
            if self.claims <= LAST_REVEAL:
                self.open += 1
                if self.tiles[self.open - 1] == HIDDEN:
                    self.tiles = self.tiles[:]
                    self.tiles[self.open - 1] = self.unseen_tiles[-1]
                    self.unseen_tiles = self.unseen_tiles[:-1]
        else:
            self.passes += 1
            if self.passes >= 2:
                self.to_move = 1 - p
                return
        p = 1 - p
        self.to_move = p
        if self.bag:
            x = self.bag.pop()
            self.hands[p][x] += 1
            self.hand_total[p] += 1

    def totals(self) -> tuple[int, int]:
        """Both players' scores now (final once over): W7, W8, R4, R5."""
        out = []
        counts, heights, owners, tiles = self.counts, self.heights, self.owners, self.tiles
        for player in (0, 1):
            agg = [0] * NTYPES
            tallest = 0
            owned = []
            for v in range(ROW):
                if owners[v] == player:
                    base = v * NTYPES
                    for x in range(NTYPES):
                        agg[x] += counts[base + x]
                    if heights[v] > tallest:
                        tallest = heights[v]
                    owned.append(tiles[v])
            out.append(points(owned, agg, tallest))
        return out[0], out[1]

    def result(self, player: int, totals: tuple[int, int]) -> float:
        """1 for a win of ``player``, 0 for a loss, 0.5 shared, given the final ``totals``
        (W9; R6 after two passes)."""
        mine, theirs = totals[player], totals[1 - player]
        if mine != theirs:
            return 1.0 if mine > theirs else 0.0
        if self.third:  # W9: the first third headdress; R6: the only one
            return 1.0 if self.third[0] == player else 0.0
        return 0.5

    def play_out(self, rng: random.Random) -> None:
        """Play to the end at random, as the baseline does: each turn a uniformly random
        build, or with probability ``CLAIM_SHARE`` a random claim when both are possible;
        a claim when only claims are possible, else the forced pass (R3)."""
        owners, heights, hands, hand_total, heads = self.owners, self.heights, self.hands, self.hand_total, self.heads
        random_ = rng.random
        claims_seen = -1
        free: list[int] = []
        while self.claims != ROW and self.passes < 2:
            if claims_seen != self.claims:  # the open, unclaimed villages change only with a claim
                claims_seen = self.claims
                free = [v for v in range(self.open) if owners[v] < 0]
            p = self.to_move
            claims: list[int] = []
            if heads[p]:
                claims = [v for v in free if heights[v]]
                if len(claims) < len(free) and self.empty_claim != 1 and self.empty_claim_allowed():
                    claims = free  # R1: empty poles too
            if hand_total[p] and not (claims and random_() < CLAIM_SHARE):
                hand = hands[p]
                held = [x for x in range(NTYPES) if hand[x]]
                self.apply(free[int(random_() * len(free))] * NTYPES + held[int(random_() * len(held))])
            elif claims:
                self.apply(CLAIM + claims[int(random_() * len(claims))])
            else:
                self.apply(PASS)


class Worlds:
    """The worlds consistent with a seat's information set, to sample from: the unseen
    pieces shuffled, the first ``other_hand_size`` of them the other hand and the rest the
    bag in drawing order (W4), the tiles nobody has seen shuffled into the order they turn
    up (W10). For the action phase of the seat to move (its draw is done)."""

    def __init__(self, info: InformationSet):
        if info.to_move is None or info.phase != "action":
            raise ValueError("worlds are sampled in the action phase of the player to move")
        sim = Sim.__new__(Sim)
        sim.tiles = [HIDDEN if name is None else TILE_INDEX[name] for name in info.villages]
        shown = set(info.villages)
        sim.unseen_tiles = [TILE_INDEX[name] for name in VILLAGES if name not in shown]
        counts = [0] * (ROW * NTYPES)
        for v, pole in enumerate(info.poles):
            for piece in pole:
                counts[v * NTYPES + PIECE_INDEX[piece]] += 1
        sim.counts = counts
        sim.heights = [len(pole) for pole in info.poles]
        sim.owners = [-1 if owner is None else owner for owner in info.owners]
        sim.hands = [[0] * NTYPES, [0] * NTYPES]
        sim.hands[info.seat] = list(info.hand)
        sim.hand_total = [0, 0]
        sim.hand_total[info.seat] = sum(info.hand)
        sim.hand_total[info.other] = info.other_hand_size
        sim.bag = []
        sim.heads = list(info.headdresses)
        sim.third = list(info.third_headdress_order)
        sim.claims = 2 * HEADDRESSES_EACH - sum(info.headdresses)
        sim.open = OPEN_AT_START + min(sim.claims, LAST_REVEAL)
        sim.to_move = info.to_move
        sim.passes = info.passes
        sim.empty_claim = EMPTY_CLAIM_CODES[info.empty_claim]
        self.base = sim
        self.other = info.other
        self.other_size = info.other_hand_size
        self.pool = [x for x in range(NTYPES) for _ in range(info.unseen[x])]
        # With the bag empty the unseen pieces are the other hand (R2): one world, known.
        self.known = not info.bag_size and HIDDEN not in sim.tiles

    def sample(self, rng: random.Random) -> Sim:
        """One world, drawn uniformly."""
        sim = self.base.copy()
        pool = self.pool[:]
        rng.shuffle(pool)
        hand = sim.hands[self.other]
        for x in pool[:self.other_size]:
            hand[x] += 1
        sim.bag = pool[self.other_size:]
        if HIDDEN in sim.tiles:
            tiles = sim.unseen_tiles[:]
            rng.shuffle(tiles)
            sim.unseen_tiles = tiles
        return sim


def to_move_object(action: int) -> Move:
    """The engine's move for an action integer."""
    if action < CLAIM:
        v, x = divmod(action, NTYPES)
        return Build(PIECE_TYPES[x], v + 1)
    if action < PASS:
        return Claim(action - CLAIM + 1)
    return Pass()

