"""The base of the table's flows: the one-line note, the why-pages, the steps of a choice.

A flow (the start menu, a game's set-up, its play, its score pages) takes the input events
meant for it and answers with a ``Reply``: the feedback ``Signal``, and, when the session
must switch flows, where to go (``ToMenu``, ``ToSetup`` …). Those values are the game
contract's (``companion/contract.py``), named here too for the flows built on this base.
"""

from __future__ import annotations

from typing import Any, ClassVar

from PIL import Image

from companion.contract import (
    BackToPlay,
    FlowEvent,
    Lift,
    Note,
    Reply,
    Scan,
    ToFinish,
    ToMenu,
    ToResume,
    ToRules,
    ToScore,
    ToSettings,
    ToSetup,
    ToStart,
    ToTutorial,
    Transition,
    slot_of,
)
from companion.events import Press
from companion.signals import Signal
from companion.table.choice import Choice, step_of
from companion.table.why_flow import WhyPages
from companion.ui.text import t

__all__ = ["BackToPlay", "ChoiceStepsFlow", "Flow", "FlowEvent", "Lift", "Note", "Reply", "Scan", "ToFinish",
           "ToMenu", "ToResume", "ToRules", "ToScore", "ToSettings", "ToSetup", "ToStart", "ToTutorial",
           "Transition", "default_name", "slot_of"]


class Flow:
    """Base of the flows: a one-line note shown on the next frame only."""

    kind = "flow"
    #: The record name of the game the flow is of (its why-pages are that game's rules);
    #: None for a flow of no game (the start menu, the settings).
    of_game: ClassVar[str | None] = None
    #: Whether the flow follows the reader hub's village slots: it is then also given a
    #: ``Lift`` when a tag leaves a slot, and each ``ReaderState`` (is the hub live?).
    follows_slots = False

    def __init__(self) -> None:
        self.note: Note | None = None
        self.refused = False
        self.why = WhyPages()  # the hint button's pages (why_flow.py)

    def tell(self, note: Note | None, refused: bool = False) -> Reply:
        """Show ``note`` on the next frame; ``refused`` also gives the refused signal."""
        self.why.close()  # a new note (a reader unplugged, an unknown tag) must be seen
        self.note, self.refused = note, refused
        return Reply(Signal.REFUSED if refused else None)

    def clear(self) -> None:
        """Drop the note of the previous event."""
        self.note, self.refused = None, False

    def view(self) -> Any:
        """What the screen shows now, as a plain value."""
        raise NotImplementedError

    def working(self) -> bool:
        """Whether the last picture drawn shows work under way (a review being made): the
        picture then changes with no event, so the app redraws it while waiting for one."""
        return False

    def frame(self) -> Image.Image:
        """The picture of ``view()``."""
        raise NotImplementedError

    def handle(self, event: FlowEvent) -> Reply:
        """Take one event meant for this flow."""
        raise NotImplementedError


class ChoiceStepsFlow(Flow):
    """A flow of steps that each ask one question from a list (``self.choice``): up/down
    move, OK takes the choice (``_take``), Back goes one step back (``_back``), a scan goes
    to ``_scan``. The set-ups of the games are such flows."""

    choice: Choice

    def handle(self, event: FlowEvent) -> Reply:
        """Up/down choose, OK takes the choice, Back goes one step back; HINT explains the
        step's rule (why_flow.py)."""
        if self.why.take(self, event, self.note):
            return Reply()
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

    def _scan(self, scan: Scan) -> Reply:
        raise NotImplementedError

    def _take(self, value: Any) -> Reply:
        raise NotImplementedError

    def _back(self) -> Reply:
        raise NotImplementedError


def default_name(seat: int) -> str:
    """The name of a seat no configured name was chosen for: ``Player 1``."""
    return t("setup.player", n=seat + 1)
