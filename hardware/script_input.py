"""An input script as an input source: raw events read from a file instead of the hardware.

One event a line, in the words ``listen`` prints (``press v3``, ``hold v3``,
``tag <UID or item> [reader]``, ``gone <UID or item> [reader]``, ``reader pad
disconnected``) and ``wait SECONDS`` (an hour at most); blank lines and ``#`` comments are
skipped. The whole file (a regular file of at most 1 MB) is read and checked up front, so
a mistake is reported before play starts, as one short line quoting a few words of it.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Callable, Iterator

from companion.errors import UserError
from companion.events import Event, Tag, TagGone, Wait, parse_event
from companion.files import SMALL_BYTES, read_text, shown, shown_path

#: The longest ``wait`` a script may hold: longer is a mistake (and past ~9.2e9 s, more
#: than a timer can count), refused when the script is checked.
MAX_WAIT_SECONDS = 3600


class ScriptInput:
    """The events of the script at ``path``.

    ``resolve(item) -> uid | None`` maps an item name (``eagle``, ``village:sun``) to the
    UID of the tag enrolled for it; without it, or when it gives None, the text is kept
    as written (the session understands item names). ``on_end()`` is called when
    :meth:`start` has played every event; ``sleep(seconds)`` does the waits (by default
    a wait that :meth:`close` cuts short).
    """

    def __init__(self, path: str | os.PathLike[str], resolve: Callable[[str], str | None] | None = None,
                 *, on_end: Callable[[], None] | None = None,
                 sleep: Callable[[float], object] | None = None):
        self.path = path
        self.on_end = on_end
        self._stop = threading.Event()
        self._sleep = sleep or self._stop.wait
        self._thread: threading.Thread | None = None
        self._items = _read(path, resolve)

    def events(self) -> Iterator[Event | Wait]:
        """The script's events and waits, in order (for playing it synchronously)."""
        return iter(self._items)

    def start(self, put: Callable[[Event], None]) -> None:
        """Play the script to ``put`` on a thread, honouring the waits; then ``on_end()``."""
        thread = threading.Thread(target=self._play, args=(put,), name="script", daemon=True)
        thread.start()
        self._thread = thread  # only a started thread: Ctrl-C in between leaves none to join

    def close(self) -> None:
        """Stop playing (a wait in progress is cut short)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def _play(self, put: Callable[[Event], None]) -> None:
        try:
            for item in self._items:
                if self._stop.is_set():
                    return
                if isinstance(item, Wait):
                    self._sleep(item.seconds)
                else:
                    put(item)
        finally:
            # Even when playing fails, the end is told: whoever waits for it never hangs.
            if not self._stop.is_set() and self.on_end is not None:
                self.on_end()


def _read(path: str | os.PathLike[str], resolve: Callable[[str], str | None] | None) -> list[Event | Wait]:
    text = read_text(path, "an input script", SMALL_BYTES)
    items: list[Event | Wait] = []
    name = shown_path(path)
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"{name}: line {number}"
        # Words are printed back (listen, demo) and shown: no control characters in them.
        if not all(word.isprintable() for word in line.split("#", 1)[0].split()):
            raise UserError(f"{where}: unprintable characters in {shown(line)}")
        try:
            item = parse_event(line)
        except ValueError as exc:
            raise UserError(f"{where}: {exc}") from None
        if item is None:
            continue
        if isinstance(item, Wait) and item.seconds > MAX_WAIT_SECONDS:
            raise UserError(f"{where}: 'wait' is at most {MAX_WAIT_SECONDS} seconds (an hour), "
                            f"got {item.seconds:g}")
        if resolve is not None and isinstance(item, (Tag, TagGone)):
            uid = resolve(item.uid)
            if uid is not None:
                item = dataclasses.replace(item, uid=uid)
        items.append(item)
    return items
