"""Slot mode: Wakanda played from placements on the reader hub's village slots, event by
event through the session — builds and claims where the pieces land, a lifted piece, a
refused placement, undo by lifting, a piece on the wrong pole, a pole of several tags,
readers that go away — and ``slots.problems`` as properties."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from slot_helpers import lift, new_box, put, scan, started, uid
from strategies import pick

from companion.events import Hold, Press, ReaderState, Tag, TagGone
from companion.games.wakanda import Build, Claim, Draw, Wakanda, read_record
from companion.games.wakanda.items import Headdress, Piece
from companion.games.wakanda.rules import HEADDRESSES
from companion.games.wakanda.slots import Missing, Stray, adoptable, problems, slot_reader
from companion.table.tag_tracker import Place, TagTracker

TEEPEE, TEEPEE2, EAGLE, CHIEF, SUN = uid("teepee"), uid("teepee", 2), uid("eagle"), uid("chief"), uid("sun")
WINGS, CRESTS = uid("wings"), uid("crests")


def lines(box):
    return [json.loads(line) for line in (box.data_dir / "current.jsonl").read_text().splitlines()]


def build(box, tag, village):
    """The player to move draws ``tag`` on the pad and puts it on ``village``'s slot."""
    scan(box, tag)
    out = put(box, tag, village)
    assert out.signal in ("accepted", "your_turn"), box.message
    return out


# --- builds and claims from placements ---------------------------------------------------------

def test_a_pole_of_several_tags_and_a_lifted_piece(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 1)                                     # Player 1
    build(box, EAGLE, 1)                                      # Player 2, on the same pole
    assert box.game.poles[0] == ("teepee", "eagle") and box.message is None
    out = lift(box, TEEPEE, 1)                                # the bottom piece, not the last move
    assert out.signal == "refused" and box.message == "Put the teepee back on village 1"
    assert box.view.kind == "board" and box.view.refused
    out = scan(box, CHIEF)                                    # the pad waits for the board
    assert out.signal == "refused" and box.message == "Fix village 1 first"
    assert box.game.phase == "draw"
    out = put(box, TEEPEE, 1)
    assert out.signal == "accepted" and box.message is None
    assert scan(box, CHIEF).signal == "accepted" and box.game.hands[0]["chief"] == 1
    assert len(lines(box)) == 1 + 5                           # nothing else was written


def test_a_headdress_on_a_slot_claims_and_lifting_it_asks_to_take_it_back(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 2)
    scan(box, CHIEF)                                          # Player 2 drew
    assert put(box, WINGS, 2).signal == "refused"             # Player 1's headdress: W4
    assert box.message == ("Take the wings off village 2: wings are Player 1's; "
                           "it is Player 2's turn — W4")
    assert lift(box, WINGS, 2).signal == "accepted" and box.message is None
    assert put(box, CRESTS, 2).signal == "your_turn"
    assert box.game.owners[1] == 1
    lift(box, CRESTS, 2)
    assert box.view.kind == "confirm" and box.view.detail == "Player 2 claimed village 2"
    box.handle(Press("ok"))
    assert box.game.owners[1] is None and lines(box)[-1] == {"undo": True}
    assert box.message == "Taken back: the headdress off village 2; turn tile 4 back"   # it had opened 4 (W4 B)


# --- a placement the rules refuse -----------------------------------------------------------------

def test_a_refused_placement_stays_a_stray_until_taken_off(tmp_path):
    box = started(tmp_path)
    scan(box, EAGLE)
    out = put(box, EAGLE, 5)
    assert out.signal == "refused"
    assert box.message == "Take the eagle off village 5: village 5 is not open yet — W4"
    assert box.game.history == ((0, Draw("eagle")),) and len(lines(box)) == 2
    box.handle(Press("down"))                                 # any event: the note stays
    assert box.message.startswith("Take the eagle off village 5")
    assert put(box, EAGLE, 1).signal == "refused"             # not yet: the eagle is on 5
    assert box.game.poles[0] == ()
    lift(box, EAGLE, 1)
    out = lift(box, EAGLE, 5)
    assert out.signal == "accepted" and box.message is None
    assert put(box, EAGLE, 1).signal == "your_turn" and box.game.poles[0] == ("eagle",)


def test_a_piece_put_on_a_slot_before_its_draw(tmp_path):
    box = started(tmp_path)
    put(box, SUN, 3)
    assert box.message == "Take the sun off village 3: draw first: the bag is not empty — W4"
    lift(box, SUN, 3)
    assert box.message is None and box.game.history == ()


def test_the_refusal_is_said_in_the_box_language(tmp_path):
    box = started(tmp_path)
    box.settings.change(language="bg")
    scan(box, EAGLE)
    put(box, EAGLE, 5)
    assert box.message == "Свали орел от село 5: село 5 още не е отворено — W4"


# --- undo by lifting ---------------------------------------------------------------------------------

def test_lifting_the_last_piece_asks_and_ok_takes_it_back(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 3)
    lift(box, TEEPEE, 3)
    assert box.view.kind == "confirm" and box.view.detail == "Player 1 built teepee on village 3"
    assert box.handle(Press("ok")).signal == "accepted"
    assert box.game.history == ((0, Draw("teepee")),) and lines(box)[-1] == {"undo": True}
    assert box.message == "Taken back: teepee off village 3, to the hand"
    box.handle(Press("down")); box.handle(Press("up"))
    assert box.message is None                                # the board matches the record
    assert put(box, TEEPEE, 1).signal == "your_turn" and box.game.poles[0] == ("teepee",)


def test_lifting_the_last_piece_then_back_changes_nothing(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 3)
    lift(box, TEEPEE, 3)
    out = box.handle(Press("back"))                           # kept: now the board waits for it
    assert out.signal == "refused" and box.game.poles[2] == ("teepee",)
    assert box.message == "Put the teepee back on village 3"
    assert put(box, TEEPEE, 3).signal == "accepted" and box.message is None


def test_putting_the_lifted_piece_back_closes_the_question(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 3)
    lift(box, TEEPEE, 3)
    assert box.view.kind == "confirm"
    assert put(box, TEEPEE, 3).signal is None                 # as if nothing had happened
    assert box.view.kind == "board" and box.game.poles[2] == ("teepee",) and box.message is None
    assert len(lines(box)) == 3


def test_lifting_a_piece_named_in_a_script_asks_by_its_kind(tmp_path):
    box = started(tmp_path)
    scan(box, "teepee")
    put(box, "teepee", 3)
    assert box.game.poles[2] == ("teepee",)
    lift(box, "teepee", 3)
    assert box.view.kind == "confirm"
    box.handle(Press("ok"))
    assert box.game.poles[2] == ()


# --- the wrong pole --------------------------------------------------------------------------------

def test_a_piece_moved_to_another_pole(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 1)
    build(box, CHIEF, 3)
    scan(box, SUN)
    lift(box, TEEPEE, 1)
    assert box.message == "Put the teepee back on village 1"
    out = put(box, TEEPEE, 2)
    assert out.signal == "refused" and box.message == "Put the teepee back on village 1"
    assert box.game.poles[1] == ()
    lift(box, TEEPEE, 2)
    put(box, TEEPEE, 1)
    assert box.message is None and box.game.poles == (("teepee",), (), ("chief",), (), (), ())


def test_a_built_piece_laid_on_another_slot_belongs_elsewhere(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 1)
    box.handle(ReaderState("slot1", False))                   # its reader fails: not missing
    put(box, TEEPEE, 2)
    assert box.message == "Take the teepee off village 2: it belongs on village 1"
    lift(box, TEEPEE, 2)
    assert box.message is None


# --- what a reader sees ------------------------------------------------------------------------------

def test_a_piece_never_seen_on_its_slot_is_not_missing(tmp_path):
    box = started(tmp_path)
    scan(box, TEEPEE)
    box.handle(Press("v1"))                                   # built with the button
    scan(box, EAGLE)
    box.handle(Press("v1"))                                   # out of the reader's reach
    build(box, CHIEF, 2)
    assert box.message is None
    put(box, TEEPEE, 1)                                       # now the reader sees it
    assert box.message is None and box.game.poles[0] == ("teepee", "eagle")
    lift(box, TEEPEE, 1)
    assert box.message == "Put the teepee back on village 1"


def test_a_button_build_is_matched_when_its_piece_lands(tmp_path):
    box = started(tmp_path)
    box.handle(Press("ok"))                                   # draw with the buttons: the picker
    while box.view.choice.value != Draw("sun"):
        box.handle(Press("down"))
    box.handle(Press("ok"))
    box.handle(Press("v2"))                                   # build the only piece in hand
    out = put(box, SUN, 2)                                    # the sun lands on its pole
    assert out.signal is None and box.message is None and len(box.game.history) == 2
    lift(box, SUN, 2)                                         # it is the last move's piece
    assert box.view.kind == "confirm"


def test_a_slot_reader_that_goes_away_forgets_its_tags(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 2)
    scan(box, CHIEF)
    box.handle(ReaderState("slot2", False))
    assert box.message == "Reader unplugged: go on with the buttons"
    box.handle(Press("down")); box.handle(Press("up"))
    assert box.message is None                                # not missing: nobody knows
    box.handle(ReaderState("slot2", True))
    put(box, TEEPEE, 2)                                       # reported again: on its pole
    assert box.message is None and len(box.game.history) == 3
    lift(box, TEEPEE, 2)
    assert box.message == "Put the teepee back on village 2"


def test_while_the_hub_is_away_nothing_is_judged(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 2)
    box.handle(ReaderState("hub", False))
    lift(box, TEEPEE, 2)
    assert box.view.kind == "board" and box.message is None   # no question, no note
    box.handle(Press("ok"))                                   # the buttons go on: the draw picker
    assert box.view.kind == "picker"
    box.handle(Press("back"))
    box.handle(ReaderState("hub", True))
    box.handle(Press("down")); box.handle(Press("up"))
    assert box.message == "Put the teepee back on village 2"  # what the hub sees now


def test_a_hub_with_only_its_pad_plays_as_the_single_reader(tmp_path):
    box = started(tmp_path)
    box.handle(ReaderState("hub", True))
    for tag, button in ((TEEPEE, "v1"), (EAGLE, "v1"), (CHIEF, "v2")):
        assert scan(box, tag).signal == "accepted"
        assert scan(box, tag).signal == "accepted" and box.view.pending is not None
        assert box.handle(Press(button)).signal == "your_turn" and box.message is None
    assert box.game.poles[:2] == (("teepee", "eagle"), ("chief",))
    box.handle(Press("back")); box.handle(Press("ok"))
    assert box.game.poles[1] == () and box.message == "Taken back: chief off village 2, to the hand"


def test_tiles_on_their_slots_are_no_strays(tmp_path):
    box = started(tmp_path)
    put(box, uid("village:chief"), 3)
    box.handle(Press("down")); box.handle(Press("up"))
    assert box.message is None


# --- the buttons ----------------------------------------------------------------------------------------

def test_ok_carries_on_with_the_table_as_it_is(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 1)
    build(box, CHIEF, 2)
    scan(box, EAGLE)
    put(box, EAGLE, 6)                                        # refused: not open
    lift(box, TEEPEE, 1)                                      # and a piece gone
    assert box.message == "Put the teepee back on village 1"
    assert box.handle(Press("ok")).signal == "accepted"       # carry on
    assert box.message is None and box.game.phase == "action"
    assert put(box, EAGLE, 6).signal is None                  # still lying there: left alone
    assert box.message is None
    lift(box, EAGLE, 6)                                       # gone, then laid again: judged again
    put(box, EAGLE, 6)
    assert box.message == "Take the eagle off village 6: village 6 is not open yet — W4"
    lift(box, EAGLE, 6)
    assert put(box, EAGLE, 3).signal == "your_turn"
    assert box.handle(Press("ok")).signal is None             # no longer a slot prompt: the picker
    assert box.view.kind == "picker"


def test_undo_by_button_leaves_a_stray_to_take_off(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 3)
    box.handle(Press("back"))
    box.handle(Press("ok"))
    assert box.game.poles[2] == () and box.message == "Taken back: teepee off village 3, to the hand"
    box.handle(Press("down")); box.handle(Press("up"))
    assert box.message == "Take the teepee off village 3"
    assert lift(box, TEEPEE, 3).signal == "accepted" and box.message is None
    assert box.view.kind == "board"                           # not a question: nothing to take back


def test_buttons_play_while_the_board_waits(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 1)
    scan(box, CHIEF)
    lift(box, TEEPEE, 1)
    assert box.handle(Press("v2")).signal == "your_turn"      # the chief built with its button
    assert box.game.poles[1] == ("chief",)
    assert box.message == "Put the teepee back on village 1"
    assert box.handle(Hold("back")).signal is None and box.view.kind == "confirm"


# --- resume ---------------------------------------------------------------------------------------------

def test_a_resumed_game_matches_the_pieces_on_the_board_by_kind(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 1)
    build(box, TEEPEE2, 1)
    build(box, CHIEF, 2)
    box.handle(Press("ok"))                                   # Player 2 draws with the buttons
    box.handle(Press("ok"))
    # The box restarts; the hub reports the board at the menu, then the game is resumed.
    box = new_box(tmp_path)
    for tag, village in ((TEEPEE2, 1), (TEEPEE, 1), (CHIEF, 2), (SUN, 5)):
        put(box, tag, village)
    box.handle(Press("ok"))
    assert box.screen == "board" and len(box.game.history) == 7
    box.handle(Press("down")); box.handle(Press("up"))
    assert box.message == "Take the sun off village 5"        # in no hand, on no pole
    lift(box, SUN, 5)
    assert box.message is None
    lift(box, TEEPEE, 1)
    assert box.message == "Put the teepee back on village 1"
    put(box, TEEPEE, 1)
    lift(box, CHIEF, 2)                                       # the last build: but a draw came after
    assert box.view.kind == "board" and box.message == "Put the chief back on village 2"


def test_a_hub_plugged_in_after_resuming_reports_what_is_there(tmp_path):
    box = started(tmp_path)
    build(box, TEEPEE, 1)
    box = new_box(tmp_path)
    box.handle(Press("ok"))                                   # resumed before the hub answers
    box.handle(ReaderState("hub", True))
    assert put(box, TEEPEE, 1).signal is None                 # not a second build: that teepee
    assert box.game.poles[0] == ("teepee",) and box.message is None
    lift(box, TEEPEE, 1)
    assert box.view.kind == "confirm"                         # the last move's piece


# --- anything at all ----------------------------------------------------------------------------------

TAGS = (TEEPEE, TEEPEE2, EAGLE, CHIEF, SUN, WINGS, CRESTS, uid("village:chief"))
READERS = ("pad", "slot1", "slot2", "slot3", "slot4", "slot5", "slot6")
slot_events = st.one_of(
    st.builds(Tag, st.sampled_from(TAGS), st.sampled_from(READERS)),
    st.builds(TagGone, st.sampled_from(TAGS), st.sampled_from(READERS)),
    st.builds(Press, st.sampled_from(("ok", "back", "down", "v1", "v2", "v3"))),
    st.builds(Hold, st.sampled_from(("v1", "v2"))),
    st.builds(ReaderState, st.sampled_from(("hub", "slot1", "slot2")), st.booleans()),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(slot_events, min_size=1, max_size=80))
def test_any_placements_keep_the_box_and_its_journal_sound(tmp_path_factory, script):
    box = started(tmp_path_factory.mktemp("slots"))
    for event in script:
        out = box.handle(event)
        assert out.frame.size == (128, 64)
        if box.game is not None:
            journal = (box.data_dir / "current.jsonl").read_text(encoding="utf-8")
            assert read_record(journal)[0].history == box.game.history
        if box.screen == "board" and box.message is not None:
            assert box.message.strip() and "\n" not in box.message


# --- problems() -------------------------------------------------------------------------------------

ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]


@st.composite
def played(draw):
    """A game after a random number of random legal moves, each build and claim with a tag
    of its own placed in a tracker (as slot mode does), and what each tag is."""
    game = Wakanda(ROW)
    tracker = TagTracker()
    for index in range(draw(st.integers(0, 40))):
        moves = game.legal_moves()
        if not moves:
            break
        move = pick(draw, moves)
        game.push(move)
        player = game.history[-1][0]
        tag = f"0400{index:010X}"
        if isinstance(move, Build):
            tracker.place(index, tag, Place("pole", move.village))
            tracker.identify(tag, Piece(move.piece))
        elif isinstance(move, Claim):
            tracker.place(index, tag, Place("pole", move.village))
            tracker.identify(tag, Headdress(HEADDRESSES[player]))
    return game, tracker


def on_poles(tracker):
    return [(uid_, village) for village in range(1, 7) for _, uid_ in tracker.placed_on(village)]


@settings(max_examples=60, deadline=None)
@given(played())
def test_a_board_that_mirrors_the_record_has_no_problem(case):
    game, tracker = case
    placed = on_poles(tracker)
    for tag, village in placed:
        tracker.arrive(tag, slot_reader(village))
    assert problems(game, tracker, set(placed), set()) == []


@settings(max_examples=60, deadline=None)
@given(played(), st.data())
def test_each_watched_tag_off_its_slot_is_missing_bottom_to_top_first(case, data):
    game, tracker = case
    placed = on_poles(tracker)
    seen = [key for key in placed if data.draw(st.booleans())]          # within reach
    lifted = [key for key in seen if data.draw(st.booleans())]
    for tag, village in placed:
        if (tag, village) not in lifted:
            tracker.arrive(tag, slot_reader(village))
    found = problems(game, tracker, set(seen), set())
    assert found == [Missing(village, tag, tracker.item_of(tag).kind) for tag, village in lifted]


@settings(max_examples=60, deadline=None)
@given(played(), st.data())
def test_a_tag_on_a_slot_its_pole_does_not_hold_is_a_stray_after_the_missing(case, data):
    game, tracker = case
    placed = on_poles(tracker)
    for tag, village in placed:
        tracker.arrive(tag, slot_reader(village))
    moved = data.draw(st.sampled_from(placed)) if placed else None
    fresh = "04FF0000000001"
    tracker.identify(fresh, Piece("sun"))
    tracker.arrive(fresh, slot_reader(data.draw(st.integers(1, 6))))
    expected_missing = []
    if moved is not None:
        tag, village = moved
        tracker.leave(tag, slot_reader(village))
        elsewhere = data.draw(st.integers(1, 6).filter(lambda v: v != village))
        tracker.arrive(tag, slot_reader(elsewhere))
        expected_missing = [Missing(village, tag, tracker.item_of(tag).kind)]
    found = problems(game, tracker, set(placed), set())
    assert found[:len(expected_missing)] == expected_missing
    strays = found[len(expected_missing):]
    assert all(isinstance(p, Stray) for p in strays)
    assert [p.village for p in strays] == sorted(p.village for p in strays)
    assert {(p.uid, p.belongs) for p in strays} == (
        {(fresh, None)} | ({(moved[0], Place("pole", moved[1]))} if moved else set()))
    # Strays the players chose to leave are no problem until they go.
    assert problems(game, tracker, set(placed), {(p.uid, p.village) for p in strays}) == \
        expected_missing


def test_a_tag_drawn_into_a_hand_stands_only_for_a_later_build_of_that_player():
    game = Wakanda(ROW)
    tracker = TagTracker()
    for move in (Draw("teepee"), Build("teepee", 1), Draw("teepee"), Build("teepee", 1)):
        game.push(move)
    tracker.place(2, TEEPEE2, Place("hand", 1))                         # Player 2's draw
    assert adoptable(game, tracker, 1, TEEPEE2, "teepee") == 3           # not Player 1's build
    assert adoptable(game, tracker, 1, TEEPEE, "teepee") == 1            # an unknown tag: the lowest
    tracker.place(1, TEEPEE, Place("pole", 1))
    assert adoptable(game, tracker, 1, TEEPEE, "teepee") is None         # already on a pole
    assert adoptable(game, tracker, 2, TEEPEE2, "teepee") is None        # nothing on village 2
