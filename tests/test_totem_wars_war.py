"""War (T10–T12, R2, R3): only the tied fight, by habitat; then totem habitats decide."""

import pytest

from companion.games.totem_wars import ChooseTotems, Play, TotemWars, default_deck, habitat_winner

C = default_deck().card


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


def test_r2_the_declared_habitat_of_a_two_habitat_totem_is_compared():
    # Ana's platypus (water, land) declares land: 5 war points against 2 with water. Ben's
    # seal column makes 5 too; water beats the declared land, so Ben takes.
    game, r = round_of(["aborigines/platypus", "eskimos/seal"],
                       ["eskimos/caribou", "eskimos/fox"], ["indians/salmon", "indians/beaver"])
    assert r.points == (2, 2) and r.war_points == (5, 5)
    assert r.war_groupings[0].totem_column.key == "land" and r.habitats == ("land", "water")
    assert r.taker == 1


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
