"""The bundled fonts and the shared drawing helpers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.wakanda import icons
from companion.ui.canvas import (
    HEIGHT,
    LARGE,
    MEDIUM,
    SMALL,
    WIDTH,
    draw_text,
    fit,
    new_canvas,
    text_band,
    text_width,
    wrap,
)

BULGARIAN = "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЬЮЯабвгдежзийклмнопрстуфхцчшщъьюя"
LATIN = "AZaz09ÄÖÜßéèçñøåŁłŚśŽžČčŐő"
SYMBOLS = "▲▼·—…×−"


@pytest.mark.parametrize("font", [SMALL, MEDIUM, LARGE], ids=lambda f: f.name)
def test_fonts_cover_latin_cyrillic_and_the_symbols_used(font):
    question = font.glyph("?").tobytes()
    for ch in BULGARIAN + LATIN + SYMBOLS:
        glyph = font.glyph(ch)
        assert glyph.size == (font.width, font.height)
        assert glyph.getbbox() is not None, f"{ch!r} is blank in {font.name}"
        assert glyph.tobytes() != question, f"{ch!r} missing from {font.name}"


def test_fonts_have_the_documented_cell_sizes():
    assert (SMALL.width, SMALL.height) == (5, 7)
    assert (MEDIUM.width, MEDIUM.height) == (6, 10)
    assert (LARGE.width, LARGE.height) == (7, 13)


def test_a_missing_character_draws_as_a_question_mark():
    a, b = new_canvas(), new_canvas()
    draw_text(a, 0, 0, "\u4e2d", MEDIUM)
    draw_text(b, 0, 0, "?", MEDIUM)
    assert a.tobytes() == b.tobytes()


def test_new_canvas_is_a_dark_128_by_64_one_bit_frame():
    image = new_canvas()
    assert (image.size, image.mode) == ((WIDTH, HEIGHT), "1")
    assert image.getbbox() is None


def test_draw_text_lights_pixels_only_inside_its_cells_and_returns_the_next_x():
    image = new_canvas()
    end = draw_text(image, 10, 20, "Ана", MEDIUM)
    assert end == 10 + 3 * MEDIUM.width
    left, top, right, bottom = image.getbbox()
    assert left >= 10 and top >= 20 and right <= end and bottom <= 20 + MEDIUM.height


def test_dark_text_on_a_lit_background_punches_holes():
    image = new_canvas()
    image.paste(1, (0, 0, WIDTH, HEIGHT))
    draw_text(image, 0, 0, "W4", SMALL, fill=0)
    assert image.convert("L").getextrema() == (0, 255)


def test_fit_keeps_short_text_and_cuts_long_text_with_an_ellipsis():
    assert fit("Ana", 30, SMALL) == "Ana"
    assert fit("Village tile", 30, SMALL) == "Villa…"
    assert text_width(fit("Village tile", 30, SMALL), SMALL) <= 30


@given(st.text(alphabet=st.sampled_from("ab Жя…"), max_size=60), st.integers(0, 128))
def test_fit_never_overflows(text, width):
    assert text_width(fit(text, width, SMALL), SMALL) <= max(width, 0)


def test_wrap_breaks_at_spaces():
    assert wrap("Scan village tile 3", 60, SMALL) == ["Scan village", "tile 3"]


def test_wrap_cuts_a_word_longer_than_a_line():
    assert wrap("Разнообразие", 30, SMALL) == ["Разноо", "бразие"]


def test_wrap_with_max_lines_ends_in_an_ellipsis():
    lines = wrap("one two three four five six seven", 40, SMALL, max_lines=2)
    assert len(lines) == 2 and lines[-1].endswith("…")
    # A last line with room left gets one "…", never a row of them.
    assert wrap("Draw for me, scanning-the-piece", 20 * SMALL.width, SMALL, max_lines=1) == ["Draw for me,…"]


@given(st.lists(st.text(alphabet="abcdefgh", min_size=1, max_size=14), max_size=12),
       st.integers(10, 128))
def test_wrapped_lines_fit_and_keep_every_letter(words, width):
    text = " ".join(words)
    lines = wrap(text, width, SMALL)
    assert all(text_width(line, SMALL) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_text_band_sits_on_the_bottom_edge_and_is_lit_when_inverted():
    plain, lit = new_canvas(), new_canvas()
    top = text_band(plain, ["Village 5 is not open yet", "W4"], SMALL)
    assert text_band(lit, ["Village 5 is not open yet", "W4"], SMALL, inverted=True) == top
    assert top == HEIGHT - 1 - 2 * (SMALL.height + 1)
    assert plain.crop((0, 0, WIDTH, top)).getbbox() is None
    lit_share = sum(lit.crop((0, top, WIDTH, HEIGHT)).convert("L").histogram()[255:])
    assert lit_share > WIDTH * (HEIGHT - top) // 2


def test_icons_have_the_sizes_the_board_is_laid_out_for():
    for piece in icons.PIECE_TYPES:
        assert icons.icon(piece).size == (icons.ICON_WIDTH, icons.PIECE_HEIGHT)
    for player in (0, 1):
        assert icons.headdress(player).size == (icons.ICON_WIDTH, icons.HEADDRESS_HEIGHT)
    assert icons.icon("eagle", 2).size == (2 * icons.ICON_WIDTH, 2 * icons.PIECE_HEIGHT)


def test_every_icon_is_different():
    names = list(icons.PIECE_TYPES) + list(icons.HEADDRESSES)
    assert len({icons.icon(name).tobytes() for name in names}) == len(names)
