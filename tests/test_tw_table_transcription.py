"""Transcribing a physical deck card by card into a deck file of the data folder (T1a)."""

import pytest

from companion.errors import UserError
from companion.events import Hold, Press, Tag, TagGone
from companion.games.totem_wars import default_deck, load_deck
from companion.games.totem_wars.deck_transcription import DeckTranscription
from companion.table.registry import TagRegistry

DECK = default_deck()


def uid(n):
    return f"C{n:09X}"


def walk(tmp_path, tags=None):
    registry = TagRegistry(tmp_path / "tags.json", tags or {})
    return DeckTranscription(tmp_path, "ours", registry), registry


def scan(t, token):
    step = t.handle(Tag(token))
    t.handle(TagGone(token))
    return step


def pick(t, value):
    for _ in range(60):
        if t.choice.value == value:
            return t.handle(Press("ok"))
        t.handle(Press("down"))
    raise AssertionError(value)


def test_keeping_every_proposal_writes_the_default_deck(tmp_path):
    t, registry = walk(tmp_path)
    for n, card in enumerate(DECK, start=1):
        scan(t, uid(n))
        assert t.proposal == card
        step = t.handle(Press("ok"))
    assert t.finished and step.note == "Deck written: ours.toml, 52 cards"
    assert set(load_deck(tmp_path / "decks" / "ours.toml")) == set(DECK)
    assert registry.item_for(uid(52)) == DECK.cards[-1].name
    assert TagRegistry.load(tmp_path / "tags.json").item_for(uid(1)) == DECK.cards[0].name
    assert not (tmp_path / "decks" / "ours.toml.part").exists()


def test_changing_tribe_animal_and_habitats_with_the_buttons(tmp_path):
    t, _ = walk(tmp_path)
    scan(t, uid(1))
    t.handle(Press("down"))
    assert t.stage == "tribe"
    pick(t, "africans")
    pick(t, "snake")
    step = pick(t, ("water", "land"))
    assert step.note == "Snake (Africans) kept (1/52)"
    assert t.cards[0].habitats == ("water", "land")
    scan(t, uid(2))
    t.handle(Press("down")); pick(t, "africans"); pick(t, "snake")
    step = pick(t, ("land",))
    assert step.refused and "is in the deck already (T1a)" in step.note
    t.handle(Press("back"))
    assert t.stage == "scan" and len(t.cards) == 1


def test_an_enrolled_tag_proposes_its_card_and_a_repeat_is_refused(tmp_path):
    t, _ = walk(tmp_path, {uid(7): "eskimos/seal"})
    scan(t, uid(7))
    assert t.proposal.name == "eskimos/seal"
    t.handle(Press("ok"))
    step = scan(t, uid(7))
    assert step.refused and step.note == f"{uid(7)} is eskimos/seal already in this deck"
    assert t.handle(Tag(uid(8))).note is None
    assert t.handle(Tag(uid(8))).note is None                    # a repeated read: nothing


def test_the_walk_resumes_after_a_power_cut(tmp_path):
    t, _ = walk(tmp_path)
    for n in range(1, 4):
        scan(t, uid(n)); t.handle(Press("ok"))
    again, _ = walk(tmp_path)
    assert [c.name for c in again.cards] == [c.name for c in DECK.cards[:3]]
    scan(again, uid(4))
    assert again.proposal == DECK.cards[3]


def test_bad_input_is_one_clear_line(tmp_path):
    t, _ = walk(tmp_path)
    assert scan(t, "indians/snake").refused                      # a name is not a tag
    scan(t, uid(1))
    assert scan(t, uid(2)).note == "OK or ▲▼ this card first"   # fits the footer
    with pytest.raises(UserError, match="cannot name a deck file"):
        DeckTranscription(tmp_path, "../x", TagRegistry(tmp_path / "t.json"))
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "bad.toml.part").write_text("[indians\n")
    with pytest.raises(UserError, match="damaged"):
        DeckTranscription(tmp_path, "bad", TagRegistry(tmp_path / "t.json"))


def test_hold_ok_stops_and_the_frames_draw(tmp_path):
    t, _ = walk(tmp_path)
    assert t.frame().size == (128, 64)
    scan(t, uid(1))
    assert t.frame().size == (128, 64)
    t.handle(Press("down"))
    assert t.frame().size == (128, 64)
    assert t.handle(Hold("ok")).note.startswith("Stopped at 0/52") and t.finished


def test_back_shows_the_list_of_the_step_before_and_ok_chooses_from_it(tmp_path):
    t, registry = walk(tmp_path)
    scan(t, uid(1))                                              # proposed: Eagle (Indians)
    t.handle(Press("down"))                                      # the tribes
    pick(t, "africans")                                          # the animals
    t.handle(Press("back"))
    assert t.stage == "tribe" and t.choice.value == "africans"   # the tribes again
    pick(t, "africans")
    pick(t, "snake")
    t.handle(Press("back"))
    assert t.stage == "animal" and t.choice.title == "Animal?"
    pick(t, "snake")
    pick(t, ("land",))
    assert [c.name for c in t.cards] == ["africans/snake"]
    assert registry.item_for(uid(1)) == "africans/snake"
