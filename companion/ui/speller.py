"""The name speller's screen: a name spelled with the buttons, letter by letter."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from companion.ui.canvas import (
    LARGE,
    MEDIUM,
    SMALL,
    WIDTH,
    draw_text,
    fill_box,
    new_canvas,
    text_width,
)
from companion.ui.screens import TITLE_HEIGHT, footer_line, note_band, title_band

NAME_TOP = TITLE_HEIGHT + 4
WHEEL_TOP = NAME_TOP + LARGE.height + 6
GAP = 5  # pixels between two entries of the wheel


def speller_screen(title: str, counter: str, name: str, cell: str | None, wheel: Sequence[str],
                   selected: int, footer: str | None = None, note: str | None = None,
                   refused: bool = False) -> Image.Image:
    """The name so far, large, with ``cell`` (the character OK would add; None when the
    wheel shows the entry that ends the spelling) lit where it would go; under it
    the wheel, the entry shown lit in the middle and its neighbours either side (▲ turns it
    left, ▼ right); ``footer`` says what the buttons do, ``note`` (lit when ``refused``)
    takes its place. ``counter`` goes in the title band (``3/16``)."""
    image = new_canvas()
    title_band(image, title, counter)
    x = draw_text(image, 4, NAME_TOP, name, LARGE)
    if cell is not None and x + LARGE.width < WIDTH:
        # The letter to come is a lit cell, not a word of the name (--display text).
        fill_box(image, (x, NAME_TOP, x + LARGE.width - 1, NAME_TOP + LARGE.height - 1))
        image.paste(0, (x, NAME_TOP), LARGE.glyph(cell))
    _wheel(image, wheel, selected)
    if note:
        note_band(image, note, refused, max_lines=1)
    else:
        footer_line(image, footer)
    return image


def _wheel(image: Image.Image, wheel: Sequence[str], selected: int) -> None:
    label = wheel[selected]
    width = text_width(label, MEDIUM) + 4
    left = (WIDTH - width) // 2
    fill_box(image, (left, WHEEL_TOP - 1, left + width - 1, WHEEL_TOP + MEDIUM.height - 1))
    draw_text(image, left + 2, WHEEL_TOP, label, MEDIUM, 0)
    room = (8, WIDTH - 8)  # the arrows' room at either end
    before, after = left - GAP, left + width + GAP
    # Each side stops at the first entry that does not fit: none is ever skipped.
    fits_before = fits_after = True
    for step in range(1, len(wheel) // 2 + 1):
        earlier = wheel[(selected - step) % len(wheel)]
        later = wheel[(selected + step) % len(wheel)]
        fits_before = fits_before and before - text_width(earlier, MEDIUM) >= room[0]
        fits_after = fits_after and after + text_width(later, MEDIUM) <= room[1]
        if fits_before:
            before -= text_width(earlier, MEDIUM)
            draw_text(image, before, WHEEL_TOP, earlier, MEDIUM)
            before -= GAP
        if fits_after:
            after = draw_text(image, after, WHEEL_TOP, later, MEDIUM) + GAP
    draw_text(image, 1, WHEEL_TOP + 1, "▲", SMALL)
    draw_text(image, WIDTH - 6, WHEEL_TOP + 1, "▼", SMALL)
