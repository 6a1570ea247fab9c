"""A USB stick plugged into the box is offered a backup of its data folder (issue 34).

The box looks now and then (``look``: at most every ``EVERY`` seconds, from the loop's idle
wake-ups) for file systems mounted under the stick folders (``ROOTS``; the configuration's
``[backup] sticks`` names others): a mount point one folder down (``/media/STICK``)
or two (``/media/USER/STICK``, where the desktop's automounter puts them). One that was not
there at the last look is offered: the line over the top of the screen asks, OK writes
the archive (``companion/backup.py``) into ``totem-backups/`` on the stick, BACK declines,
any other button puts the offer away and goes on to the game. Sticks there when the box
starts are not offered (the first look is made then). What the loop draws is ``line()``, a catalogue key.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from companion.config import STICK_ROOTS as ROOTS
from companion.errors import UserError
from companion.events import Press

#: Seconds between two looks: a stick is offered within that time of being mounted.
EVERY = 2.0
#: The folder on the stick the archives go into.
FOLDER = "totem-backups"


def _folders(path: Path) -> list[Path]:
    try:
        with os.scandir(path) as entries:
            return sorted(Path(entry.path) for entry in entries if entry.is_dir(follow_symlinks=False))
    except OSError:
        return []


def sticks(roots: Iterable[str | os.PathLike[str]],
           is_mount: Callable[[Path], bool] = os.path.ismount) -> frozenset[Path]:
    """The file systems mounted one or two folders below ``roots``."""
    found: set[Path] = set()
    for root in roots:
        for first in _folders(Path(root)):
            if is_mount(first):
                found.add(first)
                continue
            found.update(second for second in _folders(first) if is_mount(second))
    return frozenset(found)


class StickOffer:
    """The offer of a backup to a stick just plugged in (module docstring)."""

    def __init__(self, data_dir: Path | None, roots: Sequence[str | os.PathLike[str]] | None = None, *,
                 is_mount: Callable[[Path], bool] = os.path.ismount,
                 clock: Callable[[], float] = time.monotonic, every: float = EVERY) -> None:
        self.data_dir = data_dir
        # No data folder: nothing to back up, no stick looked for.
        self.roots = () if data_dir is None else tuple(roots) if roots is not None else ROOTS
        self.is_mount, self.clock, self.every = is_mount, clock, every
        self.seen = sticks(self.roots, is_mount)   # the sticks at the last look: none offered
        self.offered: Path | None = None
        self.said: str | None = None               # the answer to the last offer, until a press
        self._next = 0.0

    def look(self) -> bool:
        """Look for sticks, at most every ``every`` seconds; whether the line changed (a new
        stick offered, the one offered gone)."""
        now = self.clock()
        if now < self._next:
            return False
        self._next = now + self.every
        found = sticks(self.roots, self.is_mount)
        new, self.seen = found - self.seen, found
        changed = False
        if self.offered is not None and self.offered not in found:
            self.offered, changed = None, True
        if new:
            self.offered, self.said, changed = min(new), None, True
        return changed

    def heard(self, event: object) -> bool:
        """Whether the offer takes ``event``: OK (the backup written) or BACK while a stick is
        offered. Any other press puts the offer (or its answer) away and is the game's."""
        if not isinstance(event, Press):
            return False
        stick, self.offered, self.said = self.offered, None, None
        if stick is None:
            return False
        if event.button == "ok":
            self.said = self._back_up(stick)
            return True
        return event.button == "back"

    def _back_up(self, stick: Path) -> str:
        """Write the archive on ``stick``; the line that says how it went."""
        from companion.backup import make_backup  # here: a start never waits for the archive's imports

        assert self.data_dir is not None  # a stick is looked for only with a data folder
        try:
            made = make_backup(self.data_dir, stick / FOLDER)
        except (UserError, OSError) as exc:
            print(f"totem-companion: the backup to the stick failed: {exc}", file=sys.stderr)
            return "stick.failed"
        print(f"totem-companion: backup written to {made.path} ({made.files} files)", file=sys.stderr)
        return "stick.done"

    def line(self) -> str | None:
        """The catalogue key of the line to show over the screen; None: nothing to say."""
        return "stick.offer" if self.offered is not None else self.said
