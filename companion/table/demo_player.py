"""What the games' demos share: the session they play in, the player at the table who
turns the bots' choices into input events, and the record they write.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.events import Event, Press
from companion.files import plain_path, shown_path, write_atomically
from companion.signals import Signal
from companion.table.registry import TagRegistry
from companion.table.session import Output, Session
from companion.table.settings import Settings, SettingsStore
from companion.ui.text import language

MAX_STEPS = 64  # up/down presses to reach any entry of a list


class DemoError(Exception):
    """The box did not do what the bots' events meant: a defect, never a bot's fault."""


def demo_session(folder: str | os.PathLike[str], registry: TagRegistry, **options: Any) -> Session:
    """A session in ``folder`` for a demo game, with move hints off (bots need no coach, and
    the review of their play is no one's); ``UserError`` when an unfinished game waits there:
    a demo never sets a player's game aside."""
    coachless = SettingsStore(None, names=options.get("players", ()), language=language(),
                              settings=Settings(hints=False))
    session = Session(folder, registry, settings=coachless, **options)
    if "resume" in session.view.choice.values:
        raise UserError(f"{folder}: an unfinished game waits there; resume or archive it first")
    return session


def check_record_path(path: str | os.PathLike[str]) -> None:
    """``UserError`` (one line) when a record could not be written to ``path``: said before
    a demo plays, not after the whole game."""
    target = Path(plain_path(path))
    folder = target.parent
    if target.is_dir():
        raise UserError(f"{shown_path(path)}: cannot write the record (it is a folder)")
    if os.path.lexists(target) and not target.is_file():
        # A pipe with no reader would block the demo for ever; a device is no record.
        raise UserError(f"{shown_path(path)}: cannot write the record (not a regular file)")
    if not folder.is_dir():
        raise UserError(f"{shown_path(path)}: cannot write the record (no folder {shown_path(folder)})")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise UserError(f"{shown_path(path)}: cannot write the record (permission denied)")


def write_demo_record(path: str | os.PathLike[str], text: str) -> None:
    """Write a demo game's record to ``path``, made afresh (a pipe or a device put there
    since ``check_record_path`` is replaced, never written to or waited on); ``UserError``
    (one line) when it cannot."""
    try:
        write_atomically(Path(plain_path(path)), text)
    except OSError as exc:
        raise UserError(f"{shown_path(path)}: cannot write the record ({exc.strerror})") from None


class DemoPlayer:
    """Sends events through ``deliver`` (the whole stack) to ``session`` as a player would."""

    def __init__(self, session: Session, deliver: Callable[[Event], Output | None]) -> None:
        self.session = session
        self._deliver = deliver

    def send(self, event: Event) -> Signal | None:
        """One event through the whole stack; a refusal means the box misunderstood."""
        out = self._deliver(event)
        if out is None:  # taken by a watcher (the voice's "Where are we?"): nothing changed
            return None
        if out.signal is Signal.REFUSED:
            self.refused(event)
        return out.signal

    def refused(self, event: Event) -> None:
        """The box refused ``event``: a player who means every move has misunderstood it."""
        raise DemoError(f"the box refused {event}: {self.session.message}")

    def leave_score(self, kept: bool) -> None:
        """Leave the last score page as players would: OK keeps the finished game (and counts
        it in a big game) in the data folder. A demo in a temporary folder (``kept`` False)
        stays on the score instead: the folder goes with the demo, so the box's "kept" would
        not be true."""
        if kept:
            self.send(Press("ok"))

    def choose(self, value: object) -> None:
        """Move the list on screen to ``value`` with up/down, then press OK."""
        for _ in range(MAX_STEPS):
            if self.session.view.choice.value == value:
                self.send(Press("ok"))
                return
            self.send(Press("down"))
        raise DemoError(f"{value!r} is not offered on the screen")
