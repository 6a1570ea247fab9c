"""The OLED's twin in a terminal: the 128×64 picture in Unicode, redrawn in place.

Each braille character holds 2×4 dots, so the picture is 64 characters × 16 lines, drawn
in a box with a footer line under it (the key help, or what is being typed as a scan):
19 lines × 66 columns, which fits an 80×24 terminal. A terminal of at least 130 × 36 gets
half blocks instead (one character a pixel column, two pixel rows a line: 128 × 32), which
read much better; a smaller one gets a line asking for a larger window. Only lines that
changed are rewritten, with plain ANSI cursor moves, so no curses is needed; a resized
terminal (measured at every frame, and on SIGWINCH) gets the whole picture again, at the
size that fits it now.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from typing import Any, TextIO

from PIL import Image

from companion.ui.text import t
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
BRAILLE_FIT = (COLUMNS + 2, ROWS + 4)
BLOCKS_FIT = (WIDTH + 2, HEIGHT // 2 + 4)

#: Clear the terminal and put the cursor top left: a whole redraw after a resize, since
#: the terminal has rewrapped (or cut) what was drawn at the old size.
_CLEAR = "\x1b[H\x1b[2J"
_HIDE_CURSOR, _SHOW_CURSOR = "\x1b[?25l", "\x1b[?25h"


def terminal_size(stream: TextIO) -> tuple[int, int] | None:
    """(columns, lines) of ``stream``'s terminal; None when it is not a terminal (a file, a
    pipe, a test's StringIO): then the picture is written whole, at the size asked for."""
    try:
        columns, lines = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    return columns, lines


def fits(size: tuple[int, int], needed: tuple[int, int]) -> bool:
    """Whether a terminal of ``size`` (columns, lines) holds ``needed``."""
    return size[0] >= needed[0] and size[1] >= needed[1]


def too_small(size: tuple[int, int]) -> str:
    """Why the simulator cannot start on a terminal of ``size``, in one line."""
    return (f"the terminal is {size[0]}×{size[1]}; the simulator needs at least "
            f"{BRAILLE_FIT[0]}×{BRAILLE_FIT[1]} (make the window larger)")


def window_too_small(size: tuple[int, int], lang: str = "en") -> str:
    """The line shown instead of the picture once the window is made too small for it, in
    ``lang``."""
    return t("sim.window_too_small", lang, size=f"{size[0]}×{size[1]}", need=f"{BRAILLE_FIT[0]}×{BRAILLE_FIT[1]}")


#: Not drawn yet (or closed): the next frame is drawn where the cursor is.
_UNDRAWN = object()


class TerminalDisplay:
    """A display writing to a text stream (a terminal): ``show``, ``set_footer``, ``close``.

    The picture takes the size the terminal has, measured at every frame and whenever the
    terminal is resized (SIGWINCH, when made on the main thread): half blocks on a large
    terminal, braille on a smaller one, one line asking for a larger window below that.
    A change of size redraws the whole picture from the top of the terminal. On a stream
    that is no terminal, ``blocks`` chooses the picture. ``size`` measures instead of the
    stream's terminal (tests): then no SIGWINCH is watched, and ``refresh`` does its work.

    Safe to call from several threads (the keyboard input updates the footer while the
    game shows frames).
    """

    def __init__(self, stream: TextIO, title: str = "Totem Companion", *, blocks: bool = False,
                 size: Callable[[], tuple[int, int] | None] | None = None):
        self._stream = stream
        self._title = title
        #: The language of the display's own line (a window too small): the box's, which the
        #: simulator's key help keeps it in.
        self.language = "en"
        self._blocks = blocks
        self._size = size if size is not None else lambda: terminal_size(stream)
        self._render = block_lines if blocks else braille_lines
        self._drawn: object = _UNDRAWN  # the terminal size of the picture on screen
        self._lines: list[str] = []     # picture lines on screen; none while the window is too small
        self._height = 0                # lines the display occupies: borders, picture, footer
        self._image: Image.Image | None = None
        self._footer = ""
        self._lock = threading.Lock()
        self._resized = threading.Event()
        self._closed = False
        self._watching = False
        self._previous_handler: Any = None
        if size is None:
            self._watch_resizes()

    def show(self, image: Image.Image) -> int:
        """Draw ``image`` (mode "1", 128×64) if it changed, at the size the terminal has now;
        the number of characters written."""
        check_frame(image)
        with self._lock:
            self._image = image
            size = self._size()
            if self._drawn is _UNDRAWN or size != self._drawn:
                return self._write(self._whole(image, size))
            if not self._lines:
                return 0  # the window is too small: its message stays until it grows
            lines = self._picture(image)
            changed = {i + 1: line for i, (line, old) in enumerate(zip(lines, self._lines, strict=True))
                       if line != old}
            self._lines = lines
            return self._write("".join(self._rewrite(row, line) for row, line in changed.items()))

    def set_footer(self, text: str) -> None:
        """Show ``text`` on the line under the picture (cut to 79 columns)."""
        with self._lock:
            if text == self._footer:
                return
            self._footer = text
            if self._lines:
                self._write(self._rewrite(self._height - 1, self._footer_text()))

    def refresh(self) -> None:
        """Measure the terminal again; redraw the last picture whole if its size changed."""
        with self._lock:
            size = self._size()
            if self._image is not None and self._drawn is not _UNDRAWN and size != self._drawn:
                self._write(self._whole(self._image, size))

    def close(self) -> None:
        """Give the cursor back; the last picture stays on the terminal."""
        with self._lock:
            self._closed = True
            if self._drawn is not _UNDRAWN:
                self._write(_SHOW_CURSOR)
                self._drawn = _UNDRAWN
        if self._watching and threading.current_thread() is threading.main_thread():
            # None: the handler was not set from Python; the default is what there was.
            previous = self._previous_handler
            signal.signal(signal.SIGWINCH, previous if previous is not None else signal.SIG_DFL)
            self._watching = False
        self._resized.set()  # the watcher ends

    def _whole(self, image: Image.Image, size: tuple[int, int] | None) -> str:
        """The text that draws everything at ``size``: from the top of a cleared terminal
        after a resize, else (the first frame) where the cursor is."""
        start = _HIDE_CURSOR + ("" if self._drawn is _UNDRAWN else _CLEAR)
        self._drawn = size
        if size is not None and not fits(size, BRAILLE_FIT):
            self._lines = []
            return start + window_too_small(size, self.language)[:size[0] - 1] + "\r\n"
        blocks = fits(size, BLOCKS_FIT) if size is not None else self._blocks
        self._render = block_lines if blocks else braille_lines
        self._lines = self._picture(image)
        self._height = len(self._lines) + 3
        width = len(self._lines[0])
        top = f"┌─ {self._title} ".ljust(width - 1, "─")[:width - 1] + "┐"
        bottom = "└" + "─" * (width - 2) + "┘"
        return start + "\r\n".join([top, *self._lines, bottom, self._footer_text()]) + "\r\n"

    def _picture(self, image: Image.Image) -> list[str]:
        return [f"│{line}│" for line in self._render(image)]

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

    # --- resizes ------------------------------------------------------------------------

    def _watch_resizes(self) -> None:
        """On a terminal, redraw when it is resized: SIGWINCH wakes a thread that redraws
        (a signal handler must not wait for the lock a frame being drawn holds). Signal
        handlers can only be set on the main thread; elsewhere the next frame measures."""
        if self._size() is None or threading.current_thread() is not threading.main_thread():
            return
        self._previous_handler = signal.signal(signal.SIGWINCH, self._on_resize)
        self._watching = True
        threading.Thread(target=self._redraw_on_resize, name="terminal-resize", daemon=True).start()

    def _on_resize(self, signum: int, frame: Any) -> None:
        self._resized.set()
        if callable(self._previous_handler):
            self._previous_handler(signum, frame)

    def _redraw_on_resize(self) -> None:
        while True:
            self._resized.wait()
            self._resized.clear()
            if self._closed:
                return
            try:
                self.refresh()
            except (OSError, ValueError):
                return  # the terminal is gone: nothing left to draw on
