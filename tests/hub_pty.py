"""A reader hub at the far end of a pty: the firmware itself, on a simulated Pico.

:class:`PtyHub` runs the hub that ``board.open_hub()`` builds (tests/firmware_bench.py)
on the device end of a :class:`fakes.Plug`, as the Pico does on its USB line: it reads
what the host writes, steps the hub (answer, scan), writes its lines. The tests lay and
lift tags, unplug and plug the cable back, freeze the hub, lose lines on the way or add
noise. One lock guards the simulated board, the hub and the pty: the tests' changes
never land in the middle of a scan.
"""

from __future__ import annotations

import os
import select
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fakes import Plug
from firmware_bench import Pico, board, make_pico
from firmware_bench import hub as firmware_hub

#: How often the hub steps when the host says nothing (the Pico scans without pause; a
#: few milliseconds here keep the tests' CPU time low).
STEP_SECONDS = 0.005


class PtyHub(threading.Thread):
    """The hub of ``pico`` serving the host on ``plug``, until :meth:`stop`."""

    def __init__(self, plug: Plug, pico: Pico):
        super().__init__(daemon=True)
        self.plug, self.pico = plug, pico
        self.lock = threading.RLock()
        self.frozen = False             # hung: reads nothing, says nothing
        self._lose = 0                  # lines to lose on the way
        self._stopping = threading.Event()
        with self.lock:
            self._send(pico.hub.start())
        self.start()

    # --- what the tests do ----------------------------------------------------------------

    def put(self, slot: int, uid: str):
        """Lay a tag with ``uid`` on ``slot``; the tag."""
        with self.lock:
            return self.pico.put(slot, uid)

    def take(self, slot: int, tag) -> None:
        """Lift ``tag`` off ``slot``."""
        with self.lock:
            self.pico.take(slot, tag)

    def lose(self, lines: int) -> None:
        """The next ``lines`` lines of the hub never reach the host."""
        with self.lock:
            self._lose = lines

    def inject(self, data: bytes) -> None:
        """Bytes that are not the hub's (noise on the line) reach the host."""
        with self.lock:
            self.plug.write(data)

    def unplug(self) -> None:
        """Pull the USB cable: the Pico, powered by it, stops."""
        with self.lock:
            self.plug.unplug()

    def plug_in(self) -> None:
        """Plug the cable back: the Pico starts again (a new hub, the board read afresh)."""
        with self.lock:
            self.plug.plug()
            self.pico.hub = board.open_hub()
            self._send(self.pico.hub.start())

    def stop(self) -> None:
        """Stop serving (before the pty goes, so that its descriptor is not reused under us)."""
        self._stopping.set()
        self.join(timeout=5)

    # --- the Pico's loop ------------------------------------------------------------------------

    def run(self) -> None:
        while not self._stopping.is_set():
            with self.lock:
                master = self.plug.master
                if master is not None:
                    # As the Pico's USB line: what nobody reads is dropped, never waited on.
                    os.set_blocking(master, False)
                    try:
                        ready, _, _ = select.select([master], [], [], 0)
                        received = os.read(master, 4096) if ready else b""
                    except OSError:
                        received = b""      # the host has the port closed just now
                    if not self.frozen:
                        self._send(self.pico.hub.step(received))
            self._stopping.wait(STEP_SECONDS)

    def _send(self, lines: list[str]) -> None:
        for line in lines:
            if self._lose:
                self._lose -= 1
            else:
                try:
                    self.plug.write(line.encode())
                except OSError:
                    pass            # the host does not read: the line is lost


@contextmanager
def plugged_hub(folder: Path, monkeypatch: pytest.MonkeyPatch, version: str | None = None) -> Iterator[PtyHub]:
    """A hub plugged in at ``hub.plug.path`` (``folder/ttyACM0``), the firmware on a
    simulated Pico behind it (running ``version`` of it when given); unplugged at the end."""
    if version is not None:
        monkeypatch.setattr(firmware_hub, "VERSION", version)
    plug = Plug(str(folder / "ttyACM0"))
    running = PtyHub(plug, make_pico(monkeypatch))
    try:
        yield running
    finally:
        running.stop()
        plug.close()
