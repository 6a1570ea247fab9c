"""What the table's flows share: the resolved scan, a flow's reply, the one-line notes.

A flow (the start menu, the set-up, the play of a game, the score pages) takes the input
events meant for it and answers with a ``Reply``: the feedback signal, and where to go next.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from companion.errors import UserError
from companion.events import Press
from companion.table.choice import step_of
from companion.ui.text import t

#: Feedback signals a reply can give (hardware/feedback.py plays them).
ACCEPTED, REFUSED, YOUR_TURN = "accepted", "refused", "your_turn"


@dataclass(frozen=True)
class Scan:
    """A new tag on a reader, resolved to its item.

    ``uid`` is None when the token was an item name (an input script, the simulator's
    keyboard): then two pieces of the same type cannot be told apart.
    """

    item: str
    uid: str | None
    reader: str

    @property
    def slot(self) -> int | None:
        """The village (1-6) of a reader-hub slot, None for the scan pad."""
        if self.reader.startswith("slot") and self.reader[4:].isdigit():
            number = int(self.reader[4:])
            return number if 1 <= number <= 6 else None
        return None


@dataclass(frozen=True)
class Reply:
    """A flow's answer to one event: the signal to play, and ``goto`` (with ``payload``)
    when the session must switch to another flow: ``menu``, ``setup``, ``start``,
    ``resume``, ``score``, ``play`` (back from the score pages, taking the last action
    back), ``finish``."""

    signal: str | None = None
    goto: str | None = None
    payload: Any = None


class Flow:
    """Base of the flows: a one-line note shown on the next frame only."""

    kind = "flow"

    def __init__(self) -> None:
        self.note: str | None = None
        self.refused = False

    def tell(self, note: str | None, refused: bool = False) -> Reply:
        """Show ``note`` on the next frame; a refusal also gives the refused signal."""
        self.note, self.refused = note, refused
        return Reply(REFUSED if refused else None)

    def clear(self) -> None:
        """Drop the note of the previous event."""
        self.note, self.refused = None, False


class ChoiceStepsFlow(Flow):
    """A flow of steps that each ask one question from a list (``self.choice``): up/down
    move, OK takes the choice (``_take``), Back goes one step back (``_back``), a scan goes
    to ``_scan``. The set-ups of both games are such flows."""

    choice = None

    def handle(self, event) -> Reply:
        """Up/down choose, OK takes the choice, Back goes one step back."""
        self.clear()
        if isinstance(event, Scan):
            return self._scan(event)
        if not isinstance(event, Press):
            return Reply()
        if step_of(event.button):
            self.choice = self.choice.moved(step_of(event.button))
            return Reply()
        if event.button == "ok":
            return self._take(self.choice.value)
        if event.button in ("back", "undo"):
            return self._back()
        return Reply()


def rule_line(reason: str, rule: str | None) -> str:
    """A refusal for the screen: ``Village 5 is not open yet — W4``."""
    text = reason[:1].upper() + reason[1:]
    return f"{text} — {rule}" if rule else text


def keep_move(game, journal, move, event_line: Callable, illegal: type[Exception]) -> str | None:
    """Journal first: push ``move`` on the engine and append its record line (fsynced).

    Returns None when the move is played and kept, else the refusal to show: the rule it
    breaks (``illegal`` is the engine's exception), or that it could not be saved — then the
    engine is as it was, so nothing is shown that the journal does not hold.
    """
    try:
        game.push(move)
    except illegal as exc:
        return rule_line(exc.reason, exc.rule)
    try:
        journal.append(event_line(game.history[-1][0], move))
    except UserError:
        game.pop()
        return t("save.not_played")
    return None


def take_back(game, journal, tracker, describe: Callable) -> str:
    """Journal first: pop the last move and append ``{"undo": true}``; the note to show.

    ``UserError`` (the move put back) when there is nothing to take back or the journal
    cannot be written; the tags placed by the move are forgotten by ``tracker``.
    """
    if not game.history:
        raise UserError(t("undo.nothing"))
    player, move = game.history[-1]
    text = describe(game, player, move)
    game.pop()
    try:
        journal.append({"undo": True})
    except UserError:
        game.push(move)
        raise UserError(t("save.not_taken_back")) from None
    tracker.forget_from(len(game.history))
    return t("undo.done", what=text)
