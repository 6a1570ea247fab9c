"""Reading a Wakanda board picture's pixels in tests: which village labels are lit."""

from __future__ import annotations

from companion.games.wakanda.screens import LABEL_HEIGHT, column_left
from companion.ui.canvas import HEIGHT, WIDTH


def lit_villages(frame) -> set[int]:
    """The villages whose tile label is lit in a board picture, read off its pixels: the
    labels stand on the band, whose top row is the first full-width lit row under the
    header; a lit label is filled, so the pixel just inside its left edge is lit."""
    band_top = next(y for y in range(12, HEIGHT)
                    if all(frame.getpixel((x, y)) for x in range(WIDTH)))
    label_top = band_top - LABEL_HEIGHT - 1
    return {v for v in range(1, 7) if frame.getpixel((column_left(v) + 1, label_top + 4))}
