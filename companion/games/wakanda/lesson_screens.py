"""The pictures of the Wakanda lesson: what each village of the real row is worth (W7).

One column a village, where the board draws it (under its button): what it counts — the
piece, two kinds of piece for variety, a pole for height —, its tile label (hatched while
face down), and its points: ``×8`` for each eagle, ``2×k`` for each kind, ``2×h`` for each
piece of the tallest pole. The runner draws the page's title and footer over the top band
and the bottom line.
"""

from __future__ import annotations

from PIL import Image

from companion.games.wakanda import icons as art
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.rules import PIECE_VILLAGE_POINTS
from companion.games.wakanda.screens import COLUMN_WIDTH, LABEL_HEIGHT, column_left
from companion.games.wakanda.words import t, tile_label
from companion.ui.canvas import MEDIUM, SMALL, draw_centered, hatch_box, new_canvas, outline_box
from companion.ui.screens import FOOTER_TOP

ICON_TOP = 13
LABEL_TOP = 26
POINTS_TOP = 36


def _what(image: Image.Image, x: int, village: str) -> None:
    """What the village counts, drawn above its label."""
    middle = x + COLUMN_WIDTH // 2
    if village in PIECE_VILLAGE_POINTS or village == "sun":
        icon = art.icon(village, 2)
        image.paste(1, (middle - icon.width // 2, ICON_TOP), icon)
    elif village == "variety":  # two kinds side by side
        image.paste(1, (middle - art.ICON_WIDTH - 1, ICON_TOP + 3), art.icon("chief"))
        image.paste(1, (middle + 1, ICON_TOP + 3), art.icon("teepee"))
    else:  # height: a pole
        for level in range(2):
            image.paste(1, (middle - art.ICON_WIDTH // 2, ICON_TOP + level * (art.PIECE_HEIGHT + 1)),
                        art.icon("skin"))


def _points(village: str) -> str:
    """The village's points, short: ``×8``, ``2×k``."""
    if village in PIECE_VILLAGE_POINTS:
        return f"×{PIECE_VILLAGE_POINTS[village]}"
    return t(f"tutorial.wakanda.pic.{village}")


def row_picture(game: Wakanda) -> Image.Image:
    """The villages of ``game``'s row and what each scores, under a line saying over which
    poles (all the owner's, W7)."""
    image = new_canvas()
    for number, village in enumerate(game.villages, start=1):
        x = column_left(number)
        box = (x, LABEL_TOP, x + COLUMN_WIDTH - 1, LABEL_TOP + LABEL_HEIGHT - 1)
        if village is None:
            hatch_box(image, box)
            draw_centered(image, ICON_TOP + 2, "?", MEDIUM, left=x, right=x + COLUMN_WIDTH)
            continue
        outline_box(image, box)
        draw_centered(image, LABEL_TOP + 1, tile_label(village), SMALL, left=x, right=x + COLUMN_WIDTH)
        _what(image, x, village)
        draw_centered(image, POINTS_TOP, _points(village), MEDIUM, left=x, right=x + COLUMN_WIDTH + 1)
    draw_centered(image, FOOTER_TOP - SMALL.height - 1, t("tutorial.wakanda.pic.line"), SMALL)
    return image
