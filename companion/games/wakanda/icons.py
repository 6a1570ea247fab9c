"""Tiny bitmaps: the six piece types, the two headdresses, and small marks.

Each icon is drawn as text art below (``#`` lit) and turned into a mode-``"1"`` image once.
Piece icons are 9×5 so that a pole of them still reads as a stack from across a table.
"""

from __future__ import annotations

from functools import cache

from PIL import Image

from companion.games.wakanda.rules import PIECES

_ART: dict[str, str] = {
    "eagle": """
        #...#...#
        ##.###.##
        .#######.
        ...###...
        ..#...#..
    """,
    "chief": """
        #.#.#.#.#
        #########
        .#.#.#.#.
        .#.....#.
        ..#####..
    """,
    "tomahawk": """
        ....###..
        ...#####.
        ..#.###..
        .#.......
        #........
    """,
    "skin": """
        ##.....##
        .#######.
        ..#####..
        .#######.
        ##.....##
    """,
    "teepee": """
        ...#.#...
        ....#....
        ...###...
        .###.###.
        ####.####
    """,
    "sun": """
        #..###..#
        .#######.
        #########
        .#######.
        #..###..#
    """,
    # Headdresses (W1), as opposite chevrons: Wings (player 0) open up, Crests
    # (player 1) point up.
    "wings": """
        ##.....##
        .##...##.
        ..##.##..
        ...###...
        ....#....
    """,
    "crests": """
        ....#....
        ...###...
        ..##.##..
        .##...##.
        ##.....##
    """,
}

#: The Wakanda piece types, best first (W1); each has an icon.
PIECE_TYPES = tuple(PIECES)
ICON_WIDTH = 9
PIECE_HEIGHT = 5
HEADDRESS_HEIGHT = 5
HEADDRESSES = ("wings", "crests")


@cache
def icon(name: str, scale: int = 1) -> Image.Image:
    """The bitmap called ``name`` (a piece type, ``wings`` or ``crests``), its pixels
    ``scale`` times as large."""
    rows = [row.strip() for row in _ART[name].strip().splitlines()]
    image = Image.new("1", (len(rows[0]), len(rows)), 0)
    image.putdata([1 if ch == "#" else 0 for row in rows for ch in row])
    return image if scale == 1 else image.resize((image.width * scale, image.height * scale))


def headdress(player: int) -> Image.Image:
    """The headdress mark of ``player``: wings for player 0, crests for player 1."""
    return icon(HEADDRESSES[player])


def paste_icon(image: Image.Image, x: int, y: int, name: str, fill: int = 1) -> None:
    """Draw icon ``name`` with its top-left at (x, y) in colour ``fill``."""
    image.paste(fill, (x, y), icon(name))
