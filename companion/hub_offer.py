"""The box offers its reader hub the firmware it ships (issue 34): the decision, no hardware.

The hub's reader (``hardware/hub_reader.py``) puts a ``HubGreeted`` on the loop's queue at
each hello: the version the hub runs, the one this box ships, and how to ask for the update.
When they differ, the line over the top of the screen asks (``line``), at the menu only (a
game's action is never covered; the offer waits for the menu). OK asks the reader to update
(it lets its port go, copies the firmware, opens the port again and waits for the hello),
the line says the update is under way and the box takes no press meanwhile; the reader's
``HubUpdated`` then says how it went, and the line says done or failed until a press. BACK
declines: not asked again while the box runs. Any other press puts the offer away until the
menu shows again, and is the menu's. The hub's messages are the loop's, never the session's.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from companion.events import Press

#: The most characters of a version the line shows (the line's words are fitted to it).
VERSION_CHARS = 4


@dataclass(frozen=True)
class HubGreeted:
    """The hub greeted: the firmware it runs, the one this box ships, and ``update`` to ask
    its reader for the update (which answers with a ``HubUpdated``)."""

    running: str
    shipped: str
    update: Callable[[], None]


@dataclass(frozen=True)
class HubUpdated:
    """An update asked for ended: the version the hub greeted in after it (None: it did not
    come back), and what went wrong, in a line, when it did."""

    running: str | None
    problem: str | None = None


def short(version: str) -> str:
    """``version`` as the line shows it: at most ``VERSION_CHARS`` characters."""
    return version if len(version) <= VERSION_CHARS else version[:VERSION_CHARS - 1] + "…"


class HubOffer:
    """The offer of the firmware shipped to a hub that runs another (module docstring)."""

    def __init__(self, err: TextIO | None = None) -> None:
        self.err = err
        self.greeted: HubGreeted | None = None  # the hub's last hello
        self.closed = False                     # declined, or updated: not asked again
        self.away = False                       # put away by a press until the menu shows again
        self.working = False                    # the update under way
        self.said: str | None = None            # how the update went, until a press

    def took(self, event: object) -> bool:
        """Whether ``event`` is the hub's news (``HubGreeted``, ``HubUpdated``): taken, never
        the session's."""
        if isinstance(event, HubGreeted):
            self.greeted = event
            return True
        if not isinstance(event, HubUpdated):
            return False
        self.working, self.closed = False, True
        shipped = self.greeted.shipped if self.greeted is not None else None
        if event.running is not None and event.running == shipped:
            self.said = "hub.done"
        else:
            self.said = "hub.failed"
            problem = event.problem or f"the hub greets in {event.running or 'nothing'}, not {shipped}"
            print(f"totem-companion: the reader hub's firmware update failed: {problem}",
                  file=self.err if self.err is not None else sys.stderr)
        return True

    def offered(self, at_menu: bool) -> bool:
        """Whether the line asks now (``at_menu``: the session shows its menu)."""
        hub = self.greeted
        return (at_menu and hub is not None and hub.running != hub.shipped and not self.closed
                and not self.away and not self.working)

    def heard(self, event: object, at_menu: bool) -> bool:
        """Whether the offer takes ``event``: every press while the update is under way, OK
        (the update asked for) or BACK (declined) while it asks. Any other press puts the
        offer (or how the update went) away and is the session's."""
        if not isinstance(event, Press):
            return False
        if self.working:
            return True
        asking, self.said = self.offered(at_menu), None
        if not asking:
            return False
        if event.button == "ok":
            assert self.greeted is not None  # asking: the hub greeted
            self.working = True
            self.greeted.update()
            return True
        if event.button == "back":
            self.closed = True
            return True
        self.away = True
        return False

    def screen(self, at_menu: bool) -> None:
        """The session's screen after an event: the offer put away comes back at the menu
        once the menu was left."""
        if not at_menu:
            self.away = False

    def line(self, at_menu: bool) -> tuple[str, dict[str, str]] | None:
        """The catalogue key and fields of the line over the screen; None: nothing to say."""
        hub = self.greeted
        if hub is None:
            return None
        fields = {"old": short(hub.running), "new": short(hub.shipped)}
        if self.working:
            return "hub.working", fields
        if self.said is not None:
            return self.said, fields
        return ("hub.offer", fields) if self.offered(at_menu) else None
