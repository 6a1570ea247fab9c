"""The box's live table for the club's screen: the public view of the game in play, kept
on the club's broker as a retained message on ``totem/boxes/<box>/live``.

A watcher of the app loop (as the phone page): ``seen`` runs on the session's thread after
a frame, makes the phone page's snapshot — the public view only, never a hint, a hand nor a
face-down card (companion/table/public_view.py) — and a timer's thread hands the latest to
paho at most once a second, whose own thread sends it: connecting, a broker away, a slow network never hold the
session. Only the latest table matters (QoS 0: a lost one is replaced by the next). When
the game ends the retained table is cleared, so the club's tables page shows games in play
only.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.club import names
from companion.club.box import ClubAddress

if TYPE_CHECKING:
    from PIL import Image

    from companion.table.session import Output, Session

#: Seconds between two tables sent.
EVERY = 1.0
#: What of the phone page's snapshot the club is given (not the box's settings form).
FIELDS = ("lang", "kind", "title", "lines", "note", "done", "table")


def live_value(session: Session, frame: Image.Image | None = None) -> dict[str, Any]:
    """The public table of ``session`` as the club shows it."""
    from companion.web.snapshot import snapshot

    shot = snapshot(session, frame)
    return {"game": session.game_name, **{key: shot[key] for key in FIELDS}}


class LiveTable:
    """Publishes the box's table in play to ``club``'s broker, retained (``clock``: the pace)."""

    def __init__(self, club: ClubAddress, clock: Callable[[], float] = time.monotonic) -> None:
        import paho.mqtt.client as mqtt  # at the box's start, not at its first frame
        from paho.mqtt.enums import CallbackAPIVersion

        self.club, self.clock = club, clock
        self.topic = names.live_topic(club.box)
        self._lock = threading.Lock()
        self._last = float("-inf")
        self._latest: bytes | None = None
        self._sent: bytes | None = None
        self._timer: threading.Timer | None = None
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"totem-box-{club.box}-live",
                                   protocol=mqtt.MQTTv311)
        self._client.username_pw_set(club.login, club.password)
        club.secure(self._client)
        self._client.reconnect_delay_set(1, 60)
        host, port = names.check_broker(club.broker)
        self._client.connect_async(host, port, keepalive=60)  # resolved and connected on paho's thread
        self._client.loop_start()

    def seen(self, session: Session, out: Output | None = None) -> None:
        """A frame was shown: its table is the latest, sent at most once a second (the last
        of a burst too, by a timer: a game paused after it shows it)."""
        if session.game is None:
            with self._lock:
                if self._timer is not None:
                    self._timer.cancel()
                    self._timer = None
                if self._sent:
                    self._send(b"")  # the game ended: no table retained
                self._latest = None
            return
        payload = json.dumps(live_value(session, out.frame if out is not None else None)).encode()
        with self._lock:
            self._latest = payload
            if self._timer is None and payload != self._sent:
                self._timer = threading.Timer(max(0.0, self._last + EVERY - self.clock()), self._flush)
                self._timer.daemon = True
                self._timer.start()

    def _flush(self) -> None:
        with self._lock:
            self._timer = None
            if self._latest is not None and self._latest != self._sent:
                self._send(self._latest)
                self._last = self.clock()

    def heard(self, session: Session, event: object) -> bool:
        """The live table takes no event."""
        return False

    def close(self) -> None:
        """The box stops: its table is no longer in play. A broker out of reach is not
        waited for (paho's thread may be pausing before its next try)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._sent:
                self._send(b"")
        if self._client.is_connected():
            self._client.disconnect()
            self._client.loop_stop()
        else:
            threading.Thread(target=self._client.loop_stop, daemon=True).start()

    def _send(self, payload: bytes) -> None:
        # Queued for paho's thread; while the broker is away it is dropped: the next replaces it.
        self._client.publish(self.topic, payload, qos=0, retain=True)
        self._sent = payload
