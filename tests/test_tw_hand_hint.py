"""The Totem Wars coach on the box (hand_hint.py, hint_screens.py): HINT asks the player to
show their hand privately, suggests what to do with it and why, and forgets it; a war's
declaration needs no hand (R2). Driven through the table session with raw events."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from tw_table_helpers import WAR_RECORD, journal, make, scan, set_up

from companion.events import Hold, Press
from companion.games.totem_wars import Declare, Play, read_record
from companion.games.totem_wars.hand_hint import HandView
from companion.games.totem_wars.search import TotemChoice, suggest
from companion.table.hint_pages import Tip
from companion.table.journal import CURRENT

DATA = Path(__file__).parent / "data"
#: Ben's hand at the first placement of the two-player game below.
BENS_HAND = ("africans/zebra", "africans/giraffe", "indians/wolf", "eskimos/seal", "aborigines/emu")


def two_players(tmp_path):
    """Ana deals, Ben lays the lion and Ana the snake; Ben starts the round (T2, T3)."""
    box = make(tmp_path)
    set_up(box, ("Ana", "Ben"), 0)
    scan(box, "africans/lion")
    scan(box, "indians/snake")
    box.handle(Press("ok"))                                       # past the deal reminder
    assert box.screen == "board" and box.game.to_move == 1
    return box


def resumed(tmp_path, record: str, hints: bool = True):
    """A box resumed on ``record`` (its game played with hints on, unless not ``hints``),
    past any result page, on the board."""
    data = tmp_path / "data"
    data.mkdir(parents=True)
    header, rest = record.split("\n", 1)
    if hints:
        header = json.dumps({**json.loads(header), "hints": True})
    (data / CURRENT).write_text(header + "\n" + rest)
    box = make(tmp_path)
    while box.screen == "round":
        box.handle(Press("ok"))
    return box


def words(box) -> list[str]:
    return [w for _, _, w in sorted(box.frame().info["words"])]


def show_hand(box, cards=BENS_HAND):
    """HINT, then each card of the hand on the pad."""
    box.handle(Press("hint"))
    assert box.screen == "hand"
    for card in cards:
        assert scan(box, card).signal == "accepted", box.view


# --- a placement -------------------------------------------------------------------------------

def test_the_hand_shown_gives_the_searchs_placements_with_why_and_is_forgotten(tmp_path):
    box = two_players(tmp_path)
    kept = journal(box)
    box.handle(Press("hint"))
    assert box.view == HandView("Ben", 0, 5)
    assert "Your hand is forgotten" in words(box) and "BACK cancel · HINT: rule" in words(box)
    for card in BENS_HAND:
        assert scan(box, card).signal == "accepted"
    assert box.view.count == 5 and box.view.last.name == "aborigines/emu"
    assert "All scanned: OK" in words(box)
    assert box.handle(Press("ok")).signal == "accepted"
    best = suggest(read_record("".join(json.dumps(line) + "\n" for line in kept))[0], hand=list(BENS_HAND))
    assert box.screen == "hint" and box.view.tip.move == best.move and box.view.number == 1
    assert box.view.tip.words == best.reason                      # points now, take, war: the search's why
    assert box.view.count == 3 and box.view.footer == "1/3 · HINT: next move"
    box.handle(Press("hint"))
    assert box.view.number == 2 and isinstance(box.view.tip.move, Play)
    # The next best in the search's own words, as ordered: no guess from its value.
    assert box.view.tip == Tip(best.alternatives[0].move, best.alternatives[0].reason)
    box.handle(Press("up"))
    assert box.view.number == 1
    box.handle(Press("ok"))                                       # closed: the board as it was
    assert box.screen == "board" and box.view.pending == ()
    assert journal(box) == kept                                   # the hand is never written down
    box.handle(Press("hint"))
    assert box.view == HandView("Ben", 0, 5)                      # forgotten: shown afresh


def test_no_tip_asks_to_take_back_a_card_already_placed(tmp_path):
    box = two_players(tmp_path)
    assert scan(box, "indians/wolf").signal == "accepted"          # placed on the table first
    box.handle(Press("hint"))
    assert box.view.count == 1                                     # the wolf counts in the hand
    for card in BENS_HAND:
        if card != "indians/wolf":
            assert scan(box, card).signal == "accepted"
    box.handle(Press("ok"))
    wolf = box.game.deck.card("indians/wolf")
    tips = []
    while box.screen == "hint":
        tips.append(box.view.tip.move)
        box.handle(Press("hint"))
    assert tips and all(wolf in move.cards for move in tips)     # those that keep it are left out


def test_the_next_best_moves_then_the_rule_then_the_board(tmp_path):
    box = two_players(tmp_path)
    show_hand(box)
    box.handle(Press("ok"))
    seen = []
    while box.screen == "hint":
        seen.append(box.view.tip.move)
        box.handle(Press("hint"))
    assert len(set(seen)) == 3 and all(set(m.cards) <= {box.game.deck.card(c) for c in BENS_HAND} for m in seen)
    assert box.view.rule == "T4"                                  # Ben starts the round
    box.handle(Press("hint"))
    assert box.screen == "board"
    box.handle(Press("hint"))
    assert box.view.count == 0                                    # the hand was forgotten


def test_a_scan_over_a_tip_closes_it_and_is_placed_as_usual(tmp_path):
    box = two_players(tmp_path)
    show_hand(box)
    box.handle(Press("ok"))
    assert scan(box, "indians/wolf").signal == "accepted"
    assert box.screen == "board" and [c.name for c in box.view.pending] == ["indians/wolf"]
    box.handle(Press("hint"))
    assert box.view.count == 1                                    # the card being placed is in the hand
    assert scan(box, "indians/wolf").signal == "refused"          # … once
    assert box.view.message.key == "hand.twice"


@pytest.mark.parametrize("card, key, rule", [
    ("indians/snake", "card.totem", "T2"),
    ("africans/lion", "card.totem", "T2"),
    ("indians/wolf", "hand.twice", None),
])
def test_a_card_that_cannot_be_in_the_hand_is_refused_with_its_rule(tmp_path, card, key, rule):
    box = two_players(tmp_path)
    box.handle(Press("hint"))
    scan(box, "indians/wolf")
    assert scan(box, card).signal == "refused"
    assert (box.view.message.key, box.view.message.rule) == (key, rule) and box.view.refused
    assert box.view.count == 1 and box.screen == "hand"
    assert scan(box, "eskimos/seal").signal == "accepted" and box.view.message is None


def test_cards_on_the_table_or_taken_are_refused(tmp_path):
    lines = WAR_RECORD.splitlines(True)
    box = resumed(tmp_path, "".join(lines[:3]))                   # Ben placed 3; Cleo to place
    box.handle(Press("hint"))
    assert box.view.name == "Cleo" and box.view.size == 5
    assert scan(box, "indians/bear").signal == "refused"
    assert (box.view.message.key, box.view.message.rule) == ("card.on_table", "T4")
    box.handle(Press("back"))
    box = resumed(tmp_path / "after", WAR_RECORD)                  # Ben took the 12 cards (T9)
    box.handle(Press("hint"))
    assert box.view.name == "Ben" and box.view.size == 5
    assert scan(box, "eskimos/walrus").signal == "refused"
    assert (box.view.message.key, box.view.message.rule) == ("card.taken", "T9")


def test_the_whole_hand_and_no_more(tmp_path):
    box = two_players(tmp_path)
    box.handle(Press("hint"))
    for card in BENS_HAND[:3]:
        scan(box, card)
    assert box.handle(Press("ok")).signal == "refused"            # two cards still to scan
    assert box.view.message.key == "hand.short" and box.view.message.params == {"n": 2, "size": 5}
    assert "2 more to scan: the hand" in " ".join(words(box))
    for card in BENS_HAND[3:]:
        scan(box, card)
    assert scan(box, "indians/bear").signal == "refused"          # a sixth card
    assert box.view.message.key == "hand.full" and box.view.count == 5


def test_back_cancels_and_gives_the_board_back_as_it_was(tmp_path):
    box = two_players(tmp_path)
    assert scan(box, "indians/snake").signal == "refused"         # Ana's totem: a note on the board
    before = box.view, box.message, box.frame().tobytes()
    box.handle(Press("hint"))                                     # a refusal: its rule first (T2) …
    assert box.view.rule == "T2"
    box.handle(Press("hint"))                                     # … then the hand
    assert box.screen == "hand"
    scan(box, "indians/wolf")
    box.handle(Press("back"))
    assert (box.view, box.message, box.frame().tobytes()) == before
    box.handle(Press("hint"))
    box.handle(Press("hint"))
    assert box.view.count == 0


def test_hint_on_the_hand_screen_gives_the_rule_and_leaving_forgets(tmp_path):
    box = two_players(tmp_path)
    box.handle(Press("hint"))
    scan(box, "indians/wolf")
    box.handle(Press("hint"))
    assert box.view.rule == "T4"
    box.handle(Press("ok"))
    box.handle(Press("hint"))
    scan(box, "indians/wolf")
    box.handle(Hold("back"))                                      # leave the game? asks, as on the board
    assert box.screen == "confirm"
    box.handle(Press("back"))
    box.handle(Press("hint"))
    assert box.view.count == 0


def test_without_a_reader_the_cards_are_picked_with_the_buttons(tmp_path):
    box = two_players(tmp_path)
    box.handle(Press("hint"))
    box.handle(Press("down"))                                     # the picker: tribes first
    assert box.screen == "menu" and box.view.choice.title == "Ben's hand"
    while box.view.choice.value != "indians":
        box.handle(Press("down"))
    box.handle(Press("ok"))
    while box.view.choice.value.name != "indians/wolf":
        box.handle(Press("down"))
    assert box.handle(Press("ok")).signal == "accepted"
    assert box.view == HandView("Ben", 1, 5, box.game.deck.card("indians/wolf"))


# --- the totem and the war ---------------------------------------------------------------------

def test_the_totem_choice_keeps_the_totems_secret(tmp_path):
    box = make(tmp_path)
    set_up(box, ("Ana", "Ben"), 0)
    scan(box, "africans/lion")                                    # Ben's totem, not yet shown
    box.handle(Press("hint"))
    assert box.view == HandView("Ana", 0, 5)
    assert scan(box, "africans/lion").signal == "refused"
    assert box.view.message.key == "totem_down"                   # never named (T2)
    for card in ("indians/snake", "indians/wolf", "africans/snake", "indians/bear", "eskimos/seal"):
        scan(box, card)
    box.handle(Press("ok"))
    assert box.view.tip.move == TotemChoice(box.game.deck.card("indians/snake"))
    assert box.view.tip.words == "totem Snake (Indians): 2 more of your cards are Indians"
    assert "Lay as your totem" in words(box)
    box.handle(Press("hint"))
    assert box.view.tip.words.endswith("2 more of your cards are Indians")
    box.handle(Press("back"))
    assert box.screen == "totems" and box.view.done == 1


def test_a_war_declaration_needs_no_hand(tmp_path):
    box = resumed(tmp_path, (DATA / "totem_wars_r2_example.jsonl").read_text())
    assert box.screen == "declare"
    box.handle(Press("hint"))
    assert box.view.tip.move == Declare("land") and box.view.tip.words == "declare land: 0 war points"
    box.handle(Press("hint"))
    assert box.view.tip.move == Declare("water")
    box.handle(Press("hint"))
    assert box.view.rule == "R2"


# --- the screens --------------------------------------------------------------------------------

def test_hint_screens_golden(tmp_path, golden):
    box = two_players(tmp_path)
    box.handle(Press("hint"))
    scan(box, "indians/wolf")
    scan(box, "eskimos/seal")
    golden("tw_hint_hand", box.frame())
    scan(box, "africans/lion")
    golden("tw_hint_hand_refused", box.frame())
    for card in ("africans/zebra", "africans/giraffe", "aborigines/emu"):
        scan(box, card)
    box.handle(Press("ok"))
    golden("tw_hint_place", box.frame())
    box.handle(Press("hint"))
    golden("tw_hint_place_next", box.frame())
    box.handle(Press("back"))
    box.settings.change(language="bg")                        # the box's language, in Settings
    box.handle(Press("hint"))
    golden("tw_hint_hand_bulgarian", box.frame())


def test_four_cards_or_more_are_said_by_the_cards_kept(tmp_path, golden):
    box = two_players(tmp_path)
    show_hand(box, ("eskimos/fox", "eskimos/polar_bear", "africans/snake", "aborigines/cockatoo", "eskimos/seal"))
    box.handle(Press("ok"))
    titles = []
    while box.screen == "hint":
        titles.append(words(box)[0])
        golden(f"tw_hint_tip_{box.view.number}", box.frame())
        box.handle(Press("hint"))
    # The cards shown are the ones the title's first verb names: keep these, or place these.
    assert titles == ["Keep 1, place 4", "Place all 5 cards", "Place 3 cards:"]


@pytest.mark.parametrize("language", ["en", "bg"])
def test_a_tips_why_shows_whole_beside_a_row_of_cards_and_its_figures_always(tmp_path, language, speak):
    speak(language)
    record = ('{"game": "totem-wars", "players": ["Ana", "Ben"], "dealer": 0, "deck": "default"}\n'
              '{"totems": ["indians/snake", "africans/lion"]}\n{"p": 1, "play": ["indians/wolf"]}\n')
    rng = random.Random(7)
    seen = 0
    for i in range(5):
        box = resumed(tmp_path / str(i), record)                  # Ana answers or raises (T5)
        hand = rng.sample(sorted(card.name for card in box.game.unseen), 5)
        show_hand(box, hand)
        box.handle(Press("ok"))
        while box.screen == "hint":
            picture = box.flow.hand.picture(box.view)
            shown = " ".join(words(box))
            # The end points that order the tips and the points now are never cut …
            assert ", ".join(picture.why.split(", ")[:2]) in shown, (picture.why, shown)
            if len(picture.rows) <= 1:                             # … nor is the rest beside one row
                assert picture.why in shown, (picture.why, shown)
                seen += 1
            box.handle(Press("hint"))
    assert seen >= 5


def test_tip_screens_golden(tmp_path, golden):
    box = make(tmp_path)
    set_up(box, ("Ana", "Ben"), 0)
    scan(box, "africans/lion")
    show_hand(box, ("indians/snake", "indians/wolf", "africans/snake", "indians/bear", "eskimos/seal"))
    box.handle(Press("ok"))
    golden("tw_hint_totem", box.frame())
    war = resumed(tmp_path / "war", (DATA / "totem_wars_r2_example.jsonl").read_text())
    war.handle(Press("hint"))
    golden("tw_hint_declare", war.frame())
