"""RFID readers on a serial port as input sources: reading, tag presence, reconnecting.

``open_reader("rdm6300:/dev/serial0")`` opens the port at once (a port that cannot be
opened is one ``UserError`` line) and gives a source that, once started, puts:

* ``ReaderState(reader, True)`` when the port is open;
* ``Tag(uid, reader)`` once when a tag arrives, ``TagGone`` when the reader has stopped
  reporting it for a moment (the RDM6300 repeats its frame while the tag stays; the
  PN532 is polled and finds it on every poll);
* ``TagGone`` for a tag still present and ``ReaderState(reader, False)`` when the port
  goes away (an unplugged USB adapter), then a new try to open it every second, and
  ``ReaderState(reader, True)`` again once it is back.

The RDM6300 is read by ``serial.threaded.ReaderThread``; the PN532 answers only when
asked, so its source polls it on its own thread. The reader hub (``hub:PORT``, one
reader per slot of the board over USB serial) is a source of its own,
:mod:`hardware.hub_reader`, which shares this module's port helpers.
"""

from __future__ import annotations

import errno
import os
import termios
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import serial
from serial.threaded import Protocol, ReaderThread

from companion.errors import UserError
from companion.events import DEFAULT_READER, Event, ReaderState, Tag, TagGone
from companion.files import plain_path, shown, shown_path
from hardware import pn532, rdm6300

if TYPE_CHECKING:
    from hardware.hub_reader import HubReader

#: Reader kinds: baud rate and how long a tag may go unreported before it counts as gone.
KINDS = {
    "rdm6300": {"baudrate": rdm6300.BAUDRATE, "gone_after": 0.25},
    "pn532": {"baudrate": pn532.BAUDRATE, "gone_after": 0.5},
}
#: What a port that went away raises (flushing a hung-up tty raises termios.error).
PORT_ERRORS = (serial.SerialException, OSError, termios.error)
#: The longest a write to a reader or the hub may wait for it to read.
WRITE_TIMEOUT = 0.5


class TagPresence:
    """Turns repeated sightings of tags into one ``Tag`` and, after silence, ``TagGone``."""

    def __init__(self, reader: str = DEFAULT_READER, *, gone_after: float = 0.25,
                 clock: Callable[[], float] = time.monotonic):
        self.reader = reader
        self.gone_after = gone_after
        self.clock = clock
        self._last_seen: dict[str, float] = {}

    def seen(self, uid: str) -> list[Event]:
        """The reader reported ``uid`` now: ``[Tag]`` the first time, else nothing."""
        events = self.poll()
        is_new = uid not in self._last_seen
        self._last_seen[uid] = self.clock()
        return events + [Tag(uid, self.reader)] if is_new else events

    def poll(self) -> list[Event]:
        """``TagGone`` for every tag not reported for ``gone_after`` seconds."""
        now = self.clock()
        gone = [uid for uid, at in self._last_seen.items() if now >= at + self.gone_after]
        for uid in gone:
            del self._last_seen[uid]
        return [TagGone(uid, self.reader) for uid in gone]

    def clear(self) -> list[Event]:
        """``TagGone`` for every tag still present (the reader went away)."""
        gone, self._last_seen = list(self._last_seen), {}
        return [TagGone(uid, self.reader) for uid in gone]

    def deadline(self) -> float | None:
        """The clock time of the next possible ``TagGone``, or None."""
        if not self._last_seen:
            return None
        return min(self._last_seen.values()) + self.gone_after


def parse_reader(spec: str) -> tuple[str, str]:
    """``"rdm6300:/dev/serial0"`` → ``("rdm6300", "/dev/serial0")``; UserError if unusable.

    The port is a device path: never a pyserial URL (``socket://``, ``rfc2217://``), which
    would make a reader setting open a network connection.
    """
    kind, sep, port = spec.partition(":")
    if kind not in KINDS and kind != "hub":
        raise UserError(f"reader {shown(spec)}: unknown kind (rdm6300:PORT, pn532:PORT, hub:PORT, keyboard, none)")
    if not sep or not port.strip():
        raise UserError(f"reader {shown(spec)}: name its serial port, e.g. {kind}:/dev/serial0")
    if not port.startswith("/"):
        raise UserError(f"reader {shown(spec)}: the port is a device path, such as /dev/serial0 or /dev/ttyUSB0")
    return kind, plain_path(port)


def open_reader(spec: str, **options: Any) -> SerialReader | HubReader:
    """The input source for a reader spec such as ``pn532:/dev/ttyUSB0`` (port opened now)."""
    kind, port = parse_reader(spec)
    if kind == "hub":
        from hardware.hub_reader import HubReader  # here: hub_reader imports this module

        return HubReader(port, **options)
    return SerialReader(kind, port, **options)


class PortReader:
    """What the readers on a serial port share: a thread that reads until ``close``, the
    port reopened every ``retry_seconds`` when lost (``_connect``: each reader's own opening,
    None when what answered is not the reader), and events put in order under one lock."""

    def __init__(self, port: str, *, retry_seconds: float, clock: Callable[[], float],
                 open_port: Callable[..., object]):
        self.port_name = port
        self.retry_seconds = retry_seconds
        self._clock = clock
        self._open_port = open_port
        self._lock = threading.Lock()
        self._stir = threading.Event()      # set on data, loss and close: look again now
        self._closed = False
        self._put: Callable[[Event], None] | None = None
        self._thread: threading.Thread | None = None
        self._connection: Any = None

    def _connect(self) -> Any:
        raise NotImplementedError

    def _run(self) -> None:
        raise NotImplementedError

    def _start(self, put: Callable[[Event], None], name: str) -> None:
        """Give events to ``put`` from now on, read on a thread called ``name``."""
        self._put = put
        thread = threading.Thread(target=self._run, name=name, daemon=True)
        thread.start()
        self._thread = thread  # only a started thread: Ctrl-C in between leaves none to join

    def close(self) -> None:
        """Stop reading and close the port."""
        self._closed = True
        self._stir.set()
        if self._thread is not None:
            self._thread.join(timeout=3)
        else:
            close_quietly(self._connection[0])

    def _reconnect(self) -> Any:
        """Try to open the port every ``retry_seconds`` until the reader answers; None once
        closed."""
        while not self._closed:
            self._stir.clear()
            if self._closed:
                return None
            self._stir.wait(self.retry_seconds)
            if self._closed:
                return None
            try:
                connection = self._connect()
            except PORT_ERRORS:
                continue
            if connection is not None:
                return connection
        return None

    def _emit(self, events: list[Event]) -> None:
        # Called with the lock held, so events from the two threads keep their order.
        if self._put is not None:
            for event in events:
                self._put(event)


class SerialReader(PortReader):
    """An RFID reader on a serial port (``kind`` rdm6300 or pn532), reopened when lost.

    ``open_port(port, baudrate=…, timeout=…)`` opens the port (``serial.Serial`` by
    default: a device path only; tests give other openers).
    """

    def __init__(self, kind: str, port: str, *, reader: str = DEFAULT_READER,
                 retry_seconds: float = 1.0, gone_after: float | None = None,
                 poll_seconds: float = 0.05, pn532_timeout: float = 0.2,
                 clock: Callable[[], float] = time.monotonic,
                 open_port: Callable[..., object] = serial.Serial):
        super().__init__(port, retry_seconds=retry_seconds, clock=clock, open_port=open_port)
        self.kind, self.reader = kind, reader
        self.poll_seconds = poll_seconds
        self.pn532_timeout = pn532_timeout
        self._presence = TagPresence(reader, clock=clock,
                                     gone_after=gone_after or KINDS[kind]["gone_after"])
        try:
            self._connection = self._connect()
        except pn532.PN532Error as exc:
            raise UserError(f"the PN532 on {shown_path(port)} does not answer ({exc}); check its wiring "
                            f"and that its switches select HSU (UART) mode") from None
        except PORT_ERRORS as exc:
            raise UserError(f"cannot open the {kind} reader on {shown_path(port)}: {port_problem(exc)}") from None

    def start(self, put: Callable[[Event], None]) -> None:
        """Report the reader and its tags to ``put`` (thread-safe, only enqueues)."""
        put(ReaderState(self.reader, True))
        self._start(put, f"reader-{self.reader}")

    # --- connection ------------------------------------------------------------------------

    def _connect(self) -> tuple[serial.Serial, pn532.PN532 | None]:
        """Open the port: ``(port, PN532 or None)``; a PN532 must answer to count as there."""
        # A write (the PN532's commands) waits at most a moment: a reader that stops taking
        # them is a reader lost, never a polling thread stuck.
        port = cast(serial.Serial, self._open_port(self.port_name, baudrate=KINDS[self.kind]["baudrate"],
                                                   timeout=0.05, write_timeout=WRITE_TIMEOUT))
        if self.kind != "pn532":
            return port, None
        device = pn532.PN532(port, timeout=self.pn532_timeout)
        try:
            device.wake()
        except PORT_ERRORS:
            close_quietly(port)
            raise
        return port, device

    def _run(self) -> None:
        connection = self._connection
        while True:
            port, device = connection
            try:
                if device is None:
                    self._read_rdm6300(port)
                else:
                    self._poll_pn532(device)
            except PORT_ERRORS:
                pass                    # the port went away: reported below
            finally:
                close_quietly(port)
            if self._closed:
                return
            with self._lock:
                self._emit(self._presence.clear() + [ReaderState(self.reader, False)])
            connection = self._reconnect()
            if connection is None:
                return
            with self._lock:
                self._emit([ReaderState(self.reader, True)])

    # --- the two readers ----------------------------------------------------------------

    def _read_rdm6300(self, port: serial.Serial) -> None:
        """Read frames until closed (returns) or the port is lost (raises)."""
        decoder = rdm6300.Rdm6300Decoder()
        lost: list[BaseException | None] = []
        source = self

        class FrameProtocol(Protocol):
            def data_received(self, data: bytes) -> None:
                uids = decoder.feed(data)
                if uids:
                    source._seen(uids)
                    source._stir.set()  # a new deadline for the gone check

            def connection_lost(self, exc: BaseException | None) -> None:
                lost.append(exc)
                source._stir.set()

        # ReaderThread only reads, asks in_waiting and cancels: a port-like object will do.
        thread = ReaderThread(cast(serial.Serial, GuardedPort(port)), FrameProtocol)
        thread.start()
        try:
            while not self._closed and not lost:
                self._stir.clear()
                self._wait_for_deadline()
        finally:
            thread.stop()
        if lost and not self._closed:
            raise serial.SerialException(f"{self.port_name}: lost ({lost[0]})")

    def _poll_pn532(self, device: pn532.PN532) -> None:
        """Poll for tags until closed (returns) or the PN532 or its port is lost (raises)."""
        while not self._closed:
            self._stir.clear()
            uid = device.read_uid()
            self._seen([uid] if uid else [])
            self._stir.wait(self.poll_seconds)

    def _seen(self, uids: list[str]) -> None:
        with self._lock:
            events = self._presence.poll()
            for uid in uids:
                events += self._presence.seen(uid)
            self._emit(events)

    def _wait_for_deadline(self) -> None:
        with self._lock:
            self._emit(self._presence.poll())
            deadline = self._presence.deadline()
        timeout = None if deadline is None else max(0.0, deadline - self._clock())
        self._stir.wait(timeout)

class GuardedPort:
    """A port for ``ReaderThread``: ``in_waiting`` on a lost port raises OSError, which
    the thread does not expect; answering 0 lets its next read report the loss."""

    def __init__(self, port: serial.Serial) -> None:
        self._port = port

    def __getattr__(self, name: str) -> Any:
        return getattr(self._port, name)

    @property
    def in_waiting(self) -> int:
        try:
            waiting: int = self._port.in_waiting
            return waiting
        except OSError:
            return 0


def close_quietly(port: Any) -> None:
    """Close ``port``; one already gone may fail to close, and that is fine."""
    try:
        port.close()
    except PORT_ERRORS:
        pass


_HINTS = {
    errno.ENOENT: "no such port (is the reader plugged in, the UART enabled?)",
    errno.EACCES: "permission denied (add the user to the dialout group)",
    errno.EBUSY: "the port is busy (another program is using it)",
}


def port_problem(exc: BaseException) -> str:
    """A short, one-line reason for an error opening a port."""
    code = getattr(exc, "errno", None)
    if code is None and exc.args and isinstance(exc.args[0], int):
        code = exc.args[0]          # termios.error carries (errno, text)
    if code in _HINTS:
        return _HINTS[code]
    if code is not None:
        return os.strerror(code)
    return (str(exc).strip() or type(exc).__name__).splitlines()[0]
