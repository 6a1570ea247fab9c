"""Backups of the data folder: one archive of every game, kept game, lesson, setting, tag,
deck and the big game, made while the box runs, and put back only after it is checked.

The archive is a ``.tar.gz``: written as one stream (the phone page sends it as it is made,
and a Pi never holds a whole backup in memory), compressed as a whole (a folder of JSON Lines
records that look alike compresses far better than file by file, as a zip does), read back
as a stream with every bound checked before a byte is written, and opened by any computer's
``tar`` or archive tool. It holds ``totem-backup.json`` (the manifest: the program's version
and every file's SHA-256), then each file under ``data/``; regular files only.

Made while the box plays (``backup`` takes no lock: the box holds its folder,
``companion.table.data_lock``): each journal (``current.jsonl``) is taken up to its last
complete line, each line of which the box wrote whole before confirming it; a torn line being
written is never taken. A game finished, kept or a file replaced while the folder is read
changes the folder's names: the archive is then made again (``TRIES`` times at most), so a
game is never in the archive twice nor missing from it.

``restore`` holds the data folder as the box does (refused while a box plays in it),
unpacks the archive into a folder of its own inside it, checks every file as the box reads
it — each record replayed by its game's engine (``read_any_record``, as ``score`` reads
records), the settings, tags, lessons' progress, phones and each game's own files
(``GameDefinition.check_data``) — and only then moves what was there aside, into
``before-restore-STAMP/``, and the archive's files in. A damaged or hostile archive (not a
backup, a path out of the folder, a link, a device, a member too big, too many members,
a file whose checksum or content is wrong) is one ``UserError`` line and changes nothing.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import stat
import tarfile
import zlib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import IO, Any

from companion import __version__, data_format
from companion.errors import UserError
from companion.files import RECORD_BYTES, folder_fd, plain_path, read_at_most, shown, shown_path, sync_folder
from companion.records import JsonError, parse_json

#: The manifest, the archive's first member.
MANIFEST = "totem-backup.json"
#: The folder of the data files inside the archive.
DATA_PREFIX = "data"
#: The manifest's format.
VERSION = 1
#: The most files a backup holds (a family's games for years are a few thousand).
MAX_FILES = 10_000
#: The most one file may hold: a game record's bound.
MAX_FILE_BYTES = RECORD_BYTES
#: The most all files together may hold, unpacked.
MAX_TOTAL_BYTES = 512 * 1024 * 1024
#: The deepest a file may lie in the data folder (``tutorial/<game>/current.jsonl`` is 3).
MAX_DEPTH = 6
#: How many times a backup is made again when the box changed the folder meanwhile.
TRIES = 5
#: The manifest's own bound.
MANIFEST_BYTES = 4 * 1024 * 1024
#: A journal: taken up to its last complete line.
JOURNAL = "current.jsonl"
#: Files of the data folder that are the running box's, not the family's (its lock, and
#: the old files an update keeps until it is healthy: companion/data_format.py).
SKIPPED = (".lock", ".formats")
#: Where restore unpacks, inside the data folder (a crashed restore's leftovers go first).
STAGING = ".restore-"
#: Where restore keeps what the data folder held before.
ASIDE = "before-restore-"
#: Records the box set aside as damaged (journal.py): kept as they are, not replayed.
DAMAGED = re.compile(r".*-damaged(-[0-9]+)?(\.jsonl)?")


class BackupError(UserError):
    """An archive refused, or a backup that could not be made: one line."""


@dataclass(frozen=True)
class Made:
    """A backup written: its path, how many files, and what was left out (links, odd files)."""

    path: Path
    files: int
    skipped: tuple[str, ...]


def archive_name(now: datetime | None = None) -> str:
    """``totem-backup-YYYYMMDD-HHMMSS.tar.gz``."""
    return f"totem-backup-{(now or datetime.now()).strftime('%Y%m%d-%H%M%S')}.tar.gz"


def _name_ok(part: str) -> bool:
    """Whether ``part`` may be a file or folder name in a backup: printable, not hidden, no
    separator, not over 255 bytes."""
    return (bool(part) and part.isprintable() and not part.startswith(".") and "/" not in part
            and "\\" not in part and len(os.fsencode(part)) <= 255)


# --- making a backup -------------------------------------------------------------------------

def _listing(data_dir: Path) -> tuple[dict[str, tuple[int, int]], list[str]]:
    """The data folder's files: relative path → (device, inode), and what is left out (links,
    pipes, hidden and odd names), said in words. Links are never followed."""
    files: dict[str, tuple[int, int]] = {}
    skipped: list[str] = []

    def walk(folder: Path, rel: PurePosixPath, depth: int) -> None:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except FileNotFoundError:  # removed meanwhile (a game moved): the next listing differs
            return
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue
            path = rel / entry.name
            if depth == 0 and (entry.name in SKIPPED or entry.name.startswith(STAGING)):
                continue
            if entry.name.endswith(".tmp"):
                continue  # a write cut off (files.write_atomically): never the family's
            if not _name_ok(entry.name):
                skipped.append(f"{shown(str(path))} (a name a backup cannot hold)")
            elif stat.S_ISDIR(info.st_mode):
                if depth + 1 >= MAX_DEPTH:
                    skipped.append(f"{shown(str(path))} (a folder too deep)")
                else:
                    walk(folder / entry.name, path, depth + 1)
            elif stat.S_ISREG(info.st_mode):
                files[str(path)] = (info.st_dev, info.st_ino)
            else:
                skipped.append(f"{shown(str(path))} (a link or a special file)")

    walk(data_dir, PurePosixPath(), 0)
    return files, skipped


def _read_file(data_dir: Path, rel: str, where: tuple[int, int]) -> tuple[bytes, float] | None:
    """The bytes of the file ``rel`` (a journal up to its last complete line) and its time;
    None when it is no longer the file listed (renamed or replaced meanwhile)."""
    try:
        fd = os.open(data_dir / rel, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if (info.st_dev, info.st_ino) != where or not stat.S_ISREG(info.st_mode):
            return None
        data = read_at_most(fd, MAX_FILE_BYTES)
        if len(data) > MAX_FILE_BYTES:  # grown past the bound while it was read, too
            raise BackupError(f"{shown_path(data_dir / rel)}: over {MAX_FILE_BYTES // 2**20} MB, "
                              "too big for a backup")
    except OSError as exc:
        raise BackupError(f"cannot read {shown_path(data_dir / rel)}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if PurePosixPath(rel).name == JOURNAL:
        data = _complete_lines(data)
    return data, info.st_mtime


def _complete_lines(data: bytes) -> bytes:
    """A journal's complete lines: a line being written (no newline yet) is left out, unless
    it is a whole JSON object (the box, cut off before its newline, keeps such a line)."""
    cut = data.rfind(b"\n") + 1
    tail = data[cut:]
    if tail.strip():
        with contextlib.suppress(JsonError, UnicodeDecodeError):
            if isinstance(parse_json(tail.decode("utf-8")), dict):
                return data + b"\n"
    return data[:cut]


def _member(name: str, size: int, mtime: float) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = size, int(mtime), 0o644
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def _write_once(data_dir: Path, out: IO[bytes]) -> tuple[int, list[str]] | None:
    """Write one archive of ``data_dir`` to ``out``: (files, skipped), or None when the
    folder changed while it was read (``out`` then holds a partial archive to throw away)."""
    before, skipped = _listing(data_dir)
    if len(before) > MAX_FILES:
        raise BackupError(f"{shown_path(data_dir)}: more than {MAX_FILES:,} files, more than a backup holds")
    sums: dict[str, str] = {}
    total = 0
    with tarfile.open(fileobj=out, mode="w|gz", format=tarfile.PAX_FORMAT) as tar:
        # One file in memory at a time; the manifest, known last, goes last.
        for rel, where in before.items():
            read = _read_file(data_dir, rel, where)
            if read is None:
                return None
            data, mtime = read
            if not data and PurePosixPath(rel).name == JOURNAL:
                continue  # a game just begun, its header not yet whole: nothing confirmed to keep
            total += len(data)
            if total > MAX_TOTAL_BYTES:
                raise BackupError(f"{shown_path(data_dir)}: over {MAX_TOTAL_BYTES // 2**20} MB, "
                                  "more than a backup holds")
            sums[rel] = hashlib.sha256(data).hexdigest()
            tar.addfile(_member(f"{DATA_PREFIX}/{rel}", len(data), mtime), io.BytesIO(data))
        if _listing(data_dir)[0] != before:
            return None
        manifest = json.dumps({"version": VERSION, "program": __version__,
                               "made": datetime.now().isoformat(timespec="seconds"),
                               "files": sums}, indent=1).encode("utf-8")
        tar.addfile(_member(MANIFEST, len(manifest), datetime.now().timestamp()), io.BytesIO(manifest))
    return len(sums), skipped


def write_backup(data_dir: str | os.PathLike[str], out: IO[bytes]) -> tuple[int, list[str]]:
    """Write a backup of ``data_dir`` to the seekable binary file ``out`` (made again from
    its start when the box changed the folder meanwhile): (files, what was left out).
    ``BackupError`` for a folder that cannot be read or holds more than a backup may."""
    folder = Path(plain_path(data_dir))
    if not folder.is_dir():
        raise BackupError(f"{shown_path(folder)}: no such data folder")
    start = out.tell()
    for _ in range(TRIES):
        try:
            done = _write_once(folder, out)
        except OSError as exc:
            raise BackupError(f"cannot read the data folder {shown_path(folder)}: "
                              f"{exc.strerror or exc}") from None
        if done is not None:
            return done
        out.seek(start)
        out.truncate()
    raise BackupError(f"the data folder {shown_path(folder)} kept changing while it was read "
                      f"({TRIES} tries): try again")


def make_backup(data_dir: str | os.PathLike[str], to_dir: str | os.PathLike[str],
                now: datetime | None = None) -> Made:
    """Write a backup of ``data_dir`` into the folder ``to_dir`` (made if missing), named by
    ``archive_name``: complete or not at all (a temporary file renamed when whole).
    ``BackupError`` (one line) when it cannot be made or written there."""
    folder = Path(plain_path(data_dir)).absolute()
    target_dir = Path(plain_path(to_dir)).absolute()
    with contextlib.suppress(OSError):
        if target_dir.resolve().is_relative_to(folder.resolve()):
            raise BackupError(f"{shown_path(target_dir)} is inside the data folder: keep backups "
                              "elsewhere (a USB stick, another computer)")
    try:
        target_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(f"cannot write to {shown_path(target_dir)}: {exc.strerror}") from None
    path = target_dir / archive_name(now)
    tmp = target_dir / f".{path.name}.tmp"
    try:
        with open(tmp, "w+b") as out:
            files, skipped = write_backup(folder, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
        sync_folder(target_dir)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise BackupError(f"cannot write the backup to {shown_path(path)}: {exc.strerror}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return Made(path, files, tuple(skipped))


# --- reading an archive back -----------------------------------------------------------------

class _Bounded(io.RawIOBase):
    """A stream that refuses to give more than ``limit`` bytes: an archive that unpacks to
    more than a backup may hold (a gzip bomb, a huge header) stops there."""

    def __init__(self, stream: Any, limit: int, what: str) -> None:
        self._stream, self._left, self._what = stream, limit, what

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._stream.read(min(len(buffer), self._left + 1))
        if len(data) > self._left:
            raise BackupError(f"{self._what}: unpacks to more than a backup holds "
                              f"({MAX_TOTAL_BYTES // 2**20} MB)")
        self._left -= len(data)
        buffer[:len(data)] = data
        return len(data)


def _open_archive(path: str) -> IO[bytes]:
    """The archive file opened: a regular file no bigger than a backup (a pipe is never
    waited on, a device never read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise BackupError(f"{shown_path(path)}: no such file") from None
    except OSError as exc:
        raise BackupError(f"{shown_path(path)}: cannot read the archive ({exc.strerror})") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise BackupError(f"{shown_path(path)}: not a backup archive (not a regular file)")
    if info.st_size > MAX_TOTAL_BYTES:
        os.close(fd)
        raise BackupError(f"{shown_path(path)}: over {MAX_TOTAL_BYTES // 2**20} MB, not a backup of this box")
    return open(fd, "rb")


def _member_path(member: tarfile.TarInfo, what: str) -> str:
    """The data file's path of the archive's member (relative to the data folder); a
    ``BackupError`` for anything but a regular file at a plain path under ``data/``."""
    name = member.name
    parts = name.split("/")
    if member.type not in (tarfile.REGTYPE, tarfile.AREGTYPE) or member.issparse():
        kind = ("a link" if member.issym() or member.islnk() else "a folder" if member.isdir()
                else "a special file")
        raise BackupError(f"{what}: refused: {shown(name)} is {kind} (a backup holds regular files only)")
    if parts[0] != DATA_PREFIX or len(parts) < 2 or not all(_name_ok(p) for p in parts[1:]):
        raise BackupError(f"{what}: refused: {shown(name)} is not a file of the data folder "
                          "(a path out of it, or a name a backup never holds)")
    if len(parts) - 1 > MAX_DEPTH:
        raise BackupError(f"{what}: refused: {shown(name)} lies too deep")
    if member.size > MAX_FILE_BYTES:
        raise BackupError(f"{what}: refused: {shown(name)} is over {MAX_FILE_BYTES // 2**20} MB")
    return "/".join(parts[1:])


def _unpack(archive: IO[bytes], staging: Path, what: str) -> dict[str, str]:
    """Unpack the archive's data files into ``staging`` (a new folder of the held data
    folder), checking each member before a byte of it is written: their SHA-256 sums,
    checked against the manifest (the last member)."""
    sums: dict[str, str] = {}
    manifest: bytes | None = None
    total = 0
    stream = _Bounded(gzip.GzipFile(fileobj=archive, mode="rb"),
                      MAX_TOTAL_BYTES + MANIFEST_BYTES + 4096 * (MAX_FILES + 2), what)
    with tarfile.open(fileobj=io.BufferedReader(stream), mode="r|") as tar:
        for member in tar:
            if manifest is not None:
                raise BackupError(f"{what}: refused: {shown(member.name)} after the manifest")
            if member.name == MANIFEST and member.type in (tarfile.REGTYPE, tarfile.AREGTYPE):
                if member.size > MANIFEST_BYTES:
                    raise BackupError(f"{what}: refused: the manifest is too big")
                source = tar.extractfile(member)
                assert source is not None
                manifest = source.read()
                continue
            rel = _member_path(member, what)
            if rel in sums:
                raise BackupError(f"{what}: refused: {shown(rel)} is in it twice")
            if len(sums) >= MAX_FILES:
                raise BackupError(f"{what}: refused: more than {MAX_FILES:,} files")
            total += member.size
            if total > MAX_TOTAL_BYTES:
                raise BackupError(f"{what}: refused: over {MAX_TOTAL_BYTES // 2**20} MB unpacked")
            source = tar.extractfile(member)
            assert source is not None
            sums[rel] = _write_member(staging, rel, source, member.mtime, what)
    if manifest is None:
        raise BackupError(f"{what}: not a backup of this box (no {MANIFEST} at its end: "
                          "cut short, or another archive)")
    _check_manifest(manifest, sums, what)
    return sums


def _write_member(staging: Path, rel: str, source: IO[bytes], mtime: float, what: str) -> str:
    """Write one member to ``staging/rel`` (a new file, never through a link); its SHA-256."""
    path = staging / rel
    digest = hashlib.sha256()
    try:
        with folder_fd(path.parent) as folder:
            fd = os.open(path.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o644, dir_fd=folder)
            with open(fd, "wb") as out:
                while chunk := source.read(256 * 1024):
                    digest.update(chunk)
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            os.utime(path.name, (mtime, mtime), dir_fd=folder)
    except FileExistsError:
        raise BackupError(f"{what}: refused: {shown(rel)} is both a file and a folder in it") from None
    except NotADirectoryError:
        raise BackupError(f"{what}: refused: {shown(rel)} lies inside a file of it") from None
    except OSError as exc:
        raise BackupError(f"cannot write to the data folder: {exc.strerror or exc}") from None
    return digest.hexdigest()


def _check_manifest(manifest: bytes, sums: dict[str, str], what: str) -> None:
    try:
        doc = parse_json(manifest.decode("utf-8"))
    except (UnicodeDecodeError, JsonError):
        raise BackupError(f"{what}: refused: its manifest is damaged") from None
    if not isinstance(doc, dict) or doc.get("version") != VERSION or not isinstance(doc.get("files"), dict):
        version = doc.get("version") if isinstance(doc, dict) else None
        raise BackupError(f"{what}: not a backup this box reads (manifest version {shown(version)})")
    listed: dict[str, Any] = doc["files"]
    for rel in sorted(set(listed) | set(sums)):
        if rel not in sums:
            raise BackupError(f"{what}: refused: {shown(rel)} is missing (the archive was cut short or changed)")
        if listed.get(rel) != sums[rel]:
            raise BackupError(f"{what}: refused: {shown(rel)} is damaged (its checksum differs)")


def check_folder(folder: Path, files: list[str]) -> None:
    """Read every file of the unpacked backup ``folder`` as the box reads it: each record
    replayed by its game (``read_any_record``; a record the box set aside as damaged is
    kept as it is), the settings, tags, lessons' progress and paired phones, then each
    game's own files. ``UserError`` naming the first file the box would refuse."""
    from companion.games import GAMES, read_any_record
    from companion.pairing import PHONES_FILE
    from companion.table.registry import TAGS_FILE, TagRegistry
    from companion.table.settings import SETTINGS_FILE, read_settings
    from companion.table.tutorial_store import PROGRESS_FILE, TutorialStore
    from companion.words import LANGUAGES

    for rel in sorted(files):
        name = PurePosixPath(rel).name
        try:
            if name.endswith(".jsonl") and not DAMAGED.fullmatch(name):
                try:
                    text = (folder / rel).read_bytes().decode("utf-8")
                except UnicodeDecodeError:
                    raise UserError("not UTF-8 text") from None
                read_any_record(text, folder)
            elif rel == SETTINGS_FILE:
                read_settings(folder / rel, tuple(GAMES), LANGUAGES)
            elif rel == TAGS_FILE:
                TagRegistry.load(folder / rel)
            elif rel == PROGRESS_FILE:
                for game in GAMES:
                    TutorialStore(folder).load(game)
            elif rel == PHONES_FILE:
                _check_phones((folder / rel).read_bytes())
        except UserError as exc:
            message = str(exc).replace(str(folder / rel), rel).replace(str(folder), "")
            raise UserError(f"{rel}: {message.removeprefix(rel + ': ')}") from None
    for definition in GAMES.values():
        if definition.check_data is not None:
            try:
                definition.check_data(folder)
            except UserError as exc:
                raise UserError(str(exc).replace(str(folder) + os.sep, "")) from None


def _check_phones(data: bytes) -> None:
    """``UserError`` unless ``data`` is a paired phones' file (pairing.py) as the box writes it."""
    try:
        doc = parse_json(data.decode("utf-8"))
    except (UnicodeDecodeError, JsonError):
        doc = None
    phones = doc.get("phones") if isinstance(doc, dict) else None
    if not (isinstance(doc, dict) and doc.get("version") == 1 and isinstance(phones, list)
            and all(isinstance(p, str) and re.fullmatch(r"[0-9a-f]{64}", p) for p in phones)):
        raise UserError("not a paired phones' file")


@dataclass(frozen=True)
class Restored:
    """A backup put back: how many files, and where the data folder's former files are kept
    (None when it held none)."""

    files: int
    aside: Path | None


def restore_backup(archive: str | os.PathLike[str], data_dir: str | os.PathLike[str],
                   now: datetime | None = None) -> Restored:
    """Put the backup ``archive`` back into ``data_dir``, held as the box holds it, after
    checking all of it (module docstring). What the folder held is moved into
    ``before-restore-STAMP/`` inside it. ``BackupError``/``UserError`` (one line) for an
    archive refused or a folder in use, and then nothing is changed."""
    from companion.table.data_lock import hold_data_folder

    path = plain_path(archive)
    what = shown_path(path)
    with _open_archive(path) as source, hold_data_folder(data_dir) as folder:
        for leftover in folder.glob(f"{STAGING}*"):  # a restore cut off: a copy of its archive
            shutil.rmtree(leftover, ignore_errors=True)
        staging = folder / f"{STAGING}{os.getpid()}"
        try:
            with folder_fd(staging):
                pass
            try:
                sums = _unpack(source, staging, what)
            except (tarfile.TarError, gzip.BadGzipFile, EOFError, zlib.error) as exc:
                raise BackupError(f"{what}: not a backup archive, or a damaged one "
                                  f"({shown(str(exc) or type(exc).__name__, 60)[1:-1]})") from None
            except OSError as exc:
                raise BackupError(f"{what}: cannot read the archive ({exc.strerror or exc})") from None
            try:
                try:  # a backup of an older data format is migrated here, on its unpacked copy
                    data_format.bring_forward(staging)
                except UserError as exc:
                    raise UserError(f"{data_format.MARKER}: {exc}") from None
                check_folder(staging, list(sums))
            except UserError as exc:
                raise BackupError(f"{what}: refused: {exc}") from None
            aside = _swap_in(folder, staging, now)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return Restored(len(sums), aside)


def _swap_in(folder: Path, staging: Path, now: datetime | None) -> Path | None:
    """Move what ``folder`` holds into ``before-restore-STAMP/`` and ``staging``'s files in,
    each by a rename: cut off anywhere, every file is in one of the two places."""
    stem = f"{ASIDE}{(now or datetime.now()).strftime('%Y%m%d-%H%M%S')}"
    aside, n = folder / stem, 1
    while os.path.lexists(aside):
        n += 1
        aside = folder / f"{stem}-{n}"
    try:
        with folder_fd(folder, make=False) as data, folder_fd(aside) as kept, \
                folder_fd(staging, make=False) as new:
            old = [name for name in os.listdir(data)
                   if name not in SKIPPED and name not in (staging.name, aside.name)]
            for name in old:
                os.rename(name, name, src_dir_fd=data, dst_dir_fd=kept)
            os.fsync(kept)
            for name in os.listdir(new):
                os.rename(name, name, src_dir_fd=new, dst_dir_fd=data)
            if not old:
                os.rmdir(aside.name, dir_fd=data)
            os.fsync(data)
    except OSError as exc:
        raise BackupError(f"cannot put the backup in place: {exc.strerror or exc}; what the "
                          f"data folder held is in {shown_path(aside)}") from None
    return aside if old else None

