"""The Wakanda rules engine (rules/wakanda.md W1-W10, R1-R8): state, legal moves, push/pop.

Shaped like python-chess's ``Board``: ``legal_moves()``, ``push(move)``, ``pop()``,
``outcome()``. Draws from the bag and reveals of face-down tiles are explicit moves (chance,
as in OpenSpiel): observed from a scan in live play, sampled in simulation (``chance.py``).

>>> g = Wakanda(["teepee", "eagle", "chief", "variety", "sun", "tomahawk"], players=("Ana", "Ben"))
>>> g.phase, g.to_move
('draw', 0)
>>> g.push(Draw("eagle")); g.push(Build("eagle", 2))
>>> g.to_move, g.poles[1]
(1, ('eagle',))
>>> try:
...     g.push(Claim(1))
... except IllegalMove as exc:
...     print(exc, "/", exc.rule)
draw first: the bag is not empty (W4) / W4
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType

from companion.games.wakanda.moves import Build, Claim, Draw, Move, Pass, Reveal
from companion.games.wakanda.rules import (HEADDRESSES_EACH, OPEN_AT_START, PIECES, ROW,
                                           VILLAGES)
from companion.games.wakanda.scoring import ScoreBreakdown, breakdown
from companion.games.wakanda.setup import check_setup

# The moves are immutable, so each is made once: legal_moves() only collects them.
_DRAWS = {piece: Draw(piece) for piece in PIECES}
_BUILDS = [{piece: Build(piece, v) for piece in PIECES} for v in range(1, ROW + 1)]
_CLAIMS = [Claim(v) for v in range(1, ROW + 1)]
_REVEALS = {name: Reveal(name) for name in VILLAGES}
_PASS = Pass()
_PIECE_ORDER = tuple(PIECES)


class IllegalMove(Exception):
    """A move the rules forbid: ``reason`` for players, ``rule`` its number (``"W4"``)."""

    def __init__(self, reason: str, rule: str | None = None):
        super().__init__(f"{reason} ({rule})" if rule else reason)
        self.reason = reason
        self.rule = rule


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winners (both when shared) and why, with the rule."""

    winners: tuple[int, ...]
    reason: str


class Wakanda:
    """A game of Wakanda in progress (see the module docstring and docs/internals.md)."""

    def __init__(self, villages: Sequence[str | None], first: int = 0,
                 players: Sequence[str] = ("Player 1", "Player 2"), variant: str = "open",
                 empty_claim: str = "when_stuck", open_hands: bool = False):
        check_setup(villages, first, players, variant, empty_claim, open_hands)
        self._players = tuple(players)
        self._setup = tuple(villages)
        self._first = first
        self._variant = variant
        self._empty_claim = empty_claim
        self._open_hands = open_hands
        self._villages = list(villages)
        # The totals (_bag_total, _hand_total, _claims) repeat what the containers hold, kept
        # up to date by push/pop so that legal_moves() never has to count.
        self._bag = dict(PIECES)
        self._bag_total = sum(PIECES.values())
        self._hands = ({p: 0 for p in PIECES}, {p: 0 for p in PIECES})
        self._hand_total = [0, 0]
        self._poles: list[list[str]] = [[] for _ in range(ROW)]
        self._owners: list[int | None] = [None] * ROW
        self._claims = 0
        self._heads = [HEADDRESSES_EACH, HEADDRESSES_EACH]
        self._third: list[int] = []
        self._history: list[tuple[int | None, Move]] = []
        # Per pushed move: (to_move, phase, passes in a row) before it, for pop().
        self._undo: list[tuple[int | None, str, int]] = []
        self._to_move: int | None = first
        self._phase = "draw"
        self._passes = 0

    # --- read-only state -------------------------------------------------------------------

    players = property(lambda self: self._players, doc="The two player names.")
    first = property(lambda self: self._first, doc="The start player (W3).")
    variant = property(lambda self: self._variant, doc='"open" or "hidden" (W10).')
    empty_claim = property(lambda self: self._empty_claim, doc="The R1 setting.")
    open_hands = property(lambda self: self._open_hands, doc="The R2 setting.")
    to_move = property(lambda self: self._to_move, doc="Whose turn it is; None when over.")
    phase = property(lambda self: self._phase, doc='"draw", "action", "reveal" or "over".')

    @property
    def setup_villages(self) -> tuple[str | None, ...]:
        """The row as laid out at the start (``None`` for tiles face down then)."""
        return self._setup

    @property
    def villages(self) -> tuple[str | None, ...]:
        """The six tiles in row order; ``None`` for a face-down tile not yet revealed."""
        return tuple(self._villages)

    @property
    def bag(self):
        """Pieces left in the bag: piece → count (read-only view)."""
        return MappingProxyType(self._bag)

    @property
    def hands(self):
        """The two hands: piece → count (read-only views)."""
        return (MappingProxyType(self._hands[0]), MappingProxyType(self._hands[1]))

    @property
    def poles(self) -> tuple[tuple[str, ...], ...]:
        """The six poles, bottom → top, in row order."""
        return tuple(tuple(pole) for pole in self._poles)

    @property
    def owners(self) -> tuple[int | None, ...]:
        """Who claimed each village (row order); None while unclaimed."""
        return tuple(self._owners)

    @property
    def headdresses(self) -> tuple[int, int]:
        """Headdresses each player still has in hand (W1: 3 each at the start)."""
        return (self._heads[0], self._heads[1])

    @property
    def third_headdress_order(self) -> tuple[int, ...]:
        """The players who placed their third headdress, first one first (W9 tie-break)."""
        return tuple(self._third)

    @property
    def history(self) -> list[tuple[int | None, Move]]:
        """The moves so far as ``(player, move)``; a reveal's player is None."""
        return list(self._history)

    @property
    def open_count(self) -> int:
        """How many tiles of the row are available: 3, plus one per claim up to 6 (W4 B)."""
        return OPEN_AT_START + min(self._claims, ROW - OPEN_AT_START)

    def is_open(self, village: int) -> bool:
        """Whether village ``village`` (1 to 6) is available (it may be claimed already)."""
        return 1 <= village <= self.open_count

    def name(self, player: int) -> str:
        """A player's name."""
        return self._players[player]

    # --- legality --------------------------------------------------------------------------

    def _empty_claim_allowed(self) -> bool:
        """R1: an empty pole may be claimed only when the bag and both hands are empty."""
        if self._empty_claim == "always":
            return True
        if self._empty_claim == "never":
            return False
        return not (self._bag_total or self._hand_total[0] or self._hand_total[1])

    def _actions(self, player: int) -> list[Move]:
        """Builds (by village, then piece), then claims; the forced pass if there are none."""
        hand = self._hands[player]
        held = [piece for piece in _PIECE_ORDER if hand[piece]]
        owners = self._owners
        moves: list[Move] = []
        open_count = self.open_count
        if held:
            for v in range(open_count):
                if owners[v] is None:
                    row = _BUILDS[v]
                    moves.extend(row[piece] for piece in held)
        if self._heads[player]:
            empty_ok = self._empty_claim_allowed()
            poles = self._poles
            moves.extend(_CLAIMS[v] for v in range(open_count)
                         if owners[v] is None and (empty_ok or poles[v]))
        return moves or [_PASS]

    def legal_moves(self) -> list[Move]:
        """The legal moves now, in a stable order (draws in PIECES order; builds by village
        then piece; claims; the forced pass; reveals in tile order). Empty when over."""
        phase = self._phase
        if phase == "draw":
            return [_DRAWS[piece] for piece in _PIECE_ORDER if self._bag[piece]]
        if phase == "action":
            return self._actions(self._to_move)
        if phase == "reveal":
            shown = set(self._villages)
            return [_REVEALS[name] for name in VILLAGES if name not in shown]
        return []

    def check_turn(self, player: int | None) -> None:
        """Raise ``IllegalMove`` unless ``player`` may act now (None: a reveal, no player)."""
        if self._phase == "over":
            raise IllegalMove("the game is over", "W6")
        if self._phase == "reveal":
            if player is not None:
                raise IllegalMove(f"village {self.open_count} must be turned up first", "W10")
            return
        if player is None:
            raise IllegalMove("no tile to reveal now", "W10")
        if player != self._to_move:
            raise IllegalMove(f"it is {self._players[self._to_move]}'s turn", "W4")

    def check(self, move: Move) -> None:
        """Raise ``IllegalMove`` (reason and rule) if ``move`` is not legal now."""
        phase = self._phase
        if phase == "over":
            raise IllegalMove("the game is over", "W6")
        kind = type(move)
        if kind is Reveal:
            self._check_reveal(move)
            return
        if phase == "reveal":
            raise IllegalMove(f"village {self.open_count} must be turned up first", "W10")
        if kind is Draw:
            if move.piece not in PIECES:
                raise IllegalMove(f"unknown piece {move.piece!r}", "W1")
            if phase == "action":
                if self._bag_total:
                    raise IllegalMove("one draw a turn: now build or claim", "W4")
                raise IllegalMove("the bag is empty: build or claim without drawing", "W4")
            if not self._bag[move.piece]:
                raise IllegalMove(f"no {move.piece} left in the bag", "W4")
            return
        if phase == "draw":
            raise IllegalMove("draw first: the bag is not empty", "W4")
        if kind is Build:
            player = self._to_move
            if move.piece not in PIECES:
                raise IllegalMove(f"unknown piece {move.piece!r}", "W1")
            self._check_village(move.village)
            if not self._hands[player][move.piece]:
                raise IllegalMove(f"no {move.piece} in {self._players[player]}'s hand", "W4")
        elif kind is Claim:
            player = self._to_move
            self._check_village(move.village)
            if not self._heads[player]:
                raise IllegalMove(f"{self._players[player]} has no headdress left", "W6")
            if not self._poles[move.village - 1] and not self._empty_claim_allowed():
                raise IllegalMove("the pole is empty: a claim needs a piece", "R1")
        elif kind is Pass:
            if self._actions(self._to_move)[0] is not _PASS:
                raise IllegalMove("no passing while a move is possible", "W5")
        else:
            raise IllegalMove(f"not a Wakanda move: {move!r}")

    def _check_village(self, village) -> None:
        if isinstance(village, bool) or not isinstance(village, int) or not 1 <= village <= ROW:
            raise IllegalMove(f"there is no village {village}: villages are 1 to {ROW}", "W2")
        if village > self.open_count:
            raise IllegalMove(f"village {village} is not open yet", "W4")
        if self._owners[village - 1] is not None:
            raise IllegalMove(f"village {village} is already claimed", "W4")

    def _check_reveal(self, move: Reveal) -> None:
        if self._phase != "reveal":
            raise IllegalMove("no tile to reveal now", "W10")
        if move.village not in VILLAGES:
            raise IllegalMove(f"unknown village {move.village!r}", "W1")
        if move.village in self._villages:
            raise IllegalMove(f"the {move.village} tile is already in the row", "W10")

    # --- changing the state ----------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play ``move`` for the player to move (or a reveal); ``IllegalMove`` if not legal."""
        self.check(move)
        player = None if type(move) is Reveal else self._to_move
        self._undo.append((self._to_move, self._phase, self._passes))
        self._history.append((player, move))
        kind = type(move)
        if kind is Draw:
            self._bag[move.piece] -= 1
            self._bag_total -= 1
            self._hands[player][move.piece] += 1
            self._hand_total[player] += 1
            self._phase = "action"
            return
        if kind is Reveal:
            self._villages[self.open_count - 1] = move.village
            self._next_turn(self._to_move)
            return
        if kind is Build:
            self._hands[player][move.piece] -= 1
            self._hand_total[player] -= 1
            self._poles[move.village - 1].append(move.piece)
            self._passes = 0
        elif kind is Claim:
            self._owners[move.village - 1] = player
            self._heads[player] -= 1
            if not self._heads[player]:
                self._third.append(player)
            self._claims += 1
            self._passes = 0
            if self._claims == ROW:
                self._end()  # W6: all six poles claimed
                return
            if self._claims <= ROW - OPEN_AT_START and self._villages[self.open_count - 1] is None:
                self._to_move, self._phase = 1 - player, "reveal"  # W10
                return
        else:
            self._passes += 1
            if self._passes == 2:
                self._end()  # R6: both players passed in a row
                return
        self._next_turn(1 - player)

    def _next_turn(self, player: int) -> None:
        self._to_move = player
        self._phase = "draw" if self._bag_total else "action"

    def _end(self) -> None:
        self._to_move, self._phase = None, "over"

    def pop(self) -> Move:
        """Take back the last move and return it (a draw goes back to the bag).

        ``IllegalMove`` when there is nothing to take back.
        """
        if not self._history:
            raise IllegalMove("nothing to undo")
        player, move = self._history.pop()
        self._to_move, self._phase, self._passes = self._undo.pop()
        kind = type(move)
        if kind is Draw:
            self._bag[move.piece] += 1
            self._bag_total += 1
            self._hands[player][move.piece] -= 1
            self._hand_total[player] -= 1
        elif kind is Build:
            self._poles[move.village - 1].pop()
            self._hands[player][move.piece] += 1
            self._hand_total[player] += 1
        elif kind is Claim:
            if not self._heads[player]:
                self._third.pop()
            self._heads[player] += 1
            self._owners[move.village - 1] = None
            self._claims -= 1
        elif kind is Reveal:
            self._villages[self.open_count - 1] = None
        return move

    def copy(self) -> Wakanda:
        """An independent copy with the same state and history."""
        new = object.__new__(Wakanda)
        new.__dict__.update(self.__dict__)
        new._villages = list(self._villages)
        new._bag = dict(self._bag)
        new._hands = (dict(self._hands[0]), dict(self._hands[1]))
        new._hand_total = list(self._hand_total)
        new._poles = [list(pole) for pole in self._poles]
        new._owners = list(self._owners)
        new._heads = list(self._heads)
        new._third = list(self._third)
        new._history = list(self._history)
        new._undo = list(self._undo)
        return new

    # --- the end and the score -------------------------------------------------------------

    def score(self, player: int) -> ScoreBreakdown:
        """``player``'s score now (final when over, provisional before): W7, W8."""
        return breakdown(player, self._villages, self._poles, self._owners)

    def outcome(self) -> Outcome | None:
        """None while playing; at the end the winners and why (W9, R6)."""
        if self._phase != "over":
            return None
        totals = (self.score(0).total, self.score(1).total)
        early = self._claims < ROW
        if totals[0] != totals[1]:
            reason = "higher total (W9)"
            if early:
                reason += "; the game ended early: both players passed (R6)"
            return Outcome((0 if totals[0] > totals[1] else 1,), reason)
        if not early:
            return Outcome((self._third[0],), "tie broken by the third headdress (W9)")
        if self._third:
            return Outcome((self._third[0],),
                           "tie won by the only player who placed a third headdress (R6)")
        return Outcome((0, 1), "shared: equal totals and no third headdress placed (R6)")

    def __repr__(self) -> str:
        return (f"<Wakanda {self._phase} to_move={self._to_move} "
                f"moves={len(self._history)} villages={self._villages}>")
