"""The service's health, told to systemd (``sd_notify``): ``READY=1`` once the box is up,
its menu on the panel and its buttons open. The unit is ``Type=notify``, so ``systemctl
restart`` waits for it, and an update that never gets it is rolled back
(``companion/update.py``). Without ``NOTIFY_SOCKET`` (not under systemd) nothing is sent."""

from __future__ import annotations

import os
import socket


def notify_ready() -> bool:
    """Tell the service manager the box is up; whether it was told. Never fails: a
    manager gone or a socket refused leaves the box playing."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address or address[0] not in "/@":
        return False
    if address[0] == "@":  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(b"READY=1")
    except OSError:
        return False
    return True
