"""A tilde reads as a tilde, not as a diaeresis (issue: in the small font Portuguese "não",
"lições", "peões" read as German "näo", "liçöes", "peöes", the one-row tilde being the two
dots of "ä ö ü"): the tilde is a wave on two rows, apart from its letter and inside the
line's box."""

from __future__ import annotations

import pytest
from PIL import Image

from companion.ui.canvas import MEDIUM, SMALL, Font, draw_text, text_width

TILDES = "ão õ ñ"
DIAERESES = "äo ö ü"


def screen(lines: tuple[str, ...], font: Font) -> tuple[Image.Image, int]:
    """``lines`` drawn lit on a dark screen one under another, as wrapped text is (a blank
    row between lines); also the pitch from one line to the next."""
    pitch = font.height + 1
    image = Image.new("1", (max(text_width(line, font) for line in lines), pitch * len(lines)), 0)
    for n, line in enumerate(lines):
        draw_text(image, 0, n * pitch, line, font)
    return image, pitch


def ink(image: Image.Image, left: int, top: int, width: int, height: int) -> list[str]:
    """The rows of a box of ``image``, ``#`` lit and ``.`` dark."""
    return ["".join("#" if image.getpixel((x, y)) else "." for x in range(left, left + width))
            for y in range(top, top + height)]


def mark(image: Image.Image, line: str, char: str, top: int, font: Font) -> list[str]:
    """The inked rows above ``char``'s letter where ``line`` is drawn at ``top``: the rows
    before the first blank one."""
    cell = ink(image, line.index(char) * font.width, top, font.width, font.height)
    first = next(n for n, row in enumerate(cell) if "#" in row)
    last = next(n for n in range(first, len(cell)) if "#" not in cell[n])
    return cell[first:last]


@pytest.mark.parametrize("font", [SMALL, MEDIUM], ids=lambda font: font.name)
def test_a_tilde_never_looks_like_a_diaeresis(font):
    image, pitch = screen((TILDES, DIAERESES), font)
    tildes = [mark(image, TILDES, char, 0, font) for char in "ãõñ"]
    dots = [mark(image, DIAERESES, char, pitch, font) for char in "äöü"]
    assert all(tilde not in dots for tilde in tildes), (tildes, dots)
    # A wave: two rows, the lower one starting left of the upper one.
    assert all(len(tilde) == 2 and tilde[1].index("#") < tilde[0].index("#") for tilde in tildes)
    assert all(len(dot) == 1 for dot in dots)


def test_the_small_tilde_stands_apart_from_its_letter_inside_the_line_s_box():
    lines = ("lições", "não peões", "niño")
    image, pitch = screen(lines, SMALL)
    for n, line in enumerate(lines):
        # The blank row between lines stays blank: nothing of a letter runs into its neighbour.
        assert "#" not in ink(image, 0, n * pitch + SMALL.height, image.width, 1)[0]
        for char in set(line) & set("ãõñ"):
            cell = ink(image, line.index(char) * SMALL.width, n * pitch, SMALL.width, SMALL.height)
            inked = ["#" in row for row in cell]
            # The wave in the top two rows, a blank row, the letter down to the baseline.
            assert inked == [True, True, False, True, True, True, False], (char, cell)


def test_the_small_letters_under_a_tilde_keep_their_shape():
    image, pitch = screen(("ão õ ñ", "ao o n"), SMALL)
    for char, twin in zip("ãõñ", "aon", strict=True):
        body = ink(image, "ão õ ñ".index(char) * SMALL.width, 3, SMALL.width, 3)
        plain = ink(image, "ao o n".index(twin) * SMALL.width, pitch + 2, SMALL.width, 4)
        # Three rows high where the plain letter has four, with its top and bottom rows.
        assert body[0] == plain[0] and body[-1] == plain[-1], (char, body, plain)
