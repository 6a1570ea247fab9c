"""The keyboard as buttons and scan pad, for the terminal simulator.

Keys: ``1``–``6`` press v1–v6, Shift+``1``–``6`` (``!@#$%^``) hold them; ``w`` / Up is
up, ``s`` / Down is down; Enter, space or ``o`` is ok, Shift+``o`` holds it; Backspace,
Esc or ``b`` is back, Shift+``b`` holds it; ``?`` holds up (the voice's "Where are we?");
``h`` hint; ``u`` undo; ``q`` or Ctrl-C quits.
``/`` starts a scan: type an item name (``eagle``, ``village:sun``) or a UID, Enter puts
``Tag`` on the pad and a moment later ``TagGone``, as if the tag was laid on the reader and
taken away; Esc cancels.

:class:`KeyDecoder` is the pure part (text in, events out); :class:`KeyboardInput` reads
a terminal in cbreak mode on a thread and always gives the terminal back as it found it.
"""

from __future__ import annotations

import codecs
import os
import select
import signal
import sys
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from companion.errors import UserError
from companion.events import DEFAULT_READER, Event, Hold, Press, Tag, TagGone, parse_event
from companion.ui.text import t

if TYPE_CHECKING:  # only for the types: the simulator builds its session after the keys
    from companion.table.session import Output, Session


def key_help(lang: str) -> str:
    """The simulator's footer line of keys in ``lang`` (under 80 columns): the keys as they
    are, the words of what they do in the box's language."""
    return t("sim.keys", lang)


def scan_line(typed: str, lang: str) -> str:
    """The footer while a scan is typed: ``scan: eag_`` in ``lang``."""
    return t("sim.scan_typed", lang, typed=typed)


@runtime_checkable
class FooterDisplay(Protocol):
    """A display with a footer line of its own (the terminal's), in its own language."""

    language: str

    def set_footer(self, text: str) -> None:
        """Put ``text`` on the footer line."""
        ...


class KeyHelp:
    """The terminal ``display``'s footer of keys in the language of ``session``, and the
    display's own line in it too: both again when the Settings page changes it (told as a
    watcher of the app loop); while a scan is typed the footer shows what is typed instead
    (``echo``, which the keyboard calls from its thread)."""

    def __init__(self, display: FooterDisplay, session: Session) -> None:
        self.display, self.session = display, session
        self.language = ""
        self.seen(session, None)

    def echo(self, typed: str | None) -> None:
        """What the keyboard calls as a scan is typed (None: done, the keys again)."""
        lang = self.session.language
        self.display.set_footer(key_help(lang) if typed is None else scan_line(typed, lang))

    def seen(self, session: Session, out: Output | None) -> None:
        """The app loop showed a view: the keys again if the language changed."""
        if session.language != self.language:
            self.language = self.display.language = session.language
            self.display.set_footer(key_help(self.language))

    def heard(self, session: Session, event: Any) -> bool:
        """The keys' line takes no event for itself."""
        return False

    def close(self) -> None:
        """Nothing to release: the display is closed by the loop."""


ESC, CTRL_C = "\x1b", "\x03"
_PLAIN: dict[str, Press | Hold] = {
    **{str(n): Press(f"v{n}") for n in range(1, 7)},
    **{shifted: Hold(f"v{n}") for n, shifted in enumerate("!@#$%^", start=1)},
    "w": Press("up"), "s": Press("down"),
    "\r": Press("ok"), "\n": Press("ok"), " ": Press("ok"),
    "\x7f": Press("back"), "\b": Press("back"), "b": Press("back"),
    "o": Press("ok"), "h": Press("hint"), "u": Press("undo"),
    "?": Hold("up"),  # the voice's "Where are we?"
}
#: Shift with a letter holds its button (as Shift with a digit holds a village).
_SHIFTED: dict[str, Hold] = {"O": Hold("ok"), "B": Hold("back")}
#: The simulator's key for a button, for prompts that name one: the box says "hold OK",
#: the simulator names the key that does it.
KEY_NAMES: dict[Press | Hold, str] = {
    Press("ok"): "Enter", Hold("ok"): "Shift+O", Press("back"): "b",
    Press("up"): "w", Press("down"): "s",
}
#: The final letter of an arrow key's escape sequence (``ESC [ A`` or ``ESC O A``).
_ARROWS = {"A": Press("up"), "B": Press("down")}
#: Characters a scanned item name or UID may hold.
_SCAN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:/_-.")
MAX_SCAN = 40


@dataclass(frozen=True)
class Quit:
    """The player asked to leave (``q`` or Ctrl-C)."""


class KeyDecoder:
    """Typed text in, events (and :class:`Quit`) out; pure and fed piece by piece.

    ``scan`` is the scan being typed (``""`` just after ``/``), or None. An escape at
    the end of a piece may begin an arrow key's sequence: it waits for the next piece,
    or for :meth:`flush` when no more text comes (then it was the Esc key).
    """

    def __init__(self, reader: str = DEFAULT_READER):
        self.reader = reader
        self.scan: str | None = None
        self._pending = ""

    def feed(self, text: str) -> list[Event | Quit]:
        """Decode ``text``; the events of the keys it completed."""
        text, self._pending = self._pending + text, ""
        out: list[Event | Quit] = []
        i = 0
        while i < len(text):
            char = text[i]
            if char == ESC:
                used = _escape_length(text, i)
                if used is None:
                    self._pending = text[i:]
                    break
                if used == 1:
                    out += self._key(ESC)
                elif text[i + used - 1] in _ARROWS and used == 3:
                    out += self._arrow(text[i + used - 1])
                i += used
                continue
            out += self._key(char)
            i += 1
        return out

    @property
    def waiting(self) -> bool:
        """True while an escape waits to see whether an arrow key's sequence follows."""
        return bool(self._pending)

    def flush(self) -> list[Event | Quit]:
        """No more text came: a lone pending escape was the Esc key."""
        pending, self._pending = self._pending, ""
        return self._key(ESC) if pending == ESC else []

    def _arrow(self, letter: str) -> list[Event | Quit]:
        return [] if self.scan is not None else [_ARROWS[letter]]

    def _key(self, char: str) -> list[Event | Quit]:
        if char == CTRL_C:
            return [Quit()]
        if self.scan is not None:
            return self._scan_key(char)
        lower = char.lower() if char.isalpha() else char
        if lower == "q":
            return [Quit()]
        if lower == "/":
            self.scan = ""
            return []
        if char == ESC:
            return [Press("back")]
        event = _SHIFTED.get(char) or _PLAIN.get(lower)
        return [event] if event is not None else []

    def _scan_key(self, char: str) -> list[Event | Quit]:
        scan = self.scan or ""      # only called while scanning
        if char in ("\r", "\n"):
            self.scan = None
            return [_scanned(scan, self.reader)] if scan else []
        if char == ESC:
            self.scan = None
        elif char in ("\x7f", "\b"):
            self.scan = scan[:-1]
        elif char in _SCAN_CHARS and len(scan) < MAX_SCAN:
            self.scan = scan + char
        return []


def _scanned(text: str, reader: str) -> Tag:
    # Read like an input script's "tag" line (hex UIDs upper case); the scan holds
    # only _SCAN_CHARS, so the line always parses, as a tag.
    event = parse_event(f"tag {text} {reader}")
    assert isinstance(event, Tag)
    return event


def _escape_length(text: str, i: int) -> int | None:
    """Characters of the escape sequence at ``text[i]``, or None if it may go on."""
    if i + 1 >= len(text):
        return None
    kind = text[i + 1]
    if kind == "O":                     # SS3: one more character
        return 3 if i + 2 < len(text) else None
    if kind != "[":
        return 1                        # Esc, then an ordinary key
    j = i + 2                           # CSI: parameters, then a final byte @..~
    while j < len(text) and "\x20" <= text[j] <= "\x3f":
        j += 1
    if j >= len(text):
        return None
    return j - i + 1


def _interrupt_self() -> None:
    # Without an on_quit handler, quitting is what Ctrl-C does in any program.
    os.kill(os.getpid(), signal.SIGINT)


class KeyboardInput:
    """An input source: keys typed in a terminal (``fd``; None: standard input).

    The terminal is put in cbreak mode without signal keys (so Ctrl-C reaches
    ``on_quit``) on :meth:`start` and restored on :meth:`close` or if reading fails.
    ``echo(text)`` is called with the scan being typed as it changes, and with None when
    it ends. A scan's ``TagGone`` follows its ``Tag`` after ``gone_after`` seconds.
    """

    def __init__(self, fd: int | None = None, *, reader: str = DEFAULT_READER,
                 on_quit: Callable[[], None] | None = None,
                 echo: Callable[[str | None], None] | None = None,
                 gone_after: float = 0.3, escape_wait: float = 0.05,
                 clock: Callable[[], float] = time.monotonic):
        self.fd = fd
        self.decoder = KeyDecoder(reader)
        self.on_quit = on_quit or _interrupt_self
        self.echo = echo
        self.gone_after = gone_after
        self.escape_wait = escape_wait
        self.clock = clock
        self._saved: list[Any] | None = None
        self._restore_lock = threading.Lock()
        self._wake_r, self._wake_w = -1, -1
        self._thread: threading.Thread | None = None
        self._gone: list[tuple[float, TagGone]] = []

    def start(self, put: Callable[[Event], None]) -> None:
        """Take over the terminal and report keys to ``put`` from a thread."""
        try:
            if self.fd is None:
                self.fd = sys.stdin.fileno()
            self._saved = termios.tcgetattr(self.fd)
        except (termios.error, OSError, ValueError):
            raise UserError("keyboard input needs a terminal (standard input is not one); "
                            "use --input FILE or --buttons none --reader none") from None
        mode = termios.tcgetattr(self.fd)
        mode[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG)
        mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
        termios.tcsetattr(self.fd, termios.TCSANOW, mode)
        self._wake_r, self._wake_w = os.pipe()
        thread = threading.Thread(target=self._run, args=(put,), name="keyboard", daemon=True)
        thread.start()
        self._thread = thread  # only a started thread: Ctrl-C in between leaves none to join

    def close(self) -> None:
        """Stop reading and give the terminal back as it was."""
        if self._thread is not None:
            os.write(self._wake_w, b"x")
            self._thread.join(timeout=2)
            self._thread = None
            os.close(self._wake_r)
            os.close(self._wake_w)
        self._restore()

    def _restore(self) -> None:
        with self._restore_lock:
            saved, self._saved = self._saved, None
        if saved is not None and self.fd is not None:
            try:
                termios.tcsetattr(self.fd, termios.TCSADRAIN, saved)
            except (termios.error, OSError):
                pass                    # the terminal itself is gone

    def _run(self, put: Callable[[Event], None]) -> None:
        fd = self.fd
        assert fd is not None           # start() has chosen the terminal
        text = codecs.getincrementaldecoder("utf-8")(errors="ignore")
        last_read = self.clock()
        try:
            while True:
                try:
                    ready, _, _ = select.select([fd, self._wake_r], [], [], self._timeout())
                    if self._wake_r in ready:
                        return
                    data = os.read(fd, 1024) if fd in ready else None
                except (OSError, ValueError):
                    data = b""          # the terminal hung up or was closed
                scan_before = self.decoder.scan
                if data is not None:
                    if not data:
                        self.on_quit()
                        return
                    actions = self.decoder.feed(text.decode(data))
                    last_read = self.clock()
                elif self.clock() >= last_read + self.escape_wait:
                    actions = self.decoder.flush()
                else:
                    actions = []        # woken for a TagGone while an escape still waits
                self._act(actions, put)
                self._send_due_gones(put)
                if self.echo is not None and self.decoder.scan != scan_before:
                    self.echo(self.decoder.scan)
        finally:
            self._restore()

    def _timeout(self) -> float | None:
        waits = []
        if self.decoder.waiting:
            waits.append(self.escape_wait)
        if self._gone:
            waits.append(max(0.0, self._gone[0][0] - self.clock()))
        return min(waits) if waits else None

    def _act(self, actions: list[Event | Quit], put: Callable[[Event], None]) -> None:
        for action in actions:
            if isinstance(action, Quit):
                self.on_quit()
                continue
            if isinstance(action, Tag):
                # A new scan takes the previous tag off the pad first.
                for _, gone in self._gone:
                    put(gone)
                self._gone = [(self.clock() + self.gone_after, TagGone(action.uid, action.reader))]
            put(action)

    def _send_due_gones(self, put: Callable[[Event], None]) -> None:
        now = self.clock()
        while self._gone and self._gone[0][0] <= now:
            put(self._gone.pop(0)[1])
