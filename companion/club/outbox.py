"""The box's outbox: every finished game waits in ``DATA/club/`` until the club answered.

A finished game's id is the SHA-256 of its record's bytes: it never changes, so the club
keeps a game once however many times it arrives. The folders::

    DATA/club/outbox/<id>.jsonl        waiting for the club's acknowledgement
    DATA/club/acknowledged/<id>.jsonl  kept by the club
    DATA/club/refused/<id>.jsonl       refused, with the club's reason in <id>.reason

Each file is written to a temporary name, flushed to the disk and renamed, so a power cut
leaves a whole file or none; a game moves from the outbox to an answer by one rename. The
box's own records in ``DATA/games/`` are never touched: the outbox holds copies.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from companion.files import sync_folder, write_atomically
from companion.table.journal import GAMES as GAMES_FOLDER

CLUB = "club"
PENDING, ACKNOWLEDGED, REFUSED = "outbox", "acknowledged", "refused"
#: A game's file in DATA/games/: its time, then its game (journal.py names them).
GAME_NAME = re.compile(r"(\d{8}-\d{6})-[a-z0-9-]+\.jsonl")
ID = re.compile(r"[0-9a-f]{64}")
#: The longest reason kept from the club (a line).
REASON_CHARS = 300


def is_finished_name(name: str) -> bool:
    """Whether ``name`` in DATA/games/ is a finished game's (not one kept unfinished, not a damaged journal)."""
    return GAME_NAME.fullmatch(name) is not None and "-unfinished" not in name and "-damaged" not in name


def game_id(record: bytes) -> str:
    """The id of a finished game: the SHA-256 of its record, in hexadecimal."""
    return hashlib.sha256(record).hexdigest()


@dataclass(frozen=True)
class Waiting:
    """A game in the outbox: its id, its record and when it finished (ISO 8601, UTC)."""

    id: str
    record: bytes
    finished: str


def _finished_time(name: str, path: Path) -> str:
    """When a game finished: the time in its file's name (local time of the box), else its
    file's modification time, as ISO 8601 in UTC."""
    match = GAME_NAME.fullmatch(name)
    try:
        when = datetime.strptime(match.group(1), "%Y%m%d-%H%M%S").astimezone() if match else None
    except ValueError:
        when = None
    if when is None:
        when = datetime.fromtimestamp(path.stat().st_mtime).astimezone()
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Outbox:
    """The outbox of the data folder ``data_dir``."""

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.data_dir = Path(data_dir)
        self.root = self.data_dir / CLUB
        self._known: set[str] = set()

    def _folder(self, state: str) -> Path:
        folder = self.root / state
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def _ids(self, state: str) -> list[str]:
        folder = self.root / state
        if not folder.is_dir():
            return []
        return sorted(p.stem for p in folder.glob("*.jsonl") if ID.fullmatch(p.stem))

    def collect(self) -> int:
        """Put every finished game of ``DATA/games/`` not yet in the club's folders into the
        outbox; the number put."""
        games = self.data_dir / GAMES_FOLDER
        if not games.is_dir():
            return 0
        answered = {*self._ids(PENDING), *self._ids(ACKNOWLEDGED), *self._ids(REFUSED)}
        added = 0
        for path in sorted(games.glob("*.jsonl")):
            if path.name in self._known or not is_finished_name(path.name) or not path.is_file():
                continue
            data = path.read_bytes()
            key = game_id(data)
            if key not in answered:
                # The time goes beside the record, not in it: the id is the record's alone.
                write_atomically(self._folder(PENDING) / f"{key}.time", _finished_time(path.name, path).encode())
                write_atomically(self._folder(PENDING) / f"{key}.jsonl", data)
                answered.add(key)
                added += 1
            self._known.add(path.name)
        return added

    def pending(self) -> list[Waiting]:
        """The games waiting for the club, oldest first."""
        folder = self.root / PENDING
        waiting = []
        for key in self._ids(PENDING):
            try:
                record = (folder / f"{key}.jsonl").read_bytes()
                finished = (folder / f"{key}.time").read_text().strip()
            except FileNotFoundError:  # answered meanwhile, or its time lost: now
                if not (folder / f"{key}.jsonl").exists():
                    continue
                finished = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            waiting.append(Waiting(key, record, finished))
        return sorted(waiting, key=lambda w: (w.finished, w.id))

    def answer(self, key: str, refused_because: str | None = None) -> bool:
        """The club's answer for the game ``key``: acknowledged, or refused with its reason.
        False when no such game waits (an answer repeated, or not ours)."""
        if not ID.fullmatch(key):
            return False
        source = self.root / PENDING / f"{key}.jsonl"
        if not source.exists():
            return False
        if refused_because is None:
            target = self._folder(ACKNOWLEDGED)
        else:
            target = self._folder(REFUSED)
            write_atomically(target / f"{key}.reason", " ".join(refused_because.split())[:REASON_CHARS].encode())
        try:
            os.replace(source, target / f"{key}.jsonl")
        except FileNotFoundError:
            return False
        sync_folder(target)
        (self.root / PENDING / f"{key}.time").unlink(missing_ok=True)
        return True

    def counts(self) -> dict[str, int]:
        """How many games are pending, acknowledged and refused."""
        return {state: len(self._ids(state)) for state in (PENDING, ACKNOWLEDGED, REFUSED)}

    def reason(self, key: str) -> str:
        """The club's reason for refusing the game ``key``."""
        try:
            return (self.root / REFUSED / f"{key}.reason").read_text()
        except OSError:
            return "no reason kept"
