"""The game journal: the unfinished game's record, written so that no accepted action is lost.

The game being played is ``DATA/current.jsonl``, in the record format of ``rules/*.md``
(header first, one event a line). Each line is written, flushed and fsynced before
``append`` returns, so the screen confirms an action only once it is on disk. A power cut
can at worst tear the last line; ``Journal.resume`` drops that torn line (nothing after it
was ever confirmed) and gives back the text of the complete lines.

A finished game is moved, in one atomic rename, to ``DATA/games/YYYYMMDD-HHMMSS-<game>.jsonl``;
an abandoned one to ``…-<game>-unfinished.jsonl``. Records are never overwritten or deleted.
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime
from pathlib import Path

from companion.errors import UserError
from companion.files import fsync_dir
from companion.records import dump_line

#: The unfinished game's record inside the data folder.
CURRENT = "current.jsonl"

#: The folder of kept records inside the data folder.
GAMES = "games"


def _ensure_dir(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot write to the data folder {path}: {exc.strerror}") from None


def _game_name(first_line: bytes) -> str:
    """The header's game name, safe for a file name; ``game`` when it cannot be read."""
    try:
        game = json.loads(first_line.decode("utf-8")).get("game")
    except (ValueError, AttributeError):
        return "game"
    return game if isinstance(game, str) and re.fullmatch(r"[a-z0-9-]+", game) else "game"


def _keep(source: Path, data_dir: Path, game: str, suffix: str, now: datetime | None) -> Path:
    """Move ``source`` to a new name under ``DATA/games/`` (never over an existing file)."""
    games = data_dir / GAMES
    _ensure_dir(games)
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = f"{stamp}-{game}{suffix}"
    target = games / f"{base}.jsonl"
    n = 1
    # The data folder belongs to one companion process, so checking then renaming is safe.
    while target.exists():
        n += 1
        target = games / f"{base}-{n}.jsonl"
    try:
        os.rename(source, target)
        fsync_dir(games)
        fsync_dir(data_dir)
    except OSError as exc:
        raise UserError(f"cannot move the game record to {target}: {exc.strerror}") from None
    return target


class Journal:
    """The open record of the game being played. Make one with ``start`` or ``resume``."""

    def __init__(self, path: Path, file, game: str, size: int):
        self.path = path
        self._file = file
        self._game = game
        self._size = size

    @classmethod
    def start(cls, data_dir: str | os.PathLike, header: dict) -> Journal:
        """Create ``DATA/current.jsonl`` with the record's header line.

        Refuses with a ``UserError`` when an unfinished game is already there: resume it
        or ``archive_unfinished`` it first.
        """
        data_dir = Path(data_dir)
        path = data_dir / CURRENT
        _ensure_dir(data_dir)
        try:
            file = open(path, "xb", buffering=0)
        except FileExistsError:
            raise UserError(f"an unfinished game is kept in {path}: resume it or archive it "
                            "before starting a new one") from None
        except OSError as exc:
            raise UserError(f"cannot write to the data folder {data_dir}: {exc.strerror}") from None
        first = dump_line(header).encode("utf-8")
        journal = cls(path, file, _game_name(first), 0)
        try:
            journal._write(first)
            fsync_dir(data_dir)
        except UserError:
            # Nothing was accepted yet: an empty file must not pass for an unfinished game.
            journal.close()
            path.unlink()
            raise
        return journal

    @classmethod
    def resume(cls, data_dir: str | os.PathLike) -> tuple[Journal, str] | None:
        """Reopen the unfinished game: ``(journal, text of its complete lines)``, or ``None``.

        A torn last line (no newline, not valid JSON: the power went mid-write) is cut off
        the file so the next line cannot glue onto it. A last line that is whole but lacks
        only its newline is kept and completed. A file with no complete line holds no
        accepted action (its header never reached the disk whole); it is removed.
        """
        data_dir = Path(data_dir)
        path = data_dir / CURRENT
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise UserError(f"cannot read the unfinished game {path}: {exc.strerror}") from None
        cut = data.rfind(b"\n") + 1
        keep = data[:cut]
        if data[cut:].strip() and _is_json_object(data[cut:]):
            keep = data + b"\n"
        try:
            text = keep.decode("utf-8")
        except UnicodeDecodeError:
            raise UserError(f"{path}: the unfinished game is damaged (not UTF-8 text); "
                            "archive it to start a new game") from None
        try:
            if not text.strip():
                path.unlink()
                fsync_dir(data_dir)
                return None
            file = open(path, "r+b", buffering=0)
            if len(keep) < len(data):
                file.truncate(len(keep))
            elif len(keep) > len(data):
                file.seek(len(data))
                file.write(b"\n")
            file.seek(len(keep))
            os.fsync(file.fileno())
        except OSError as exc:
            raise UserError(f"cannot write to the data folder {data_dir}: {exc.strerror}") from None
        return cls(path, file, _game_name(keep.split(b"\n", 1)[0]), len(keep)), text

    def append(self, line: dict) -> None:
        """Write one record line and make it durable (flush + fsync) before returning.

        On a write error (disk full, card removed) the partial line is taken back and a
        ``UserError`` is raised: the action must not be confirmed.
        """
        self._write(dump_line(line).encode("utf-8"))

    def _write(self, data: bytes) -> None:
        try:
            written = 0
            while written < len(data):
                written += self._file.write(data[written:])
            os.fsync(self._file.fileno())
        except OSError as exc:
            try:
                self._file.truncate(self._size)
                self._file.seek(self._size)
            except OSError:
                pass  # the original error is the one to report
            raise UserError(f"cannot write the game journal {self.path}: {exc.strerror}") from None
        self._size += len(data)

    def finish(self, *, now: datetime | None = None) -> Path:
        """Keep the record as ``DATA/games/YYYYMMDD-HHMMSS-<game>.jsonl`` and close the journal
        (``now``: the time in the name, default the current time). Returns the new path.

        When the record cannot be moved (``UserError``) the journal stays open: the game
        can still go on, e.g. take its last action back.
        """
        kept = _keep(self.path, self.path.parent, self._game, "", now)
        self.close()
        return kept

    def close(self) -> None:
        """Close the file; the game stays unfinished in ``current.jsonl``."""
        self._file.close()


def _is_json_object(raw: bytes) -> bool:
    try:
        return isinstance(json.loads(raw.decode("utf-8")), dict)
    except ValueError:
        return False


def archive_unfinished(data_dir: str | os.PathLike, *, now: datetime | None = None) -> Path | None:
    """Move an abandoned unfinished game, as it is, to ``DATA/games/…-<game>-unfinished.jsonl``.

    Returns the new path, or ``None`` when there was no unfinished game.
    """
    data_dir = Path(data_dir)
    path = data_dir / CURRENT
    try:
        with open(path, "rb") as f:
            first = f.readline()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UserError(f"cannot read the unfinished game {path}: {exc.strerror}") from None
    return _keep(path, data_dir, _game_name(first), "-unfinished", now)
