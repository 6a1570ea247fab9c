r"""Reading and writing the files the program is given or keeps, safely.

Any file named on the command line, in a configuration or in a record may be a pipe, a
device, a folder, huge or hostile. Every read goes through ``read_bytes`` / ``read_text``:
the file is opened without blocking, checked to be a regular file *on the open file* (so
what is read is what was checked), and read up to a limit; anything else is one
``UserError`` line. Paths and pieces of bad input shown in such a line go through
``shown``, so a message stays one short line whatever the input held.

Writes inside the data folder the box holds go through ``folder_fd``: each folder on the way
opened from the held folder's own descriptor without following a link (``LinkRefused``),
so nothing is ever written outside it; ``write_atomically`` replaces a file in one rename.

>>> print(shown("Ana\x1b[2J"))
'Ana\x1b[2J'
>>> print(shown("x" * 100, limit=5))
'xxxxx…'
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from companion.errors import UserError, one_line

#: The most a game record (or a record's text on standard input) may hold.
RECORD_BYTES = 16 * 1024 * 1024
#: The most a configuration, a deck, a tag registry or an input script may hold.
SMALL_BYTES = 1024 * 1024
#: The most characters of a bad input quoted in an error line.
QUOTE_CHARS = 80


def shown(text: object, limit: int = QUOTE_CHARS) -> str:
    """``text`` quoted for a one-line message: control characters, lone surrogates and
    other unprintable characters escaped, and cut to about ``limit`` characters ("…")."""
    value = str(text)
    cut = len(value) > limit
    out = repr(value[:limit])
    return out[:-1] + "…" + out[-1] if cut else out


def shown_path(path: str | os.PathLike[str]) -> str:
    """A path for a message: as it is when it prints on one line, else escaped by ``shown``."""
    text = os.fsdecode(path)
    return text if text.isprintable() and len(text) <= 4 * QUOTE_CHARS else shown(text, 4 * QUOTE_CHARS)


def printable(text: str) -> str:
    r"""``text`` with each unprintable character escaped as Python writes it (``\x1b``,
    ``\n``, ``\u202e``), without quotes: for a player's name in printed output, since a
    record made elsewhere may hold terminal escape codes in one.

    >>> print(printable("Ana\x1b]0;owned\x07"), printable("Бен"))
    Ana\x1b]0;owned\x07 Бен
    """
    return text if text.isprintable() else one_line(text, limit=None)


def plain_path(path: str | os.PathLike[str]) -> str:
    """``path`` as a string a file can be opened by; ``UserError`` for one holding a NUL
    byte or a character the file system cannot encode (a lone surrogate)."""
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if "\0" in text:
        raise UserError(f"{shown(text)}: a file name cannot hold a NUL byte")
    try:
        os.fsencode(text)
    except UnicodeError:
        raise UserError(f"{shown(text)}: not a valid file name") from None
    return text


def read_bytes(path: str | os.PathLike[str], what: str, max_bytes: int, *,
               missing_ok: bool = False) -> bytes | None:
    """The bytes of the regular file ``path`` (``what`` names it in errors: "the settings",
    "a record"), at most ``max_bytes``. ``UserError`` (one line) for a file that is missing,
    not a regular file (a folder, a pipe, a device), unreadable or bigger than
    ``max_bytes``; a missing file is None instead when ``missing_ok``."""
    name = plain_path(path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        if missing_ok:
            return None
        raise UserError(f"{shown_path(name)}: no such file") from None
    except OSError as exc:
        raise UserError(f"{shown_path(name)}: cannot read {what} ({exc.strerror})") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise UserError(f"{shown_path(name)}: is a folder, not {what}")
        if not stat.S_ISREG(mode):
            raise UserError(f"{shown_path(name)}: {what}: not a regular file")
        data = read_at_most(fd, max_bytes)
    except OSError as exc:
        raise UserError(f"{shown_path(name)}: cannot read {what} ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise UserError(f"{shown_path(name)}: {what} is too big (over {_size(max_bytes)})")
    return data


def read_at_most(fd: int, max_bytes: int) -> bytes:
    """The bytes of the open file ``fd`` from where it stands, at most ``max_bytes + 1``:
    the byte more tells a file too big, even one that grows while it is read."""
    chunks: list[bytes] = []
    size = 0
    while size <= max_bytes:
        chunk = os.read(fd, max_bytes + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def read_text(path: str | os.PathLike[str], what: str, max_bytes: int) -> str:
    """The UTF-8 text of the regular file ``path``, read as ``read_bytes`` does; a file that
    is not UTF-8 is one ``UserError`` line too."""
    data = read_bytes(path, what, max_bytes)
    assert data is not None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{shown_path(path)}: {what}: not a UTF-8 text file") from None


#: The data folders this process holds (``companion.table.data_lock``): absolute path → a
#: descriptor of the folder. Writes below one of them go through that descriptor.
_roots: dict[str, int] = {}


class LinkRefused(OSError):
    """A part of a path inside the data folder is a link: the box never writes through one
    (it would write outside its folder). An ``OSError`` whose ``strerror`` says so, so every
    writer's "cannot save …: REASON" line reads right."""

    def __init__(self, name: str):
        super().__init__(errno.ELOOP, f"{shown_path(name)} is a link; the box writes only "
                                      "inside its data folder: remove the link")


class FolderError(UserError):
    """The data folder refused a write (``OSError`` ``cause``). ``kind`` says why in a word
    the screens put into words of their language: ``full``, ``read_only``, ``link``,
    ``not_folder`` or ``other``; the message, for the log and the command line, says it
    in full."""

    def __init__(self, message: str, cause: OSError):
        super().__init__(message)
        self.kind = _FOLDER_KINDS.get(cause.errno or 0, "other")


_FOLDER_KINDS = {errno.ENOSPC: "full", errno.EDQUOT: "full", errno.EROFS: "read_only",
                 errno.ELOOP: "link", errno.ENOTDIR: "not_folder", errno.EEXIST: "not_folder",
                 errno.EISDIR: "not_folder"}


def hold_root(path: str | os.PathLike[str], fd: int) -> None:
    """Take the folder descriptor ``fd`` as the data folder ``path``'s (its holder calls this)."""
    _roots[os.path.abspath(path)] = fd


def release_root(path: str | os.PathLike[str]) -> None:
    """Forget the data folder ``path`` (its holder is about to close its descriptor)."""
    _roots.pop(os.path.abspath(path), None)


def _open_part(parent: int, name: str, make: bool) -> int:
    """The folder ``name`` of the folder ``parent``, opened without following a link (made
    when missing and ``make``); ``LinkRefused`` for a link."""
    try:
        return _open_folder(parent, name)
    except FileNotFoundError:
        if not make:
            raise
    with contextlib.suppress(FileExistsError):   # made meanwhile, or a dangling link
        os.mkdir(name, 0o755, dir_fd=parent)
    return _open_folder(parent, name)


def _open_folder(parent: int, name: str) -> int:
    try:
        return os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent)
    except OSError as exc:
        # A link gives ELOOP, or ENOTDIR with O_DIRECTORY: tell it from a plain file.
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) and stat.S_ISLNK(
                os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode):
            raise LinkRefused(name) from None
        raise


@contextlib.contextmanager
def folder_fd(path: str | os.PathLike[str], *, make: bool = True) -> Iterator[int]:
    """A descriptor of the folder ``path`` (made if missing and ``make``) for the ``with``
    block. Inside a held data folder it is reached from the folder's own descriptor, part
    by part, never through a link (``LinkRefused``): whatever is renamed, deleted or linked
    meanwhile, what is written lands inside the data folder or nowhere. ``OSError`` when
    it cannot be opened."""
    absolute = os.path.abspath(path)
    for root, root_fd in _roots.items():
        if absolute == root or absolute.startswith(root.rstrip(os.sep) + os.sep):
            fd = os.dup(root_fd)
            try:
                for part in Path(os.path.relpath(absolute, root)).parts:
                    if part != ".":
                        inner = _open_part(fd, part, make)
                        os.close(fd)
                        fd = inner
            except BaseException:
                os.close(fd)
                raise
            break
    else:
        if make:
            try:
                os.makedirs(absolute, exist_ok=True)
            except FileExistsError:
                raise NotADirectoryError(errno.ENOTDIR, "not a folder") from None
        fd = os.open(absolute, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        yield fd
    finally:
        os.close(fd)


def write_atomically(path: Path, text: str | bytes) -> None:
    """Replace ``path`` (its folder made if missing) with ``text`` (UTF-8, or bytes as they
    are) in one step: a temporary file written and fsynced, then renamed over it. Inside the
    data folder no link is followed on the way (``folder_fd``). ``OSError`` when that fails;
    the temporary file is then removed."""
    name = path.name
    tmp = name + ".tmp"
    with folder_fd(path.parent) as folder:
        # Whatever is left at the temporary name (a file of a cut-off write, a pipe, a link
        # to a file elsewhere) goes first: the new file is made afresh, never opened through
        # a link or blocked on a pipe.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp, dir_fd=folder)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o644, dir_fd=folder)
        try:
            with open(fd, "wb") as f:
                f.write(text.encode("utf-8") if isinstance(text, str) else text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with contextlib.suppress(OSError):  # a full disk must leave no half file behind
                os.unlink(tmp, dir_fd=folder)
            raise
        os.fsync(folder)


def sync_folder(folder: Path) -> None:
    """Make the names just made, renamed or removed in ``folder`` durable (its entry fsynced):
    a power cut after it keeps them."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _size(count: int) -> str:
    return f"{count // (1024 * 1024)} MB" if count >= 1024 * 1024 else f"{count // 1024} KB"
