"""What a game gives the phone page (``TableGame.phone``, from its package's ``phone.py``):
its table as plain values and its words in a past game's summary; what the page must keep
from anyone is the public view's (``TableGame.public``). Plain callables, so that the page
names no game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GamePhone:
    """A game's part of the phone page.

    ``table(game, view)``: the table as anyone may see it (hands as counts where they are
    hidden), as JSON values, in the language spoken; ``summary(state, players)``: adds the
    game's own figures to a finished game's players (``score --json`` objects);
    ``rows(table, lang)``: a table (as ``table`` made it, read back from JSON) as the club's
    tables page draws it, its headings in ``lang``: lines (``str``) and tables
    (``(headings, rows)``, every cell a string); ``KeyError``/``TypeError``/``ValueError``
    for a table it cannot read."""

    table: Callable[[Any, Any], dict[str, Any]]
    summary: Callable[[Any, list[dict[str, Any]]], None]
    rows: Callable[[dict[str, Any], str], list[Any]] | None = None
