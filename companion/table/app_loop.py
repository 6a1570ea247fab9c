"""The app loop: input sources put events on one queue; one thread takes them in order,
asks the session, shows the frame and plays the feedback.

Input sources run on their own threads (gpiozero callbacks, the serial reader, the
keyboard, a script) and only ever enqueue; the session and the engine run on the thread
that called ``run``, so they need no locks. The loop ends on ``stop()`` (the keyboard's
q, the end of an input script) or Ctrl-C, and always closes the sources, the display and
the feedback devices (which restores the terminal).

Watchers (the phone page, the voice) are told of every view shown, on this thread, and
must only hand it on to their own threads: a watcher never holds up the next event. A
watcher with a ``heard(session, event)`` is also offered each event first, and may take it
for itself (the voice's "Where are we?", a held UP): the session then never sees it. One
that fails is reported once and dropped; the game goes on.

A phone's pairing code (``PhoneCode``) is the loop's own: it is drawn in a box over the top
of every frame shown, for ``SHOWN`` seconds or until the code is used, dies or is replaced,
and never reaches the session nor the watchers: no page, voice or log ever has it, and the
game's note stays as it was. The offer of a backup to a USB stick just plugged in
(``companion/stick.py``: it takes OK and BACK while it asks), the offer of the firmware this
box ships to a reader hub that runs another (``companion/hub_offer.py``: at the menu only) and
the line of an update undone at the last start (``companion/update_note.py``, until the first
event) are drawn the same way.

The queue is a ``queue.SimpleQueue``: a signal handler runs on the main thread between two
bytecodes, possibly while that thread is inside ``get``; ``queue.Queue.put`` would then wait
for a lock the interrupted thread holds, for ever. ``SimpleQueue.put`` takes no such lock
(it is documented as safe to call re-entrantly), so ``stop_on_signal`` can use it.
"""

from __future__ import annotations

import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from PIL import Image

from companion.events import PhoneCode
from companion.hub_offer import HubOffer
from companion.signals import Signal
from companion.stick import StickOffer
from companion.ui.canvas import MEDIUM, SMALL, WIDTH, WORDS, draw_centered, text_width
from companion.ui.text import speaking, t
from companion.update_note import take

if TYPE_CHECKING:
    from companion.table.session import Output, Session

_STOP = object()


class Display(Protocol):
    """Where the frames go (``hardware/displays.py``)."""

    def show(self, image: Image.Image) -> int:
        """Show ``image``; the bytes (or characters) sent, 0 if unchanged."""
        ...

    def close(self) -> None:
        """Release the device."""
        ...


class Feedback(Protocol):
    """The LEDs and the buzzer (``hardware/feedback.py``)."""

    def play(self, signal: Signal, *, sound: bool = True) -> None:
        """Flash (and, with ``sound``, sound) ``signal``."""
        ...

    def close(self) -> None:
        """Release the devices."""
        ...


class Source(Protocol):
    """An input source on its own thread (buttons, a reader, the keyboard, a script)."""

    def start(self, put: Callable[[Any], None]) -> None:
        """Begin putting events with ``put``."""
        ...

    def close(self) -> None:
        """Stop putting events and release the device."""
        ...


class Watcher(Protocol):
    """What is told of every view shown (the phone page, the voice, the simulator's key
    line): ``seen`` only hands it on, never blocks; ``heard`` may take an event for itself
    before the session sees it (True: taken)."""

    def seen(self, session: Session, out: Output | None) -> None:
        """A frame was shown (``out``: its event's output; None for the first frame)."""
        ...

    def heard(self, session: Session, event: Any) -> bool:
        """Whether the watcher takes ``event`` for itself."""
        ...

    def close(self) -> None:
        """The box stops."""
        ...


class AppLoop:
    """One session, one display, one feedback device, fed by one queue."""

    def __init__(self, session: Session, display: Display, feedback: Feedback | None = None, *,
                 err: TextIO | None = None, poll: float = 0.1, watchers: Sequence[Watcher] = (),
                 clock: Callable[[], float] = time.monotonic, stick: StickOffer | None = None) -> None:
        self.session = session
        self.display = display
        self.feedback = feedback
        self.watchers: list[Watcher] = list(watchers)
        self.queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.err = err if err is not None else sys.stderr
        self.poll = poll
        self.handled = 0
        self._display_failed = False
        self.clock = clock
        self.code: tuple[str, float] | None = None  # a phone's code shown, and until when
        self._under: Image.Image | None = None       # the session's frame under it
        self.banner: str | None = None               # an update's note shown, its catalogue key
        # The stick's offer and the update's note are the data folder's (a stand-in session
        # of a test may have none: then neither).
        self._data: Path | None = getattr(session, "data_dir", None)
        self.stick = stick if stick is not None else StickOffer(self._data)
        self.hub = HubOffer(self.err)

    def put(self, event: Any) -> None:
        """Enqueue an input event (thread-safe; what input sources call)."""
        self.queue.put(event)

    def stop(self) -> None:
        """Ask the loop to end after the events already queued (thread-safe)."""
        self.queue.put(_STOP)

    def stop_on_signal(self, signum: int = signal.SIGTERM) -> bool:
        """Stop the loop, as on q, when ``signum`` arrives (systemd stops the service with
        SIGTERM). Only the main thread can set a handler: False elsewhere, nothing done."""
        if threading.current_thread() is not threading.main_thread():
            return False
        # The handler only enqueues: SimpleQueue.put is safe in a signal handler (see above).
        signal.signal(signum, lambda *_: self.stop())
        return True

    def show(self, frame: Image.Image) -> int:
        """Send a frame to the display (with a phone's code over it while one is shown, else
        the stick's offer or an update's note); a display that stops answering is reported
        once, and the game goes on (the journal holds every action)."""
        self._under = frame
        key = self.stick.line()
        hub = self.hub.line(self._at_menu()) if key is None else None
        key = key or self.banner
        if self.code is not None or hub is not None or key is not None:
            with speaking(self.session.language):
                line = (t("web.code", code=self.code[0]) if self.code is not None
                        else t(hub[0], **hub[1]) if hub is not None else t(str(key)))
            frame = self._with_code(frame, line)
        try:
            return self.display.show(frame)
        except OSError as exc:
            if not self._display_failed:
                print(f"totem-companion: the display stopped answering ({exc}); "
                      "the game goes on and is kept", file=self.err)
                self._display_failed = True
            return 0

    def _at_menu(self) -> bool:
        """Whether the session shows its menu (asked only once a hub greeted: a stand-in
        session of a test may have no screen)."""
        return self.hub.greeted is not None and self.session.screen == "menu"

    def _with_code(self, frame: Image.Image, text: str) -> Image.Image:
        """``frame`` with a box over its top saying ``text`` (a phone's code, the stick's offer),
        in the box's language (the words under the box are no longer on the screen)."""
        top = MEDIUM.height + 4
        shown = frame.copy()
        shown.info[WORDS] = [w for w in frame.info.get(WORDS, ()) if w[0] >= top]
        font = MEDIUM if text_width(text, MEDIUM) <= WIDTH - 4 else SMALL
        shown.paste(0, (0, 0, WIDTH, top))
        shown.paste(1, (0, top - 1, WIDTH, top))  # the box's lower edge
        draw_centered(shown, (top - 1 - font.height) // 2, text, font)
        return shown

    def phone_code(self, event: PhoneCode) -> None:
        """Show a phone's code over the frame (None: take it away): the session never sees it."""
        from companion.pairing import SHOWN  # here: the pairing's imports wait for a phone

        self.code = (event.code, self.clock() + SHOWN) if event.code is not None else None
        if self._under is not None:
            self.show(self._under)

    def _code_expired(self) -> None:
        """A code shown long enough goes (the phone has had time to read it)."""
        if self.code is not None and self.clock() >= self.code[1]:
            self.phone_code(PhoneCode(None))

    def tell_watchers(self, out: Output | None = None) -> None:
        """Tell each watcher the session's view (``watcher.seen(session, out)``, ``out`` the
        output of the event just handled, None for the first frame); a watcher that raises
        is reported once and dropped."""
        for watcher in list(self.watchers):
            self._ask(watcher, watcher.seen, out)

    def taken_by_watcher(self, event: Any) -> bool:
        """Whether a watcher takes ``event`` for itself (``watcher.heard(session, event)``
        true), before the session sees it."""
        return any(self._ask(watcher, watcher.heard, event) for watcher in list(self.watchers))

    def _ask(self, watcher: Watcher, call: Callable[[Session, Any], object], value: Any) -> bool:
        """``call(session, value)``; a watcher that raises is reported once and dropped."""
        try:
            return bool(call(self.session, value))
        except Exception as exc:  # a watcher's fault must not stop the game
            print(f"totem-companion: {type(watcher).__name__} stopped ({exc}); "
                  "the game goes on", file=self.err)
            self.watchers.remove(watcher)
            return False

    def deliver(self, event: Any) -> Output | None:
        """Handle one event on this thread: session, display, feedback (the buzzer only when
        the settings have sound on), then the watchers. Returns the output; None for an
        event a watcher took (``taken_by_watcher``) and for a phone's code (``phone_code``)."""
        if isinstance(event, PhoneCode):  # before any watcher: the code is the OLED's alone
            self.phone_code(event)
            return None
        self._code_expired()
        if self.hub.took(event):  # the hub's news: its offer's, never the session's
            if self._under is not None:
                self.show(self._under)
            return None
        self.banner = None  # read: a button was pressed
        if self.stick.heard(event) or self.hub.heard(event, self._at_menu()):  # an offer's answer
            if self._under is not None:
                self.show(self._under)
            return None
        if self.taken_by_watcher(event):
            return None
        out = self.session.handle(event)
        self.hub.screen(self._at_menu())
        self.show(out.frame)
        if out.signal is not None and self.feedback is not None:
            self.feedback.play(out.signal, sound=self.session.sound)
        self.handled += 1
        self.tell_watchers(out)
        return out

    def run(self, sources: Sequence[Source] = ()) -> None:
        """Start the sources, show the first frame, handle events until stopped; close all."""
        try:
            # Sources first: one that cannot start (no terminal for the keyboard) ends the
            # run with its one-line reason, not after a picture drawn over the terminal.
            # Events they put meanwhile wait on the queue until the first frame is shown.
            for source in sources:
                source.start(self.put)
            self.banner = take(self._data) if self._data is not None else None
            self.show(self.session.frame())
            self.tell_watchers()
            while True:
                try:
                    event = self.queue.get(timeout=self.poll)
                except queue.Empty:
                    # Wake up now and then so Ctrl-C is seen promptly, so a screen of work
                    # under way shows its progress, up to the picture of the work done, and
                    # so a phone's code goes in time.
                    self._code_expired()
                    if self.stick.look() and self._under is not None:
                        self.show(self._under)
                    if self.session.working:
                        self.show(self.session.redraw())
                    continue
                if event is _STOP:
                    break
                self.deliver(event)
        except KeyboardInterrupt:
            pass
        finally:
            self.close(sources)

    def close(self, sources: Sequence[Source] = ()) -> None:
        """Close the sources, then the display and the feedback; each is closed even when
        another fails to."""
        devices: tuple[Source | Watcher | Display | Feedback | None, ...] = (
            *sources, *self.watchers, self.display, self.feedback)
        for device in devices:
            if device is None:
                continue
            try:
                device.close()
            except Exception as exc:  # closing must go on for the others (terminal restored)
                print(f"totem-companion: closing {type(device).__name__} failed: {exc}",
                      file=self.err)
