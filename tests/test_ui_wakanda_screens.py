"""What the Wakanda screens show, checked through the pictures they return."""

from __future__ import annotations

import pytest
from conftest import WORKED_EXAMPLE
from PIL import ImageChops

from companion.engine import Refusal
from companion.games.wakanda.score_screens import result_reason, score_pages
from companion.games.wakanda.screens import COLUMN_WIDTH, HEADER_HEIGHT, board_screen, column_left, picker_screen
from companion.ui.canvas import HEIGHT, SMALL, WIDTH, new_canvas, note_lines, text_band
from companion.ui.screens import confirm_screen, menu_screen, message_screen

PIECES = ["eagle", "chief", "tomahawk", "skin", "teepee", "sun"]


def changed(a, b):
    """The box where two frames differ (None when they are the same)."""
    return ImageChops.logical_xor(a, b).getbbox()


def columns_changed(a, b, top=HEADER_HEIGHT + 1, bottom=HEIGHT):
    """The villages (1..6) whose columns differ between two frames, from row ``top``."""
    def column(image, v):
        return image.crop((column_left(v), top, column_left(v) + COLUMN_WIDTH, bottom))
    return {v for v in range(1, 7) if changed(column(a, v), column(b, v))}


def lit(image, box):
    return sum(1 for value in image.crop(box).tobytes() for bit in range(8) if value >> bit & 1)


def test_every_screen_is_a_128_by_64_one_bit_frame(midgame, worked_example):
    frames = [board_screen(midgame), *score_pages(worked_example), *score_pages(midgame),
              menu_screen("Menu", ["a"], 0), picker_screen("Pick", PIECES, 0),
              message_screen("Title", ["line"]), confirm_screen("Undo?", "detail")]
    for frame in frames:
        assert (frame.size, frame.mode) == ((WIDTH, HEIGHT), "1")


def test_the_screens_are_pure(midgame):
    before = midgame.history
    first = board_screen(midgame, cursor=4, pending="tomahawk", message="Press OK")
    assert midgame.history == before
    assert board_screen(midgame, cursor=4, pending="tomahawk",
                        message="Press OK").tobytes() == first.tobytes()


def test_after_the_draw_the_open_villages_light_up(wakanda_play):
    drawing = board_screen(wakanda_play(""))
    acting = board_screen(wakanda_play("d:teepee"))
    assert columns_changed(drawing, acting) == {1, 2, 3}


def test_a_pending_piece_lights_only_the_villages_it_may_go_to(midgame):
    # Villages 1 and 2 are claimed; the skin may go on 3, 4 and 5.
    anything = board_screen(midgame)
    skin = board_screen(midgame, pending="skin")
    headdress = board_screen(midgame, pending="wings")
    assert columns_changed(anything, skin) == set()
    # Claiming: villages 4 and 5 are empty, so only village 3 can be claimed (R1).
    assert columns_changed(anything, headdress) == {4, 5}


def test_the_cursor_changes_only_its_own_column(midgame):
    plain = board_screen(midgame)
    for village in range(1, 7):
        cursor = board_screen(midgame, cursor=village)
        assert columns_changed(plain, cursor, top=0) == {village}


def test_the_pending_piece_stands_on_the_cursor_pole(midgame):
    with_cursor = board_screen(midgame, cursor=3)
    with_piece = board_screen(midgame, cursor=3, pending="skin")
    assert columns_changed(with_cursor, with_piece) == {3}


def test_a_refused_action_is_a_lit_band_at_the_bottom(midgame):
    message = "Village 6 is not open yet — W4"
    prompt = board_screen(midgame, message=message)
    warning = board_screen(midgame, message=message, refused=True)
    band = (0, HEIGHT - 8, WIDTH, HEIGHT)
    assert lit(warning, band) > WIDTH * 8 // 2 > lit(prompt, band)
    assert changed(prompt, warning)[1] >= HEIGHT - 20


def test_without_a_message_the_bottom_rows_are_the_tile_labels(midgame):
    plain = board_screen(midgame)
    prompted = board_screen(midgame, message="Press a village")
    assert changed(plain, prompted)[1] > HEADER_HEIGHT


def test_a_refusal_too_long_for_two_lines_is_shown_whole_with_its_rule(midgame):
    refusal = Refusal("not_yours", {"headdress": "wings", "owner": "Alexandra", "mover": "Benjamin"}, "W4", "wakanda")
    lines = note_lines("Wings are Alexandra's; it is Benjamin's turn", 4, rule="W4")
    assert lines == ["Wings are Alexandra's;", "it is Benjamin's turn", "— W4"]   # whole, rule kept
    shown = board_screen(midgame, message=refusal, refused=True)
    band = new_canvas()
    top = text_band(band, lines, SMALL, inverted=True)
    assert shown.crop((0, top, WIDTH, HEIGHT)).tobytes() == band.crop((0, top, WIDTH, HEIGHT)).tobytes()


def test_a_tall_pole_stays_in_its_column_below_the_header(wakanda_play):
    pieces = ["sun", "teepee", "skin", "sun", "tomahawk", "teepee", "chief", "sun", "skin",
              "teepee", "sun"]
    two_lines = "A note long enough to take two lines of the band"
    short = board_screen(wakanda_play("d:sun b:sun:1 d:eagle"), message=two_lines)
    tall = board_screen(wakanda_play(" ".join(f"d:{p} b:{p}:1" for p in pieces) + " d:eagle"),
                        message=two_lines)
    assert columns_changed(short, tall) == {1}
    assert tall.crop((0, HEADER_HEIGHT, WIDTH, HEADER_HEIGHT + 1)).getbbox() is None


def test_face_down_tiles_differ_from_face_up_ones_only_in_their_columns(wakanda_play):
    row = ("teepee", "eagle", "chief", "variety", "sun", "tomahawk")
    shown = board_screen(wakanda_play("", villages=row))
    hidden = board_screen(wakanda_play("", villages=row[:3] + (None, None, None),
                                       variant="hidden"))
    assert columns_changed(shown, hidden) == {4, 5, 6}


def test_players_with_default_names_are_told_apart_in_the_header():
    """"Player 1" and "Player 2" cut to the same "Player…" and "Play": whose turn was unclear."""
    from companion.games.wakanda import Draw, Wakanda

    def header(players):
        game = Wakanda(["teepee", "eagle", "chief", "variety", "sun", "tomahawk"],
                       players=players)
        game.push(Draw("sun"))
        return board_screen(game).crop((0, 0, WIDTH, HEADER_HEIGHT))

    two, three = header(("Player 1", "Player 2")), header(("Player 1", "Player 3"))
    assert changed(two, three)                           # the other player's name shows
    assert changed(header(("Player 1", "Player 2")), header(("Player 5", "Player 2")))


def test_a_claim_puts_the_owner_mark_on_that_pole(wakanda_play):
    before = board_screen(wakanda_play("d:sun b:sun:2 d:teepee"))
    after = board_screen(wakanda_play("d:sun b:sun:2 d:teepee c:2 d:skin"))
    # Village 2 gets its cap; village 4 opens (W4 B); villages 1 and 3 stay open for Ana.
    assert columns_changed(before, after) == {2, 4}


def test_open_hands_show_the_other_hand_in_the_header(wakanda_play):
    moves = "d:sun b:sun:1 d:chief c:1 d:skin"
    hidden = board_screen(wakanda_play(moves))
    shown = board_screen(wakanda_play(moves, open_hands=True))
    assert changed(hidden, shown)[3] <= HEADER_HEIGHT


def test_the_finished_board_names_the_winner(worked_example, wakanda_play):
    finished = board_screen(worked_example)
    one_before = board_screen(wakanda_play(" ".join(WORKED_EXAMPLE.split()[:-1])))
    assert changed(finished.crop((0, 0, WIDTH, HEADER_HEIGHT)),
                   one_before.crop((0, 0, WIDTH, HEADER_HEIGHT))) is not None


def test_score_pages_are_the_result_then_one_page_per_player(worked_example):
    pages = score_pages(worked_example)
    assert len(pages) == 3
    assert len({page.tobytes() for page in pages}) == 3
    assert result_reason(worked_example) == "Higher total (W9)"


def test_a_tie_is_broken_by_the_third_headdress(wakanda_play):
    # Empty poles may always be claimed: six claims, nothing built, 0 to 0 (W9).
    game = wakanda_play("d:sun c:1 d:sun c:2 d:sun c:3 d:sun c:4 d:sun c:5 d:sun c:6",
                        empty_claim="always")
    assert game.outcome().winners == (0,)
    assert result_reason(game) == "Tie: Ana placed the third headdress first (W9)"
    assert len(score_pages(game)) == 3


def test_provisional_score_pages_before_the_end(midgame):
    assert len(score_pages(midgame)) == 3


def test_the_picker_knows_pieces_by_key_or_by_name():
    by_key = picker_screen("Which piece?", PIECES, 1)
    by_name = picker_screen("Which piece?", [p.title() for p in PIECES], 1)
    assert by_key.tobytes() == by_name.tobytes()
    from companion.games.wakanda.icons import icon
    big = icon(PIECES[1], 2)                          # the chosen piece, its icon twice as large
    shown = by_key.crop((5, 30, 5 + big.width, 30 + big.height)).convert("L")
    assert shown.tobytes() == big.convert("L").point(lambda v: 255 if v else 0).tobytes()


@pytest.mark.parametrize("count", [1, 2, 3, 7])
def test_the_picker_shows_every_selection(count):
    options = [f"Option {i}" for i in range(count)]
    frames = {picker_screen("Pick", options, i).tobytes() for i in range(count)}
    assert len(frames) == count


def test_a_long_menu_scrolls_to_keep_the_selection_on_screen():
    items = [f"Item {i}" for i in range(12)]
    frames = [menu_screen("Menu", items, i, footer="▲▼ choose · OK") for i in range(12)]
    assert len({frame.tobytes() for frame in frames}) == 12
    assert frames[0].tobytes() != menu_screen("Menu", items, 0).tobytes()


def test_a_long_message_is_cut_to_the_screen():
    frame = message_screen("Note", ["word " * 80], footer="OK")
    assert (frame.size, frame.mode) == ((WIDTH, HEIGHT), "1")
