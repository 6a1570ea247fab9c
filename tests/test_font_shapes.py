"""Every letter of every catalogue reads as itself in every font, lit or dimmed (issue: a
German board read "Häuptling" and "Tierhaut" both as "HAU", Bulgarian "ф" as "♭", Portuguese
"lê-o" as "l&-o"): a marked letter never looks like its unmarked twin, a small letter's mark
stands apart from it in the 5×7 font, and the tile labels of a language are told apart
without their marks."""

from __future__ import annotations

import unicodedata
from functools import cache

import pytest
from PIL import Image

from companion import catalogues
from companion.games.wakanda.screens import _label
from companion.games.wakanda.words import tile_label
from companion.ui.canvas import LARGE, MEDIUM, SMALL, Font, draw_text
from companion.words import LANGUAGES

FONTS = (SMALL, MEDIUM, LARGE)
ABOVE = {"\u0300", "\u0301", "\u0302", "\u0303", "\u0308"}   # grave, acute, circumflex, tilde, diaeresis
VILLAGES = ("eagle", "chief", "tomahawk", "skin", "teepee", "variety", "height", "sun")


@cache
def letters() -> tuple[str, ...]:
    """Every letter with a mark that a catalogue writes."""
    chars: set[str] = set()
    for po in catalogues.po_files():
        chars |= set(po.read_text(encoding="utf-8").split("msgstr", 1)[1])
    return tuple(sorted(c for c in chars if c.isalpha() and len(unicodedata.normalize("NFD", c)) > 1))


def drawn(char: str, font: Font, lit: bool) -> bytes:
    """``char`` as the screen draws it: dark on a lit band, or lit on the dark screen."""
    image = Image.new("1", (font.width + 2, font.height + 2), 1 if lit else 0)
    draw_text(image, 1, 1, char, font, 0 if lit else 1)
    return image.tobytes()


def rows(char: str) -> list[bool]:
    glyph = SMALL.glyphs[char]
    return [any(glyph.getpixel((x, y)) for x in range(glyph.width)) for y in range(glyph.height)]


@pytest.mark.parametrize("font", FONTS, ids=lambda font: font.name)
@pytest.mark.parametrize("lit", [False, True], ids=["dimmed", "lit"])
def test_a_marked_letter_never_looks_like_its_twin(font, lit):
    alike = [char for char in letters()
             if drawn(char, font, lit) == drawn(unicodedata.normalize("NFD", char)[0], font, lit)]
    assert alike == []


def test_a_small_letter_s_mark_stands_apart_in_the_small_font():
    touching = []
    for char in letters():
        base, *marks = unicodedata.normalize("NFD", char)
        if base.islower() and set(marks) <= ABOVE:
            inked = rows(char)
            top = inked.index(True)
            if all(inked[top:6]):  # no blank row between the mark and the letter
                touching.append(char)
    assert touching == []


def test_ef_is_drawn_whole_and_symmetric_in_the_small_font():
    glyph = SMALL.glyphs["ф"]
    pixels = [[glyph.getpixel((x, y)) for x in range(5)] for y in range(glyph.height)]
    assert all(row == row[::-1] for row in pixels) and any(row[2] for row in pixels[:2])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tile_labels_are_told_apart_without_their_marks_lit_or_dimmed(lang):
    labels = [tile_label(village, lang) for village in VILLAGES]
    bare = ["".join(c for c in unicodedata.normalize("NFD", label) if not unicodedata.combining(c))
            for label in labels]
    assert len(set(bare)) == len(bare), labels
    for state in ("playable", "open", "turned"):
        assert len({_label(label, state).tobytes() for label in labels}) == len(labels)
