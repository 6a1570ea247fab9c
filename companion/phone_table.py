"""A game's table as the phone page lays it out: a few plain blocks (lines of text, tables
of rows and cells, a row of stacks), each cell with its words, a shorter form for where
room is short and marks. A game's ``phone.py`` describes its table with these; the page
(``companion/web/render.py``) draws any of them the same way, so a game added needs no
page code. Nothing here names a game or imports anything of the companion.

The marks are a small fixed vocabulary, each drawn by the page's style: ``mover`` (the
player to move), ``best`` (a winner, the taker of a round), ``lit`` (where a piece may go),
``dim`` (not yet in play), ``hidden`` (face down), ``total`` (a totals row), ``seat0`` …
``seat3`` (a seat's colour), ``result`` (a line said large).

>>> sheet = Sheet((Text("Ana wins", ("result",)),
...                Grid((Cell(""), Cell("Ana")), (Row((Cell("Total"), number(19))),))))
>>> sheet.to_json()["blocks"][1]["rows"][0]["cells"][1]
{'text': '19', 'short': '', 'figure': True, 'marks': []}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The marks the page knows how to draw.
MARKS = frozenset({"mover", "best", "lit", "dim", "hidden", "total", "result",
                   "seat0", "seat1", "seat2", "seat3"})


def _check(marks: tuple[str, ...]) -> None:
    if not marks:  # most cells: nothing to look at
        return
    unknown = set(marks) - MARKS
    if unknown:
        raise ValueError(f"not a mark the page draws: {', '.join(sorted(unknown))}")


@dataclass(frozen=True)
class Cell:
    """One cell: its ``text``; ``short`` (a three-letter code) where the whole word has no
    room; ``figure``: a number, set to the right; ``marks``."""

    text: str
    short: str = ""
    figure: bool = False
    marks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check(self.marks)

    def to_json(self) -> dict[str, Any]:
        """The cell as JSON values."""
        return {"text": self.text, "short": self.short, "figure": self.figure, "marks": list(self.marks)}


def number(value: int | float | str, marks: tuple[str, ...] = ()) -> Cell:
    """A cell of a figure (a minus sign for a penalty, as the OLED writes it); a figure
    already written, as it is."""
    return Cell(str(value).replace("-", "−"), figure=True, marks=marks)


@dataclass(frozen=True)
class Row:
    """A row of cells; its ``marks`` apply to the whole row (``mover``, ``best``, ``total``)."""

    cells: tuple[Cell, ...]
    marks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check(self.marks)

    def to_json(self) -> dict[str, Any]:
        """The row as JSON values."""
        return {"cells": [c.to_json() for c in self.cells], "marks": list(self.marks)}


@dataclass(frozen=True)
class Text:
    """A line of words between the tables (a result, the round, what to do)."""

    text: str
    marks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check(self.marks)

    def to_json(self) -> dict[str, Any]:
        """The line as JSON values."""
        return {"type": "text", "text": self.text, "marks": list(self.marks)}


@dataclass(frozen=True)
class Grid:
    """A table: its ``heads`` (one cell a column; the first may be empty), its ``rows`` and
    a ``title`` above it (its accessible name too)."""

    heads: tuple[Cell, ...]
    rows: tuple[Row, ...]
    title: str = ""

    def to_json(self) -> dict[str, Any]:
        """The table as JSON values."""
        return {"type": "grid", "title": self.title, "heads": [c.to_json() for c in self.heads],
                "rows": [r.to_json() for r in self.rows]}


@dataclass(frozen=True)
class Stack:
    """One place of a board: its ``foot`` (the tile, the spot) and what stands on it,
    bottom first."""

    foot: Cell
    items: tuple[Cell, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The stack as JSON values."""
        return {"foot": self.foot.to_json(), "items": [c.to_json() for c in self.items]}


@dataclass(frozen=True)
class Stacks:
    """A board: a row of stacks side by side, their feet on one line."""

    stacks: tuple[Stack, ...]

    def to_json(self) -> dict[str, Any]:
        """The board as JSON values."""
        return {"type": "stacks", "stacks": [s.to_json() for s in self.stacks]}


Block = Text | Grid | Stacks


@dataclass(frozen=True)
class Sheet:
    """A game's whole table as the page shows it: its blocks, top to bottom."""

    blocks: tuple[Block, ...]

    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON values (what the page's event stream carries)."""
        return {"blocks": [b.to_json() for b in self.blocks]}
