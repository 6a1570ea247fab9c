"""What a game gives the phone page (``TableGame.phone``, from its package's ``phone.py``):
what it must keep from the page, its table as plain values, and its words in a past game's
summary. Plain callables, so that the page names no game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GamePhone:
    """A game's part of the phone page.

    ``hides(game, view)``: whether the page must not show the view's words (hidden
    information: a hand shown to one player); ``table(game, view)``: the table as the OLED
    shows it, as JSON values, in the language spoken; ``summary(state, players)``: adds the
    game's own figures to a finished game's players (``score --json`` objects)."""

    hides: Callable[[Any, Any], bool]
    table: Callable[[Any, Any], dict[str, Any]]
    summary: Callable[[Any, list[dict[str, Any]]], None]
