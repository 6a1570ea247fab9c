"""Properties of random legal Wakanda games (hypothesis): conservation of pieces and
headdresses, exact undo, the end with six claimed poles, and the score against a recount.

Hypothesis draws every choice of a game (the row, the start player, each draw from the bag,
each reveal, each action), so a failing game shrinks to a short, plain one."""

from typing import NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import pick

from companion.games.wakanda import Claim, Pass, Wakanda, read_record, write_record
from companion.games.wakanda.bots import greedy_bot
from companion.games.wakanda.rules import EMPTY_CLAIM, OPEN_AT_START, ROW, VILLAGES


class Played(NamedTuple):
    """A game hypothesis drew: its settings and every move in order, chance moves included."""

    villages: tuple
    first: int
    variant: str
    empty_claim: str
    seats: tuple          # per player: "drawn" (hypothesis picks the action) or "greedy"
    moves: tuple


#: How a seat chooses its actions: drawn by hypothesis, or greedy_bot one time in eight (its
#: games are nearer real play, with late claims and tall poles, but it is slow).
SEAT = st.sampled_from(["drawn"] * 7 + ["greedy"])


@st.composite
def games(draw):
    """A whole legal game. Draws and reveals are drawn from what the bag and the unseen tiles
    allow; a "drawn" seat's actions from its legal moves; a "greedy" seat plays greedy_bot,
    its ties broken by a Random hypothesis draws (so that shrinks too)."""
    variant = draw(st.sampled_from(["open", "hidden"]))
    empty_claim = draw(st.sampled_from(EMPTY_CLAIM))
    row = list(draw(st.permutations(VILLAGES)))[:ROW]
    if variant == "hidden":
        row[OPEN_AT_START:] = [None] * (ROW - OPEN_AT_START)
    first = draw(st.integers(0, 1))
    seats = draw(st.tuples(SEAT, SEAT))
    rng = draw(st.randoms(use_true_random=False)) if "greedy" in seats else None
    game = Wakanda(row, first=first, variant=variant, empty_claim=empty_claim)
    while game.phase != "over":
        if game.phase == "action" and seats[game.to_move] == "greedy":
            game.push(greedy_bot(game, rng))
        else:
            game.push(pick(draw, game.legal_moves()))
    return Played(tuple(row), first, variant, empty_claim, seats, tuple(move for _, move in game.history))


def snapshot(game):
    """Everything a player or screen can see of the state."""
    return (game.villages, dict(game.bag), [dict(h) for h in game.hands], game.poles, game.owners,
            game.headdresses, game.third_headdress_order, game.history, game.to_move, game.phase,
            game.legal_moves(), game.outcome(), game.score(0), game.score(1))


def replay(played, on_step=lambda game: None):
    """Play ``played`` again from the start, calling ``on_step`` before each move and at the end."""
    game = Wakanda(played.villages, first=played.first, variant=played.variant,
                   empty_claim=played.empty_claim)
    for move in played.moves:
        on_step(game)
        assert move in game.legal_moves()
        game.push(move)
    on_step(game)
    assert game.phase == "over"
    return game


def recount(game, player):
    """The score of rules/wakanda.md W7/W8, counted plainly."""
    mine = [i for i in range(6) if game.owners[i] == player]
    pieces = [piece for i in mine for piece in game.poles[i]]
    per_piece = {"eagle": 8, "chief": 5, "tomahawk": 4, "skin": 3, "teepee": 2}
    total = 0
    for i in mine:
        village = game.villages[i]
        if village in per_piece:
            total += per_piece[village] * pieces.count(village)
        elif village == "variety":
            total += 2 * len(set(pieces))
        elif village == "height":
            total += 2 * max(len(game.poles[j]) for j in mine)
        elif village == "sun":
            total += pieces.count("sun")
    if "sun" not in [game.villages[i] for i in mine]:
        total -= pieces.count("sun")
    return total


@settings(max_examples=60, deadline=None)
@given(games())
def test_pieces_and_headdresses_are_conserved(played):
    def check(game):
        for piece, start in {"eagle": 1, "chief": 2, "tomahawk": 3, "skin": 4, "teepee": 5, "sun": 6}.items():
            on_poles = sum(pole.count(piece) for pole in game.poles)
            assert game.bag[piece] + game.hands[0][piece] + game.hands[1][piece] + on_poles == start
        assert sum(game.headdresses) + sum(o is not None for o in game.owners) == 6
        assert all(game.owners[v - 1] is None or game.is_open(v) for v in range(1, 7))
    replay(played, on_step=check)


@settings(max_examples=60, deadline=None)
@given(games())
def test_undo_restores_the_exact_state(played):
    def check(game):
        before = snapshot(game)
        for move in game.legal_moves():     # all of them: cheaper than having hypothesis draw a few
            game.push(move)
            game.pop()
            assert snapshot(game) == before
    game = replay(played, on_step=check)
    fresh = Wakanda(game.setup_villages, first=game.first, variant=game.variant,
                    empty_claim=game.empty_claim)
    while game.history:
        game.pop()
    assert snapshot(game) == snapshot(fresh)


@settings(max_examples=100, deadline=None)
@given(games())
def test_games_end_with_six_claims_unless_never_and_both_passed(played):
    game = replay(played)
    assert game.to_move is None and game.legal_moves() == []
    claims = sum(o is not None for o in game.owners)
    if played.empty_claim == "never":
        assert claims == 6 or [type(m) for _, m in game.history[-2:]] == [Pass, Pass]
    else:
        assert claims == 6 and game.owners.count(0) == game.owners.count(1) == 3
        assert sorted(game.third_headdress_order) == [0, 1]


@settings(max_examples=100, deadline=None)
@given(games())
def test_score_and_winner_match_a_plain_recount(played):
    game = replay(played)
    totals = [recount(game, 0), recount(game, 1)]
    assert [game.score(p).total for p in (0, 1)] == totals
    for p in (0, 1):
        s = game.score(p)
        assert s.total == sum(s.villages.values()) + s.sun_penalty and s.sun_penalty <= 0
    winners = game.outcome().winners
    if totals[0] != totals[1]:
        assert winners == (totals.index(max(totals)),)
    elif game.third_headdress_order:
        assert winners == (game.third_headdress_order[0],)
    else:
        assert winners == (0, 1)


@settings(max_examples=60, deadline=None)
@given(games())
def test_pass_is_legal_exactly_when_no_action_is(played):
    """R3: a pass only with no piece in hand and either no headdress or only empty poles
    to claim outside R1; then it is the only move."""
    def check(game):
        if game.phase != "action":
            return
        p = game.to_move
        moves = game.legal_moves()
        open_free = [v for v in range(1, 7) if game.is_open(v) and game.owners[v - 1] is None]
        stuck = not sum(game.bag.values()) and not any(sum(h.values()) for h in game.hands)
        empty_ok = game.empty_claim == "always" or (game.empty_claim == "when_stuck" and stuck)
        can_claim = game.headdresses[p] and any(game.poles[v - 1] or empty_ok for v in open_free)
        forced = not sum(game.hands[p].values()) and not can_claim
        assert (moves == [Pass()]) == bool(forced)
        claims = [Claim(v) for v in open_free if game.headdresses[p] and (game.poles[v - 1] or empty_ok)]
        assert [m for m in moves if isinstance(m, Claim)] == claims
    replay(played, on_step=check)


@settings(max_examples=40, deadline=None)
@given(games())
def test_records_of_random_games_round_trip(played):
    game = replay(played)
    back, warnings = read_record(write_record(game))
    assert warnings == [] and snapshot(back) == snapshot(game)
