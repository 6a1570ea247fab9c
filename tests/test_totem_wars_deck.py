"""The deck as data (T1, T1a): the default deck, deck files and card lists, clear errors."""

import pytest

from companion.games.totem_wars import TRIBES, Card, DeckError, deck_from_list, default_deck, load_deck

DECK_FILE = "tests/data/totem_wars_deck.toml"


def test_default_deck_has_13_cards_of_each_tribe_and_names_them_tribe_slash_animal():
    deck = default_deck()
    assert len(deck) == 52
    assert {t: sum(c.tribe == t for c in deck) for t in TRIBES} == dict.fromkeys(TRIBES, 13)
    snake = deck.card("indians/snake")
    assert snake == Card("indians", "snake", ("land",)) and snake.name == "indians/snake"
    assert deck.card("eskimos/polar_bear").habitats == ("land", "water")  # order kept (R2)
    with pytest.raises(KeyError):
        deck.card("indians/unicorn")


def test_a_deck_round_trips_through_its_list_form():
    assert deck_from_list(default_deck().to_list()) == default_deck()


def test_a_transcribed_deck_file_loads():
    deck = load_deck(DECK_FILE)
    assert len(deck) == 52 and deck != default_deck()
    assert deck.card("indians/thunderbird").habitats == ("air", "water")


def _entries():
    return default_deck().to_list()


@pytest.mark.parametrize("change, message", [
    (lambda e: e[0].update(tribe="vikings"), "deck card 1: unknown tribe 'vikings'"),
    (lambda e: e[0].update(habitats=["sky"]), "indians/eagle: unknown habitat 'sky'"),
    (lambda e: e[0].update(habitats=[]), "indians/eagle: a card has 1 or 2 habitats"),
    (lambda e: e[0].update(habitats=["water", "land", "air"]), "indians/eagle: a card has 1 or 2 habitats"),
    (lambda e: e[0].update(habitats=["air", "air"]), "indians/eagle: habitat 'air' is listed twice"),
    (lambda e: e[0].update(animal="bear"), "card indians/bear appears twice"),
    (lambda e: e.pop(), "tribe eskimos has 12 cards"),
    (lambda e: e[0].update(tribe="eskimos", animal="yeti"), "tribe eskimos has 14 cards"),
    (lambda e: e[3].update(colour="green"), "deck card 4: unknown key 'colour'"),
    (lambda e: e[3].pop("animal"), "deck card 4: missing key 'animal'"),
    (lambda e: e[2].update(animal="a/b"), "deck card 3: the animal must be a name"),
])
def test_a_bad_card_list_is_one_line_naming_the_entry_and_rule(change, message):
    entries = _entries()
    change(entries)
    with pytest.raises(DeckError) as exc:
        deck_from_list(entries)
    text = str(exc.value)
    assert message in text and text.endswith("(T1a)") and "\n" not in text


def test_a_deck_must_be_a_list():
    with pytest.raises(DeckError, match=r"a list of 52 card objects \(T1a\)"):
        deck_from_list({"indians": []})


@pytest.mark.parametrize("text, message", [
    ("[vikings]\nthor = [\"air\"]\n", "unknown tribe [vikings]"),
    ("[indians]\neagle = [\"air\"\n", "not a valid deck file"),
    ("indians = 3\n", "[indians] must be a table"),
    ("[indians]\neagle = \"air\"\n", "indians/eagle: a card has 1 or 2 habitats"),
    ("[indians]\neagle = [\"air\"]\n", "tribe aborigines has 0 cards"),
])
def test_a_bad_deck_file_is_one_line_naming_the_entry(tmp_path, text, message):
    path = tmp_path / "deck.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DeckError) as exc:
        load_deck(path)
    assert message in str(exc.value) and str(exc.value).endswith("(T1a)")


def test_a_missing_deck_file_is_a_clear_error(tmp_path):
    with pytest.raises(DeckError, match="none.toml: no such deck file"):
        load_deck(tmp_path / "none.toml")


def test_a_bad_card_in_a_deck_file_names_the_file_and_the_card(tmp_path):
    path = tmp_path / "club.toml"
    path.write_text('[indians]\nowl = ["sky"]\n')
    with pytest.raises(DeckError) as error:
        load_deck(path)
    assert str(error.value) == f"{path}: indians/owl: unknown habitat 'sky' (known: water, land, air) (T1a)"
