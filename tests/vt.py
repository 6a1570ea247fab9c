"""A small terminal for tests: replays what a program wrote and keeps the screen it makes.

Enough of a VT100 for the terminal display and plain printed lines: characters, carriage
return, line feed (scrolling at the bottom), cursor up/down a number of lines
(``ESC[nF``/``ESC[nE``), clear to the end of the line (``ESC[K``), home (``ESC[H``) and clear
the screen (``ESC[2J``); showing and hiding the cursor draw nothing.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\x1b\[\?25[lh]|\x1b\[(\d*)([FEKHJ])|(\r)|(\n)|(.)", re.S)


class VirtualTerminal:
    """A screen of ``columns`` × ``lines``; ``scrolled`` counts lines pushed off the top."""

    def __init__(self, columns: int, lines: int):
        self.columns, self.lines = columns, lines
        self.screen = [""] * lines
        self.row = self.column = 0
        self.scrolled = 0

    def feed(self, text: str) -> VirtualTerminal:
        """Apply ``text`` as the terminal would."""
        for match in _TOKEN.finditer(text):
            count, code, cr, lf, char = match.groups()
            if cr:
                self.column = 0
            elif lf:
                self._line_feed()
            elif code in ("F", "E"):
                step = int(count or 1)
                self.row = max(0, self.row - step) if code == "F" else min(self.lines - 1, self.row + step)
                self.column = 0
            elif code == "K":
                self.screen[self.row] = self.screen[self.row][:self.column]
            elif code == "H":
                self.row = self.column = 0
            elif code == "J":
                self.screen = [""] * self.lines
            elif char:
                self._put(char)
        return self

    def text(self) -> list[str]:
        """The screen's lines, without trailing blanks."""
        return [line.rstrip() for line in self.screen]

    def _put(self, char: str) -> None:
        if self.column >= self.columns:     # a line too long wraps, as terminals do
            self.column = 0
            self._line_feed()
        line = self.screen[self.row].ljust(self.column)
        self.screen[self.row] = line[:self.column] + char + line[self.column + 1:]
        self.column += 1

    def _line_feed(self) -> None:
        if self.row == self.lines - 1:
            self.screen = self.screen[1:] + [""]
            self.scrolled += 1
        else:
            self.row += 1
