"""Where a phone finds the page: the box's address on the local network and the port.

Pure and quick (no server imported): the settings page's footer says it on the OLED.
"""

from __future__ import annotations

import socket

from companion.ui.text import t

#: The address that serves every network of the box.
ANY = "0.0.0.0"


def lan_address() -> str:
    """The box's address on its local network: the one its packets would leave from (a UDP
    socket's ``connect`` sends nothing); 127.0.0.1 with no network at all."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def page_address(bind: str, port: int) -> str:
    """``host:port`` to type in a phone's browser for a page served on ``bind:port``."""
    return f"{lan_address() if bind == ANY else bind}:{port}"


def phone_footer(store) -> str:
    """The settings page's footer on the phone page's line: the address while it is on,
    what it is while it is off."""
    if not store.web:
        return t("settings.web_about")
    return t("settings.web_footer", address=page_address(store.web_bind, store.web_port))
