"""War (T10–T12, R2, R3): only the tied fight, by habitat — a two-habitat totem in the one
its owner declares —; then totem habitats decide."""

from pathlib import Path

import pytest

from companion.games.totem_wars import (
    ChooseTotems,
    Declare,
    IllegalMove,
    Play,
    TotemWars,
    default_deck,
    habitat_winner,
    read_record,
)

C = default_deck().card
#: The rulebook check's example: Ana's crocodile (water, land) and Ben's eagle (air) fight a
#: war of 0 against 0; the totems' habitats decide it (T11), so Ana declares (R2).
EXAMPLE = (Path(__file__).parent / "data" / "totem_wars_r2_example.jsonl").read_text()


def round_of(totems, *placements, dealer=None):
    """A game whose first round is played: ``placements`` in turn order from the starter."""
    n = len(totems)
    game = TotemWars(["Ana", "Ben", "Cleo", "Dan"][:n], dealer=n - 1 if dealer is None else dealer)
    game.push(ChooseTotems(tuple(C(t) for t in totems)))
    for names in placements:
        game.push(Play(tuple(C(x) for x in names)))
    return game, game.last_round


def test_two_players_war_won_on_war_points():
    # Both 2 by tribe; by habitat Ana's air column (eagle, owl, raven) makes 5, Ben's nothing.
    game, r = round_of(["indians/eagle", "africans/lion"],
                       ["eskimos/owl", "eskimos/raven"], ["aborigines/shark", "aborigines/cockatoo"])
    assert r.points == (2, 2) and r.war and r.warring == (0, 1)
    assert r.war_points == (5, 0) and r.taker == 0 and r.habitats == (None, None)
    assert r.rule == "T11"                      # the highest war score takes the cards
    assert str(r.war_groupings[0]) == "air: indians/eagle* eskimos/owl eskimos/raven"
    assert len(game.taken[0]) == 4


def test_two_players_tied_war_water_beats_land_t11():
    game, r = round_of(["eskimos/seal", "indians/bear"],
                       ["aborigines/emu", "aborigines/dingo"], ["africans/vulture", "africans/eagle"])
    assert r.war_points == (2, 2) and r.habitats == ("water", "land") and r.taker == 0
    assert r.rule == "T11"


def test_the_others_cards_stay_for_the_war_winner_t10():
    # Cleo scores less and does not fight, but her cards go to the war's winner.
    game, r = round_of(["eskimos/seal", "indians/bear", "africans/lion"],
                       ["aborigines/emu", "aborigines/dingo"], ["africans/vulture", "africans/eagle"],
                       ["indians/hawk", "eskimos/fox"])
    assert r.points == (2, 2, 0) and r.warring == (0, 1) and r.war_groupings[2] is None
    assert r.taker == 0 and set(game.taken[0]) == set(r.cards) and len(r.cards) == 6


def test_three_players_all_three_habitats_nobody_wins_and_cards_go_under_the_deck_t12():
    game, r = round_of(["eskimos/seal", "indians/bear", "africans/vulture"],
                       ["aborigines/emu", "aborigines/dingo"], ["eskimos/whale", "eskimos/orca"],
                       ["aborigines/koala", "aborigines/goanna"])
    assert r.war_points == (2, 2, 2) and r.habitats == ("water", "land", "air")
    assert r.taker is None and r.destination == "under the deck" and r.rule == "T12"
    assert set(r.cards) <= game.unseen and game.taken == ((), (), ())
    assert game.deck_count == 52 - 15 - 3 and r.refill == ((0, 2), (1, 2), (2, 2))
    assert r.next_starter == 0 and game.round_starter == 0  # the same starter again (T13)


def test_four_players_r3_the_only_unbeaten_habitat_wins():
    game, r = round_of(["eskimos/seal", "indians/bear", "africans/lion", "aborigines/kangaroo"],
                       ["aborigines/emu", "aborigines/dingo"], ["eskimos/whale", "eskimos/orca"],
                       ["eskimos/narwhal", "eskimos/salmon"], ["indians/eagle", "indians/hawk"])
    assert r.warring == (0, 1, 2, 3) and r.habitats == ("water", "land", "land", "land")
    assert r.taker == 0 and len(game.taken[0]) == 8 and r.rule == "R3"


def test_r2_no_declaration_when_the_habitat_cannot_change_who_takes():
    # Ana's platypus (water, land): land gives 5 war points, water 2. Ben's seal column makes
    # 5: with land the tie goes to Ben's water (T11), with water Ben has more. Ben takes either
    # way, so the box does not ask; the war shows the habitat best for Ana, land.
    game, r = round_of(["aborigines/platypus", "eskimos/seal"],
                       ["eskimos/caribou", "eskimos/fox"], ["indians/salmon", "indians/beaver"])
    assert r.points == (2, 2) and r.war_points == (5, 5) and r.declared == (None, None)
    assert r.war_groupings[0].totem_column.key == "land" and r.habitats == ("land", "water")
    assert r.taker == 1 and [type(move) for _, move in game.history] == [ChooseTotems, Play, Play]


def test_r2_the_rulebook_example_waits_for_ana_who_is_offered_land_first_and_takes_the_cards():
    game, warnings = read_record(EXAMPLE)
    assert warnings == [] and game.rounds == ()
    assert (game.phase, game.to_move, game.legal_counts()) == ("declare", 0, [])
    assert game.legal_moves() == [Declare("land"), Declare("water")]  # land beats Ben's air
    with pytest.raises(IllegalMove, match=r"^Ana declares the totem's habitat first \(R2\)$"):
        game.push(Play((C("indians/wolf"),)))
    game.push(game.legal_moves()[0])                                 # OK on the offered habitat
    r = game.last_round
    assert r.declared == ("land", None) and r.habitats == ("land", "air") and r.war_points == (0, 0)
    assert r.taker == 0 and r.rule == "T11" and set(game.taken[0]) == {C("eskimos/whale"), C("aborigines/cockatoo")}
    assert game.history[-1] == (0, Declare("land")) and game.to_move == 0  # Ana starts next (T13)


def test_r2_undo_takes_a_declaration_back_like_a_play():
    game, _ = read_record(EXAMPLE)
    before = (game.phase, game.to_move, game.table, game.hand_sizes, game.deck_count, game.legal_moves())
    game.push(Declare("water"))
    assert game.last_round.taker == 1                                # water loses to air (T11)
    assert game.pop() == Declare("water") and game.rounds == ()
    assert (game.phase, game.to_move, game.table, game.hand_sizes, game.deck_count, game.legal_moves()) == before
    game.pop()                                                       # Ana's play: no war yet
    assert game.phase == "play" and game.to_move == 0 and game.declaration_due is None


def test_r2_owners_declare_in_seat_order_from_the_starter_each_seeing_the_last():
    # Ben (the starter) and Ana both hold a water/land totem and fight a war of 0 against 0:
    # the habitats decide (T11). Ben is asked first, water offered first (it beats Ana's land);
    # then Ana, who can only tie with water or lose with land.
    game, r = round_of(["africans/crocodile", "aborigines/platypus"],
                       ["eskimos/owl"], ["indians/hawk"], dealer=0)
    assert r is None and game.to_move == 1 and game.legal_moves() == [Declare("water"), Declare("land")]
    game.push(Declare("water"))
    assert game.to_move == 0 and game.legal_moves() == [Declare("water"), Declare("land")]
    game.push(Declare("water"))
    r = game.last_round
    assert r.declared == ("water", "water") and r.habitats == ("water", "water")
    assert r.taker is None and r.destination == "under the deck" and r.rule == "T12"


def test_r2_on_equal_war_points_the_habitat_that_beats_the_most_tied_totems_comes_first():
    # Three wars of 0 (T10). Ana's land beats Ben's air (T11): with Cleo's water nobody wins
    # (R3); her water beats nobody's and lets Ben's air win. Land is offered first.
    game, _ = round_of(["africans/crocodile", "indians/eagle", "eskimos/seal"],
                       ["aborigines/cockatoo"], ["eskimos/whale"], ["aborigines/kangaroo"])
    assert game.to_move == 0 and game.legal_moves() == [Declare("land"), Declare("water")]
    game.push(Declare("land"))
    assert game.last_round.habitats == ("land", "air", "water") and game.last_round.taker is None


def test_r2_declarations_are_refused_when_none_is_due_or_the_totem_has_not_that_habitat():
    game, _ = read_record(EXAMPLE)
    with pytest.raises(IllegalMove, match=r"^Ana's totem has no habitat air \(R2\)$"):
        game.push(Declare("air"))
    with pytest.raises(IllegalMove, match=r"^'lava' is not a habitat: water, land or air \(T1\)$"):
        game.push(Declare("lava"))
    game.push(Declare("land"))
    with pytest.raises(IllegalMove, match=r"^no habitat declaration is due \(R2\)$") as exc:
        game.push(Declare("land"))
    assert exc.value.refusal.key == "no_declaration"
    with pytest.raises(IllegalMove, match=r"no habitat declaration is due \(R2\)"):
        game.declare_by_points()


@pytest.mark.parametrize("habitats, winner", [
    ({0: "water", 1: "land"}, 0), ({0: "land", 1: "air"}, 0), ({0: "water", 1: "air"}, 1),
    ({0: "land", 1: "land"}, None),
    ({0: "water", 1: "land", 2: "air"}, None),
    ({0: "water", 1: "water", 2: "land"}, None),
    ({0: "air", 2: "water", 3: "water"}, 0),
    ({0: "water", 1: "land", 2: "land", 3: "land"}, 0),
    ({0: "water", 1: "water", 2: "land", 3: "land"}, None),
    ({0: "air", 1: "land", 2: "water", 3: "air"}, None),
])
def test_habitat_winner_t11_r3(habitats, winner):
    assert habitat_winner(habitats) == winner
