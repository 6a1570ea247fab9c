"""What a game gives the phone page (``TableGame.phone``, from its package's ``phone.py``):
its table as plain values and as the page lays it out, its words in a past game's summary
and the columns of its statistics; what the page must keep from anyone is the public view's
(``TableGame.public``). Plain callables and values, so that the page names no game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.phone_table import Sheet


@dataclass(frozen=True)
class Tally:
    """A column of a game's statistics: the ``field`` each finished game's player has in its
    summary (``GamePhone.summary``), added up, or with ``most`` the value found most often
    among the lists it holds; headed by the game's catalogue's ``head`` key, or its
    ``short`` one where a phone has no room for it."""

    field: str
    head: str
    most: bool = False
    short: str = ""


@dataclass(frozen=True)
class GamePhone:
    """A game's part of the phone page.

    ``table(game, view)``: the table as anyone may see it (hands as counts where they are
    hidden), as JSON values, in the language spoken; ``sheet(game, view)``: the same as the
    page lays it out (``companion/phone_table.py``: text, tables, a board), from the same
    public values; ``summary(state, players)``: adds the game's own figures to a finished
    game's players (``score --json`` objects); ``tallies``: the statistics' columns of the
    game's own, from those figures; ``laid_out``: the kinds of the game's views whose words
    its sheet says whole, from the values (a result's pages), rather than the OLED's wrapped
    lines; ``rows(table, lang)``: a table (as ``table`` made it,
    read back from JSON) as the club's tables page draws it, its headings in ``lang``: lines
    (``str``) and tables (``(headings, rows)``, every cell a string);
    ``KeyError``/``TypeError``/``ValueError`` for a table it cannot read."""

    table: Callable[[Any, Any], dict[str, Any]]
    summary: Callable[[Any, list[dict[str, Any]]], None]
    rows: Callable[[dict[str, Any], str], list[Any]] | None = None
    sheet: Callable[[Any, Any], Sheet] | None = None
    tallies: tuple[Tally, ...] = ()
    laid_out: frozenset[str] = frozenset()
