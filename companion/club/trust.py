"""Who may use the club's broker: Mosquitto's password file and ACL, and a box's key.

``add-box NAME`` makes a box a password and prints the line for Mosquitto's password file
(``$7$``: PBKDF2-SHA512, 101 rounds, a 12-byte salt, as ``mosquitto_passwd`` writes it) and
the ``[club]`` section for the box's configuration. The ACL lets each box write only under
its own topic and read only its own answers (``%u``: the login), and the club read every
box's topic and answer any box.
"""

from __future__ import annotations

import base64
import hashlib
import secrets

from companion.club import names

#: PBKDF2 rounds and salt length of Mosquitto 2's ``$7$`` hashes.
ROUNDS, SALT_BYTES = 101, 12

ACL = f"""# The club's broker: each box only its own topics, the club every box's.
user {names.CLUB_USER}
topic read totem/boxes/#
topic write totem/acks/#

pattern write totem/boxes/%u/games
pattern write totem/boxes/%u/live
pattern read totem/acks/%u
"""


#: What the club's broker needs beyond Mosquitto's defaults (docs/club.md): room for the games
#: the club server has not yet taken (Mosquitto drops those past 1,000 a client, and a box
#: would only send them again at its next sync), and no message larger than a club game can be.
BROKER_LIMITS = "max_queued_messages 100000\nmax_inflight_messages 100\nmax_packet_size 2000000\n"


def password_line(user: str, password: str, salt: bytes | None = None) -> str:
    """``user``'s line of a Mosquitto password file."""
    salt = salt if salt is not None else secrets.token_bytes(SALT_BYTES)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, ROUNDS, 64)
    return f"{user}:$7${ROUNDS}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def new_password() -> str:
    """A password for a box (it lives in the box's configuration, never typed)."""
    return secrets.token_urlsafe(18)


def box_section(broker: str, box: str, password: str) -> str:
    """The ``[club]`` section of the box's configuration."""
    return (f'[club]\nbroker = "{broker}"\nbox = "{box}"\n'
            f'# The broker login: the box\'s name, with this password.\npassword = "{password}"\n')
