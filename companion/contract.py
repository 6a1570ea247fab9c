"""The game contract: what a game gives the box and what the table calls, on the lowest
floor of the house (it imports only the engine's values, the events and the signals, so
that a game's definition, the registry and the table can all name it).

A game gives typed tag items (``Item``); its flows take the events meant for them — a tag
resolved to its item (``Scan``, ``Lift``) or an input event — and answer with a ``Reply``:
the feedback signal and, when the session must switch flows, where to go (``ToMenu``,
``ToSetup`` …). ``Flow`` and ``PlayFlow`` are what the session and the lesson runner call on
a game's flows (``companion/table/flow.py`` and ``play_flow.py`` are the bases the games'
flows are built on); ``EnrollmentStep`` and ``Tags`` what ``enroll`` takes of a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from PIL import Image

from companion.engine import Refusal
from companion.events import Event
from companion.signals import Signal


class Item(Protocol):
    """A tagged thing of one game: its item ``name`` (as in tags.json), its ``game`` (the
    record name) and its display ``label``."""

    game: ClassVar[str]

    @property
    def name(self) -> str: ...

    @property
    def label(self) -> str: ...


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




class Flow(Protocol):
    """A flow as the session and the lesson runner call it: it takes one event at a time
    and shows its view (``companion.table.flow.Flow`` is the base of every flow)."""

    #: The one-line note shown on the next frame (None: none), and whether it refuses.
    note: Note | None
    refused: bool

    @property
    def kind(self) -> str:
        """What kind of flow it is: ``"menu"``, ``"setup"``, ``"play"``, ``"score"`` …"""
        ...

    @property
    def of_game(self) -> str | None:
        """The record name of the game the flow is of; None for a flow of no game."""
        ...

    @property
    def follows_slots(self) -> bool:
        """Whether it is also given a ``Lift`` when a tag leaves a reader hub's slot, and
        each ``ReaderState``."""
        ...

    def tell(self, note: Note | None, refused: bool = False) -> Reply:
        """Show ``note`` on the next frame; ``refused`` also gives the refused signal."""
        ...

    def clear(self) -> None:
        """Drop the note of the previous event."""
        ...

    def view(self) -> Any:
        """What the screen shows now, as a plain value of the flow's own kind."""
        ...

    def working(self) -> bool:
        """Whether the last picture drawn shows work under way (it changes with no event)."""
        ...

    def frame(self) -> Image.Image:
        """The picture of ``view()``."""
        ...

    def handle(self, event: FlowEvent) -> Reply:
        """Take one event meant for this flow."""
        ...


class Journal(Protocol):
    """A game's journal as the table ends it (``companion.table.journal.Journal``)."""

    def finish(self) -> Path:
        """Keep the finished record among the finished games; where it went."""
        ...

    def close(self) -> None:
        """Leave the game for later: the journal stays where it is, to be resumed."""
        ...


class PlayFlow(Flow, Protocol):
    """A game's play flow as the table calls it: the ``game`` it plays (the game's state
    type), what its last action did (``done``), taking that action back (``undo``), and the
    words of the question of leaving it (``leave_words``; None: the menu's own)."""

    done: str | None
    leave_words: Callable[[], tuple[str, str]] | None

    @property
    def game(self) -> Any:
        """The game in play."""
        ...

    @property
    def journal(self) -> Journal:
        """The game's journal (every accepted action is in it before it is shown)."""
        ...

    def undo(self) -> Reply:
        """Take the last action back (the journal first)."""
        ...


class EnrollmentStep(Protocol):
    """One tag to scan while enrolling (``enroll``): the ``number``-th of ``count`` items
    named ``item``, and the words that ask for it (``companion.table.items.EnrollmentStep``)."""

    @property
    def item(self) -> str: ...

    @property
    def number(self) -> int: ...

    @property
    def count(self) -> int: ...

    @property
    def label(self) -> str:
        """The item's display label, e.g. ``"Chief piece"``."""
        ...

    @property
    def description(self) -> str:
        """The label with its place among items of its kind: ``"Chief piece 2 of 2"``."""
        ...

    @property
    def prompt(self) -> str:
        """What the player is asked: ``"Scan an Eagle piece"``."""
        ...


class Tags(Protocol):
    """The box's tag registry as a game's deck transcription writes to it
    (``companion.table.registry.TagRegistry``)."""

    def item_for(self, uid: str) -> str | None:
        """The item name a UID is bound to, or None."""
        ...

    def bind_and_save(self, uid: str, item: str) -> str | None:
        """Bind ``uid`` to ``item`` and save at once; the item it was bound to before."""
        ...
