"""Why? The hint button explains the rule behind what is on screen.

Pressed on a refusal ("Village 5 is not open yet — W4") it shows the pages of that rule;
with no refusal, the rule of what the screen asks now (a set-up step, the turn, a result
page), which each game's definition names (``GameDefinition.rule_of(flow)``). ▲▼ turn the
pages; OK, BACK or HINT again go back to exactly the screen that was there. Any other event (a scan, a
village button) closes the pages and is handled as usual, so nothing a player does is lost.
In play the same button also coaches: ``hint_pages.py`` puts the move hints and these pages
in one order of presses.

Each game's pages are messages of its own catalogue (``rule.<id>.title``, ``rule.<id>.text``
in ``companion/games/<game>/locale``), found through the registry: the game the flow says it
is of (``Flow.of_game``). Wakanda's R1 and Totem Wars' R1 are different rules, so a rule
number is always read in its game.
"""

from __future__ import annotations

from typing import Any

from companion.contract import Flow
from companion.engine import Cited, Refusal
from companion.events import Press
from companion.games import GAMES
from companion.games.definition import GameDefinition
from companion.table.choice import step_of
from companion.table.rule_pages import rule_view, turned
from companion.table.views import WhyView

#: The buttons that close the pages, used up: the screen below comes back unchanged.
CLOSING = frozenset({"ok", "back", "hint", "undo"})


def game_of(flow: Flow) -> GameDefinition[Any] | None:
    """The game ``flow`` is of; None for a flow of no game (the start menu)."""
    return GAMES[flow.of_game] if flow.of_game is not None else None


def cited_rule(note: str | Refusal | None) -> str | None:
    """The rule a note on screen cites as data: a refusal's, or a ``Cited`` note's; None for
    words alone (their rule, if they name one, is never read back out of them)."""
    return note.rule if isinstance(note, Refusal | Cited) else None


def why_view(flow: Flow, note: str | Refusal | None) -> WhyView | None:
    """The first page of the rule behind ``note`` (the note on screen), or, when it cites
    none the game has a page for, of the rule of what ``flow`` asks now; None for a flow of
    no game, or one its game names no rule for."""
    entry = game_of(flow)
    if entry is None:
        return None
    cited = cited_rule(note)
    rule = cited if cited is not None and entry.words.has(f"rule.{cited}.title") else entry.rule_of(flow)
    if rule is None:
        return None
    # The pages of the game's rule book: a ruling also says what the rulebook says and why.
    return rule_view(entry, rule)


class WhyPages:
    """The why-pages a flow opens over itself: ``view`` is the page shown, None when closed.
    The flow gives every event to ``take`` first and shows ``view`` while there is one."""

    def __init__(self) -> None:
        self.view: WhyView | None = None

    def take(self, flow: Flow, event: object, note: str | Refusal | None) -> bool:
        """Whether ``event`` was used by the pages: HINT opens them on the rule of ``note``
        (the note on screen before the event) or of what ``flow`` asks; while they are
        open, ▲▼ turn them and OK, BACK, HINT, UNDO close them. Any other event closes them
        and is not used: the flow handles it as usual."""
        view = self.view
        if view is None:
            self.view = why_view(flow, note) if event == Press("hint") else None
            return self.view is not None
        if isinstance(event, Press) and step_of(event.button):
            self.view = turned(view, step_of(event.button))  # on through the rule book
            return True
        self.view = None
        return isinstance(event, Press) and event.button in CLOSING

    def close(self) -> None:
        """Close the pages (a new note must be seen)."""
        self.view = None
