"""``demo --input FILE``: an input script played through the whole stack, narrated.

Where ``run --input`` plays a script silently, as the box would, this prints what the box
made of each event — every accepted action in the game's own words (a Totem Wars round's
result after its last placement), every refusal with its reason — and the result when the
game ends: the quickest way to read a recorded bug report.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

from companion.events import Event, Wait, format_event
from companion.games.definition import GameDefinition
from companion.signals import Signal
from companion.table.table_game import Display, TableGame
from companion.ui.text import t

if TYPE_CHECKING:
    from companion.table.session import Session


def narrate_script(items: Iterable[Event | Wait], session: Session, display: Display, out: TextIO) -> int:
    """Feed ``items`` (events and ``Wait``s) to ``session``; print what happened on ``out``.

    Waits are skipped: the narration needs no real time. Returns the number of refusals.
    """
    refusals = 0
    game: Any = None
    seen = 0
    definition: GameDefinition[Any] | None = None
    for item in items:
        if isinstance(item, Wait):
            continue
        result = session.handle(item)
        display.show(result.frame)
        if result.signal is Signal.REFUSED:
            refusals += 1
            print(f"{_label('narration.refused')}{format_event(item)}: {session.message}", file=out)
        if session.game is not None and session.game is not game:
            game, seen, definition = session.game, len(session.game.history), session.definition
            title = definition.shown_title() if definition is not None else ""
            print(f"{_label('narration.game')}{' v '.join(game.players)} ({title})", file=out)
        if game is None or definition is None:
            continue
        history = game.history
        if len(history) > seen:
            # One event keeps at most one move: the newest is the one to tell.
            for line in _told(definition.table, game):
                print(f"{_label()}{line}", file=out)
            seen = len(history)
        if len(history) < seen:
            print(_label() + t("narration.taken_back", n=seen - len(history)), file=out)
            seen = len(history)
        if session.game is None:  # the game was finished and kept, or left for later
            if game.outcome() is not None:
                print(f"{_label('narration.result')}{definition.report.result_line(game)}", file=out)
            game, seen = None, 0
    return refusals


def _label(key: str | None = None) -> str:
    """A narration line's label in the language spoken, in a column of its own (blank for
    the lines that go on telling a move)."""
    return (t(key) if key else "").ljust(8) + " "


def _told(table_game: TableGame[Any], game: Any) -> list[str]:
    """The lines that tell what the game's last move did, in the game's own words."""
    if table_game.narrate is not None:
        return table_game.narrate(game)
    player, move = game.history[-1]
    return [table_game.describe(game, player, move)]
