"""Wakanda search: the move for one seat from what that seat knows (shared/DESIGN.md,
"Engine protocol"; ``companion/search.py`` for the API every game's search offers).

The seat knows its own hand, the poles, claims and tiles, and the other hand's size
(``information.py``). The search samples the rest — which unseen pieces the other hand
holds, the order of the bag, the face-down tiles (R2, W4, W10) — as worlds (``playout.py``)
and plays them out:

- **Information-set Monte Carlo tree search** (the levels ``easy``, ``standard``,
  ``strong``): each iteration samples a world and walks a tree of the moves as the seat
  sees them, choosing by UCB1 among the moves legal in that world, adds one move, plays
  the rest at random and counts the result — a win 1, a shared win ½ (R6), plus a little
  for the points margin so that among equal chances the bigger margin wins. The other
  player's replies are searched too, which is what a flat search misses: a build that
  leaves a rich pole open is punished by the claim that follows.
- **Exact** when the bag is empty (and no face-down tile can still turn up): then the
  unseen pieces are the other hand, nothing is hidden, and alpha-beta search plays both
  sides perfectly, within a node budget (else the tree search answers).
- **baseline30**, the yardstick anyone can rebuild: flat Monte Carlo over the information
  set, 30 random playouts per action, each in a fresh world, the best mean result wins.

Random playouts build uniformly at random, and claim (a random open pole) with
probability 1/4 when a build is possible too (``playout.CLAIM_SHARE``).

The same information set, level and seed give the same move: all chance comes from one
``random.Random(seed)`` and nothing depends on hashing order.

>>> from companion.games.wakanda import Draw, Wakanda
>>> g = Wakanda(["teepee", "eagle", "chief", "variety", "sun", "tomahawk"], players=("Ana", "Ben"))
>>> g.push(Draw("eagle"))
>>> s = suggest(g, level="easy", seed=1)
>>> s.move == suggest(g, level="easy", seed=1).move, s.player
(True, 0)
"""

from __future__ import annotations

import math
import random
import time

from companion.errors import UserError
from companion.files import shown
from companion.games.wakanda.chance import sample_draw
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.information import InformationSet, information_set
from companion.games.wakanda.levels import ALL_LEVELS, LEVELS
from companion.games.wakanda.moves import Build, Claim, Move, Pass, Reveal
from companion.games.wakanda.playout import CLAIM, NTYPES, PASS, PIECE_INDEX, Sim, Worlds, to_move_object
from companion.games.wakanda.reasons import move_words, reason
from companion.games.wakanda.record import event_line
from companion.games.wakanda.rules import OPEN_AT_START, ROW
from companion.games.wakanda.setup import VARIANTS, random_setup
from companion.games.wakanda.words import illegal
from companion.search import Alternative, Duel, Search, Suggestion

_BY_NAME = {level.name: level for level in ALL_LEVELS}
#: The strongest level whose median decision time keeps the hint budget (≤ 50 ms on the
#: development machine; tests/test_bench_search.py prints the figures).
DEFAULT_LEVEL = "strong"

#: UCB1's exploration constant for results between 0 and 1.
EXPLORATION = 0.7
#: How much one point of margin adds to a playout's result (a win is 1): a tie-breaker
#: between moves of equal chances, never enough to trade a win for points.
MARGIN_WEIGHT = 0.05
#: Exact values: a win is worth this much more than any margin of points.
_WIN = 1000


def move_line(player: int, move: Move) -> dict[str, object]:
    """A suggested move as its record line (``hint --json``, ``engine``)."""
    return event_line(player, move)


def suggest(game: Wakanda, seat: int | None = None, *, level: str | None = None, seed: int = 0,
            hand: list[str] | None = None) -> Suggestion:
    """The suggested move for ``seat`` (default: the player to move), from what that seat
    knows (``information.py``). ``IllegalMove`` when the seat cannot move now: the game is
    over (W6), it is the other's turn (W4), a draw (W4) or a face-down tile (W10) is due.
    ``hand`` is for games with hidden hands: a Wakanda hand is in the record (R2)."""
    if hand is not None:
        raise UserError("a Wakanda hand comes from the record (R2): leave out the hand")
    level = level or DEFAULT_LEVEL
    if level not in _BY_NAME:
        raise UserError(f"unknown level {shown(level)} (levels: {', '.join(LEVELS)})")
    if game.phase == "over":
        raise illegal("game_over", rule="W6")
    if seat is not None and seat != game.to_move:
        if seat not in (0, 1):
            raise UserError(f"seat must be 0 or 1, got {seat!r}")
        raise illegal("not_turn_of", rule="W4", name=game.name(seat))
    if game.phase == "reveal":
        raise illegal("turn_up_first", rule="W10", village=game.open_count)
    if game.phase == "draw":
        raise illegal("draw_first", rule="W4")
    to_move = game.to_move
    assert to_move is not None, "the action phase has a player to move"
    info = information_set(game, to_move)
    ranked = rank(info, level, seed)
    best, value = ranked[0]
    return Suggestion(player=to_move, move=best, reason=reason(info, best, value), value=value,
                      alternatives=tuple(Alternative(move, v) for move, v in ranked[1:]))


def rank(info: InformationSet, level: str, seed: int) -> list[tuple[Move, float]]:
    """The legal moves of ``info``'s seat (to move, in the action phase), best first, each
    with its estimated chance to win; the same for the same information, level and seed."""
    chosen = _BY_NAME[level]
    rng = random.Random(seed)
    worlds = Worlds(info)
    ranking = None
    if chosen.exact and worlds.known:
        ranking = _exact(worlds.sample(rng), chosen.exact)  # the one world there is
    if ranking is None and chosen.method == "flat":
        ranking = _flat(worlds, rng, chosen.budget)
    if ranking is None:
        ranking = _tree(worlds, rng, chosen.budget)
    return [(to_move_object(action), value) for action, value in ranking]


# --- baseline: flat Monte Carlo ----------------------------------------------------------

def _flat(worlds: Worlds, rng: random.Random, per_action: int) -> list[tuple[int, float]]:
    """Flat Monte Carlo: ``per_action`` random playouts for each action, each in a freshly
    sampled world; ranked by the mean result (ties in the order of the legal moves)."""
    seat = 1 - worlds.other
    actions = worlds.base.actions()
    means = []
    for action in actions:
        total = 0.0
        for _ in range(per_action):
            sim = worlds.sample(rng)
            sim.apply(action)
            sim.play_out(rng)
            total += sim.result(seat, sim.totals())
        means.append(total / per_action)
    order = sorted(range(len(actions)), key=lambda i: -means[i])
    return [(actions[i], means[i]) for i in order]


# --- information-set Monte Carlo tree search --------------------------------------------

class _Node:
    """A move as its player sees it, in the tree of one seat's information: visits, the sum
    of the values to the player who made it, and how often it was available when its
    parent was visited (UCB1 over the moves legal in each sampled world)."""

    __slots__ = ("children", "visits", "total", "available", "mover", "wins")

    def __init__(self, mover: int):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.wins = 0.0
        self.available = 1
        self.mover = mover


def _tree(worlds: Worlds, rng: random.Random, iterations: int) -> list[tuple[int, float]]:
    """Single-observer information-set MCTS from the seat's root; ranked by visits."""
    seat = 1 - worlds.other
    root = _Node(worlds.other)
    random_ = rng.random
    log, sqrt = math.log, math.sqrt
    for _ in range(iterations):
        sim = worlds.sample(rng)
        node = root
        path = [root]
        while sim.claims != ROW and sim.passes < 2:  # not over (Sim.over, without the call)
            actions = sim.actions()
            children = node.children
            untried = [a for a in actions if a not in children]
            for a in actions:
                if a in children:
                    children[a].available += 1
            if untried:
                action = untried[int(random_() * len(untried))]
                child = children[action] = _Node(sim.to_move)
                sim.apply(action)
                path.append(child)
                break
            best_value = -1.0
            action = actions[0]
            for a in actions:
                child = children[a]
                value = child.total / child.visits + EXPLORATION * sqrt(log(child.available) / child.visits)
                if value > best_value:
                    best_value, action = value, a
            sim.apply(action)
            node = children[action]
            path.append(node)
        sim.play_out(rng)
        totals = sim.totals()
        margin = MARGIN_WEIGHT * (totals[0] - totals[1])
        win0 = sim.result(0, totals)
        values = (win0 + margin, 1.0 - win0 - margin)
        for node in path:
            node.visits += 1
            node.total += values[node.mover]
        path[1].wins += win0 if seat == 0 else 1.0 - win0
    ranked = sorted(root.children.items(), key=lambda item: -item[1].visits)
    return [(action, node.wins / node.visits) for action, node in ranked]


# --- exact endgame ------------------------------------------------------------------------

class _OverBudget(Exception):
    """The exact search needs more nodes than its budget."""


def _exact(sim: Sim, budget: int) -> list[tuple[int, float]] | None:
    """Both sides played perfectly from a world with nothing hidden: each action's exact
    result for the player to move (win 1, shared ½, loss 0), ranked by result then margin;
    ``None`` when it needs more than ``budget`` nodes."""
    nodes = [0]
    # (to move, passes, counts, owners, hand 0, hand 1, third) -> exact value
    table: dict[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...],
                      tuple[int, ...]], float] = {}

    def value(s: Sim, alpha: float, beta: float) -> float:
        # Negamax with alpha-beta: the value to the player to move, a win worth _WIN plus
        # the margin. A transposition is reused only when its value was exact.
        nodes[0] += 1
        if nodes[0] > budget:
            raise _OverBudget
        if s.over:
            totals = s.totals()
            p = s.to_move
            return (2 * s.result(p, totals) - 1) * _WIN + totals[p] - totals[1 - p]
        key = (s.to_move, s.passes, tuple(s.counts), tuple(s.owners), tuple(s.hands[0]),
               tuple(s.hands[1]), tuple(s.third))
        known = table.get(key)
        if known is not None:
            return known
        best = -math.inf
        start_alpha = alpha
        for action in _ordered(s.actions()):
            child = s.copy()
            child.apply(action)
            v = -value(child, -beta, -alpha)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if start_alpha < best < beta:
            table[key] = best
        return best

    scored = []
    try:
        for action in _ordered(sim.actions()):
            child = sim.copy()
            child.apply(action)
            scored.append((-value(child, -math.inf, math.inf), action))
    except _OverBudget:
        return None
    scored.sort(key=lambda item: -item[0])
    return [(action, 1.0 if v > _WIN / 2 else 0.0 if v < -_WIN / 2 else 0.5) for v, action in scored]


def _ordered(actions: list[int]) -> list[int]:
    """Claims first (they end games and cut the tree soonest), then builds."""
    return [a for a in actions if a >= CLAIM and a != PASS] + [a for a in actions if a < CLAIM or a == PASS]


# --- points: the expected final margin of moves (the after-game review) -------------------

def margins(info: InformationSet, moves: list[Move], samples: int, rng: random.Random) -> list[list[int]]:
    """The final point margin (the seat's total less the other's, W7-W8) after each of
    ``moves`` (legal for ``info``'s seat, to move in the action phase), in ``samples`` worlds
    sampled from the seat's information and played out at random as the search does:
    ``result[i][k]`` is move ``i``'s margin in world ``k``. Every move meets the same worlds
    (the other hand, the bag's order, the face-down tiles) and the same seed of random play,
    so differences between moves are paired. Nothing here changes what ``suggest`` answers."""
    worlds = Worlds(info)
    seat = info.seat
    actions = [_action(move) for move in moves]
    out: list[list[int]] = [[] for _ in actions]
    for _ in range(samples):
        world = worlds.sample(rng)
        play_seed = rng.getrandbits(32)
        for action, margins_of in zip(actions, out):
            sim = world.copy()
            sim.apply(action)
            sim.play_out(random.Random(play_seed))
            totals = sim.totals()
            margins_of.append(totals[seat] - totals[1 - seat])
    return out


def _action(move: Move) -> int:
    """The search's action integer of an engine move (``to_move_object`` the other way)."""
    if isinstance(move, Build):
        return (move.village - 1) * NTYPES + PIECE_INDEX[move.piece]
    if isinstance(move, Claim):
        return CLAIM + move.village - 1
    if isinstance(move, Pass):
        return PASS
    raise TypeError(f"not an action of the action phase: {move!r}")


# --- one game between two levels (``match``) ----------------------------------------------

def duel(levels: tuple[str, str], seed: int, first: int, variant: str = "open") -> Duel:
    """One game of ``variant`` (``VARIANTS``), ``levels[i]`` at seat ``i``, ``first`` to
    start; the tiles, the draws and each decision's seed come from ``seed`` (the same seed,
    the same tiles and draws whoever sits where). In the hidden variant (W10) the tiles
    face down are laid at the start, as at the table, and turn up in row order: the same
    seed turns up the same tiles, however soon the claims come."""
    for level in levels:
        if level not in _BY_NAME:
            raise UserError(f"unknown level {shown(level)} (levels: {', '.join(LEVELS)})")
    if variant not in VARIANTS:
        raise UserError(f"unknown variant '{variant}' (variants: {', '.join(VARIANTS)})")
    setup_rng = random.Random(f"wakanda setup {seed}")
    draw_rng = random.Random(f"wakanda draws {seed}")
    decision_rng = random.Random(f"wakanda decisions {seed}")
    row = random_setup(setup_rng)
    face_down = [name for name in row[OPEN_AT_START:] if name is not None]
    if variant == "hidden":
        row[OPEN_AT_START:] = [None] * len(face_down)
    game = Wakanda(row, first=first, players=("A", "B"), variant=variant)
    times: tuple[list[float], list[float]] = ([], [])
    while game.phase != "over":
        if game.phase == "draw":
            game.push(sample_draw(game, draw_rng))
            continue
        if game.phase == "reveal":
            game.push(Reveal(face_down[game.open_count - 1 - OPEN_AT_START]))
            continue
        player = game.to_move
        assert player is not None
        decision_seed = decision_rng.getrandbits(32)
        start = time.perf_counter()
        move = suggest(game, level=levels[player], seed=decision_seed).move
        elapsed = time.perf_counter() - start
        if len(game.legal_moves()) > 1:
            times[player].append(elapsed)
        assert isinstance(move, Build | Claim | Pass), move
        game.push(move)
    outcome = game.outcome()
    assert outcome is not None
    return Duel(winners=outcome.winners, totals=(game.score(0).total, game.score(1).total),
                times=(tuple(times[0]), tuple(times[1])))


SEARCH = Search(levels=LEVELS, default_level=DEFAULT_LEVEL, suggest=suggest,
                move_line=move_line, variants=VARIANTS, move_words=move_words,
                duel=lambda levels, seed, first, variant: duel(levels, seed, first, variant or "open"))
