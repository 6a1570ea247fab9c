"""Input events: the plain values that hardware adapters put on the session's queue.

Their text form is the one ``totem-companion listen`` prints and ``--input FILE`` reads::

    >>> format_event(Press("v3"))
    'press v3'
    >>> parse_event("tag 0A1B2C3D4E pad")
    Tag(uid='0A1B2C3D4E', reader='pad')
    >>> parse_event("wait 0.5")
    Wait(seconds=0.5)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.files import shown

#: The buttons a box may have: six village/column buttons, navigation, optional extras.
BUTTONS = ("v1", "v2", "v3", "v4", "v5", "v6", "up", "down", "ok", "back", "hint", "undo")

#: The reader name of the single scan pad; reader hub slots are ``slot1`` … ``slot6``.
DEFAULT_READER = "pad"


@dataclass(frozen=True)
class Press:
    """A short press of a button (released before the hold time)."""

    button: str


@dataclass(frozen=True)
class Hold:
    """A long press of a button (still down after the hold time)."""

    button: str


@dataclass(frozen=True)
class Tag:
    """A tag arrived on a reader. ``uid`` is upper-case hex, or an item name in a script."""

    uid: str
    reader: str = DEFAULT_READER


@dataclass(frozen=True)
class TagGone:
    """A tag left a reader (the reader stopped reporting it)."""

    uid: str
    reader: str = DEFAULT_READER


@dataclass(frozen=True)
class ReaderState:
    """A reader was connected or disconnected (unplugged, port gone, back again)."""

    reader: str
    connected: bool


@dataclass(frozen=True)
class Wait:
    """In an input script only: pause before the next event."""

    seconds: float


@dataclass(frozen=True)
class PhoneName:
    """From a paired phone page: a player's name typed there, for the set-ups to offer."""

    name: str


@dataclass(frozen=True)
class PhoneCode:
    """From the phone page: a phone asked to pair; the OLED alone shows ``code`` to type
    there, in its own overlay (``AppLoop``), never the session (so never a page, the voice
    or a log). None: the code was used or died, the overlay goes."""

    code: str | None


@dataclass(frozen=True)
class PhoneSetting:
    """From a paired phone page: one of the box's settings set to one of its offered values
    (``companion/table/setting_offers.py``); ``game``: the game whose own setting it is."""

    key: str
    value: str
    game: str | None = None


Event = Press | Hold | Tag | TagGone | ReaderState | PhoneName | PhoneCode | PhoneSetting


def format_event(event: Event) -> str:
    """The one-line text of an event, as ``listen`` prints it."""
    if isinstance(event, Press):
        return f"press {event.button}"
    if isinstance(event, Hold):
        return f"hold {event.button}"
    if isinstance(event, Tag):
        return f"tag {event.uid} {event.reader}"
    if isinstance(event, TagGone):
        return f"gone {event.uid} {event.reader}"
    if isinstance(event, ReaderState):
        return f"reader {event.reader} {'connected' if event.connected else 'disconnected'}"
    if isinstance(event, Wait):
        return f"wait {event.seconds:g}"
    raise TypeError(f"not an event: {event!r}")


def parse_event(line: str) -> Event | Wait | None:
    """Parse one line of an input script; ``None`` for a blank line or a ``#`` comment.

    Raises ``ValueError`` with a one-line reason for anything else it cannot read.
    """
    words = line.split("#", 1)[0].split()
    if not words:
        return None
    verb, args = words[0].lower(), words[1:]
    if verb in ("press", "hold"):
        if len(args) != 1:
            raise ValueError(f"'{verb}' takes one button, e.g. '{verb} v3'")
        button = args[0].lower()
        if button not in BUTTONS:
            raise ValueError(f"unknown button {shown(args[0])} (buttons: {', '.join(BUTTONS)})")
        return Press(button) if verb == "press" else Hold(button)
    if verb in ("tag", "gone"):
        if len(args) not in (1, 2):
            raise ValueError(f"'{verb}' takes a UID or item name and an optional reader")
        uid = args[0]
        # UIDs are hex and compared upper case; item names stay as written.
        if all(c in "0123456789abcdefABCDEF" for c in uid) and len(uid) >= 8:
            uid = uid.upper()
        reader = args[1] if len(args) == 2 else DEFAULT_READER
        return Tag(uid, reader) if verb == "tag" else TagGone(uid, reader)
    if verb == "reader":
        if len(args) != 2 or args[1] not in ("connected", "disconnected"):
            raise ValueError("'reader' takes a reader name and connected|disconnected")
        return ReaderState(args[0], args[1] == "connected")
    if verb == "wait":
        try:
            seconds = float(args[0]) if len(args) == 1 else math.nan
        except ValueError:
            seconds = math.nan
        if not (seconds >= 0 and math.isfinite(seconds)):
            raise ValueError("'wait' takes a number of seconds, e.g. 'wait 0.5'")
        return Wait(seconds)
    raise ValueError(f"unknown event {shown(words[0])} (press, hold, tag, gone, reader, wait)")
