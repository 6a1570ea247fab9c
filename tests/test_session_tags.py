"""Tags at the table: repeated reads, pieces already used, unknown tags, the other game's
cards, a reader unplugged mid-game, and the reader hub's village slots."""

import json
import random

from companion.events import Hold, Press, ReaderState, Tag, TagGone
from companion.table.registry import TagRegistry
from companion.table.session import Session

ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]
TAGS = {"0A00000001": "sun", "0A00000002": "sun", "0A00000003": "eagle",
        "0A00000010": "wings", "0A00000011": "crests", "0A00000020": "village:height",
        "0A00000030": "indians/snake"}
SUN1, SUN2, EAGLE, WINGS, CRESTS, HEIGHT, SNAKE = TAGS


def started(tmp_path):
    s = Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json", TAGS), rng=random.Random(1))
    s.handle(Press("ok"))                                  # new game
    s.handle(Press("ok"))                                  # open variant
    for village in ROW:
        s.handle(Tag(f"village:{village}")); s.handle(TagGone(f"village:{village}"))
    s.handle(Press("ok"))                                  # Player 1 starts
    assert s.screen == "board"
    return s


def lines(s):
    return (s.data_dir / "current.jsonl").read_text().splitlines()


def test_repeated_reads_of_a_tag_on_the_pad_are_applied_once(tmp_path):
    s = started(tmp_path)
    first = s.handle(Tag(SUN1))
    assert first.signal == "accepted"
    for _ in range(5):
        out = s.handle(Tag(SUN1))
        assert out.signal is None and out.frame is first.frame
    assert s.game.hands[0]["sun"] == 1 and len(lines(s)) == 2


def test_the_drawn_piece_scanned_again_is_the_piece_to_place(tmp_path):
    s = started(tmp_path)
    s.handle(Tag(SUN1)); s.handle(TagGone(SUN1))
    assert s.handle(Tag(SUN1)).signal == "accepted"
    assert s.view.pending == "sun" and s.game.hands[0]["sun"] == 1
    s.handle(Press("v1"))
    assert s.game.poles[0] == ("sun",)


def test_a_piece_already_on_a_pole_is_never_drawn_again(tmp_path):
    s = started(tmp_path)
    s.handle(Tag(SUN1)); s.handle(TagGone(SUN1))
    s.handle(Tag(SUN1)); s.handle(TagGone(SUN1)); s.handle(Press("v1"))
    out = s.handle(Tag(SUN1))                              # Player 2 scans the built sun
    assert out.signal == "refused" and s.message == "That sun is on village 1 already"
    assert s.game.phase == "draw" and s.game.bag["sun"] == 5
    s.handle(TagGone(SUN1))
    assert s.handle(Tag(SUN2)).signal == "accepted"          # another sun is fine
    assert s.game.bag["sun"] == 4


def test_a_drawn_piece_is_not_drawn_twice(tmp_path):
    s = started(tmp_path)
    s.handle(Tag(EAGLE)); s.handle(TagGone(EAGLE))
    s.handle(Tag(SUN1)); s.handle(TagGone(SUN1))             # not in Player 1's hand
    assert s.message == "No sun in Player 1's hand — W4"
    s.handle(Press("v2"))                                    # the eagle, the only piece
    out = s.handle(Tag(EAGLE))                               # Player 2 scans the same eagle
    assert out.signal == "refused" and s.message == "Eagle drawn already: draw another piece"
    assert s.game.phase == "draw" and s.game.bag["eagle"] == 0


def test_undo_forgets_where_a_tag_went(tmp_path):
    s = started(tmp_path)
    s.handle(Tag(SUN1)); s.handle(TagGone(SUN1))
    s.handle(Press("v1"))
    s.handle(Press("back")); s.handle(Press("ok"))           # take back the build
    s.handle(Press("back")); s.handle(Press("ok"))           # and the draw: the sun is in the bag
    assert s.handle(Tag(SUN1)).signal == "accepted"
    assert s.game.hands[0]["sun"] == 1


def test_unknown_tag_and_other_game_are_explained_not_applied(tmp_path):
    s = started(tmp_path)
    out = s.handle(Tag("FFFFFFFFFF"))
    assert out.signal == "refused" and s.message == "Unknown tag — enroll it"
    out = s.handle(Tag(SNAKE))
    assert out.signal == "refused" and "Totem Wars" in s.message
    assert s.game.history == () and len(lines(s)) == 1


def test_item_names_in_a_script_work_like_enrolled_tags(tmp_path):
    s = started(tmp_path)
    s.handle(Tag("eagle")); s.handle(TagGone("eagle"))
    s.handle(Tag("eagle")); s.handle(TagGone("eagle"))
    s.handle(Press("v2"))
    assert json.loads(lines(s)[-1]) == {"p": 0, "build": "eagle", "village": 2}


def test_reader_unplugged_mid_game_then_buttons(tmp_path):
    s = started(tmp_path)
    s.handle(Tag(SUN1))
    out = s.handle(ReaderState("pad", False))
    assert out.signal == "refused" and "buttons" in s.message
    s.handle(Press("v1"))                                    # the game goes on
    assert s.game.poles[0] == ("sun",)
    s.handle(ReaderState("pad", True))
    assert s.message == "Reader connected"
    assert s.handle(Tag(EAGLE)).signal == "accepted"          # a fresh read after reconnect


def test_reader_hub_slots_build_and_claim_where_the_piece_lands(tmp_path):
    s = started(tmp_path)
    s.handle(Tag(SUN1)); s.handle(TagGone(SUN1))
    assert s.handle(Tag(SUN1, "slot2")).signal == "your_turn"
    assert s.game.poles[1] == ("sun",)
    s.handle(TagGone(SUN1, "slot2"))                         # lifted: take the build back?
    assert s.view.kind == "confirm"
    assert s.handle(Tag(SUN1, "slot2")).signal is None        # put back: nothing happened
    assert s.game.poles[1] == ("sun",) and s.view.kind == "board" and s.message is None
    s.handle(Tag(EAGLE)); s.handle(TagGone(EAGLE))
    assert s.handle(Tag(CRESTS, "slot2")).signal == "your_turn"
    assert s.game.owners[1] == 1


def test_a_piece_put_on_a_slot_before_the_draw_is_refused(tmp_path):
    s = started(tmp_path)
    out = s.handle(Tag(SUN1, "slot1"))
    assert out.signal == "refused" and s.message.endswith("W4")
    assert s.game.history == ()


def test_headdress_of_the_player_with_none_left(tmp_path):
    s = started(tmp_path)
    plan = [("sun", "v1"), ("sun", "v2"), ("sun", "hold v1"), ("sun", "v3"),
            ("sun", "hold v2"), ("sun", "v4"), ("skin", "hold v3"), ("skin", "v4")]
    for piece, action in plan:                               # (draw, action) turn by turn
        s.handle(Tag(piece)); s.handle(TagGone(piece))
        s.handle(Hold(action[5:]) if action.startswith("hold") else Press(action))
    assert s.game.headdresses == (0, 3) and s.game.to_move == 0
    s.handle(Tag("skin")); s.handle(TagGone("skin"))
    out = s.handle(Tag(WINGS))
    assert out.signal == "refused" and s.message == "Player 1 has no headdress left — W6"


def test_a_village_tile_scanned_mid_game_says_where_it_lies(tmp_path):
    s = started(tmp_path)
    out = s.handle(Tag("village:sun"))
    assert out.signal is None and s.message == "The sun tile is village 5"
    s.handle(Tag(HEIGHT))
    assert s.message == "The height tile is not in this game"
    assert s.game.history == ()
