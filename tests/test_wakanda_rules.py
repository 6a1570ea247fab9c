"""The Wakanda engine against rules/wakanda.md: turns, legal moves, each illegal-move class,
the rulings R1-R8, scoring (W7, W8), the end (W6) and the tie-break (W9)."""

import pytest

from companion.engine import Refusal, Termination
from companion.games.wakanda import (
    Build,
    Claim,
    Draw,
    IllegalMove,
    Pass,
    Reveal,
    ScoreBreakdown,
    SetupError,
    Wakanda,
    outcome_reason,
    result_line,
)

ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]
#: The 21 pieces (W1), in the order the tests draw them.
ALL_PIECES = (["eagle"] + ["chief"] * 2 + ["tomahawk"] * 3 + ["skin"] * 4 + ["teepee"] * 5
              + ["sun"] * 6)


def new(row=ROW, **settings):
    return Wakanda(row, players=("Ana", "Ben"), **settings)


def turn(game, piece, action):
    """One turn: draw ``piece`` (when the bag has pieces) then ``action``."""
    if game.phase == "draw":
        game.push(Draw(piece))
    game.push(action)


def build_all(game, plan):
    """Turns that each draw a piece and build it: ``plan`` is [(piece, village), …]."""
    for piece, village in plan:
        turn(game, piece, Build(piece, village))


def illegal(game, move):
    with pytest.raises(IllegalMove) as info:
        game.push(move)
    return info.value


# --- a turn (W4) --------------------------------------------------------------------------

def test_a_turn_is_a_draw_then_one_action_and_players_alternate():
    g = new(first=1)
    assert (g.to_move, g.phase) == (1, "draw")
    g.push(Draw("eagle"))
    assert (g.to_move, g.phase) == (1, "action")
    assert g.hands[1]["eagle"] == 1 and g.bag["eagle"] == 0
    g.push(Build("eagle", 3))
    assert (g.to_move, g.phase) == (0, "draw")
    assert g.poles[2] == ("eagle",) and g.hands[1]["eagle"] == 0
    assert g.history == ((1, Draw("eagle")), (1, Build("eagle", 3)))


def test_legal_moves_are_in_a_stable_order():
    g = new()
    assert g.legal_moves() == [Draw(p) for p in ("eagle", "chief", "tomahawk", "skin", "teepee", "sun")]
    build_all(g, [("sun", 1)])
    g.push(Draw("chief"))
    assert g.legal_moves() == [Build("chief", 1), Build("chief", 2), Build("chief", 3), Claim(1)]
    g.push(Build("chief", 2))
    g.push(Draw("chief"))
    g.push(Build("chief", 2))
    g.push(Draw("sun"))
    assert g.legal_moves() == [Build("sun", 1), Build("sun", 2), Build("sun", 3), Claim(1), Claim(2)]


def test_a_draw_of_a_piece_type_goes_away_once_the_bag_has_none():
    g = new()
    build_all(g, [("eagle", 1)])
    assert Draw("eagle") not in g.legal_moves()
    assert str(illegal(g, Draw("eagle"))) == "no eagle left in the bag (W4)"


@pytest.mark.parametrize("move, message", [
    (Build("eagle", 1), "draw first: the bag is not empty (W4)"),
    (Claim(1), "draw first: the bag is not empty (W4)"),
    (Pass(), "draw first: the bag is not empty (W4)"),
    (Draw("bison"), "unknown piece 'bison' (W1)"),
    (Reveal("sun"), "no tile to reveal now (W10)"),
])
def test_illegal_before_the_draw(move, message):
    assert str(illegal(new(), move)) == message


@pytest.mark.parametrize("move, message, rule", [
    (Build("eagle", 4), "village 4 is not open yet (W4)", "W4"),
    (Build("eagle", 7), "there is no village 7: villages are 1 to 6 (W2)", "W2"),
    (Build("eagle", 0), "there is no village 0: villages are 1 to 6 (W2)", "W2"),
    (Build("sun", 1), "no sun in Ana's hand (W4)", "W4"),
    (Build("bison", 1), "unknown piece 'bison' (W1)", "W1"),
    (Claim(5), "village 5 is not open yet (W4)", "W4"),
    (Claim(2), "the pole is empty: a claim needs a piece (R1)", "R1"),
    (Draw("sun"), "one draw a turn: now build or claim (W4)", "W4"),
    (Pass(), "no passing while a move is possible (W5)", "W5"),
])
def test_illegal_actions(move, message, rule):
    g = new()
    g.push(Draw("eagle"))
    err = illegal(g, move)
    assert (str(err), err.rule) == (message, rule)
    assert err.reason == message.rsplit(" (", 1)[0]
    assert g.phase == "action" and len(g.history) == 1  # the state stays


def test_build_or_claim_on_a_claimed_village_is_refused():
    g = new()
    build_all(g, [("sun", 1)])
    turn(g, "sun", Claim(1))
    g.push(Draw("chief"))
    assert str(illegal(g, Build("chief", 1))) == "village 1 is already claimed (W4)"
    assert str(illegal(g, Claim(1))) == "village 1 is already claimed (W4)"


def test_wrong_player_is_named():
    g = new()
    with pytest.raises(IllegalMove, match=r"^it is Ana's turn \(W4\)$"):
        g.check_turn(1)
    g.check_turn(0)


# --- claims open the next tile (W4 B), headdresses (W6) ---------------------------------

def test_each_claim_opens_the_next_tile_in_row_order():
    g = new()
    assert [g.is_open(v) for v in range(1, 7)] == [True] * 3 + [False] * 3
    build_all(g, [("sun", 3)])
    turn(g, "sun", Claim(3))  # claiming the third tile still opens tile 4, the next in line
    assert [g.is_open(v) for v in range(1, 7)] == [True] * 4 + [False] * 2
    assert g.owners == (None, None, 1, None, None, None)
    assert g.headdresses == (3, 2)


def test_claim_without_headdress_is_refused_and_the_player_keeps_building():
    g = new()
    build_all(g, [("sun", 1), ("sun", 2)])
    turn(g, "sun", Claim(1))
    build_all(g, [("sun", 3)])
    turn(g, "sun", Claim(2))
    build_all(g, [("teepee", 3)])
    turn(g, "teepee", Claim(3))
    build_all(g, [("skin", 4)])
    g.push(Draw("skin"))
    assert g.headdresses == (0, 3) and g.third_headdress_order == (0,)
    assert str(illegal(g, Claim(4))) == "Ana has no headdress left (W6)"
    assert all(isinstance(m, Build) for m in g.legal_moves())  # W6: still draws and builds


# --- R1 empty claims and R3 forced pass -----------------------------------------------

def fill_first_pole(game):
    """21 turns, every piece drawn and built on village 1: bag and hands empty, Ben to move."""
    build_all(game, [(piece, 1) for piece in ALL_PIECES])
    assert sum(game.bag.values()) == 0 and game.to_move == 1 and game.phase == "action"


def test_r1_when_stuck_allows_empty_claims_once_bag_and_hands_are_empty():
    g = new()
    fill_first_pole(g)
    assert g.legal_moves() == [Claim(1), Claim(2), Claim(3)]
    assert str(illegal(g, Draw("sun"))) == "the bag is empty: build or claim without drawing (W4)"
    g.push(Claim(2))
    assert g.owners[1] == 1 and g.poles[1] == ()


def test_r1_never_forbids_empty_claims_and_r6_ends_when_both_pass():
    g = new(empty_claim="never")
    fill_first_pole(g)
    assert g.legal_moves() == [Claim(1)]
    assert str(illegal(g, Claim(2))) == "the pole is empty: a claim needs a piece (R1)"
    g.push(Claim(1))
    assert g.legal_moves() == [Pass()]  # R3: Ana has headdresses but only empty poles
    g.push(Pass())
    assert g.phase == "action" and g.legal_moves() == [Pass()]
    g.push(Pass())
    assert g.phase == "over" and g.to_move is None and g.legal_moves() == []
    out = g.outcome()
    assert out.winners == (1,)  # teepee village: 2 x 5 teepees - 6 suns = 4 against 0
    assert (out.termination, out.rule) == (Termination.BOTH_PASSED, "W9")
    assert outcome_reason(g) == "higher total (W9); the game ended early: both players passed (R6)"
    assert str(illegal(g, Pass())) == "the game is over (W6)"


def test_r1_always_allows_empty_claims_at_any_time():
    g = new(empty_claim="always")
    g.push(Draw("sun"))
    assert Claim(2) in g.legal_moves()
    g.push(Claim(2))
    assert g.owners[1] == 0


def test_r3_forced_pass_with_a_headdress_but_only_empty_poles():
    """Ben claims 1-3 while holding pieces; Ana built everything and faces empty poles 4-6."""
    g = new()
    pieces = iter(ALL_PIECES)
    for _ in range(8):  # turns 1-16 on village 1 and 2
        build_all(g, [(next(pieces), 1), (next(pieces), 2)])
    build_all(g, [(next(pieces), 3)])          # turn 17, Ana
    turn(g, next(pieces), Claim(1))            # turn 18, Ben keeps his piece
    build_all(g, [(next(pieces), 3)])          # 19
    turn(g, next(pieces), Claim(2))            # 20
    build_all(g, [(next(pieces), 3)])          # 21: the bag is now empty
    assert sum(g.bag.values()) == 0 and g.phase == "action"
    g.push(Claim(3))                           # 22: Ben, no draw
    assert sum(g.hands[0].values()) == 0 and sum(g.hands[1].values()) == 2
    assert g.headdresses == (3, 0) and g.poles[3:] == ((), (), ())
    assert g.legal_moves() == [Pass()]
    g.push(Pass())
    assert g.to_move == 1 and g.phase == "action"


# --- hidden variant (W10) ---------------------------------------------------------------

def test_hidden_variant_reveals_each_tile_as_it_becomes_available():
    g = new(["teepee", "eagle", "chief", None, None, None], variant="hidden")
    assert g.villages == ("teepee", "eagle", "chief", None, None, None)
    build_all(g, [("sun", 1)])
    turn(g, "sun", Claim(1))
    assert (g.phase, g.to_move) == ("reveal", 0)
    assert g.legal_moves() == [Reveal(n) for n in ("tomahawk", "skin", "variety", "height", "sun")]
    assert str(illegal(g, Draw("sun"))) == "village 4 must be turned up first (W10)"
    assert str(illegal(g, Reveal("eagle"))) == "the eagle tile is already in the row (W10)"
    assert str(illegal(g, Reveal("bison"))) == "unknown village 'bison' (W1)"
    with pytest.raises(IllegalMove, match="turned up first"):
        g.check_turn(0)
    g.push(Reveal("height"))
    assert g.villages[3] == "height" and (g.phase, g.to_move) == ("draw", 0)
    assert g.history[-1] == (None, Reveal("height"))
    assert g.pop() == Reveal("height")
    assert g.villages[3] is None and g.phase == "reveal"


def test_hidden_tiles_named_in_the_setup_need_no_reveal():
    g = new(["teepee", "eagle", "chief", "sun", None, None], variant="hidden")
    build_all(g, [("sun", 1)])
    turn(g, "sun", Claim(1))
    assert g.phase == "draw" and g.villages[3] == "sun"


@pytest.mark.parametrize("row, settings, message", [
    (["teepee", "eagle", "chief", None, None, None], {}, "village 4 is missing"),
    ([None, "eagle", "chief", "sun", None, None], {"variant": "hidden"}, "village 1 is missing"),
    (["teepee", "teepee", "chief", "sun", "skin", "height"], {}, "appears twice"),
    (["teepee", "bison", "chief", "sun", "skin", "height"], {}, "unknown village 'bison'"),
    (ROW[:5], {}, "the 6 tiles"),
    (ROW, {"first": 2}, "first must be player 0 or 1"),
    (ROW, {"variant": "secret"}, "variant must be"),
    (ROW, {"empty_claim": "sometimes"}, "empty_claim must be"),
    (ROW, {"open_hands": "yes"}, "open_hands must be"),
    (ROW, {"players": ("Ana",)}, "two non-empty names"),
    (ROW, {"players": ("Ana", " ")}, "two non-empty names"),
])
def test_bad_setups_are_refused_with_one_line(row, settings, message):
    settings.setdefault("players", ("Ana", "Ben"))
    with pytest.raises(SetupError, match=message):
        Wakanda(row, **settings)


# --- scoring (W7, W8, R4, R5, R7) and the end (W6, W9, R6) ----------------------------

def test_sun_penalty_applies_without_the_sun_village_even_when_it_is_not_in_play():
    g = new(["teepee", "eagle", "chief", "variety", "height", "tomahawk"])
    build_all(g, [("sun", 1), ("sun", 1), ("teepee", 1)])
    turn(g, "sun", Claim(1))  # Ben claims the teepee pole and keeps the sun he drew
    assert g.hands[1]["sun"] == 1
    s = g.score(1)
    # W8: the two suns on his pole cost a point each; R7: the one in his hand costs nothing.
    assert (s.villages, s.sun_penalty, s.total) == ({"teepee": 2}, -2, 0)
    assert g.score(0) == ScoreBreakdown(0, {}, 0, 0)


def test_the_sun_village_owner_pays_no_penalty_and_scores_a_point_a_sun():
    g = new(["sun", "eagle", "chief", "variety", "height", "tomahawk"])
    build_all(g, [("sun", 1), ("sun", 1)])
    turn(g, "teepee", Claim(1))
    assert g.score(0) == ScoreBreakdown(0, {"sun": 2}, 0, 2)
    assert g.score(1) == ScoreBreakdown(1, {}, 0, 0)


def test_variety_and_height_count_over_all_the_owners_poles():
    g = new(["variety", "height", "chief", "eagle", "skin", "teepee"])
    build_all(g, [("skin", 1), ("teepee", 1), ("skin", 2), ("skin", 2), ("chief", 2)])
    g.push(Draw("teepee")); g.push(Claim(1))   # Ben owns variety
    g.push(Draw("teepee")); g.push(Build("teepee", 3))
    g.push(Draw("teepee")); g.push(Claim(2))   # Ben owns height
    s = g.score(1)
    # R4: types over both poles {skin, teepee, chief} = 3 → 6; R5: tallest pole 3 → 6.
    assert s.villages == {"variety": 6, "height": 6} and s.total == 12


def test_tie_broken_by_the_first_third_headdress():
    """28 all; Ben places his third headdress first and wins (W9)."""
    row = ["teepee", "skin", "sun", "tomahawk", "chief", "eagle"]
    poles = {1: ["teepee"] * 4 + ["eagle"] + ["tomahawk"] * 3,
             2: ["skin"] * 4 + ["chief"] * 2 + ["teepee"], 3: ["sun"] * 6}
    g = new(row)
    build_all(g, [(piece, v) for v, pole in poles.items() for piece in pole])
    assert g.to_move == 1
    for village in (2, 1, 3, 4, 5):          # R1: empty 4 and 5 may be claimed now
        g.push(Claim(village))
    assert g.outcome() is None and g.third_headdress_order == (1,)
    g.push(Claim(6))
    assert g.phase == "over" and g.owners == (0, 1, 1, 0, 1, 0)
    assert (g.score(0).total, g.score(1).total) == (28, 28)
    assert g.score(0).villages == {"teepee": 8, "tomahawk": 12, "eagle": 8}
    assert g.score(1).villages == {"skin": 12, "sun": 6, "chief": 10}
    assert g.outcome().winners == (1,)
    assert (g.outcome().termination, g.outcome().rule) == (Termination.ALL_CLAIMED, "W9")
    assert outcome_reason(g) == "tie broken by the third headdress (W9)"
    assert result_line(g) == "Ben wins 28 to 28: tie broken by the third headdress (W9)"


def test_r6_early_end_tie_is_shared_when_nobody_placed_a_third_headdress():
    """8 all under never: teepee 10 - 2 suns against skin 12 - 4 suns."""
    row = ["teepee", "skin", "chief", "eagle", "variety", "height"]
    poles = {1: ["teepee"] * 5 + ["sun"] * 2 + ["eagle"] + ["chief"] * 2 + ["tomahawk"] * 3,
             2: ["skin"] * 4 + ["sun"] * 4}
    g = new(row, empty_claim="never")
    build_all(g, [(piece, v) for v, pole in poles.items() for piece in pole])
    g.push(Claim(2)); g.push(Claim(1)); g.push(Pass()); g.push(Pass())
    assert (g.score(0).total, g.score(1).total) == (8, 8)
    assert g.outcome().winners == (0, 1) and g.outcome().winner is None
    assert (g.outcome().termination, g.outcome().rule) == (Termination.BOTH_PASSED, "R6")
    assert outcome_reason(g) == "shared: equal totals and no third headdress placed (R6)"
    assert result_line(g) == "Shared win 8 to 8"


# --- undo and copy ------------------------------------------------------------------------

def test_pop_takes_back_moves_and_the_draw_returns_to_the_bag():
    g = new()
    build_all(g, [("eagle", 2)])
    assert g.pop() == Build("eagle", 2)
    assert g.hands[0]["eagle"] == 1 and g.phase == "action"
    assert g.pop() == Draw("eagle")
    assert g.bag["eagle"] == 1 and g.phase == "draw" and g.history == ()
    err = illegal_pop(g)
    assert (str(err), err.refusal) == ("nothing to undo", Refusal("nothing_to_undo", domain="wakanda"))


def illegal_pop(game):
    with pytest.raises(IllegalMove) as info:
        game.pop()
    return info.value


def test_copy_is_independent():
    g = new()
    build_all(g, [("eagle", 2)])
    c = g.copy()
    c.push(Draw("sun")); c.push(Claim(2))
    assert g.owners[1] is None and len(g.history) == 2 and g.bag["sun"] == 6
    assert c.owners[1] == 1
