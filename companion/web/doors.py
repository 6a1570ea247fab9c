"""The page's doors: which names it answers to, how many connections it keeps, and one
line per kind of problem.

Pure (no aiohttp): the server (``server.py``) asks these at each connection and request.

* **Names.** A browser sends the name it typed as ``Host``; a page elsewhere that makes a
  name of its own point at the box (DNS rebinding) sends that name, so only the box's own
  names are answered: an IP literal (the box's address, or any: none can be rebound),
  ``localhost``, the host name and ``name.local``.
* **Connections.** A table has a handful of phones; a browser keeps at most six
  connections to one server. Past ``PER_ADDRESS`` from one address or ``TOTAL`` in all the
  connection is closed at once, and ``TOTAL`` stays under half the descriptors the process
  may open, so the journal, the reader and the voice always have theirs.
* **Problems.** A client can cause the same problem thousands of times a second: each kind
  is said in one line at most once a minute, with the count of those not said.
"""

from __future__ import annotations

import ipaddress
import resource
import socket
import time
from collections import Counter
from collections.abc import Callable
from typing import TextIO

#: Connections kept at once from one address, and in all (see ``connection_cap``).
PER_ADDRESS, TOTAL = 8, 128
#: Event streams (open pages) at once from one address, and in all.
PAGES_PER_ADDRESS, PAGES = 2, 16
#: Seconds a connection may take to send a request's header (from its opening or its last
#: answer), and a request its body; past them, closed.
IDLE = 5.0
#: Seconds an open page may take to accept a table before it is let go.
SEND = 5.0
#: Seconds between two lines of one kind of problem.
QUIET = 60.0


def connection_cap(total: int = TOTAL) -> int:
    """The connections kept at once: ``total``, but at most half the descriptors this
    process may open (the rest are the box's own)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return total if soft == resource.RLIM_INFINITY else max(1, min(total, soft // 2))


def own_names() -> frozenset[str]:
    """The box's names besides IP literals: ``localhost``, its host name and ``name.local``."""
    name = socket.gethostname().lower().rstrip(".")
    return frozenset(n for n in ("localhost", name, f"{name.split('.')[0]}.local") if n)


def is_own_host(host: str | None, names: frozenset[str]) -> bool:
    """Whether a request's ``Host`` (with or without a port) names the box: one of ``names``
    or an IP literal (IPv6 in brackets)."""
    if not host:
        return False
    if host.startswith("["):
        literal, sep, rest = host[1:].partition("]")
        if not sep or (rest and not _is_port(rest)):
            return False
        try:
            ipaddress.IPv6Address(literal)
        except ValueError:
            return False
        return True
    name, sep, port = host.partition(":")
    if sep and not _is_port(":" + port):
        return False
    name = name.lower()
    if name in names:
        return True
    try:
        ipaddress.IPv4Address(name)
    except ValueError:
        return False
    return True


def _is_port(text: str) -> bool:
    return text.startswith(":") and 1 <= len(text) <= 6 and text[1:].isascii() and text[1:].isdigit()


class Doors:
    """The connections (or pages) open now, by remote address, within two caps."""

    def __init__(self, per_address: int, total: int):
        self.per_address, self.total = per_address, total
        self.open: Counter[str] = Counter()
        self.count = 0

    def enter(self, who: str) -> bool:
        """Count one more from ``who``; False (and nothing counted) past either cap."""
        if self.count >= self.total or self.open[who] >= self.per_address:
            return False
        self.open[who] += 1
        self.count += 1
        return True

    def leave(self, who: str) -> None:
        """One from ``who`` has ended."""
        self.count -= 1
        self.open[who] -= 1
        if self.open[who] <= 0:
            del self.open[who]


class Problems:
    """Says each kind of problem in one line, at most once every ``QUIET`` seconds, with the
    count of those left unsaid since."""

    def __init__(self, err: TextIO, clock: Callable[[], float] = time.monotonic):
        self.err, self.clock = err, clock
        self.said: dict[str, float] = {}
        self.unsaid: Counter[str] = Counter()

    def say(self, kind: str, line: str) -> None:
        """Report ``line`` (of the kind ``kind``) unless that kind was said less than ``QUIET``
        seconds ago."""
        now = self.clock()
        then = self.said.get(kind)
        if then is not None and now - then < QUIET:
            self.unsaid[kind] += 1
            return
        more = self.unsaid.pop(kind, 0)
        self.said[kind] = now
        tail = f" ({more} more like it since)" if more else ""
        try:
            print(f"totem-companion: the phone page: {line}{tail}", file=self.err, flush=True)
        except (OSError, ValueError):  # the log itself is gone: the game goes on
            pass
