"""Wakanda search: the seat's information set, the compact playout state (kept in step with
the rules engine), the exact endgame, the levels, determinism, and fairness — the answer
never depends on the other hand's contents."""

import random

import pytest
from conftest import play

from companion.engine import IllegalMove
from companion.errors import UserError
from companion.games.wakanda import Build, Claim, Draw, Pass, Reveal, Wakanda, random_setup, sample_draw, search
from companion.games.wakanda.bots import greedy_bot, play_game, random_bot
from companion.games.wakanda.information import PIECE_TYPES, information_set
from companion.games.wakanda.playout import CLAIM, NTYPES, PASS, PIECE_INDEX, TILES, Worlds, to_move_object
from companion.games.wakanda.reasons import reason

ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]


def from_move_object(move):
    """The playout state's action integer of an engine move."""
    if isinstance(move, Build):
        return (move.village - 1) * NTYPES + PIECE_INDEX[move.piece]
    return CLAIM + move.village - 1 if isinstance(move, Claim) else PASS


def engine_state(game, seat):
    """What the playout state mirrors, read from the engine."""
    return (game.owners, game.poles, tuple(tuple(game.hands[p][x] for x in PIECE_TYPES) for p in (0, 1)),
            game.headdresses, game.third_headdress_order, game.to_move)


def sim_state(sim):
    owners = tuple(None if o < 0 else o for o in sim.owners)
    poles = []
    for v in range(6):
        pole = tuple(sorted(PIECE_TYPES[x] for x in range(6) for _ in range(sim.counts[v * 6 + x])))
        poles.append(pole)
    return owners, tuple(poles), tuple(tuple(h) for h in sim.hands), tuple(sim.heads), tuple(sim.third)


@pytest.mark.parametrize("variant", ["open", "hidden"])
@pytest.mark.parametrize("empty_claim", ["when_stuck", "never", "always"])
def test_the_playout_state_plays_by_the_engines_rules(variant, empty_claim):
    """Random games on the compact state and on the engine side by side: the same legal
    moves every turn, the same draws and reveals, the same poles, hands, score and winner."""
    for seed in range(25):
        rng = random.Random(seed)
        game = Wakanda(random_setup(rng, variant), first=seed % 2, variant=variant, empty_claim=empty_claim)
        game.push(sample_draw(game, rng))
        sim = Worlds(information_set(game, game.to_move)).sample(rng)
        while True:
            assert sorted(map(from_move_object, game.legal_moves())) == sorted(sim.actions())
            action = rng.choice(sim.actions())
            hands_before = [h[:] for h in sim.hands]
            tiles_before = sim.tiles[:]
            sim.apply(action)
            game.push(to_move_object(action))
            for v, (before, after) in enumerate(zip(tiles_before, sim.tiles)):
                if before != after:  # W10: the tile that turned up in the playout, on the engine
                    assert game.phase == "reveal" and game.open_count == v + 1
                    game.push(Reveal(TILES[after]))
            if game.phase == "over":
                break
            drawn = [x for x in range(6) if sim.hands[sim.to_move][x] > hands_before[sim.to_move][x]
                     - (action < CLAIM and action % 6 == x and game.to_move != sim.to_move)]
            if game.phase == "draw":
                assert len(drawn) == 1
                game.push(Draw(PIECE_TYPES[drawn[0]]))
            assert game.phase == "action" and game.to_move == sim.to_move
        sim_owners, sim_poles, sim_hands, sim_heads, sim_third = sim_state(sim)
        owners, poles, hands, heads, third, _ = engine_state(game, 0)
        assert sim.over and sim_owners == owners and sim_hands == hands
        assert sim_poles == tuple(tuple(sorted(p)) for p in poles)
        assert sim_heads == heads and sim_third == third
        totals = sim.totals()
        assert totals == (game.score(0).total, game.score(1).total)
        winners = tuple(p for p in (0, 1) if sim.result(p, totals) > 0)
        assert winners == game.outcome().winners


def game_where_ben_holds(piece):
    """Ben drew ``piece`` and claimed village 1 instead of building it: his hand is one
    ``piece`` Ana never saw. Ana has drawn a chief and is to move."""
    return play(f"d:eagle b:eagle:2 d:teepee b:teepee:1 d:skin b:skin:3 d:{piece} c:1 d:chief")


def test_the_information_set_holds_the_other_hands_size_not_its_contents():
    with_chief, with_sun = game_where_ben_holds("chief"), game_where_ben_holds("sun")
    assert with_chief.hands[1] != with_sun.hands[1]
    info = information_set(with_chief, 0)
    assert info == information_set(with_sun, 0)
    assert info.other_hand_size == 1 and info.hand == (0, 1, 0, 0, 0, 0) and info.bag_size == 16
    assert sum(info.unseen) == info.bag_size + info.other_hand_size
    # Ben sees his own hand, so his information sets differ.
    assert information_set(with_chief, 1) != information_set(with_sun, 1)


@pytest.mark.parametrize("level", search.LEVELS)
def test_the_answer_does_not_change_when_only_the_other_hands_contents_change(level):
    # The record holds Ben's chief or sun (and so the bag differs too); Ana's hint is the same.
    answers = {search.suggest(game_where_ben_holds(piece), level=level, seed=5)
               for piece in ("chief", "sun", "tomahawk")}
    assert len(answers) == 1


def test_the_same_seat_information_level_and_seed_give_the_same_answer(midgame):
    first = search.suggest(midgame, level="standard", seed=3)
    assert search.suggest(midgame.copy(), level="standard", seed=3) == first
    assert first.player == 0 and first.move in midgame.legal_moves()
    assert [a.move for a in first.alternatives] == [
        m for m in [a.move for a in first.alternatives] if m in midgame.legal_moves()]
    assert {first.move, *(a.move for a in first.alternatives)} == set(midgame.legal_moves())


def test_every_level_answers_with_a_legal_move_from_its_own_seat(midgame):
    for level in search.LEVELS:
        s = search.suggest(midgame, 0, level=level, seed=1)
        assert s.move in midgame.legal_moves() and 0 <= s.value <= 1 and s.reason


def test_where_the_seat_cannot_move_the_refusal_names_the_rule(wakanda_play, worked_example, midgame):
    with pytest.raises(IllegalMove, match=r"not Ben's turn \(W4\)"):
        search.suggest(midgame, 1)
    with pytest.raises(IllegalMove, match=r"draw first: the bag is not empty \(W4\)"):
        search.suggest(Wakanda(ROW))
    with pytest.raises(IllegalMove, match=r"the game is over \(W6\)"):
        search.suggest(worked_example, 0)
    hidden = wakanda_play("d:eagle b:eagle:1 d:sun c:1", villages=ROW[:3] + [None] * 3, variant="hidden")
    with pytest.raises(IllegalMove, match=r"village 4 must be turned up first \(W10\)"):
        search.suggest(hidden)
    with pytest.raises(UserError, match="unknown level 'hardest'"):
        search.suggest(midgame, level="hardest")
    with pytest.raises(UserError, match=r"a Wakanda hand comes from the record \(R2\)"):
        search.suggest(midgame, hand=["eagle"])
    with pytest.raises(UserError, match="seat must be 0 or 1"):
        search.suggest(midgame, 2)


def test_with_the_bag_empty_the_search_is_exact(worked_example):
    # Two moves before the end of the worked example: the bag is empty, Ben (to move) holds
    # nothing hidden from Ana any more. Every level that searches exactly agrees.
    game = worked_example.copy()
    game.pop()
    game.pop()
    info = information_set(game, game.to_move)
    assert info.bag_size == 0 and Worlds(info).known
    ranked = search.rank(info, "strong", seed=0)
    assert ranked == search.rank(info, "strong", seed=99)      # no chance left: the seed is moot
    assert {value for _, value in ranked} <= {0.0, 0.5, 1.0}
    best = ranked[0][0]
    after = game.copy()
    after.push(best)
    # Whatever Ana answers, Ben's exact value holds.
    values = []
    for reply in after.legal_moves():
        end = after.copy()
        end.push(reply)
        while end.phase != "over":
            end.push(search.suggest(end, level="strong").move)
        values.append(1.0 if end.outcome().winners == (game.to_move,) else 0.0)
    assert min(values) >= ranked[0][1]


def minimax(game, me):
    """(result, margin) for ``me`` with both sides playing perfectly, on the engine itself."""
    if game.phase == "over":
        winners = game.outcome().winners
        result = 0.5 if len(winners) == 2 else float(winners == (me,))
        return result, game.score(me).total - game.score(1 - me).total
    values = []
    for move in game.legal_moves():
        game.push(move)
        values.append(minimax(game, me))
        game.pop()
    return max(values) if game.to_move == me else min(values)


def endgames(count, most_moves_left):
    """Positions of random games where the bag has just emptied and few moves are left."""
    found = []
    for seed in range(500):
        game = play_game(seed, bots=(greedy_bot, random_bot))
        while sum(game.bag.values()) == 0:  # back to the last draw, then draw it again
            game.pop()
        game.push(*game.legal_moves())
        left = sum(game.hands[0].values()) + sum(game.hands[1].values()) + sum(game.headdresses)
        if sum(game.bag.values()) == 0 and left <= most_moves_left:
            found.append(game)
        if len(found) == count:
            return found
    return found


def test_the_exact_endgame_agrees_with_plain_minimax_on_the_engine():
    for game in endgames(12, most_moves_left=7):
        me = game.to_move
        ranked = search.rank(information_set(game, me), "strong", seed=0)
        truth = {}
        for move in game.legal_moves():
            game.push(move)
            truth[move] = minimax(game, me)
            game.pop()
        assert {move: value for move, value in ranked} == {move: r for move, (r, _) in truth.items()}
        assert truth[ranked[0][0]] == max(truth.values())


def test_reasons_say_what_a_move_does(wakanda_play):
    game = wakanda_play("d:eagle b:eagle:2 d:sun b:sun:1 d:teepee")
    info = information_set(game, 0)
    assert reason(info, Claim(2), 0.7) == "claim village 2: locks 8 points for you"
    assert reason(info, Build("teepee", 1), 0.6) == "build teepee on village 1: 2 points more for you when you claim it"
    assert reason(info, Claim(2), 0.7, lang="bg") == "вземи село 2: печелиш 8 точки"
    # Ben's view: the eagle pole is worth 8 to Ana too, so claiming it keeps 8 from her.
    ben = wakanda_play("d:eagle b:eagle:2 d:sun")
    assert reason(information_set(ben, 1), Claim(2), 0.6).startswith("claim village 2: locks 8 points")
    assert reason(info, Pass(), 0.5) == "pass: no move possible (R3)"
    assert reason(info, Build("teepee", 3), 0.0) == "build teepee on village 3: every move loses; this one by the least"
    # Said in game terms, before any percentage: what the build gives away (here, nothing).
    assert reason(info, Build("teepee", 3), 0.41) == "build teepee on village 3: gives Ben nothing to claim"


def test_a_duel_is_a_whole_game_and_the_same_seed_the_same_game():
    a = search.duel(("easy", "standard"), seed=4, first=1)
    b = search.duel(("easy", "standard"), seed=4, first=1)
    assert (a.winners, a.totals, len(a.times[0])) == (b.winners, b.totals, len(b.times[0]))
    assert a.winners and len(a.totals) == 2 and all(t > 0 for t in a.times[0])
    with pytest.raises(UserError, match="unknown level"):
        search.duel(("easy", "nope"), seed=0, first=0)
