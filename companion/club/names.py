"""The contract between a box and the club: the broker's address, a box's name, the topics.

A box publishes its finished games under ``totem/boxes/<box>/games`` and reads the club's
answers on ``totem/acks/<box>``; the broker's ACL (``trust.py``) lets a box log in as its
own name only and use only those two topics, so a box cannot publish as another.
"""

from __future__ import annotations

import hashlib
import hmac
import re

from companion.errors import UsageError
from companion.files import shown

#: A box's name: its login and its topic, so no MQTT wildcard nor separator in it.
BOX_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
#: The club server's own login (no box may take it).
CLUB_USER = "club"
#: MQTT's default port without TLS.
DEFAULT_PORT = 1883


def club_client_id(password: str) -> str:
    """The club server's MQTT client id: derived from its password, so the same at every
    start (its persistent session) and known to no box. MQTT lets any client that logs in
    take a client id over, which closes the connection holding it; Mosquitto 2.0 ties an
    id to a login only with ``use_username_as_clientid``, which a box's two connections
    (games, live table) cannot use, and the ACL keeps ``$SYS`` from the boxes, so a box has
    no way to learn this id (docs/club.md)."""
    digest = hmac.new(password.encode(), b"totem club server client id", hashlib.sha256).hexdigest()
    return f"totem-club-{digest[:32]}"


def games_topic(box: str) -> str:
    """Where ``box`` publishes its finished games."""
    return f"totem/boxes/{box}/games"


def live_topic(box: str) -> str:
    """Where ``box`` keeps its live table (the public view), retained."""
    return f"totem/boxes/{box}/live"


def acks_topic(box: str) -> str:
    """Where the club answers ``box``: acknowledged or refused, with the reason."""
    return f"totem/acks/{box}"


#: What the club server subscribes to: every box's games and live tables.
ALL_BOXES = "totem/boxes/+/+"


def box_of_topic(topic: str) -> tuple[str, str] | None:
    """``(box, kind)`` of a topic under ``totem/boxes/``; None for anything else."""
    parts = topic.split("/")
    if len(parts) == 4 and parts[:2] == ["totem", "boxes"] and BOX_NAME.fullmatch(parts[2]):
        return parts[2], parts[3]
    return None


def check_box(name: str, key: str = "--box") -> str:
    """``name`` when it can be a box's name; else a ``UsageError`` naming ``key``."""
    if not isinstance(name, str) or not BOX_NAME.fullmatch(name) or name == CLUB_USER:
        raise UsageError(f"{key}: expected a box name of 1-32 letters, digits, - and _ "
                         f"(not \"{CLUB_USER}\"), got {shown(str(name))}")
    return name


def check_broker(address: str, key: str = "--broker") -> tuple[str, int]:
    """``(host, port)`` of ``HOST:PORT`` (the port 1883 when left out); else a ``UsageError``."""
    host, sep, port = str(address).strip().rpartition(":")
    if not sep:
        host, port = port, str(DEFAULT_PORT)
    host = host.strip("[]")
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535 or any(c.isspace() for c in host):
        raise UsageError(f"{key}: expected HOST:PORT such as club.local:1883, got {shown(str(address))}")
    return host, int(port)
