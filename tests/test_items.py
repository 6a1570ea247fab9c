"""The catalogue of tagged items: names, games, labels and the enrollment order."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.totem_wars.items import enrollment_steps as card_enrollment_steps
from companion.games.wakanda.items import enrollment_steps as wakanda_enrollment_steps
from companion.games.wakanda.items import item_names as wakanda_items
from companion.table.items import EnrollmentStep, is_item, label, parse_item


def game_of_item(name):
    item = parse_item(name)
    return item.game if item is not None else None


def test_wakanda_items():
    items = wakanda_items()
    assert items[:6] == ("eagle", "chief", "tomahawk", "skin", "teepee", "sun")
    assert "village:variety" in items and "village:height" in items
    assert items[-2:] == ("wings", "crests")
    assert len(items) == 6 + 8 + 2


@pytest.mark.parametrize("name, game", [
    ("eagle", "wakanda"), ("village:sun", "wakanda"), ("crests", "wakanda"),
    ("indians/snake", "totem-wars"), ("eskimos/polar_bear", "totem-wars"),
    ("vikings/snake", None), ("village:castle", None), ("Eagle", None), ("", None),
    ("indians/", None), ("indians/snake/x", None), ("indians/ snake", None),
    ("indians/Sea Otter", "totem-wars")])
def test_game_of_item(name, game):
    assert game_of_item(name) == game
    assert is_item(name) == (game is not None)


@pytest.mark.parametrize("name, text", [
    ("eagle", "Eagle piece"), ("village:sun", "Village tile: Sun"), ("wings", "Wings headdress"),
    ("eskimos/polar_bear", "Polar bear card (Eskimos)"), ("indians/Sea Otter", "Sea Otter card (Indians)")])
def test_labels(name, text):
    assert label(name) == text


def test_label_of_something_else():
    with pytest.raises(ValueError):
        label("dragon")


def test_wakanda_enrollment_steps_in_order():
    steps = wakanda_enrollment_steps()
    assert len(steps) == 21 + 8 + 6
    assert Counter(step.item for step in steps[:21]) == {
        "eagle": 1, "chief": 2, "tomahawk": 3, "skin": 4, "teepee": 5, "sun": 6}
    assert [s.prompt for s in steps[:3]] == [
        "Scan an Eagle piece", "Scan Chief piece 1 of 2", "Scan Chief piece 2 of 2"]
    assert [s.item for s in steps[21:29]] == [
        "village:eagle", "village:chief", "village:tomahawk", "village:skin", "village:teepee",
        "village:variety", "village:height", "village:sun"]
    assert steps[21].prompt == "Scan a Village tile: Eagle"
    assert steps[2].description == "Chief piece 2 of 2" and steps[0].description == "Eagle piece"
    assert [s.prompt for s in steps[29:]][::3] == ["Scan Wings headdress 1 of 3",
                                                    "Scan Crests headdress 1 of 3"]


def test_card_enrollment_steps():
    steps = card_enrollment_steps(["indians/snake", "africans/lion"])
    assert steps == [EnrollmentStep("indians/snake"), EnrollmentStep("africans/lion")]
    assert steps[1].prompt == "Scan a Lion card (Africans)"


@pytest.mark.parametrize("names, message", [
    (["indians/snake", "dragon"], "'dragon' is not a card name"),
    (["indians/snake", "indians/snake"], "listed twice")])
def test_card_enrollment_steps_refuse_bad_names(names, message):
    with pytest.raises(ValueError, match=message):
        card_enrollment_steps(names)
