"""The game journal: the unfinished game's record, written so that no accepted action is lost.

The game being played is ``DATA/current.jsonl``, in the record format of ``rules/*.md``
(header first, one event a line). Each line is written, flushed and fsynced before
``append`` returns, so the screen confirms an action only once it is on disk. A power cut
can at worst tear the last line; ``Journal.resume`` drops that torn line (nothing after it
was ever confirmed) and gives back the text of the complete lines.

Resume never fails on what it finds there; it keeps what can be kept:

- ``current.jsonl`` must be a regular file of the data folder. A link (even to a record), a
  folder, a pipe or a device is never followed nor read: it is moved, as it is, to
  ``DATA/games/…-current-<kind>-damaged`` (``SetAside``), and a new game can start.
- A complete line that cannot be read (not UTF-8, NUL bytes, not JSON, a number of
  thousands of digits, nesting thousands deep, or a line the game's record refuses) ends
  the game there: the lines before it are the game, resumed (``Journal.dropped`` says what
  was left out), and the whole file, as it was, is first kept as ``…-<game>-damaged.jsonl``.
- When even the header cannot be read, the file is moved to ``…-damaged.jsonl`` (``SetAside``).

A finished game is moved, in one atomic rename, to ``DATA/games/YYYYMMDD-HHMMSS-<game>.jsonl``;
an abandoned one to ``…-<game>-unfinished.jsonl``. Records are never overwritten or deleted.
The data folder belongs to one process (``companion.table.data_lock``), so a name found
free stays free until the rename. Every file is reached from the data folder's descriptor,
part by part, never through a link (``companion.files.folder_fd``): with ``games`` a link
to another folder, a finished game stays in the journal and the box says why. Before each
line is written the journal checks that ``current.jsonl`` is still its file: one removed
meanwhile is written back whole from the open file, so no confirmed action goes with it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO, TypeVar, overload

from companion.errors import RecordError, UserError
from companion.files import RECORD_BYTES, FolderError, folder_fd, shown_path
from companion.records import MAX_LINES, dump_line

#: The unfinished game's record inside the data folder.
CURRENT = "current.jsonl"

#: The folder of kept records inside the data folder.
GAMES = "games"

#: The most of a record's first line read for its header (a header is a few hundred bytes):
#: to name a game set aside, or a game kept for later (kept_games.py).
HEADER_BYTES = 64 * 1024

T = TypeVar("T")


class SetAside(UserError):
    """The unfinished game could not be resumed at all (``current.jsonl`` was not a regular
    file, or its header could not be read); it was moved, as it was, to ``kept`` under
    ``DATA/games/`` and a new game can start. The message says what and where, in one line."""

    def __init__(self, message: str, kept: Path):
        super().__init__(message)
        self.kept = kept


@dataclass(frozen=True)
class Dropped:
    """The end of an unfinished game that resume left out: from ``line`` (1 = the header),
    ``count`` complete lines, the first of them unreadable for ``reason``. The whole file,
    as it was, is kept as ``kept``."""

    path: Path
    line: int
    count: int
    reason: str
    kept: Path

    def __str__(self) -> str:
        after = self.count - 1
        more = f" (and the {after} line{'s' if after > 1 else ''} after it)" if after else ""
        return (f"{shown_path(self.path)}: line {self.line} dropped: {self.reason}{more}; "
                f"the whole file is kept as {shown_path(self.kept)}")


def _ensure_dir(path: Path) -> None:
    try:
        with folder_fd(path):
            pass
    except OSError as exc:
        raise FolderError(f"cannot write to the data folder {shown_path(path)}: {exc.strerror}", exc) from None


def _lexists(name: str, folder: int) -> bool:
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


def _game_name(first_line: bytes) -> str:
    """The header's game name, safe for a file name; ``game`` when it cannot be read."""
    try:
        header = json.loads(first_line.decode("utf-8"))
    except (ValueError, RecursionError):
        return "game"
    game = header.get("game") if isinstance(header, dict) else None
    return game if isinstance(game, str) and re.fullmatch(r"[a-z0-9-]+", game) else "game"


def _free_name(games: int, base: str, ext: str, now: datetime | None) -> str:
    """A name in the folder ``games`` (a descriptor of ``DATA/games/``) that nothing holds
    yet: ``STAMP-base`` then ``STAMP-base-2`` …, with ``ext``."""
    stem = f"{(now or datetime.now()).strftime('%Y%m%d-%H%M%S')}-{base}"
    name = f"{stem}{ext}"
    n = 1
    while _lexists(name, games):  # a dangling link holds its name too
        n += 1
        name = f"{stem}-{n}{ext}"
    return name


def _move(source: Path, data_dir: Path, base: str, ext: str, now: datetime | None) -> Path:
    """Rename ``source`` (a link stays the link) to a free name under ``DATA/games/``."""
    target = data_dir / GAMES
    with contextlib.ExitStack() as stack:
        try:
            data = stack.enter_context(folder_fd(data_dir))
            games = stack.enter_context(folder_fd(target))
        except OSError as exc:
            raise FolderError(f"cannot write to the data folder {shown_path(target)}: {exc.strerror}", exc) from None
        try:
            target = target / _free_name(games, base, ext, now)
            os.rename(source.name, target.name, src_dir_fd=data, dst_dir_fd=games)
            os.fsync(games)
            os.fsync(data)
        except OSError as exc:
            raise FolderError(f"cannot move the game record to {shown_path(target)}: {exc.strerror}", exc) from None
    return target


def _copy(data: bytes, data_dir: Path, base: str, now: datetime | None) -> Path:
    """Write ``data`` durably to a new file under ``DATA/games/``; its path."""
    target = data_dir / GAMES
    with contextlib.ExitStack() as stack:
        try:
            games = stack.enter_context(folder_fd(target))
        except OSError as exc:
            raise FolderError(f"cannot write to the data folder {shown_path(target)}: {exc.strerror}", exc) from None
        try:
            target = target / _free_name(games, base, ".jsonl", now)
            fd = os.open(target.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o644, dir_fd=games)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            except OSError:
                os.unlink(target.name, dir_fd=games)  # a partial copy would pass for the whole file
                raise
            finally:
                os.close(fd)
            os.fsync(games)
        except OSError as exc:
            raise FolderError(f"cannot keep the damaged game as {shown_path(target)}: {exc.strerror}", exc) from None
    return target


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in a word for its kept name."""
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISFIFO(mode):
        return "pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "socket" if stat.S_ISSOCK(mode) else "special"


def _set_aside_odd(path: Path, data_dir: Path, mode: int, now: datetime | None) -> SetAside:
    """Move ``current.jsonl``, a link, folder, pipe or device, out of the way, as it is: the
    error that says so."""
    kind = _kind(mode)
    what = {"link": "a link", "folder": "a folder", "pipe": "a pipe", "device": "a device",
            "socket": "a socket"}.get(kind, "not a regular file")
    if kind == "link":
        try:
            with folder_fd(path.parent, make=False) as folder:
                what = f"a link to {shown_path(os.readlink(path.name, dir_fd=folder))}"
        except OSError:
            pass  # gone meanwhile: the rename below says so
    kept = _move(path, data_dir, f"current-{kind}-damaged", "", now)
    return SetAside(f"{shown_path(path)} was {what}, not a game record: set aside as "
                    f"{shown_path(kept)}", kept)


def _open_current(path: Path, data_dir: Path, now: datetime | None) -> tuple[BinaryIO, bytes] | None:
    """``current.jsonl`` opened for reading and writing, and its bytes; None when there is
    none. Never follows a link nor waits on a pipe: anything but a regular file is set aside
    (``SetAside``), and so is a file too big to be a game."""
    try:
        with folder_fd(data_dir, make=False) as folder:
            mode = os.stat(path.name, dir_fd=folder, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise FolderError(f"cannot read the unfinished game {shown_path(path)}: {exc.strerror}", exc) from None
    if not stat.S_ISREG(mode):
        raise _set_aside_odd(path, data_dir, mode, now)
    try:
        with folder_fd(data_dir, make=False) as folder:
            fd = os.open(path.name, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # it became a link since lstat
            raise _set_aside_odd(path, data_dir, stat.S_IFLNK, now) from None
        raise FolderError(f"cannot write to the data folder {shown_path(data_dir)}: {exc.strerror}", exc) from None
    file = open(fd, "r+b", buffering=0)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _set_aside_odd(path, data_dir, info.st_mode, now)
        if info.st_size > RECORD_BYTES:
            raise _set_aside(path, data_dir, _game_name(file.read(HEADER_BYTES).split(b"\n", 1)[0]),
                             f"over {RECORD_BYTES // (1024 * 1024)} MB, too big for a game", now)
        data = file.read(RECORD_BYTES + 1)
    except OSError as exc:
        file.close()
        raise FolderError(f"cannot read the unfinished game {shown_path(path)}: {exc.strerror}", exc) from None
    except BaseException:
        file.close()
        raise
    return file, data


def _set_aside(path: Path, data_dir: Path, game: str, why: str, now: datetime | None) -> SetAside:
    """Move the regular file ``current.jsonl``, whose game cannot be read at all, to
    ``…-<game>-damaged.jsonl``: the error that says so."""
    kept = _move(path, data_dir, f"{game}-damaged", ".jsonl", now)
    return SetAside(f"{shown_path(path)}: {why}: the game cannot be resumed; set aside as "
                    f"{shown_path(kept)}", kept)


def _problem(raw: bytes) -> str | None:
    """Why the complete line ``raw`` (no newline) is no record line; None when it is one,
    or is blank (a record may hold blank lines)."""
    if not raw.strip():
        return None
    if b"\0" in raw:
        return "NUL bytes (a write lost in a crash)"
    try:
        obj = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return "not UTF-8 text"
    except json.JSONDecodeError as exc:
        return f"not valid JSON ({exc.msg})"
    except RecursionError:
        return "nested too deep"
    except ValueError:  # Python's bound on the digits of an integer
        return "a number too long"
    return None if isinstance(obj, dict) else "not a JSON object"


def _text(lines: list[bytes]) -> str:
    return "".join(raw.decode("utf-8") + "\n" for raw in lines)


def _same(text: str) -> str:
    return text


def _after_line(data: bytes, count: int) -> int:
    """The offset just after the ``count``-th newline of ``data`` (which has more)."""
    at = -1
    for _ in range(count):
        at = data.index(b"\n", at + 1)
    return at + 1


class Journal:
    """The open record of the game being played. Make one with ``start`` or ``resume``.

    ``dropped`` (``Dropped``) says which lines ``resume`` had to leave out, None when it
    kept every complete line."""

    def __init__(self, path: Path, file: BinaryIO, game: str, size: int) -> None:
        self.path = path
        self._file = file
        self._game = game
        self._size = size
        info = os.fstat(file.fileno())
        self._id = (info.st_dev, info.st_ino)
        self.dropped: Dropped | None = None

    @classmethod
    def start(cls, data_dir: str | os.PathLike[str], header: dict[str, Any]) -> Journal:
        """Create ``DATA/current.jsonl`` with the record's header line.

        Refuses with a ``UserError`` when an unfinished game is already there: resume it
        or ``archive_unfinished`` it first.
        """
        data_dir = Path(data_dir)
        path = data_dir / CURRENT
        _ensure_dir(data_dir)
        try:
            # O_EXCL: never through a link, never over anything already there.
            with folder_fd(data_dir) as folder:
                fd = os.open(CURRENT, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644, dir_fd=folder)
            file = open(fd, "r+b", buffering=0)
        except FileExistsError:
            raise UserError(f"an unfinished game is kept in {shown_path(path)}: resume it or "
                            "archive it before starting a new one") from None
        except OSError as exc:
            raise FolderError(f"cannot write to the data folder {shown_path(data_dir)}: "
                            f"{exc.strerror}", exc) from None
        first = dump_line(header).encode("utf-8")
        journal = cls(path, file, _game_name(first), 0)
        try:
            journal._write(first)
            with folder_fd(data_dir, make=False) as folder:
                os.fsync(folder)
        except (UserError, OSError) as exc:
            # Nothing was accepted yet: an empty file must not pass for an unfinished game.
            journal.close()
            with contextlib.suppress(OSError), folder_fd(data_dir, make=False) as folder:
                os.unlink(CURRENT, dir_fd=folder)
            if isinstance(exc, UserError):
                raise
            raise FolderError(f"cannot write to the data folder {shown_path(data_dir)}: "
                            f"{exc.strerror}", exc) from None
        return journal

    @overload
    @classmethod
    def resume(cls, data_dir: str | os.PathLike[str], *,
               now: datetime | None = None) -> tuple[Journal, str] | None: ...

    @overload
    @classmethod
    def resume(cls, data_dir: str | os.PathLike[str], read: Callable[[str], T], *,
               now: datetime | None = None) -> tuple[Journal, T] | None: ...

    @classmethod
    def resume(cls, data_dir: str | os.PathLike[str], read: Callable[[str], Any] = _same, *,
               now: datetime | None = None) -> tuple[Journal, Any] | None:
        """Reopen the unfinished game: ``(journal, read(text of its lines))``, or ``None``
        when there is none. ``read`` (default: the text itself) reads the record, raising
        ``RecordError`` at the first line it refuses; the game is then resumed from the
        lines before that one (see the module's docstring; ``now``: the time in the name
        of a file kept aside).

        A torn last line (no newline, not valid JSON: the power went mid-write) is cut off
        the file so the next line cannot glue onto it. A last line that is whole but lacks
        only its newline is kept and completed. A file with no complete line holds no
        accepted action (its header never reached the disk whole); it is removed.
        ``SetAside`` when the game could not be resumed at all (it is kept aside);
        ``UserError`` when the data folder cannot be read or written.
        """
        data_dir = Path(data_dir)
        path = data_dir / CURRENT
        opened = _open_current(path, data_dir, now)
        if opened is None:
            return None
        file, data = opened
        try:
            return cls._reopen(path, file, data, read, now)
        except BaseException:
            file.close()
            raise

    @classmethod
    def _reopen(cls, path: Path, file: BinaryIO, data: bytes, read: Callable[[str], T],
                now: datetime | None) -> tuple[Journal, T] | None:
        """``resume`` of the open regular file ``file`` holding ``data``."""
        data_dir = path.parent
        cut = data.rfind(b"\n") + 1
        over = None  # why the lines after MAX_LINES are not the game, when there are more
        if data.count(b"\n", 0, cut) > MAX_LINES:
            # Millions of short lines would take gigabytes to split and read: only the
            # first MAX_LINES can be the game, the rest is damage.
            cut = _after_line(data, MAX_LINES)
            over = f"more lines than a game has (at most {MAX_LINES:,})"
        lines = data[:cut].split(b"\n")[:-1]
        tail = data[cut:] if over is None else b""
        whole_tail = bool(tail.strip()) and _problem(tail) is None
        if whole_tail:
            lines.append(tail)
        header = next((n for n, raw in enumerate(lines) if raw.strip()), None)
        if header is None:
            file.close()
            try:
                with folder_fd(data_dir, make=False) as folder:
                    os.unlink(path.name, dir_fd=folder)
                    os.fsync(folder)
            except OSError as exc:
                raise FolderError(f"cannot write to the data folder {shown_path(data_dir)}: "
                                f"{exc.strerror}", exc) from None
            return None
        game = _game_name(lines[header])
        # ``good``: how many lines (from the first) are the game; ``reason``: why the next is not.
        good, reason = len(lines), None
        for number, raw in enumerate(lines):
            reason = _problem(raw)
            if reason is not None:
                good = number
                break
        else:
            reason = over
        why = f"line {good + 1}: {reason}"  # what is said when even the header is bad
        while good > header:
            try:
                value = read(_text(lines[:good]))
                break
            except RecordError as exc:
                if header + 1 < exc.line <= good:
                    good, reason = exc.line - 1, exc.reason
                else:  # the header, or no line of the text: nothing of the game to keep
                    good, why = header, str(exc)
            except (UserError, ValueError, RecursionError) as exc:
                good, why = header, str(exc) or type(exc).__name__
        if good <= header:
            file.close()
            raise _set_aside(path, data_dir, game, why, now)
        keep = b"".join(raw + b"\n" for raw in lines[:good])
        dropped = None
        try:
            if good < len(lines) or over is not None:
                assert reason is not None
                kept = _copy(data, data_dir, f"{game}-damaged", now)
                total = len(lines) if over is None else data.count(b"\n")
                dropped = Dropped(path, good + 1, total - good, reason, kept)
            if keep != data:
                if data.startswith(keep):
                    file.truncate(len(keep))
                else:  # the last line's newline was missing
                    file.seek(len(data))
                    file.write(b"\n")
            file.seek(len(keep))
            os.fsync(file.fileno())
        except OSError as exc:
            raise FolderError(f"cannot write to the data folder {shown_path(data_dir)}: "
                            f"{exc.strerror}", exc) from None
        journal = cls(path, file, game, len(keep))
        journal.dropped = dropped
        return journal, value

    def append(self, line: dict[str, Any]) -> None:
        """Write one record line and make it durable (flush + fsync) before returning.

        On a write error (disk full, card removed) the partial line is taken back and a
        ``UserError`` is raised: the action must not be confirmed.
        """
        self._write(dump_line(line).encode("utf-8"))

    def _in_place(self) -> None:
        """Make sure ``current.jsonl`` is still this journal's file before a line goes in:
        one removed meanwhile (a script, a careless hand) is written back whole from the
        open file; ``OSError`` when another file took its place or it cannot be written."""
        with folder_fd(self.path.parent, make=False) as folder:
            try:
                info = os.stat(CURRENT, dir_fd=folder, follow_symlinks=False)
            except FileNotFoundError:
                if os.fstat(folder).st_nlink == 0:
                    raise OSError(errno.ENOENT, "the data folder was removed") from None
                self._restore(folder)
                return
            if (info.st_dev, info.st_ino) != self._id:
                raise OSError(errno.EEXIST, "another file took its place") from None

    def _restore(self, folder: int) -> None:
        """Write the journal's lines, from the open file, to a new ``current.jsonl`` of
        ``folder``, and go on in that one."""
        fd = os.open(CURRENT, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o644, dir_fd=folder)
        try:
            data = os.pread(self._file.fileno(), self._size, 0)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
            os.fsync(folder)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(CURRENT, dir_fd=folder)
            os.close(fd)
            raise
        self._file.close()
        self._file = open(fd, "r+b", buffering=0)
        self._file.seek(self._size)
        info = os.fstat(fd)
        self._id = (info.st_dev, info.st_ino)
        logging.getLogger(__name__).warning("%s was removed while the game went on: written back",
                                            self.path)

    def _write(self, data: bytes) -> None:
        try:
            self._in_place()
        except OSError as exc:
            raise FolderError(f"cannot write the game journal {shown_path(self.path)}: "
                            f"{exc.strerror}", exc) from None
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
            raise FolderError(f"cannot write the game journal {shown_path(self.path)}: "
                            f"{exc.strerror}", exc) from None
        self._size += len(data)

    def finish(self, *, now: datetime | None = None) -> Path:
        """Keep the record as ``DATA/games/YYYYMMDD-HHMMSS-<game>.jsonl`` and close the journal
        (``now``: the time in the name, default the current time). Returns the new path.

        When the record cannot be moved (``UserError``) the journal stays open: the game
        can still go on, e.g. take its last action back.
        """
        try:
            self._in_place()
        except OSError as exc:
            raise FolderError(f"cannot keep the game {shown_path(self.path)}: {exc.strerror}", exc) from None
        kept = _move(self.path, self.path.parent, self._game, ".jsonl", now)
        self.close()
        return kept

    def close(self) -> None:
        """Close the file; the game stays unfinished in ``current.jsonl``."""
        self._file.close()


def archive_unfinished(data_dir: str | os.PathLike[str], *, now: datetime | None = None) -> Path | None:
    """Move an abandoned unfinished game, as it is, to ``DATA/games/…-<game>-unfinished.jsonl``
    (anything but a regular file to ``…-current-<kind>-damaged``, unread).

    Returns the new path, or ``None`` when there was no unfinished game.
    """
    data_dir = Path(data_dir)
    path = data_dir / CURRENT
    try:
        with folder_fd(data_dir, make=False) as folder:
            mode = os.stat(CURRENT, dir_fd=folder, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise FolderError(f"cannot read the unfinished game {shown_path(path)}: {exc.strerror}", exc) from None
    if not stat.S_ISREG(mode):
        return _set_aside_odd(path, data_dir, mode, now).kept
    try:
        with folder_fd(data_dir, make=False) as folder:
            fd = os.open(CURRENT, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # it became a link since lstat
            return _set_aside_odd(path, data_dir, stat.S_IFLNK, now).kept
        raise FolderError(f"cannot read the unfinished game {shown_path(path)}: {exc.strerror}", exc) from None
    try:
        first = os.read(fd, HEADER_BYTES).split(b"\n", 1)[0]
    except OSError as exc:
        raise FolderError(f"cannot read the unfinished game {shown_path(path)}: {exc.strerror}", exc) from None
    finally:
        os.close(fd)
    return _move(path, data_dir, f"{_game_name(first)}-unfinished", ".jsonl", now)
