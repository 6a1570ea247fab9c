"""After a Wakanda game: where each player lost the most points (the score pages' review
page, ``score --review``).

Each decision a player made with a choice (W4: which piece to build where, or which village
to claim) is judged from what that player knew then — the search's information set
(``information.py``): their own hand, the public poles, claims and tiles, the other hand's
size; never the other hand's contents. The search's play-outs (``search.margins``) estimate
the final margin over the other player after a move:

1. every legal move in ``SCAN`` sampled worlds: the one with the best mean is the better
   move (when it is the move played, or its mean less than ``MIN_POINTS`` above the
   played move's, nothing was lost);
2. the better and the played move again in ``CHECK`` fresh worlds, paired: the mean of
   their differences is the points lost, with its standard error.

A loss counts when it is clear: at least ``MIN_POINTS`` and ``CLEAR`` standard errors (the
first step's pick is the best of many noisy means, so the second step measures it afresh).
Each player's ``TOP`` biggest losses are kept, biggest first. The same game gives the same
review: each decision's chance comes from the seed and the decision's place in the game.

>>> from companion.games.wakanda import Build, Draw, Wakanda
>>> g = Wakanda(["teepee", "eagle", "chief", "variety", "sun", "tomahawk"], players=("Ana", "Ben"))
>>> for move in (Draw("eagle"), Build("eagle", 2), Draw("teepee"), Build("teepee", 1)):
...     g.push(move)
>>> [(d.turn, g.players[d.player], d.played, len(d.moves)) for d in decisions(g)]
[(1, 'Ana', Build(piece='eagle', village=2), 3), (2, 'Ben', Build(piece='teepee', village=1), 4)]
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass

from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.information import InformationSet, information_set
from companion.games.wakanda.moves import Build, Claim, Move, Pass
from companion.games.wakanda.search import margins

#: Sampled worlds per legal move to find the better move.
SCAN = 12
#: Fresh worlds to measure what the played move lost against the better one.
CHECK = 48
#: A loss is shown when it is at least this many points …
MIN_POINTS = 1.0
#: … and this many standard errors of its estimate.
CLEAR = 2.0
#: The biggest losses kept per player.
TOP = 3


@dataclass(frozen=True)
class Decision:
    """A move a player chose among several: its place in the game's ``history``, the
    player, the turn (from 1: a draw and an action, W4), what the player knew then, the
    legal moves (the player's own: their hand and headdresses, the open villages) and the
    move played."""

    index: int
    player: int
    turn: int
    info: InformationSet
    moves: tuple[Move, ...]
    played: Move


@dataclass(frozen=True)
class Loss:
    """What a decision cost: at ``turn`` the ``player`` played ``played`` where ``better``
    was expected to end ``points`` better in final margin over the other player (``error``:
    the estimate's standard error)."""

    player: int
    turn: int
    played: Move
    better: Move
    points: float
    error: float


@dataclass(frozen=True)
class Review:
    """Per player: how many decisions were judged (``decisions``) and the clear losses
    among them, biggest first, at most ``TOP`` (``losses``)."""

    decisions: tuple[int, int]
    losses: tuple[tuple[Loss, ...], tuple[Loss, ...]]


def decisions(game: Wakanda) -> list[Decision]:
    """Every move of ``game``'s history that was a choice (more than one legal move), with
    what its player knew then, in the order played. ``game`` itself is not changed."""
    replay = game.copy()
    moves = [move for _, move in replay.history]
    while replay.history:
        replay.pop()
    found = []
    turn = 1
    for index, move in enumerate(moves):
        legal = replay.legal_moves() if replay.phase == "action" else []
        if len(legal) > 1:
            player = replay.to_move
            assert player is not None, "the action phase has a player to move"
            found.append(Decision(index, player, turn, information_set(replay, player),
                                  tuple(legal), move))
        replay.push(move)
        if isinstance(move, Build | Claim | Pass):
            turn += 1
    return found


def judge(decision: Decision, seed: int = 0) -> Loss | None:
    """The clear loss of ``decision`` (see the module docstring), or None."""
    rng = random.Random(f"wakanda review {seed} {decision.index}")
    info = decision.info
    moves = list(decision.moves)
    scan = margins(info, moves, SCAN, rng)
    best = max(range(len(moves)), key=lambda i: sum(scan[i]))  # the first on a tie
    better = moves[best]
    played = moves.index(decision.played)
    if sum(scan[best]) - sum(scan[played]) < MIN_POINTS * SCAN:
        return None  # the move played was the better one, or about as good
    ours, theirs = margins(info, [better, decision.played], CHECK, rng)
    differences = [b - p for b, p in zip(ours, theirs)]
    mean = sum(differences) / CHECK
    spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (CHECK - 1))
    error = spread / math.sqrt(CHECK)
    if mean < MIN_POINTS or mean < CLEAR * error:
        return None
    return Loss(decision.player, decision.turn, decision.played, better, mean, error)


def summarise(found: list[Decision], losses: list[Loss | None]) -> Review:
    """The review of the decisions ``found`` given each one's loss (None: no clear loss)."""
    counts = tuple(sum(d.player == p for d in found) for p in (0, 1))
    kept = tuple(tuple(sorted((loss for loss in losses if loss is not None and loss.player == p),
                              key=lambda loss: (-loss.points, loss.turn))[:TOP])
                 for p in (0, 1))
    return Review(decisions=(counts[0], counts[1]), losses=(kept[0], kept[1]))


def review(game: Wakanda, seed: int = 0) -> Review:
    """Where each player of ``game`` (finished or not) lost the most, judged at once."""
    found = decisions(game)
    return summarise(found, [judge(decision, seed) for decision in found])


class ReviewJob:
    """The review of a game, made on a thread of its own so that the box never waits for
    it: ``progress`` says how far it is (decisions judged, of how many), ``result`` is the
    ``Review`` once done (``failed`` when it could not be made). The decisions are taken
    from the game when the job starts (a few milliseconds); the game may change after."""

    def __init__(self, game: Wakanda, seed: int = 0,
                 judged: Callable[[Decision, int], Loss | None] | None = None):
        self._found = decisions(game)
        self._seed = seed
        self._judge = judged or judge  # ``judged``: another way to judge a decision (tests)
        self._done = threading.Event()
        self._stop = threading.Event()
        self.result: Review | None = None
        self.failed = False
        self.progress = (0, len(self._found))
        self._thread = threading.Thread(target=self._run, name="wakanda-review", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        found = self._found
        losses: list[Loss | None] = []
        try:
            for decision in found:
                if self._stop.is_set():
                    return
                losses.append(self._judge(decision, self._seed))
                self.progress = (len(losses), len(found))
            self.result = summarise(found, losses)
        except Exception:  # a review that cannot be made must not take the score pages with it
            self.failed = True
        finally:
            self._done.set()

    @property
    def done(self) -> bool:
        """Whether the review is made (or failed, or was cancelled)."""
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait at most ``timeout`` seconds for the review; whether it is done."""
        return self._done.wait(timeout)

    def cancel(self) -> None:
        """Stop after the decision being judged (the score pages were left)."""
        self._stop.set()

