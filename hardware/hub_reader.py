"""The reader hub (firmware/) on a USB serial port, as one input source for all its slots.

``open_reader("hub:/dev/ttyACM0")`` opens the port at once and waits for the hub's
``hello`` (a port that cannot be opened, or a hub that does not answer, is one
``UserError`` line). Once started, the source puts:

* ``ReaderState("hub", True)`` when the hub answers, then, from its ``state``, a ``Tag``
  for every tag on the board (``Tag(uid, "pad")`` on the scan pad, ``Tag(uid, "slot3")``
  on village 3) and ``ReaderState("slot5", False)`` for a slot whose reader does not;
* ``Tag`` / ``TagGone`` as tags arrive and leave, ``ReaderState("slotN", …)`` as a slot's
  reader stops answering or comes back;
* ``ReaderState("hub", False)`` when the port goes away or the hub stops answering a ping,
  then a new try to open the port every second, and ``ReaderState("hub", True)`` once
  the hub answers again, followed only by what changed on the board meanwhile.

The protocol itself — checksums, sequence gaps, the picture of the board — is
:class:`hardware.hub_protocol.HubLink`; this module moves bytes and keeps time. The port
is read by ``serial.threaded.ReaderThread``, as the RDM6300's is. That thread only reads:
what the host says to the hub is written by the source's own thread, outside the lock,
with a write timeout, so a hub that stops reading never stops the host reading (its
unanswered writes count as the hub lost, and the port is opened again).

Given the box's ``firmware`` folder, the source also puts a ``HubGreeted`` at each hello (the
version the hub runs, the one the box ships: ``companion/hub_offer.py`` decides whether to
offer it), and ``update_firmware`` updates the Pico on a thread of its own: the port let go,
the firmware copied (``hardware/hub_firmware.py``), the port opened again as after any loss,
and a ``HubUpdated`` put once the hub greets again (or does not within ``restart_seconds``).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import serial
from serial.threaded import Protocol, ReaderThread

from companion.errors import UserError
from companion.events import Event
from companion.files import shown, shown_path
from companion.hub_offer import HubGreeted, HubUpdated
from hardware.hub_protocol import (
    ANSWER_WITHIN,
    MAX_LINE,
    MAX_SLOTS,
    PING_AFTER,
    BadLine,
    HubLine,
    HubLink,
    decode_resync,
    hello_info,
)
from hardware.serial_reader import PORT_ERRORS, WRITE_TIMEOUT, GuardedPort, PortReader, close_quietly, port_problem

BAUDRATE = 115200   # a USB serial port takes any; the hub's own line is USB
#: How long the Pico may take to greet again after its firmware is copied (USB comes back).
RESTART_SECONDS = 20.0
#: How long the reading thread may take to let the port go before an update.
RELEASE_SECONDS = 5.0

#: An open connection: the port, the hub's hello, and the bytes that came after it.
Connection = tuple[serial.Serial, HubLine, bytes]


class HubReader(PortReader):
    """The reader hub on serial port ``port``, reopened when lost.

    ``open_port(port, baudrate=…, timeout=…)`` opens the port (``serial.Serial`` by
    default: a device path only; tests give other openers). ``link`` is the protocol's
    state, with its counts of bad lines, gaps and reconnects (``doctor`` reports them).
    ``firmware``: the box's firmware folder, for its offer (module docstring); ``copy(port)``
    copies it onto the Pico (``mpremote`` by default).
    """

    def __init__(self, port: str, *, retry_seconds: float = 1.0, ping_after: float = PING_AFTER,
                 answer_within: float = ANSWER_WITHIN, clock: Callable[[], float] = time.monotonic,
                 open_port: Callable[..., object] = serial.Serial, firmware: Path | None = None,
                 copy: Callable[[str], None] | None = None, restart_seconds: float = RESTART_SECONDS):
        super().__init__(port, retry_seconds=retry_seconds, clock=clock, open_port=open_port)
        self.link = HubLink(clock=clock, ping_after=ping_after, answer_within=answer_within)
        self._odd_hello: HubLine | None = None   # a hello of a hub this host cannot use
        self.firmware, self._copy, self.restart_seconds = firmware, copy, restart_seconds
        self._shipped: str | None = None          # the firmware's version, read at the start
        self._tell: Callable[[HubGreeted | HubUpdated], None] | None = None
        self._flashing = threading.Event()        # the port is let go for an update
        self._released = threading.Event()       # … and the reading thread has let it go
        self._greeted = threading.Event()         # set at each hello
        try:
            connection = self._connect()
        except PORT_ERRORS as exc:
            raise UserError(f"cannot open the reader hub on {shown_path(port)}: {port_problem(exc)}") from None
        if connection is None and self._odd_hello is not None:
            raise UserError(f"the reader hub on {shown_path(port)} answered "
                            f"{shown(' '.join([self._odd_hello.verb, *self._odd_hello.args]), 60)}, not a hello "
                            f"this box can use (totem-hub VERSION slots=1-{MAX_SLOTS}): flash the firmware "
                            f"of this version (firmware/README.md, \"Flashing\")")
        if connection is None:
            raise UserError(f"the reader hub on {shown_path(port)} does not answer: is its firmware on the Pico? "
                            f"(firmware/README.md, \"Flashing\")")
        self._connection = connection

    def start(self, put: Callable[[Event | HubGreeted | HubUpdated], None]) -> None:
        """Report the hub, its slots and their tags to ``put`` (thread-safe, only enqueues);
        with a firmware folder, its hellos and updates too."""
        if self.firmware is not None:
            from hardware.hub_firmware import shipped_version  # here: it imports this module

            try:
                self._shipped, self._tell = shipped_version(self.firmware), put
            except UserError as exc:   # no offer then; the hub is read all the same
                print(f"totem-companion: {exc}", file=sys.stderr)
        self._start(put, "reader-hub")

    def update_firmware(self) -> None:
        """Update the Pico to the firmware shipped, on a thread of its own; a ``HubUpdated``
        says how it went (module docstring)."""
        threading.Thread(target=self._update, name="hub-firmware", daemon=True).start()

    def _update(self) -> None:
        from hardware.hub_firmware import FIRMWARE, copy_with_mpremote  # here: it imports this module

        problem: str | None = None
        self._released.clear()
        self._flashing.set()
        self._stir.set()
        try:
            if not self._released.wait(RELEASE_SECONDS):
                problem = f"the reader did not let {shown_path(self.port_name)} go"
            else:
                self._greeted.clear()
                if self._copy is not None:
                    self._copy(self.port_name)
                else:
                    copy_with_mpremote(self.port_name, self.firmware or FIRMWARE)
        except UserError as exc:
            problem = str(exc)
        except Exception as exc:  # any fault of the copy is said: the box must not wait for ever
            problem = f"the copy failed: {type(exc).__name__}: {exc}"
        finally:
            self._flashing.clear()
            self._stir.set()
        if problem is None and not self._greeted.wait(self.restart_seconds):
            problem = f"the hub did not greet within {self.restart_seconds:g} s of its update"
        if self._tell is not None:
            self._tell(HubUpdated(str(self.link.version) if problem is None else None, problem))

    # --- connection ------------------------------------------------------------------------

    def _connect(self) -> Connection | None:
        """Open the port and greet the hub; None (the port closed again) when no hello
        came in time, or while the port is let go for an update."""
        if self._flashing.is_set():
            self._released.set()
            return None
        port = self._open_port(self.port_name, baudrate=BAUDRATE, timeout=0.05, write_timeout=WRITE_TIMEOUT)
        try:
            greeted = self._handshake(port)
        except PORT_ERRORS:
            close_quietly(port)
            raise
        if greeted is None:
            close_quietly(port)
            return None
        return cast(serial.Serial, port), *greeted

    def _handshake(self, port: Any) -> tuple[HubLine, bytes] | None:
        """Send ``hello?`` and read until the hub's ``hello``: it and the bytes after it,
        or None if it does not come."""
        port.write(self.link.greeting())
        received = b""
        deadline = self._clock() + self.link.answer_within
        while self._clock() < deadline and not self._closed:
            received += port.read(port.in_waiting or 1)
            while b"\n" in received:
                raw, received = received.split(b"\n", 1)
                try:
                    line, _ = decode_resync(raw)    # a partial line before it must not hide it
                except BadLine:
                    continue
                # What came before the hello is older news: the state asked for next tells it.
                if hello_info(line) is not None:
                    return line, received
                if line.verb == "hello":
                    self._odd_hello = line
            received = received[-MAX_LINE:]
        return None

    def _run(self) -> None:
        connection: Connection | None = self._connection
        while connection is not None:
            port, hello, after = connection
            try:
                self._serve(port, hello, after)
            except PORT_ERRORS:
                pass                    # the port went away: reported below
            finally:
                close_quietly(port)
            if self._flashing.is_set():
                self._released.set()
            if self._closed:
                return
            with self._lock:
                self._emit(self.link.lost())
            connection = self._reconnect()

    # --- one connection ------------------------------------------------------------------------

    def _serve(self, port: serial.Serial, hello: HubLine, after: bytes) -> None:
        """Read and keep time until closed (returns), the hub falls silent (returns) or
        the port is lost (raises). ``after``: what the hub sent after its hello."""
        lost: list[BaseException | None] = []
        source = self

        class LineProtocol(Protocol):
            def data_received(self, data: bytes) -> None:
                with source._lock:
                    source._emit(source.link.feed(data))
                source._stir.set()      # what to answer, and a new deadline for the ping

            def connection_lost(self, exc: BaseException | None) -> None:
                lost.append(exc)
                source._stir.set()

        with self._lock:
            self._emit(self.link.connected(hello) + self.link.feed(after))
            if self._tell is not None and self._shipped is not None:
                self._tell(HubGreeted(str(self.link.version), self._shipped, self.update_firmware))
        self._greeted.set()
        # ReaderThread only reads, asks in_waiting and cancels: a port-like object will do.
        thread = ReaderThread(cast(serial.Serial, GuardedPort(port)), LineProtocol)
        thread.start()
        try:
            while not self._closed and not lost and self.link.alive and not self._flashing.is_set():
                self._stir.clear()
                with self._lock:
                    self.link.poll()
                    out = self.link.take_outbox()
                    deadline = self.link.deadline()
                if out:
                    # Outside the lock: the reader thread goes on meanwhile. A hub that does
                    # not read raises SerialTimeoutException here: the hub is lost.
                    port.write(out)
                if self.link.alive:
                    self._stir.wait(max(0.0, deadline - self._clock()))
        finally:
            thread.stop()
        if lost and not self._closed:
            raise serial.SerialException(f"{self.port_name}: lost ({lost[0]})")

