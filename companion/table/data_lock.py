"""One box per data folder: the lock every command that writes the data folder holds.

Two processes writing one journal interleave its lines, and one may archive the game the
other is still playing. So ``run``/``sim``, ``tutorial``, ``enroll`` and ``demo --data``
take ``hold_data_folder(DATA)`` before they read or write anything there, and keep it until
they end: an exclusive ``flock`` on the folder itself, and one on ``DATA/.lock``, which
holds the process id of its holder. A second process is refused with one line naming that
process. The folder's own lock cannot be deleted with a file: removing ``.lock``, the
journal or anything else inside leaves the folder locked. Every write below the folder goes
through the descriptor holding that lock (``companion.files.folder_fd``), never through a
link, so a folder renamed or replaced meanwhile is never written by two boxes. The kernel drops the
lock when its holder dies, however it dies, so a lock file left behind by a process killed
mid-game never blocks the next start. Commands that only read records (``score``,
``moves``, ``replay``, ``hint``) take no lock.

Within one process the lock is re-entrant: a command that runs another (``tutorial`` runs
the box) holds it once.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from companion.errors import UserError
from companion.files import hold_root, plain_path, release_root, shown_path

#: The lock file inside the data folder.
LOCK_FILE = ".lock"

# The data folders this process holds, by (device, inode): [the folder's fd, the lock file's
# fd, holds].
_held: dict[tuple[int, int], list[int]] = {}
_held_guard = threading.Lock()


@contextmanager
def hold_data_folder(data_dir: str | os.PathLike[str]) -> Iterator[Path]:
    """Hold the data folder ``data_dir`` (made if missing) for this process while the
    ``with`` block runs; yields its path. ``UserError`` (one line) when another process
    holds it — naming that process — or when the folder cannot be made or locked."""
    folder = Path(plain_path(data_dir))
    if os.path.lexists(folder) and not folder.is_dir():
        raise UserError(f"the data folder {shown_path(folder)} is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        info = os.stat(folder)
    except OSError as exc:
        raise UserError(f"cannot write to the data folder {shown_path(folder)}: "
                        f"{exc.strerror or exc}") from None
    key = (info.st_dev, info.st_ino)
    with _held_guard:
        if key in _held:
            _held[key][2] += 1
        else:
            folder_fd = _lock_folder(folder)
            try:
                _held[key] = [folder_fd, _lock(folder), 1]
            except BaseException:
                os.close(folder_fd)
                raise
            hold_root(folder, folder_fd)
    try:
        yield folder
    finally:
        with _held_guard:
            _held[key][2] -= 1
            if not _held[key][2]:
                release_root(folder)
                for fd in _held.pop(key)[:2]:
                    os.close(fd)  # closing the last descriptor drops its flock


def _lock_folder(folder: Path) -> int:
    """A descriptor of ``folder`` itself, exclusively locked: the lock no file's deletion
    undoes."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise UserError(f"cannot lock the data folder {shown_path(folder)}: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _holder_of(folder / LOCK_FILE)
        os.close(fd)
        raise UserError(f"the data folder {shown_path(folder)} is in use by another box{holder}") from None
    except OSError as exc:
        os.close(fd)
        raise UserError(f"cannot lock the data folder {shown_path(folder)}: {exc.strerror}") from None
    return fd


def _lock(folder: Path) -> int:
    """The descriptor of ``folder``'s lock file, exclusively locked, with this process's id
    written in it."""
    path = folder / LOCK_FILE
    try:
        # No link followed, no pipe waited on: the lock file is a plain file of the folder.
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UserError(f"{shown_path(path)}: the lock file is a link; remove it") from None
        raise UserError(f"cannot lock the data folder {shown_path(folder)}: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UserError(f"{shown_path(path)}: the lock file is not a regular file; remove it")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UserError(f"the data folder {shown_path(folder)} is in use by another box"
                            f"{_holder(fd)}") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    except OSError as exc:
        os.close(fd)
        raise UserError(f"cannot lock the data folder {shown_path(folder)}: {exc.strerror}") from None
    except BaseException:
        os.close(fd)
        raise
    return fd


def _holder_of(path: Path) -> str:
    """``_holder`` of the lock file ``path``; empty when there is none to read (removed)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return ""
    try:
        return _holder(fd) if stat.S_ISREG(os.fstat(fd).st_mode) else ""
    finally:
        os.close(fd)


def _holder(fd: int) -> str:
    """`` (process 1234)``: the holder written in the lock file; empty when it has not
    written it yet (it locked a moment ago) or the file holds something else."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return f" (process {text})" if text.isdigit() else ""
