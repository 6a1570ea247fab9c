"""The phone page as the app loop's watcher: it follows the setting, takes a snapshot of
each frame shown and hands it to the server's thread.

``seen`` runs on the session's thread after every frame: it makes the snapshot (a few
dicts, from the view values) and gives it to the server's event loop with
``call_soon_threadsafe``, which never waits. The server (``server.py``, aiohttp) is imported
and started on its own thread only when the page is on — the settings page's "Phone page",
``--web PORT`` or the configuration — so a box without it pays nothing; it stops when the
page is turned off and when the box stops. A port that cannot be opened is said in one line
and the game goes on.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from companion.pairing import Pairing
from companion.table.session import Output, Session

if TYPE_CHECKING:  # asyncio and the server are imported on the server's thread only
    import asyncio

    from companion.web.server import Hub


class PhonePage:
    """The watcher that serves the live table where the box's settings say (``web_bind``,
    ``web_port``), while their ``web`` is on."""

    def __init__(self, *, err: TextIO | None = None, put: Callable[[object], None] | None = None) -> None:
        self.err = err if err is not None else sys.stderr
        self.put = put                    # the app loop's queue: what paired phones send
        self.data_dir: Path | None = None  # the session's data folder: its past games
        self.pairing = Pairing()
        self.latest: dict[str, Any] | None = None
        self.where: tuple[str, int] | None = None   # (address, port) served; None: off
        self.failed: tuple[str, int] | None = None  # one that could not be opened: not tried again
        self._server: _Server | None = None
        self._stopped: list[_Server] = []   # servers asked to stop, waited for on close
        self._started = threading.Event()    # a server is starting or serving

    def seen(self, session: Session, out: Output | None = None) -> None:
        """The frame just shown: follow the setting, hand on the table (never blocks)."""
        store = session.settings
        self.data_dir = session.data_dir
        self.pairing.use(session.data_dir)  # the paired phones are kept there
        want = (store.web_bind, store.web_port) if store.web else None
        if want != self.where:
            self._switch(want)
        if self.where is None:
            return
        from companion.web.snapshot import snapshot  # with the page on only: start-up stays short

        self.latest = snapshot(session, out.frame if out is not None else None)
        if self._server is not None:
            self._server.publish(self.latest)

    def heard(self, session: Session, event: object) -> bool:
        """The page takes no event for itself: what phones send comes through the queue."""
        return False

    def close(self) -> None:
        """Stop the server and wait a moment for each to let its port go (the box stops)."""
        self._switch(None)
        for server in self._stopped:
            server.thread.join(2.0)
        self._stopped.clear()

    def wait_ready(self, timeout: float = 5.0) -> bool:
        """Whether the server listens, waiting up to ``timeout`` s for it to be started and to
        listen (tests, the bench)."""
        if not self._started.wait(timeout):
            return False
        server = self._server
        return server is not None and server.ready.wait(timeout)

    def _switch(self, where: tuple[str, int] | None) -> None:
        """Stop the server there is, start one at ``where`` (None: none)."""
        old, self._server, self.where = self._server, None, where
        self._started.clear()
        if old is not None:
            old.stop()
            self._stopped = [s for s in self._stopped if s.thread.is_alive()] + [old]
        if where is not None and where != self.failed:
            self.failed = None
            self._server = _Server(self, *where)
            self._started.set()


class _Server:
    """One run of the server on its own thread and event loop."""

    def __init__(self, page: PhonePage, bind: str, port: int) -> None:
        self.page, self.bind, self.port = page, bind, port
        self.ready = threading.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.hub: Hub | None = None
        self.stopping: asyncio.Event | None = None  # what ends it, made on its loop
        self.halted = False
        self.lock = threading.Lock()  # between ``stop`` and the loop's start, nothing more
        self.thread = threading.Thread(target=self._run, name="phone-page", daemon=True)
        self.thread.start()

    def publish(self, shot: dict[str, Any]) -> None:
        """Give ``shot`` to the server's loop (never waits)."""
        loop, hub = self.loop, self.hub
        if loop is not None and hub is not None:
            try:
                loop.call_soon_threadsafe(hub.publish, shot)
            except RuntimeError:  # its loop has just ended
                pass

    def stop(self) -> None:
        """Ask the server to end (never waits)."""
        with self.lock:
            self.halted = True
            if self.loop is not None and self.stopping is not None:
                try:
                    self.loop.call_soon_threadsafe(self.stopping.set)
                except RuntimeError:
                    pass

    def _run(self) -> None:
        import asyncio

        from companion.web import server  # aiohttp: only ever imported with the page on

        hub = server.Hub()

        def started(loop: asyncio.AbstractEventLoop) -> None:
            if self.page.latest is not None:
                hub.publish(self.page.latest)
            self.hub = hub
            self.ready.set()

        async def main() -> None:
            with self.lock:
                if self.halted:
                    return
                self.stopping = stopping = asyncio.Event()
                self.loop = asyncio.get_running_loop()
            await server.serve(hub, self.bind, self.port, started, stopping,
                               pairing=self.page.pairing, put=self.page.put, data_dir=self.page.data_dir,
                               err=self.page.err)

        try:
            asyncio.run(main())
        except OSError as exc:
            self.page.failed = (self.bind, self.port)
            print(f"totem-companion: the phone page cannot open port {self.port} "
                  f"({exc.strerror or exc}); the game goes on", file=self.page.err)
