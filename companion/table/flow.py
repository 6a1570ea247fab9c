"""What the table's flows share: the resolved scan, a flow's reply, the one-line notes.

A flow (the start menu, a game's set-up, its play, its score pages) takes the input events
meant for it and answers with a ``Reply``: the feedback ``Signal``, and, when the session
must switch flows, where to go (``ToMenu``, ``ToSetup`` … below).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from PIL import Image

from companion.engine import Refusal
from companion.events import Event, Press
from companion.signals import Signal
from companion.table.choice import Choice, step_of
from companion.table.items import Item
from companion.table.why_flow import WhyPages
from companion.ui.text import t


def slot_of(reader: str) -> int | None:
    """The village (1-6) of a reader-hub slot (``slot3`` → 3), None for the scan pad."""
    if reader.startswith("slot") and reader[4:].isdigit():
        number = int(reader[4:])
        return number if 1 <= number <= 6 else None
    return None


@dataclass(frozen=True)
class Scan:
    """A new tag on a reader, resolved once to its typed item.

    ``uid`` is None when the token was an item name (an input script, the simulator's
    keyboard): then two pieces of the same type cannot be told apart.
    """

    item: Item
    uid: str | None
    reader: str

    @property
    def slot(self) -> int | None:
        """The village (1-6) of a reader-hub slot, None for the scan pad."""
        return slot_of(self.reader)


@dataclass(frozen=True)
class Lift:
    """A tag of the game in play left a village slot of the reader hub: a piece or a
    headdress taken off a pole. ``uid`` as for ``Scan``."""

    item: Item
    uid: str | None
    reader: str

    @property
    def slot(self) -> int | None:
        """The village (1-6) of the slot."""
        return slot_of(self.reader)


# --- where a reply sends the session ---------------------------------------------------------

@dataclass(frozen=True)
class ToMenu:
    """Back to the start menu (a game in play stays in the journal)."""


@dataclass(frozen=True)
class ToSetup:
    """The set-up of the game called ``game`` (its record name)."""

    game: str


@dataclass(frozen=True)
class ToStart:
    """A set-up is done: start a game from ``settings`` (the game's own settings value)."""

    settings: Any


@dataclass(frozen=True)
class ToResume:
    """Resume the unfinished game of the journal, or the game kept for later as ``kept``
    (its file's name under ``DATA/games/``, kept_games.py)."""

    kept: str | None = None


@dataclass(frozen=True)
class ToSettings:
    """The settings page (names, language, sound, the games' own settings)."""


@dataclass(frozen=True)
class ToScore:
    """The game is over: its score pages."""


@dataclass(frozen=True)
class BackToPlay:
    """From the score pages back to the game, taking its last action back."""


@dataclass(frozen=True)
class ToFinish:
    """Keep the finished record and go back to the menu."""


@dataclass(frozen=True)
class ToTutorial:
    """The lesson of the game called ``game`` (its record name), resumed where it was left."""

    game: str


@dataclass(frozen=True)
class ToRules:
    """The rule books of the games (rules_flow.py)."""


Transition = (ToMenu | ToSetup | ToStart | ToResume | ToSettings | ToScore | BackToPlay | ToFinish
              | ToTutorial | ToRules)


@dataclass(frozen=True)
class Reply:
    """A flow's answer to one event: the signal to play, and where the session goes next
    (``None``: the flow stays)."""

    signal: Signal | None = None
    then: Transition | None = None


#: What a flow is given: an input event, with a tag resolved to its item (``Scan``, ``Lift``).
FlowEvent = Event | Scan | Lift

#: A note on screen: words, or a rule-citing refusal shown in the box's language.
Note = str | Refusal


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
