"""Best arrangements by tribe (T7, T8, R1) and war groupings by habitat (T10, R2)."""

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.totem_wars import HABITATS, TRIBES, best_arrangement, default_deck, war_grouping
from companion.games.totem_wars.arrangement import column_points

C = default_deck().card


def cards(*names):
    return [C(n) for n in names]


def layout(arrangement):
    return [(col.key, [c.name for c in col.cards]) for col in arrangement.columns]


def test_rulebook_snake_example_other_tribes_snakes_go_over_the_indian_snake():
    # The rulebook: over an Indian SNAKE may go an African SNAKE and/or an Aborigine SNAKE.
    best = best_arrangement(C("indians/eagle"), cards("indians/snake", "africans/snake", "aborigines/snake"))
    assert best.points == 1 + 2 * 3
    assert layout(best) == [("indians", ["indians/eagle", "indians/snake", "aborigines/snake", "africans/snake"])]


def test_snakes_over_a_snake_totem():
    best = best_arrangement(C("indians/snake"), cards("africans/snake", "aborigines/snake"))
    assert best.points == 5 and len(best.columns) == 1


def test_a_card_that_fits_two_columns_goes_where_it_scores_most():
    # indians/snake fits its own column or the African column (with africans/snake):
    # alone in its column it scores 0, so the best is the African column of three.
    best = best_arrangement(C("aborigines/kangaroo"), cards("indians/snake", "africans/snake", "africans/lion"))
    assert best.points == 3
    assert layout(best) == [("aborigines", ["aborigines/kangaroo"]),
                            ("africans", ["africans/lion", "africans/snake", "indians/snake"])]


def test_a_card_without_an_animal_match_stays_in_its_tribe():
    best = best_arrangement(C("indians/bear"), cards("eskimos/wolf", "eskimos/seal"))
    assert best.points == 2
    assert layout(best) == [("indians", ["indians/bear"]), ("eskimos", ["eskimos/seal", "eskimos/wolf"])]


def test_a_guest_may_match_the_totem_itself():
    best = best_arrangement(C("indians/wolf"), cards("eskimos/wolf"))
    assert best.points == 3 and layout(best) == [("indians", ["indians/wolf", "eskimos/wolf"])]


def test_a_one_card_column_scores_0():
    assert best_arrangement(C("indians/bear"), cards("africans/lion", "indians/wolf")).points == 3
    best = best_arrangement(C("indians/bear"), cards("africans/lion", "eskimos/seal"))
    assert best.points == 0 and [col.points for col in best.columns] == [0, 0, 0]


def test_an_uncovered_totem_scores_0_and_is_still_shown_first():
    best = best_arrangement(C("indians/bear"), cards("africans/lion", "africans/zebra"))
    assert best.points == 2
    assert best.totem_column.cards == (C("indians/bear"),) and best.totem_column.points == 0


def test_column_points_follow_t8():
    assert [column_points(n, True) for n in range(1, 5)] == [0, 3, 5, 7]
    assert [column_points(n, False) for n in range(1, 5)] == [0, 2, 3, 4]


def test_war_groups_by_habitat_with_the_totem_first():
    best = war_grouping(C("indians/eagle"), cards("indians/hawk", "eskimos/seal", "eskimos/whale", "africans/lion"))
    assert best.points == 3 + 2
    assert layout(best) == [("air", ["indians/eagle", "indians/hawk"]),
                            ("water", ["eskimos/seal", "eskimos/whale"]), ("land", ["africans/lion"])]


def test_a_two_habitat_card_joins_the_column_that_scores():
    best = war_grouping(C("eskimos/seal"), cards("indians/beaver", "africans/lion"))
    assert best.points == 3 and layout(best)[0] == ("water", ["eskimos/seal", "indians/beaver"])


def test_without_a_declared_habitat_the_grouping_takes_the_habitat_worth_most():
    best = war_grouping(C("africans/crocodile"),
                        cards("africans/lion", "africans/zebra", "indians/bear", "eskimos/seal"))
    assert best.totem_column.key == "land" and best.points == 7


def test_on_equal_points_the_first_listed_habitat_is_taken():
    # water: crocodile+seal 3, land column 2 → 5; land: crocodile+lion+zebra 5, seal alone → 5.
    best = war_grouping(C("africans/crocodile"), cards("africans/lion", "africans/zebra", "eskimos/seal"))
    assert best.points == 5 and best.totem_column.key == "water"


def test_r2_the_declared_habitat_holds_the_totem_and_the_rest_is_grouped_best():
    hand = cards("africans/lion", "africans/zebra", "indians/bear", "eskimos/seal")
    water = war_grouping(C("africans/crocodile"), hand, "water")
    assert water.totem_column.key == "water" and water.points == 3 + 3  # crocodile+seal, 3 land
    assert war_grouping(C("africans/crocodile"), hand, "land").points == 7


# -- exactness against a plain search over every column choice (T7 read literally) ------------

def _fits(column_key, members, totem):
    tribe_animals = {c.animal for c in members if c.tribe == column_key}
    return all(c.tribe == column_key or c.animal in tribe_animals for c in members if c is not totem)


def _reference_best(totem, hand):
    best = 0
    for keys in product(TRIBES, repeat=len(hand)):
        columns = {t: [c for c, k in zip(hand, keys) if k == t] for t in TRIBES}
        columns[totem.tribe].insert(0, totem)
        if all(_fits(t, cols, totem) for t, cols in columns.items()):
            best = max(best, sum(column_points(len(cols), t == totem.tribe) for t, cols in columns.items() if cols))
    return best


def _reference_war(totem, hand):
    best = 0
    for declared in totem.habitats:
        for keys in product(*(c.habitats for c in hand)):
            sizes = {h: sum(k == h for k in keys) for h in HABITATS}
            sizes[declared] += 1
            best = max(best, sum(column_points(n, h == declared) for h, n in sizes.items()))
    return best


# Hands rich in shared animals, so that guests and their anchors matter.
_SHARED = [c for c in default_deck()
           if c.animal in {"snake", "eagle", "crocodile", "turtle", "wolf", "owl", "raven", "salmon"}]
hands = st.lists(st.sampled_from(_SHARED + list(default_deck())[:8]), min_size=2, max_size=6, unique=True)


@settings(max_examples=150, deadline=None)
@given(hands)
def test_best_arrangement_is_exact_and_lays_out_legal_columns(cards_):
    totem, hand = cards_[0], cards_[1:]
    best = best_arrangement(totem, hand)
    assert best.points == _reference_best(totem, hand)
    laid = [c for col in best.columns for c in col.cards]
    assert sorted(laid) == sorted(cards_) and best.columns[0].cards[0] == totem
    for col in best.columns:
        assert _fits(col.key, list(col.cards), totem)


@settings(max_examples=150, deadline=None)
@given(hands)
def test_war_grouping_is_exact_and_puts_each_card_in_one_of_its_habitats(cards_):
    totem, hand = cards_[0], cards_[1:]
    best = war_grouping(totem, hand)
    assert best.points == _reference_war(totem, hand)
    assert best.totem_column.key in totem.habitats
    assert all(col.key in c.habitats for col in best.columns for c in col.cards)
