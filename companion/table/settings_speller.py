"""Spelling a player's name with the buttons: up/down turn a wheel of letters, OK adds the
letter shown, Back deletes the last one, and "Done" (one step up from A) keeps the name.

The wheel holds the letters of the screens' language (``speller.letters``: A-Z; Bulgarian
adds А-Я first), a space, a hyphen and Done. A name starts with a capital and goes on in
small letters; after a space or a hyphen comes a capital again (Ana, Anna-Maria).

>>> speller = NameSpeller()
>>> for step in (0, 13, -13):               # A, then n (13 down), then a (13 up)
...     speller.move(step); problem = speller.add()
>>> speller.name
'Ana'
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from companion.table.settings import NAME_CHARS
from companion.ui.speller import speller_screen
from companion.ui.text import t

#: The wheel's entries after the letters: a space, a hyphen, and the one that keeps the name.
SPACE, HYPHEN, DONE = " ", "-", "done"


@dataclass(frozen=True)
class SpellerView:
    """The name being spelled, the character OK would add (None on Done), the wheel's
    labels and the one shown, a note."""

    name: str
    cell: str | None
    wheel: tuple[str, ...]
    selected: int
    note: str | None = None
    refused: bool = False
    kind = "speller"


class NameSpeller:
    """A name spelled one letter at a time; ``selected`` is the wheel's entry shown."""

    def __init__(self) -> None:
        self.name = ""
        self.selected = 0
        self.entries = (*t("speller.letters"), SPACE, HYPHEN, DONE)

    def _capital(self) -> bool:
        return not self.name or self.name[-1] in (SPACE, HYPHEN)

    def _typed(self, entry: str) -> str:
        return entry if entry in (SPACE, HYPHEN) or self._capital() else entry.lower()

    def move(self, step: int) -> None:
        """Turn the wheel ``step`` entries (negative: up), wrapping round."""
        self.selected = (self.selected + step) % len(self.entries)

    @property
    def on_done(self) -> bool:
        """Whether the wheel shows Done."""
        return bool(self.entries[self.selected] == DONE)

    def add(self) -> str | None:
        """Add the letter shown; the problem in words when it cannot be added."""
        entry = self.entries[self.selected]
        if len(self.name) >= NAME_CHARS:
            return t("speller.full", n=NAME_CHARS)
        if entry in (SPACE, HYPHEN) and self._capital():
            return t("speller.letter_first")
        self.name += self._typed(entry)
        return None

    def delete(self) -> bool:
        """Take the last letter off; False when there was none (Back then leaves)."""
        if not self.name:
            return False
        self.name = self.name[:-1]
        return True

    def done(self) -> str | None:
        """The name spelled, its ends trimmed; None when it has no letter yet."""
        name = self.name.strip(SPACE + HYPHEN)
        return name or None

    def view(self, note: str | None = None, refused: bool = False) -> SpellerView:
        """What the screen shows now."""
        labels = tuple(t("speller.done") if e == DONE else t("speller.space") if e == SPACE
                       else self._typed(e) for e in self.entries)
        cell = None if self.on_done else self._typed(self.entries[self.selected])
        return SpellerView(self.name, cell, labels, self.selected, note, refused)


def render_speller(view: SpellerView) -> Image.Image:
    """The picture of a ``SpellerView``."""
    footer = t("speller.footer" if view.cell is not None else "speller.done_footer")
    return speller_screen(t("speller.title"), f"{len(view.name)}/{NAME_CHARS}", view.name,
                          view.cell, view.wheel, view.selected, footer, view.note, view.refused)
