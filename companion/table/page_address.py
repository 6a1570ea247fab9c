"""Where a phone finds the page: the box's address on the local network and the port.

Pure and quick (no server imported): the settings page's footer says it on the OLED.
"""

from __future__ import annotations

import socket

from companion.table.settings import SettingsStore
from companion.ui.text import t

#: The address that serves every network of the box.
ANY = "0.0.0.0"


def internet_sockets() -> bool:
    """Whether the box may open an Internet socket at all: the service installed with the
    phone page off allows none (``RestrictAddressFamilies=AF_UNIX``, hardware/pi_service.sh)."""
    try:
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()
    except OSError:
        return False
    return True


def lan_address() -> str:
    """The box's address on its local network: the one its packets would leave from (a UDP
    socket's ``connect`` sends nothing); 127.0.0.1 with no network at all."""
    try:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    except OSError:  # no Internet socket allowed: no address either
        return "127.0.0.1"
    try:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def page_address(bind: str, port: int) -> str:
    """``host:port`` to type in a phone's browser for a page served on ``bind:port``."""
    return f"{lan_address() if bind == ANY else bind}:{port}"


def phone_footer(store: SettingsStore) -> str:
    """The settings page's footer on the phone page's line: the address while it is on,
    what it is while it is off; while it is on in a service installed with it off, how to
    let it open its port."""
    if not store.web:
        return t("settings.web_about")
    if not internet_sockets():
        return t("settings.web_blocked_footer")
    return t("settings.web_footer", address=page_address(store.web_bind, store.web_port))
