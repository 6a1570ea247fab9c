"""The OLED's twin in a terminal: the 128×64 picture in Unicode, redrawn in place.

Each braille character holds 2×4 dots, so the picture is 64 characters × 16 lines, drawn
in a box with a footer line under it (the key help, or what is being typed as a scan):
19 lines × 66 columns, which fits an 80×24 terminal. A terminal of at least 130 × 36 gets
half blocks instead (one character a pixel column, two pixel rows a line: 128 × 32), which
read much better. Only lines that changed are rewritten, with plain ANSI cursor moves, so
no curses is needed.
"""

from __future__ import annotations

import threading
from typing import TextIO

from PIL import Image

from hardware.frame import HEIGHT, WIDTH, check_frame

COLUMNS, ROWS = WIDTH // 2, HEIGHT // 4

BRAILLE = 0x2800
# Dot bit of the pixel at (column in the cell, row in the cell), Unicode braille order.
_DOT = {(0, 0): 0x01, (0, 1): 0x02, (0, 2): 0x04, (0, 3): 0x40,
        (1, 0): 0x08, (1, 1): 0x10, (1, 2): 0x20, (1, 3): 0x80}


def _row_table(dot_row: int) -> list[int]:
    # For one byte of a pixel row (8 pixels = 4 cells), the dots it lights in those 4
    # cells, one cell a byte of the result, leftmost cell in the most significant byte.
    table = []
    for value in range(256):
        packed = 0
        for pixel in range(8):
            if value & (0x80 >> pixel):
                cell, column = divmod(pixel, 2)
                packed |= _DOT[column, dot_row] << (8 * (3 - cell))
        table.append(packed)
    return table


_TABLES = [_row_table(row) for row in range(4)]


def braille_lines(image: Image.Image) -> list[str]:
    """The picture of a mode "1" 128×64 image as 16 lines of 64 braille characters."""
    data = image.tobytes()  # 16 bytes a pixel row, most significant bit leftmost
    stride = WIDTH // 8
    lines = []
    for row in range(ROWS):
        rows = [data[(row * 4 + k) * stride:(row * 4 + k + 1) * stride] for k in range(4)]
        t0, t1, t2, t3 = _TABLES
        cells = bytearray()
        for a, b, c, d in zip(*rows, strict=True):
            cells += (t0[a] | t1[b] | t2[c] | t3[d]).to_bytes(4, "big")
        lines.append("".join(chr(BRAILLE + dots) for dots in cells))
    return lines


_HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def block_lines(image: Image.Image) -> list[str]:
    """The picture of a mode "1" 128×64 image as 32 lines of 128 half-block characters."""
    pixels = image.load()
    assert pixels is not None       # None only for an image without pixel data
    return ["".join(_HALF_BLOCKS[bool(pixels[x, y]), bool(pixels[x, y + 1])] for x in range(WIDTH))
            for y in range(0, HEIGHT, 2)]


#: The smallest terminal (columns, lines) for the braille picture, and for the half blocks:
#: the box, the picture, the footer and the line the cursor rests on.
BRAILLE_FIT = (COLUMNS + 2, ROWS + 3)
BLOCKS_FIT = (WIDTH + 2, HEIGHT // 2 + 4)


class TerminalDisplay:
    """A display writing to a text stream (a terminal): ``show``, ``set_footer``, ``close``.

    Safe to call from several threads (the keyboard input updates the footer while the
    game shows frames).
    """

    def __init__(self, stream: TextIO, title: str = "Totem Companion", *, blocks: bool = False):
        self._stream = stream
        self._title = title
        self._render = block_lines if blocks else braille_lines
        columns = WIDTH if blocks else COLUMNS
        self._box_width = columns + 2
        #: Lines the display occupies: top border, picture, bottom border, footer.
        self._height = (HEIGHT // 2 if blocks else ROWS) + 3
        self._lines: list[str] | None = None  # picture lines on screen; None before the first frame
        self._footer = ""
        self._lock = threading.Lock()

    def show(self, image: Image.Image) -> int:
        """Draw ``image`` (mode "1", 128×64) if it changed; the number of characters written."""
        check_frame(image)
        lines = [f"│{line}│" for line in self._render(image)]
        with self._lock:
            if self._lines is None:
                width = self._box_width
                top = f"┌─ {self._title} ".ljust(width - 1, "─")[:width - 1] + "┐"
                text = "\x1b[?25l" + "\r\n".join([top, *lines, "└" + "─" * (width - 2) + "┘",
                                                  self._footer_text()]) + "\r\n"
            else:
                changed = {i + 1: line for i, (line, old) in enumerate(zip(lines, self._lines, strict=True))
                           if line != old}
                text = "".join(self._rewrite(row, line) for row, line in changed.items())
            self._lines = lines
            return self._write(text)

    def set_footer(self, text: str) -> None:
        """Show ``text`` on the line under the picture (cut to 79 columns)."""
        with self._lock:
            if text == self._footer:
                return
            self._footer = text
            if self._lines is not None:
                self._write(self._rewrite(self._height - 1, self._footer_text()))

    def close(self) -> None:
        """Give the cursor back; the last picture stays on the terminal."""
        with self._lock:
            if self._lines is not None:
                self._write("\x1b[?25h")
                self._lines = None

    def _footer_text(self) -> str:
        return " " + self._footer.replace("\n", " ")[:78]

    def _rewrite(self, row: int, line: str) -> str:
        # The cursor rests on the line under the footer: go up, rewrite, come back down.
        up = self._height - row
        return f"\x1b[{up}F{line}\x1b[K\x1b[{up}E"

    def _write(self, text: str) -> int:
        if not text:
            return 0
        self._stream.write(text)
        self._stream.flush()
        return len(text)
