"""Pairing a phone with the box: a 6-digit code the OLED alone shows, then a token per phone.

A phone asks (``ask``): the box makes a fresh code, shown in the OLED's own overlay (never
in the session's view, so never on a page, in the voice or a log), and gives the asking
phone a *ticket* (a cookie) that the code is bound to. The phone sends the code back with
its ticket (``pair``) and gets a token (a cookie) whose CSRF token is derived from it.

The bound on guesses is the box's, whatever number of addresses an attacker uses:

- one code lives at a time; it accepts guesses only with its ticket, only for ``LIFE``
  seconds, and dies after ``TRIES`` wrong ones (a new ask replaces it);
- asking is a box-wide token bucket: ``ASK_BURST`` at once, then one per ``ASK_EVERY`` s;
- a guess without the live code's ticket is refused unjudged: it costs nobody a try, so an
  attacker's guesses never burn the code the box shows a real phone.

So within an hour at most ``ASK_BURST + 3600 / ASK_EVERY`` codes exist, each judged at most
``TRIES`` times, each guess right with chance ``10**-CODE_DIGITS``: ``attack_odds()``, about
5.5e-4. A phone that pairs meanwhile still can: its own ask gets it a fresh code (within
``ASK_EVERY`` s) that the attacker's guesses cannot reach.

Paired phones are kept as the SHA-256 of their tokens in ``DATA/phones.json`` (at most
``PHONES``, the oldest forgotten), written atomically and read back bounded: a pairing
survives reloads and restarts, until Settings → Forget phones (``forget_phones``), which the
server's ``Pairing`` sees by the file changing. The CSRF token is an HMAC of the token, so
it is never stored and a reloaded page gets it again (``GET /pair``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.errors import UserError
from companion.files import read_bytes, write_atomically
from companion.records import JsonError, parse_json

#: Digits of a code.
CODE_DIGITS = 6
#: Wrong codes (from anywhere) before the code dies.
TRIES = 3
#: Seconds a code accepts guesses after it is shown.
LIFE = 120.0
#: Seconds the OLED shows a code (unless it is used, dies or is replaced first).
SHOWN = 30.0
#: Box-wide asking: one code per ``ASK_EVERY`` seconds, ``ASK_BURST`` at once.
ASK_EVERY, ASK_BURST = 20.0, 3
#: Phones paired at once (the oldest is forgotten past it).
PHONES = 8
#: The paired phones' file in the data folder, and its largest size read.
PHONES_FILE, PHONES_BYTES = "phones.json", 4096

#: What ``pair`` says: paired; a wrong code judged (a try used); not judged (no live code
#: for this ticket: none asked, expired, or another phone's).
PAIRED, WRONG, UNASKED = "paired", "wrong", "unasked"


def attack_odds(seconds: float = 3600.0) -> float:
    """The most likely an attacker pairs within ``seconds`` of trying, with any number of
    addresses: every code the box can make in that time, each judged ``TRIES`` times."""
    codes = ASK_BURST + seconds / ASK_EVERY
    return codes * TRIES / 10.0 ** CODE_DIGITS


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode(errors="replace")).hexdigest()


def _same(given: str, known: str) -> bool:
    """Compared in constant time; any text (a header's odd characters) is just different."""
    return hmac.compare_digest(given.encode(errors="replace"), known.encode())


def csrf_of(token: str) -> str:
    """The CSRF token of a phone's token (an HMAC of it: never stored, given again on reload)."""
    return hmac.new(token.encode(errors="replace"), b"totem-companion csrf", hashlib.sha256).hexdigest()


def forget_phones(data_dir: str | os.PathLike[str]) -> None:
    """Forget every paired phone of the data folder (Settings → Forget phones); ``UserError``
    when the file cannot be written."""
    _write(Path(data_dir) / PHONES_FILE, [])


def _write(path: Path, phones: list[str]) -> None:
    try:
        write_atomically(path, json.dumps({"version": 1, "phones": phones}) + "\n")
    except OSError as exc:
        raise UserError(f"cannot save the paired phones: {exc.strerror or exc}") from None


def _read(path: Path) -> list[str]:
    """The kept digests; none for a missing or damaged file (the phones pair again)."""
    try:
        data = read_bytes(path, "the paired phones", PHONES_BYTES, missing_ok=True)
        doc = parse_json(data.decode("utf-8")) if data is not None else {}
    except (UserError, JsonError, UnicodeDecodeError):  # nested deep, a key twice: damaged
        return []
    phones = doc.get("phones") if isinstance(doc, dict) else None
    if not isinstance(phones, list):
        return []
    return [p for p in phones if isinstance(p, str) and len(p) == 64][-PHONES:]


@dataclass
class _Code:
    code: str
    ticket: str
    until: float
    tries: int = TRIES


class Pairing:
    """The live code, the box's asking bucket, the paired phones (kept in ``data_dir``'s
    ``phones.json``; in memory only without one). Used from the server's thread; the lock
    keeps it whole; ``clock`` paces it (tests)."""

    def __init__(self, data_dir: str | os.PathLike[str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._clock = clock
        self._code: _Code | None = None
        self._asks, self._then = float(ASK_BURST), clock()
        self._path: Path | None = None
        self._phones: list[str] = []   # digests of the tokens, oldest first
        self._seen: tuple[int, int, int] | None = None
        self.use(data_dir)

    def use(self, data_dir: str | os.PathLike[str] | None) -> None:
        """Keep the phones in ``data_dir`` (the session's data folder) from now on."""
        path = Path(data_dir) / PHONES_FILE if data_dir is not None else None
        with self._lock:
            if path != self._path:
                self._path, self._seen = path, None
                self._load()

    def _load(self) -> None:
        """Read the file again when it changed (Settings → Forget phones writes it)."""
        if self._path is None:
            return
        try:
            info = os.stat(self._path)
            seen = (info.st_ino, info.st_size, info.st_mtime_ns)
        except OSError:
            seen = (0, 0, 0)
        if seen != self._seen:
            self._phones, self._seen = _read(self._path), seen

    def _save(self) -> None:
        if self._path is None:
            return
        try:
            _write(self._path, self._phones)
            info = os.stat(self._path)
            self._seen = (info.st_ino, info.st_size, info.st_mtime_ns)
        except (UserError, OSError):
            pass  # a read-only folder: the phone stays paired until the box is switched off

    # --- codes -----------------------------------------------------------------------------

    def ask(self) -> tuple[str, str] | None:
        """``(ticket, code)``: a fresh code for the OLED, bound to the ticket the asking phone
        keeps; it replaces the live one. None when the box was asked too often (box-wide)."""
        with self._lock:
            now = self._clock()
            self._asks = min(float(ASK_BURST), self._asks + (now - self._then) / ASK_EVERY)
            self._then = now
            if self._asks < 1:
                return None
            self._asks -= 1
            code = f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"
            self._code = _Code(code, secrets.token_urlsafe(24), now + LIFE)
            return self._code.ticket, code

    def wait(self) -> float:
        """Seconds until the box can be asked for a code again (0: now)."""
        with self._lock:
            left = self._asks + (self._clock() - self._then) / ASK_EVERY
            return max(0.0, (1 - left) * ASK_EVERY)

    @property
    def showing(self) -> bool:
        """Whether a code is live (the OLED may show it)."""
        with self._lock:
            return self._live() is not None

    def _live(self) -> _Code | None:
        code = self._code
        if code is not None and self._clock() >= code.until:
            self._code = code = None
        return code

    def pair(self, ticket: object, code: object) -> tuple[str, str | None]:
        """``(PAIRED, token)`` for the phone holding the live code's ticket and typing its
        code (the code dies: it serves once); ``(WRONG, None)``: a try used, the last one
        kills the code; ``(UNASKED, None)``: no live code for this ticket, nothing judged."""
        with self._lock:
            live = self._live()
            if live is None or not isinstance(ticket, str) or not _same(ticket, live.ticket):
                return UNASKED, None
            if not isinstance(code, str) or not _same(code, live.code):
                live.tries -= 1
                if live.tries <= 0:
                    self._code = None
                return WRONG, None
            self._code = None
            token = secrets.token_urlsafe(32)
            self._load()
            self._phones = [*self._phones, _digest(token)][-PHONES:]
            self._save()
            return PAIRED, token

    # --- paired phones ---------------------------------------------------------------------

    def paired(self, token: object) -> bool:
        """Whether ``token`` (a phone's cookie) is one of a paired phone."""
        if not isinstance(token, str) or not token:
            return False
        digest = _digest(token)
        with self._lock:
            self._load()
            return any(hmac.compare_digest(digest, known) for known in self._phones)

    def allowed(self, token: str | None, csrf: str | None) -> bool:
        """Whether a request comes from a paired phone's page: its token and its CSRF token."""
        return (self.paired(token) and isinstance(csrf, str)
                and _same(csrf, csrf_of(token or "")))
