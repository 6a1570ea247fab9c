"""The box's side of the club: one sync, and the link that syncs in the background.

A sync collects the finished games into the outbox, logs in to the broker, listens for the
club's answers, publishes every pending game (QoS 1) and waits for the answers until all
came or ``wait`` seconds passed. Nothing relies on the broker keeping anything: a game
leaves the outbox only when the club's answer names it, so a game published into a broker
that then stopped is simply published again at the next sync (the club keeps it once).

``ClubLink`` runs syncs on a thread of its own: at start, when a game finished (the games
folder changed) and, while games wait, again after a pause that grows to five minutes. The
box's loop never waits for it: no frame is slower with the club unreachable.
"""

from __future__ import annotations

import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from companion.club import names, wire
from companion.club.outbox import Outbox
from companion.errors import UserError
from companion.table.journal import GAMES as GAMES_FOLDER

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt
    from paho.mqtt.properties import Properties
    from paho.mqtt.reasoncodes import ReasonCode

#: Seconds to reach the broker and log in.
CONNECT_SECONDS = 5.0


class ClubUnreachable(UserError):
    """The broker could not be reached or refused the login (one line saying which)."""


@dataclass
class SyncResult:
    """What one sync did: games sent, acknowledged, refused (id, reason) and still pending."""

    sent: int = 0
    acknowledged: int = 0
    refused: list[tuple[str, str]] = field(default_factory=list)
    pending: int = 0


@dataclass(frozen=True)
class ClubAddress:
    """Where and as whom a box meets its club."""

    broker: str
    box: str
    user: str = ""
    password: str = ""
    tls: bool = False
    ca: str = ""

    def secure(self, client: mqtt.Client) -> None:
        """Set ``client`` (paho's) to speak TLS when the club's broker asks for it, checking
        its certificate against ``ca`` (or the system's authorities)."""
        if self.tls:
            try:
                client.tls_set(ca_certs=self.ca or None)
            except (OSError, ValueError) as exc:  # an unreadable CA file
                raise ClubUnreachable(f"club.ca: cannot use {self.ca!r} for TLS: {exc}") from None

    @property
    def login(self) -> str:
        """The broker login: the box's name unless another is configured."""
        return self.user or self.box


def sync(outbox: Outbox, club: ClubAddress, wait: float = 10.0) -> SyncResult:
    """Send every pending game of ``outbox`` to ``club``; what happened. ``ClubUnreachable``
    when the broker cannot be reached or refuses the login (nothing leaves the outbox)."""
    import paho.mqtt.client as mqtt  # only where a club is configured
    from paho.mqtt.enums import CallbackAPIVersion

    outbox.collect()
    waiting = {w.id: w for w in outbox.pending()}
    result = SyncResult()
    host, port = names.check_broker(club.broker)
    answered = threading.Condition()
    answers: list[tuple[str, str | None]] = []
    state: dict[str, object] = {"connected": None, "lost": False}

    def on_connect(client: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags, reason: ReasonCode,
                   properties: Properties | None) -> None:
        with answered:
            state["connected"] = reason
            answered.notify_all()

    def on_disconnect(client: mqtt.Client, userdata: object, flags: mqtt.DisconnectFlags, reason: ReasonCode,
                      properties: Properties | None) -> None:
        with answered:
            state["lost"] = True
            answered.notify_all()

    def on_message(client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        answer = wire.read_answer(message.payload)
        if answer is not None:
            with answered:
                answers.append(answer)
                answered.notify_all()

    # A persistent session: answers sent while the box was away wait for it at the broker.
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"totem-box-{club.box}",
                         clean_session=False, protocol=mqtt.MQTTv311)
    client.username_pw_set(club.login, club.password)
    club.secure(client)
    client.on_connect, client.on_disconnect, client.on_message = on_connect, on_disconnect, on_message
    where = f"{host}:{port}"
    try:
        client.connect(host, port, keepalive=30)
    except ssl.SSLError as exc:
        raise ClubUnreachable(f"the club's broker {where} failed the TLS check: {exc.reason or exc}") from None
    except (OSError, ValueError) as exc:
        raise ClubUnreachable(f"cannot reach the club's broker {where}: "
                              f"{getattr(exc, 'strerror', None) or exc}") from None
    client.loop_start()
    try:
        with answered:
            answered.wait_for(lambda: state["connected"] is not None or state["lost"], CONNECT_SECONDS)
        reason = state["connected"]
        if reason is None:
            raise ClubUnreachable(f"cannot reach the club's broker {where}: no answer to the login")
        if getattr(reason, "is_failure", False):
            raise ClubUnreachable(f"the club's broker {where} refused the login of {club.login!r}: {reason}")
        client.subscribe(names.acks_topic(club.box), qos=1)
        for key, game in waiting.items():
            client.publish(names.games_topic(club.box), wire.game_message(key, game.finished, game.record), qos=1)
            result.sent += 1
        deadline = time.monotonic() + wait
        done: set[str] = set()
        with answered:
            while True:
                for key, reason_text in answers:
                    if key in waiting and key not in done and outbox.answer(key, reason_text):
                        done.add(key)
                        if reason_text is None:
                            result.acknowledged += 1
                        else:
                            result.refused.append((key, reason_text))
                answers.clear()
                left = deadline - time.monotonic()
                if len(done) == len(waiting) or state["lost"] or left <= 0:
                    break
                answered.wait(left)
        lost = bool(state["lost"])  # before our own disconnect, which is no loss
    finally:
        client.disconnect()
        client.loop_stop()
    result.pending = len(outbox.pending())
    if lost and result.pending:
        raise ClubUnreachable(f"lost the club's broker {where} during the sync: "
                              f"{result.pending} games still pending")
    return result


class ClubLink:
    """Syncs ``data_dir``'s games with ``club`` on a thread of its own (``start``/``stop``).

    ``last`` is the last sync's result or one line saying why it failed; ``synced`` is set
    after each attempt (tests wait on it)."""

    RETRY_FIRST, RETRY_MOST = 10.0, 300.0
    #: Seconds between two looks at the games folder.
    LOOK = 2.0

    def __init__(self, data_dir: str | Path, club: ClubAddress,
                 syncing: Callable[[Outbox, ClubAddress], SyncResult] = sync) -> None:
        self.outbox = Outbox(data_dir)
        self.club = club
        self._sync = syncing
        self._stop = threading.Event()
        self.synced = threading.Event()
        self.last: SyncResult | str | None = None
        self._thread = threading.Thread(target=self._run, name="club", daemon=True)

    def start(self) -> None:
        """Start syncing (at once, then as games finish)."""
        self._thread.start()

    def stop(self) -> None:
        """Stop; a sync under way ends by itself (it never holds the box)."""
        self._stop.set()

    def _changed(self, seen: float | None) -> float | None:
        try:
            return (self.outbox.data_dir / GAMES_FOLDER).stat().st_mtime
        except OSError:
            return seen

    def _run(self) -> None:
        seen: float | None = None
        retry = self.RETRY_FIRST
        next_try = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            mtime = self._changed(seen)
            if mtime != seen or now >= next_try:
                seen = mtime
                try:
                    self.last = self._sync(self.outbox, self.club)
                    pending = self.last.pending
                except UserError as exc:
                    self.last, pending = str(exc), 1
                except Exception as exc:  # noqa: BLE001 - a thread of its own: the box plays on
                    self.last, pending = f"the club's sync failed: {exc}", 1
                self.synced.set()
                if pending:
                    next_try, retry = time.monotonic() + retry, min(retry * 2, self.RETRY_MOST)
                else:
                    next_try, retry = float("inf"), self.RETRY_FIRST
            self._stop.wait(self.LOOK)
