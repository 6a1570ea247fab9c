"""The Wakanda rules engine (rules/wakanda.md W1-W10, R1-R8): state, legal moves, push/pop.

Shaped like python-chess's ``Board`` and a ``companion.engine.Engine``: ``legal_moves()``,
``push(move)``, ``pop()``, ``outcome()``. Draws from the bag and reveals of face-down tiles
are explicit moves (chance, as in OpenSpiel): observed from a scan in live play, sampled in
simulation (``chance.py``). A refused move raises the shared ``IllegalMove``: a message key
of the catalogue, its raw parameters and the rule.

>>> g = Wakanda(["teepee", "eagle", "chief", "variety", "sun", "tomahawk"], players=("Ana", "Ben"))
>>> g.phase, g.to_move
('draw', 0)
>>> g.push(Draw("eagle")); g.push(Build("eagle", 2))
>>> g.to_move, g.poles[1]
(1, ('eagle',))
>>> try:
...     g.push(Claim(1))
... except IllegalMove as exc:
...     print(exc, "/", exc.refusal)
draw first: the bag is not empty (W4) / Refusal(key='draw_first', params={}, rule='W4', domain='wakanda')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from companion.engine import IllegalMove, Outcome, Termination
from companion.games.wakanda.moves import Build, Claim, Draw, Move, Pass, Reveal
from companion.games.wakanda.rules import HEADDRESSES_EACH, OPEN_AT_START, PIECES, ROW, VILLAGES
from companion.games.wakanda.scoring import ScoreBreakdown, breakdown
from companion.games.wakanda.setup import SetupError, check_setup
from companion.games.wakanda.words import illegal

# The moves are immutable, so each is made once: legal_moves() only collects them.
_DRAWS = {piece: Draw(piece) for piece in PIECES}
_BUILDS = [{piece: Build(piece, v) for piece in PIECES} for v in range(1, ROW + 1)]
_CLAIMS = [Claim(v) for v in range(1, ROW + 1)]
_REVEALS = {name: Reveal(name) for name in VILLAGES}
_PASS = Pass()
_PIECE_ORDER = tuple(PIECES)

__all__ = ["IllegalMove", "Outcome", "Termination", "Wakanda"]


class Wakanda:
    """A game of Wakanda in progress (see the module docstring and docs/internals.md)."""

    def __init__(self, villages: Sequence[str | None], first: int = 0,
                 players: Sequence[str] = ("Player 1", "Player 2"), variant: str = "open",
                 empty_claim: str = "when_stuck", open_hands: bool = False,
                 box: Mapping[int, str] | None = None, hints: bool = False):
        check_setup(villages, first, players, variant, empty_claim, open_hands)
        if not isinstance(hints, bool):
            raise SetupError(f"hints must be true or false, got {hints!r}")
        self._hints = hints  # played with the box's move hints on: nothing the rules read
        if box and not all(seat in (0, 1) and not isinstance(seat, bool) and isinstance(level, str)
                           for seat, level in box.items()):
            raise SetupError(f"box must map seat 0 or 1 to a level, got {dict(box)!r}")
        # The seats the box plays and their levels (box_player.py); nothing the rules read.
        self._box = MappingProxyType(dict(box or {}))
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

    @property
    def players(self) -> tuple[str, ...]:
        """The two player names."""
        return self._players

    @property
    def first(self) -> int:
        """The start player (W3)."""
        return self._first

    @property
    def variant(self) -> str:
        """``"open"`` or ``"hidden"`` (W10)."""
        return self._variant

    @property
    def empty_claim(self) -> str:
        """The R1 setting."""
        return self._empty_claim

    @property
    def open_hands(self) -> bool:
        """The R2 setting."""
        return self._open_hands

    @property
    def hints(self) -> bool:
        """Whether the game is played with the box's move hints on (the box's Hints setting
        when it started; the after-game review reads it)."""
        return self._hints

    @property
    def box(self) -> Mapping[int, str]:
        """The seats the box plays, seat → its search level (empty: two people play)."""
        return self._box

    @property
    def to_move(self) -> int | None:
        """Whose turn it is (in the reveal phase: who moves after it); None when over."""
        return self._to_move

    @property
    def phase(self) -> str:
        """``"draw"``, ``"action"``, ``"reveal"`` or ``"over"``."""
        return self._phase

    @property
    def setup_villages(self) -> tuple[str | None, ...]:
        """The row as laid out at the start (``None`` for tiles face down then)."""
        return self._setup

    @property
    def villages(self) -> tuple[str | None, ...]:
        """The six tiles in row order; ``None`` for a face-down tile not yet revealed."""
        return tuple(self._villages)

    @property
    def bag(self) -> Mapping[str, int]:
        """Pieces left in the bag: piece → count (read-only view)."""
        return MappingProxyType(self._bag)

    @property
    def hands(self) -> tuple[Mapping[str, int], Mapping[str, int]]:
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
    def history(self) -> tuple[tuple[int | None, Move], ...]:
        """The moves so far as ``(player, move)``, oldest first; a reveal's player is None."""
        return tuple(self._history)

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

    def legal_moves(self) -> list[Move]:
        """The legal moves now, in a stable order (draws in PIECES order; builds by village
        then piece; claims; the forced pass; reveals in tile order). Empty when over."""
        phase = self._phase
        if phase == "draw":
            return [_DRAWS[piece] for piece in _PIECE_ORDER if self._bag[piece]]
        if phase == "action":
            return _actions(self, _mover(self))
        if phase == "reveal":
            shown = set(self._villages)
            return [_REVEALS[name] for name in VILLAGES if name not in shown]
        return []

    def check_turn(self, player: int | None) -> None:
        """Raise ``IllegalMove`` unless ``player`` may act now (None: a reveal, no player)."""
        if self._phase == "over":
            raise illegal("game_over", rule="W6")  # W6: the game ends at the sixth claim
        if self._phase == "reveal":
            if player is not None:  # W10: the tile that became available is turned up first
                raise illegal("turn_up_first", rule="W10", village=self.open_count)
            return
        if player is None:
            raise illegal("no_reveal", rule="W10")
        if player != self._to_move:  # W4: players take turns
            raise illegal("not_your_turn", rule="W4", name=self._players[_mover(self)])

    def check(self, move: Move) -> None:
        """Raise ``IllegalMove`` (its key, parameters and rule) if ``move`` is not legal now."""
        phase = self._phase
        if phase == "over":
            raise illegal("game_over", rule="W6")  # W6: the game ends at the sixth claim
        if isinstance(move, Reveal):
            _check_reveal(self, move)
            return
        if phase == "reveal":  # W10: the tile that became available is turned up first
            raise illegal("turn_up_first", rule="W10", village=self.open_count)
        if isinstance(move, Draw):
            if move.piece not in PIECES:  # W1: the six piece types
                raise illegal("unknown_piece", rule="W1", piece=move.piece)
            if phase == "action":  # W4 (1): one draw, and only while the bag has pieces
                raise illegal("one_draw" if self._bag_total else "bag_empty", rule="W4")
            if not self._bag[move.piece]:  # W4 (1): a draw comes out of the bag
                raise illegal("none_in_bag", rule="W4", piece=move.piece)
            return
        if phase == "draw":  # W4 (1): draw first while the bag is not empty
            raise illegal("draw_first", rule="W4")
        player = _mover(self)
        if isinstance(move, Build):
            if move.piece not in PIECES:  # W1: the six piece types
                raise illegal("unknown_piece", rule="W1", piece=move.piece)
            _check_village(self, move.village)
            if not self._hands[player][move.piece]:  # W4 A: a piece from your hand
                raise illegal("not_in_hand", rule="W4", piece=move.piece, name=self._players[player])
        elif isinstance(move, Claim):
            _check_village(self, move.village)
            if not self._heads[player]:  # W6: three headdresses each
                raise illegal("no_headdress", rule="W6", name=self._players[player])
            if not self._poles[move.village - 1] and not _empty_claim_allowed(self):
                raise illegal("empty_pole", rule="R1")  # R1: a claim needs a piece
        elif isinstance(move, Pass):
            if _actions(self, player)[0] is not _PASS:  # W5: no passing while a move is legal
                raise illegal("no_pass", rule="W5")
        else:
            raise illegal("not_wakanda_move", move=move)

    # --- changing the state ----------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play ``move`` for the player to move (or a reveal); ``IllegalMove`` if not legal."""
        self.check(move)
        self._undo.append((self._to_move, self._phase, self._passes))
        if isinstance(move, Reveal):
            self._history.append((None, move))
            self._villages[self.open_count - 1] = move.village
            _next_turn(self, _mover(self))
            return
        player = _mover(self)
        self._history.append((player, move))
        if isinstance(move, Draw):
            self._bag[move.piece] -= 1
            self._bag_total -= 1
            self._hands[player][move.piece] += 1
            self._hand_total[player] += 1
            self._phase = "action"
            return
        if isinstance(move, Build):
            self._hands[player][move.piece] -= 1
            self._hand_total[player] -= 1
            self._poles[move.village - 1].append(move.piece)
            self._passes = 0
        elif isinstance(move, Claim):
            self._owners[move.village - 1] = player
            self._heads[player] -= 1
            if not self._heads[player]:
                self._third.append(player)
            self._claims += 1
            self._passes = 0
            if self._claims == ROW:
                self._to_move, self._phase = None, "over"  # W6: all six poles claimed
                return
            if self._claims <= ROW - OPEN_AT_START and self._villages[self.open_count - 1] is None:
                self._to_move, self._phase = 1 - player, "reveal"  # W10
                return
        else:
            self._passes += 1
            if self._passes == 2:
                self._to_move, self._phase = None, "over"  # R6: both players passed in a row
                return
        _next_turn(self, 1 - player)

    def pop(self) -> Move:
        """Take back the last move and return it (a draw goes back to the bag).

        ``IllegalMove("nothing_to_undo")`` when there is nothing to take back.
        """
        if not self._history:
            raise illegal("nothing_to_undo")
        player, move = self._history.pop()
        self._to_move, self._phase, self._passes = self._undo.pop()
        if isinstance(move, Reveal):
            self._villages[self.open_count - 1] = None
            return move
        assert player is not None
        if isinstance(move, Draw):
            self._bag[move.piece] += 1
            self._bag_total += 1
            self._hands[player][move.piece] -= 1
            self._hand_total[player] -= 1
        elif isinstance(move, Build):
            self._poles[move.village - 1].pop()
            self._hands[player][move.piece] += 1
            self._hand_total[player] += 1
        elif isinstance(move, Claim):
            if not self._heads[player]:
                self._third.pop()
            self._heads[player] += 1
            self._owners[move.village - 1] = None
            self._claims -= 1
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
        """None while playing; at the end the winners, how the game ended and the rule that
        decided: W9 the higher total, or on a tie the first to place a third headdress; after
        both passed (R6) a tie goes to the only player with a third headdress, else shared.

        The report's and the screens' ``result_line``/``result_reason`` put it into words.
        """
        if self._phase != "over":
            return None
        totals = (self.score(0).total, self.score(1).total)
        ended = Termination.ALL_CLAIMED if self._claims == ROW else Termination.BOTH_PASSED
        if totals[0] != totals[1]:
            return Outcome((0 if totals[0] > totals[1] else 1,), ended, "W9")
        if ended is Termination.ALL_CLAIMED:
            return Outcome((self._third[0],), ended, "W9")
        return Outcome((self._third[0],) if self._third else (0, 1), ended, "R6")



# --- the rules' plain parts (module functions: the class keeps python-chess's Board shape) ---

def _empty_claim_allowed(game: Wakanda) -> bool:
    """R1: an empty pole may be claimed only when the bag and both hands are empty."""
    if game._empty_claim == "always":
        return True
    if game._empty_claim == "never":
        return False
    return not (game._bag_total or game._hand_total[0] or game._hand_total[1])


def _actions(game: Wakanda, player: int) -> list[Move]:
    """Builds (by village, then piece), then claims; the forced pass if there are none."""
    hand = game._hands[player]
    held = [piece for piece in _PIECE_ORDER if hand[piece]]
    owners = game._owners
    moves: list[Move] = []
    open_count = game.open_count
    if held:
        for v in range(open_count):
            if owners[v] is None:
                row = _BUILDS[v]
                moves.extend(row[piece] for piece in held)
    if game._heads[player]:
        empty_ok = _empty_claim_allowed(game)
        poles = game._poles
        moves.extend(_CLAIMS[v] for v in range(open_count)
                     if owners[v] is None and (empty_ok or poles[v]))
    return moves or [_PASS]


def _mover(game: Wakanda) -> int:
    """The player to move in the draw and action phases (never ``None`` there)."""
    player = game._to_move
    assert player is not None, game._phase
    return player


def _check_village(game: Wakanda, village: object) -> None:
    """W2: villages 1 to 6; W4: an available (open) and unclaimed one."""
    if isinstance(village, bool) or not isinstance(village, int) or not 1 <= village <= ROW:
        raise illegal("no_such_village", rule="W2", village=village, last=ROW)
    if village > game.open_count:
        raise illegal("not_open", rule="W4", village=village)
    if game._owners[village - 1] is not None:
        raise illegal("claimed", rule="W4", village=village)


def _check_reveal(game: Wakanda, move: Reveal) -> None:
    """W10: a reveal turns up the tile that just became available, one of the unseen."""
    if game._phase != "reveal":
        raise illegal("no_reveal", rule="W10")
    if move.village not in VILLAGES:  # W1: the eight tiles
        raise illegal("unknown_village", rule="W1", tile=move.village)
    if move.village in game._villages:
        raise illegal("tile_in_row", rule="W10", tile=move.village)


def _next_turn(game: Wakanda, player: int) -> None:
    """``player``'s turn: a draw while the bag has pieces (W4), else an action."""
    game._to_move = player
    game._phase = "draw" if game._bag_total else "action"
