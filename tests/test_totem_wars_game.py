"""The game as the companion follows it: deal counts, rounds, raises, answers, all-in, refills,
T14, rounds nobody wins (T12, R4), the end (T2–T15), refusals with their rule, and unlimited
undo."""

from pathlib import Path

import pytest

from companion.engine import Refusal, Termination
from companion.games.totem_wars import (
    ChooseTotems,
    Count,
    IllegalMove,
    Play,
    SetupError,
    TotemsDue,
    TotemWars,
    default_deck,
    format_score,
    read_record,
    refill_order,
    result_line,
)
from companion.games.totem_wars.round_screens import outcome_line

C = default_deck().card
DATA = Path(__file__).parent / "data"


def play(game, *names):
    game.push(Play(tuple(C(n) for n in names)))


def new_game(players, totems, dealer=0):
    game = TotemWars(players, dealer)
    game.push(ChooseTotems(tuple(C(n) for n in totems)))
    return game


def unseen_of(game, tribe, n):
    """``n`` cards of ``tribe`` the companion has not seen (in hands or the deck)."""
    picked = sorted(c.name for c in game.unseen if c.tribe == tribe)[:n]
    assert len(picked) == n
    return picked


def test_dealing_by_counts_t2_t3():
    game = TotemWars(["Ana", "Ben", "Cleo", "Dan"], dealer=2)
    assert (game.phase, game.hand_sizes, game.deck_count, game.to_move) == ("totems", (5, 5, 5, 5), 32, None)
    assert game.totems == (None,) * 4 and game.legal_counts() == []
    assert game.legal_moves() == [TotemsDue(4)]  # one totems line, a card per player (T2)
    game.push(ChooseTotems(tuple(C(n) for n in ("indians/snake", "africans/lion", "eskimos/seal", "aborigines/emu"))))
    assert game.hand_sizes == (5, 5, 5, 5) and game.deck_count == 28 and len(game.unseen) == 48
    assert game.to_move == 3 and game.round_starter == 3  # left of the dealer (T3)
    assert game.legal_counts() == [1, 2, 3, 4, 5]
    assert game.legal_moves() == [Count(n) for n in (1, 2, 3, 4, 5)]


@pytest.mark.parametrize("players", [["Ana"], ["A", "B", "C", "D", "E"]])
def test_two_to_four_players_t1(players):
    with pytest.raises(SetupError, match=r"2 to 4 players.*\(T1\)"):
        TotemWars(players)


def test_totems_line_is_checked_t2():
    game = TotemWars(["Ana", "Ben"])
    with pytest.raises(IllegalMove, match=r"every player lays a totem before the first round \(T2\)"):
        play(game, "indians/snake")
    with pytest.raises(IllegalMove, match=r"one totem per player: 2 cards, not 1 \(T2\)"):
        game.push(ChooseTotems((C("indians/snake"),)))
    with pytest.raises(IllegalMove, match=r"indians/snake is named twice \(T2\)"):
        game.push(ChooseTotems((C("indians/snake"), C("indians/snake"))))
    game.push(ChooseTotems((C("indians/snake"), C("africans/lion"))))
    with pytest.raises(IllegalMove, match=r"the totems are already down \(T2\)"):
        game.push(ChooseTotems((C("indians/bear"), C("africans/zebra"))))


def test_raise_and_answers_t4_t5_t6():
    game = new_game(["Ana", "Ben", "Cleo"], ["indians/snake", "africans/lion", "eskimos/seal"])
    assert game.to_move == 1
    play(game, "aborigines/emu", "aborigines/dingo")                 # Ben sets L = 2 (T4)
    assert game.level == 2 and game.to_move == 2 and game.legal_counts() == [2, 3, 4, 5]
    with pytest.raises(IllegalMove) as exc:
        play(game, "indians/bear")
    assert exc.value.rule == "T5" and str(exc.value) == "place at least 2 cards, the level of this round (T5)"
    play(game, "africans/zebra", "africans/giraffe", "africans/hippo")  # Cleo raises to 3 (T5)
    assert game.level == 3 and game.to_move == 0 and game.legal_counts() == [3, 4, 5]
    play(game, "eskimos/fox", "eskimos/hare", "eskimos/whale")
    assert game.to_move == 1 and game.legal_counts() == [1]           # Ben answers L − 2 (T6)
    with pytest.raises(IllegalMove, match=r"Ben answers with exactly 1 card \(T6\)"):
        play(game, "aborigines/koala", "aborigines/goanna")
    assert game.rounds == ()
    play(game, "aborigines/koala")                                    # the round resolves
    result = game.last_round
    assert [len(t) for t in result.placed] == [3, 3, 3] and game.rounds == (result,)
    assert result.points == (3, 3, 3) and result.war and result.warring == (0, 1, 2)
    assert game.table == ((), (), ()) and game.level == 0


def test_cards_that_cannot_be_in_a_hand_are_refused():
    game = new_game(["Ana", "Ben"], ["indians/snake", "africans/lion"])
    with pytest.raises(IllegalMove, match=r"indians/snake is a totem; it stays on the table all game \(T2\)"):
        play(game, "indians/snake")
    play(game, "indians/bear")                     # Ben sets L = 1
    with pytest.raises(IllegalMove, match=r"indians/bear is already on the table \(T4\)"):
        play(game, "indians/bear")
    with pytest.raises(IllegalMove, match=r"Ana holds only 5 cards \(T5\)"):
        play(game, *unseen_of(game, "eskimos", 6))
    with pytest.raises(IllegalMove, match=r"no cards named"):
        game.push(Play(()))
    play(game, "indians/wolf", "indians/deer")     # Ana raises to 2: her totem column scores 5
    play(game, "indians/coyote")                   # Ben answers 1 (T6): his column scores 2
    assert game.last_round.taker == 0
    with pytest.raises(IllegalMove, match=r"indians/bear is among the taken cards \(T9\)"):
        play(game, "indians/bear")


def test_points_outcome_and_taken_piles():
    game = new_game(["Ana", "Ben"], ["indians/snake", "africans/lion"], dealer=1)
    play(game, "indians/wolf", "indians/bear")   # Ana (left of dealer 1) : totem column 5
    play(game, "africans/zebra", "eskimos/seal")  # Ben: 3
    result = game.last_round
    assert result.points == (5, 3) and result.taker == 0 and not result.war
    assert result.destination == "taken"
    assert set(result.cards) == {C(n) for n in ("indians/wolf", "indians/bear", "africans/zebra", "eskimos/seal")}
    assert result.refill == ((0, 2), (1, 2)) and result.next_starter == 0
    assert game.taken_by_tribe(0) == {"aborigines": 0, "africans": 1, "eskimos": 1, "indians": 2}
    assert game.points(0) == 3 and game.points(1) == 1 and game.outcome() is None
    assert game.deck_count == 52 - 10 - 2 - 4 and game.hand_sizes == (5, 5)


def test_refill_order_follows_the_rulebook_example():
    assert refill_order([0, 0, 0], 4, first=1) == ((1, 2), (2, 1), (0, 1))
    assert refill_order([5, 3, 4], 10, first=0) == ((1, 2), (2, 1))
    assert refill_order([5, 5], 3, first=0) == ()


def filler(game, p, winner, n=5):
    """``n`` unseen cards that cannot make player ``p`` win: none of p's totem tribe (so at
    most 8 points) and none of the round winner's tribe, from the most plentiful tribes."""
    names = []
    for _ in range(n):
        avoid = {game.totems[p].tribe, game.totems[winner].tribe}
        pool = [c for c in game.unseen if c.tribe not in avoid and c.name not in names]
        left = {t: sum(c.tribe == t for c in pool) for t in {c.tribe for c in pool}}
        names.append(min(pool, key=lambda c: (-left[c.tribe], c)).name)
    return names


def three_rounds_of_five():
    """Three players, three rounds of 5 cards each, won by Ben, Cleo, then Ana."""
    game = new_game(["Ana", "Ben", "Cleo"], ["indians/snake", "africans/lion", "eskimos/seal"])
    for winner in (1, 2, 0):  # each round one player lays five of their totem's tribe: 11 points
        for _ in range(3):
            p = game.to_move
            if p == winner:
                play(game, *unseen_of(game, game.totems[p].tribe, 5))
            else:
                play(game, *filler(game, p, winner))
        assert game.last_round.taker == winner
    return game


def test_the_last_four_cards_go_2_1_1_from_the_taker_t13():
    game = three_rounds_of_five()
    assert game.deck_count == 0 and game.last_round.refill == ((0, 2), (1, 1), (2, 1))
    assert game.hand_sizes == (2, 1, 1) and game.round_starter == 0


def test_all_in_when_a_hand_holds_fewer_than_the_level_t5():
    game = three_rounds_of_five()
    left = sorted(c.name for c in game.unseen)
    play(game, *left[:2])
    assert game.level == 2 and game.to_move == 1 and game.legal_counts() == [1]
    with pytest.raises(IllegalMove, match=r"Ben holds only 1 card \(T5\)"):
        play(game, *left[2:])
    play(game, left[2])
    assert game.legal_counts() == [1]
    play(game, left[3])
    assert len(game.rounds) == 4 and [len(t) for t in game.last_round.placed] == [2, 1, 1]


def test_t14_the_last_player_with_cards_places_all_and_takes_them_then_t15_ends():
    game = three_rounds_of_five()
    mine = unseen_of(game, "indians", 2)
    others = sorted(c.name for c in game.unseen if c.name not in mine)
    play(game, mine[0])                  # Ana sets L = 1; her totem column scores 3
    play(game, others[0])
    play(game, others[1])
    assert game.last_round.taker == 0 and game.hand_sizes == (1, 0, 0)
    assert game.phase == "play" and game.to_move == 0 and game.legal_counts() == [1]
    play(game, mine[1])
    result = game.last_round
    assert result.last_player and result.taker == 0 and result.cards == (C(mine[1]),)
    assert result.placed == ((C(mine[1]),), (), ()) and result.points[1:] == (None, None)
    assert game.phase == "over" and game.to_move is None and game.legal_counts() == []
    assert game.unseen == frozenset() and game.deck_count == 0 and result.next_starter is None
    outcome = game.outcome()
    points = game.all_points()
    assert points == tuple(1 + game.taken_by_tribe(p)[game.totems[p].tribe] for p in range(3))
    top = max(points)
    assert outcome.winners == tuple(p for p in range(3) if points[p] == top)
    assert (outcome.termination, outcome.rule) == (Termination.DECK_EXHAUSTED, "T15")
    assert result_line(game).endswith(f"with {top} point{'s' * (top != 1)} (T15)")
    assert game.legal_moves() == []
    with pytest.raises(IllegalMove, match=r"the game is over \(T15\)"):
        play(game, "indians/bear")


def test_t12_four_rounds_in_a_row_without_a_winner_remove_nothing_while_the_deck_holds_cards():
    # Two land totems; each round both lay one card of another tribe and habitat: 0 points, a
    # war of 0, the same totem habitat, nobody wins (T10, T11). Every time the two cards go
    # under the deck and are dealt again (T12, T13): R4 does not apply, the deck not empty.
    game, warnings = read_record((DATA / "totem_wars_four_no_winner.jsonl").read_text())
    assert warnings == [] and len(game.rounds) == 4
    for result in game.rounds:
        assert result.taker is None and result.war and result.habitats == ("land", "land")
        assert (result.destination, result.rule) == ("under the deck", "T12")
        assert result.refill == ((0, 1), (1, 1)) and result.next_starter == 0
        assert set(result.cards) <= game.unseen
    assert game.removed == () and game.deck_count == 52 - 10 - 2 and game.hand_sizes == (5, 5)
    assert format_score(game).count("Nobody wins: 2 cards go under the deck (T12).") == 4


def four_rounds_that_empty_the_deck():
    """Two land totems; four rounds of five cards each, won in turn by Ben, Ana, Ben, Ana with
    five cards of their totem's tribe: the deck is empty and each hand holds 5."""
    game = new_game(["Ana", "Ben"], ["indians/bear", "africans/lion"])
    for winner in (1, 0, 1, 0):
        for _ in range(2):
            p = game.to_move
            tribe = game.totems[p].tribe
            play(game, *(unseen_of(game, tribe, 5) if p == winner else filler(game, p, winner)))
        assert game.last_round.taker == winner
    assert game.deck_count == 0 and game.hand_sizes == (5, 5)
    return game


def test_r4_the_cards_of_a_round_begun_with_the_deck_empty_leave_the_game_when_nobody_wins():
    game = four_rounds_that_empty_the_deck()
    quiet = sorted(c.name for c in game.unseen if "land" not in c.habitats
                   and c.tribe not in ("indians", "africans"))[:2]  # 0 points, no land for the war
    play(game, quiet[0])
    play(game, quiet[1])
    result = game.last_round
    assert result.taker is None and result.habitats == ("land", "land")
    assert (result.destination, result.rule) == ("removed", "R4") and result.refill == ()
    assert game.removed == tuple(C(n) for n in quiet) and game.hand_sizes == (4, 4)
    assert "Nobody wins and the round began with the deck empty: 2 cards leave the game (R4)." in format_score(game)
    assert outcome_line(game, result) == "No winner, deck empty: 2 cards leave (R4)"  # the box's words
    with pytest.raises(IllegalMove, match=rf"{quiet[0]} left the game \(R4\)"):
        play(game, quiet[0])


def test_undo_takes_back_moves_and_resolved_rounds_exactly():
    game = new_game(["Ana", "Ben"], ["indians/snake", "africans/lion"])
    before = (game.hand_sizes, game.deck_count, game.unseen, game.table, game.rounds, game.to_move)
    play(game, "indians/wolf", "indians/bear")
    play(game, "africans/zebra", "eskimos/seal")
    assert len(game.rounds) == 1
    assert game.pop() == Play((C("africans/zebra"), C("eskimos/seal")))
    assert game.rounds == () and game.table[1] == (C("indians/wolf"), C("indians/bear"))
    game.pop()
    assert (game.hand_sizes, game.deck_count, game.unseen, game.table, game.rounds, game.to_move) == before
    game.pop()
    assert game.phase == "totems" and game.history == ()
    with pytest.raises(IllegalMove) as exc:
        game.pop()
    assert (str(exc.value), exc.value.refusal) == ("nothing to undo", Refusal("nothing_to_undo", domain="totem_wars"))
