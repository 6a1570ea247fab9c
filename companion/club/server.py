"""The club server: every box's games in from the broker, re-checked, kept, acknowledged.

It logs in to the broker as ``club`` with a persistent session (the broker keeps the boxes'
games for it while it is away) and takes each message on one worker thread: the record is
re-checked by its game's engine (``results.check``), kept once in the database (``Store.add``,
committed), and only then answered on the box's acknowledgement topic and acknowledged to
the broker (paho's manual acknowledgement): a server stopped at any point loses nothing —
the broker or the box sends the game again, and the club keeps it once. A game that could
not be kept (the database away) is not answered: its box sends it again.

Live tables (a box's public view, retained on ``totem/boxes/<box>/live``) are held in
memory for the tables page.
"""

from __future__ import annotations

import json
import queue
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from companion.club import names, wire
from companion.club.results import Refused, check
from companion.club.store import Store
from companion.errors import one_line

#: Seconds to reach the broker at start.
CONNECT_SECONDS = 10.0
#: The largest live table kept from a box.
MAX_LIVE_BYTES = 64 * 1024


@dataclass
class Counts:
    """What the server did since it started."""

    kept: int = 0
    repeated: int = 0
    refused: int = 0


class ClubServer:
    """Takes the boxes' games from the broker at ``broker`` into ``store``.

    ``on_kept(key)`` is called after each game is committed (the bench times it)."""

    def __init__(self, store: Store, broker: str, password: str = "", user: str = names.CLUB_USER,
                 err: TextIO | None = None, on_kept: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.host, self.port = names.check_broker(broker)
        self.user, self.password = user, password
        self.err = err if err is not None else sys.stderr
        self.on_kept = on_kept
        self.counts = Counts()
        self.live: dict[str, Any] = {}
        self._work: queue.Queue[Any] = queue.Queue()
        self._connected = threading.Event()
        self._stopping = threading.Event()
        self._refused_login: str | None = None
        self._client: Any = None
        self._worker = threading.Thread(target=self._take, name="club-ingest", daemon=True)

    def start(self) -> None:
        """Log in and start taking games; ``UserError`` when the broker cannot be reached."""
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        from companion.club.box import ClubUnreachable

        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=names.club_client_id(self.password),
                             clean_session=False, protocol=mqtt.MQTTv311, manual_ack=True)
        client.username_pw_set(self.user, self.password)
        # Back soon after the broker restarts: the boxes' games wait there meanwhile.
        client.reconnect_delay_set(min_delay=1, max_delay=10)
        client.on_connect = self._on_connect
        client.on_message = self._on_message
        self._client = client
        try:
            client.connect(self.host, self.port, keepalive=30)
        except (OSError, ValueError) as exc:
            raise ClubUnreachable(f"cannot reach the broker {self.host}:{self.port}: "
                                  f"{getattr(exc, 'strerror', None) or exc}") from None
        self._worker.start()
        client.loop_start()
        if not self._connected.wait(CONNECT_SECONDS) or self._refused_login:
            self.stop()
            raise ClubUnreachable(f"the broker {self.host}:{self.port} did not let the club in: "
                                  f"{self._refused_login or 'no answer'}")

    def stop(self) -> None:
        """Stop taking games (those not yet kept stay at the broker, unacknowledged)."""
        # The games received and not yet kept are left to the broker: unacknowledged, they
        # come again when the club is back (its session is persistent).
        self._stopping.set()
        self._work.put(None)
        if self._client is not None:
            self._client.disconnect()
            self._client.loop_stop()
        if self._worker.is_alive() and self._worker is not threading.current_thread():
            self._worker.join(10)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            self._refused_login = str(reason)
        else:
            client.subscribe(names.ALL_BOXES, qos=1)
        self._connected.set()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        self._work.put(message)

    def _take(self) -> None:
        while True:
            message = self._work.get()
            if message is None or self._stopping.is_set():
                return
            try:
                self._one(message)
            except Exception as exc:  # noqa: BLE001 - one bad message must not stop the club
                # Not answered: its box sends it again. Taken from the broker all the same, or
                # its unacknowledged deliveries would fill the session's window and stop all.
                print(one_line(f"club: a message on {message.topic} not taken: {exc}"), file=self.err)
            self._client.ack(message.mid, message.qos)

    def _one(self, message: Any) -> None:
        where = names.box_of_topic(message.topic)
        if where is None:
            return
        box, kind = where
        if kind == "live":
            self._live(box, message.payload)
            return
        if kind != "games":
            return
        try:
            game = wire.read_game(message.payload)
        except ValueError as exc:
            print(f"club: box {box}: {exc}", file=self.err)
            return
        try:
            result = check(game.id, game.record)
        except Refused as exc:
            self.counts.refused += 1
            print(one_line(f"club: box {box}: game {game.id[:12]} refused: {exc}"), file=self.err)
            self._answer(box, game.id, str(exc))
            return
        if self.store.add(game.id, box, game.finished, game.record, result):
            self.counts.kept += 1
        else:
            self.counts.repeated += 1
        self._answer(box, game.id, None)
        if self.on_kept is not None:
            self.on_kept(game.id)

    def _answer(self, box: str, key: str, reason: str | None) -> None:
        # Queued with paho, not waited for: a lost answer is asked for again by the box's next sync.
        self._client.publish(names.acks_topic(box), wire.answer_message(key, reason), qos=1)

    def _live(self, box: str, payload: bytes) -> None:
        if not payload:
            self.live.pop(box, None)  # the box's game ended: its retained table cleared
            return
        if len(payload) > MAX_LIVE_BYTES:
            return
        try:
            self.live[box] = json.loads(payload)
        except (ValueError, RecursionError):
            return
