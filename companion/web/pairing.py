"""Pairing a phone with the box: a 4-digit code the OLED shows, then a token per phone.

A phone that asks to change something gets the code shown on the OLED (the person at the
table sees it); typed back on the phone, it gives that phone a token (a cookie) and a CSRF
token its requests must carry. Three wrong codes in a row and the code is replaced: guessing
one in 10,000 at three tries a code, at a bounded request rate, is hopeless. Used from the
server's thread; the lock keeps it whole.
"""

from __future__ import annotations

import hmac
import secrets
import threading

#: Wrong codes before the code is replaced.
TRIES = 3
#: Phones paired at once (the oldest is forgotten past it).
PHONES = 8


class Pairing:
    """The code now, the wrong tries left, the paired phones' tokens."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._phones: dict[str, str] = {}  # token -> its CSRF token, oldest first
        self._new_code()

    def _new_code(self) -> None:
        self.code = f"{secrets.randbelow(10_000):04d}"
        self.tries = TRIES

    def pair(self, code: object) -> tuple[str, str] | None:
        """``(token, csrf)`` for a phone that typed the code now; None for a wrong code (a
        try used; the last one replaces the code)."""
        with self._lock:
            if isinstance(code, str) and hmac.compare_digest(code.encode(), self.code.encode()):
                token, csrf = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
                self._phones[token] = csrf
                while len(self._phones) > PHONES:
                    self._phones.pop(next(iter(self._phones)))
                self._new_code()  # a code serves once
                return token, csrf
            self.tries -= 1
            if self.tries <= 0:
                self._new_code()
            return None

    def allowed(self, token: str | None, csrf: str | None) -> bool:
        """Whether a request comes from a paired phone's page: its token and its CSRF token."""
        with self._lock:
            known = self._phones.get(token or "")
        return known is not None and csrf is not None and hmac.compare_digest(known.encode(), csrf.encode())
