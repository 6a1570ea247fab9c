"""The data folder's format, and its migration on a copy when a release changes it.

``DATA/format.json`` says which format the folder is in (none: format 1, the folder as every
release before this one wrote it). A release knows its own ``FORMAT`` and how to bring each
older one forward (``MIGRATIONS``). At the service's start, before the box opens the folder
(the unit's ``ExecStartPre``, through the updater's guard, ``companion/update.py``), the
release that starts runs ``migrate``: the folder is copied into ``DATA/.formats/next``, the
copy is migrated, and only then swapped in; the old files are kept in
``DATA/.formats/kept-N`` until the release reports healthy (``drop_kept``), or put back when
it does not (``restore``, which the guard runs as it undoes the release). A backup of an
older format is brought forward as it is restored (``bring_forward``, on its unpacked copy).

A swap moves every entry of the folder out, then every entry of the incoming folder in;
``DATA/.formats/swap.json`` names the swap and its phase before each phase, so a swap cut
off at any moment (a power cut) is finished by the next ``migrate`` or ``restore``: the
folder holds either the old files or the new ones, never a mix.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from companion.errors import UserError
from companion.files import read_bytes, sync_folder, write_atomically
from companion.records import JsonError, parse_json

#: This release's data format.
FORMAT = 1
#: format N -> what brings a folder (the copy) from N to N + 1.
MIGRATIONS: dict[int, Callable[[Path], None]] = {}

MARKER = "format.json"
#: The migrations' own folder inside the data folder (no backup holds it).
FORMATS = ".formats"
SWAP = "swap.json"
#: The copy being migrated, and the old files kept (``kept-N``) or undone (``undone``).
NEXT = "next"
KEPT = "kept-"
UNDONE = "undone"
#: Never moved: the box's lock (``companion/table/data_lock.py``) and the migrations' folder.
STAYS = (".lock", FORMATS)


def format_of(folder: Path) -> int:
    """The format ``folder`` is in (1 without a marker); ``UserError`` for a marker that is
    not one."""
    raw = read_bytes(folder / MARKER, "the data folder's format", 4096, missing_ok=True)
    if raw is None:
        return 1
    try:
        doc = parse_json(raw.decode("utf-8"))
    except (JsonError, UnicodeDecodeError):
        doc = None
    number = doc.get("format") if isinstance(doc, dict) else None
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise UserError(f"{folder / MARKER}: not a data format marker")
    return number


def _entries(folder: Path) -> list[str]:
    return sorted(entry.name for entry in folder.iterdir() if entry.name not in STAYS)


def _copy(data: Path, target: Path) -> None:
    """The data folder's files and folders copied into ``target`` (links and special files
    are no part of the box's data)."""
    target.mkdir(parents=True)
    for name in _entries(data):
        source = data / name
        if source.is_symlink():
            continue
        if source.is_dir():
            shutil.copytree(source, target / name, symlinks=True)
        elif source.is_file():
            shutil.copy2(source, target / name)


def _swap(data: Path, incoming: str, outgoing: str) -> None:
    """Swap the folder's entries for those of ``.formats/incoming``; the old ones go to
    ``.formats/outgoing`` (made empty first)."""
    formats = data / FORMATS
    shutil.rmtree(formats / outgoing, ignore_errors=True)
    (formats / outgoing).mkdir()
    sync_folder(formats)
    write_atomically(formats / SWAP, json.dumps({"in": incoming, "out": outgoing, "phase": "out"}))
    _finish_swap(data)


def _finish_swap(data: Path) -> None:
    """Finish a swap cut off (nothing when none is under way)."""
    formats = data / FORMATS
    raw = read_bytes(formats / SWAP, "the data format's swap", 4096, missing_ok=True)
    if raw is None:
        return
    try:
        swap = parse_json(raw.decode("utf-8"))
    except (JsonError, UnicodeDecodeError):
        swap = None
    names = (swap.get("in"), swap.get("out"), swap.get("phase")) if isinstance(swap, dict) else ()
    if len(names) != 3 or not all(isinstance(n, str) and n and "/" not in n for n in names):
        raise UserError(f"{formats / SWAP}: damaged; the data folder's files are in {formats}")
    incoming, outgoing, phase = (str(n) for n in names)
    if phase == "out":
        for name in _entries(data):
            os.replace(data / name, formats / outgoing / name)
        sync_folder(formats / outgoing)
        sync_folder(data)
        write_atomically(formats / SWAP, json.dumps({"in": incoming, "out": outgoing, "phase": "in"}))
    if (formats / incoming).is_dir():
        for name in _entries(formats / incoming):
            os.replace(formats / incoming / name, data / name)
        sync_folder(data)
        (formats / incoming).rmdir()
    (formats / SWAP).unlink()
    sync_folder(formats)


def bring_forward(copy: Path, found: int | None = None) -> None:
    """Migrate the folder ``copy`` (a copy: migrations change it in place) from its format
    (``found``, else its marker's) to this release's, and mark it so. ``UserError`` for a
    folder of a newer format than this release knows."""
    found = format_of(copy) if found is None else found
    if found > FORMAT:
        raise UserError(f"the data is in format {found}, newer than this release's ({FORMAT}): "
                        "update the box, or restore a backup")
    if found == FORMAT:
        return
    for number in range(found, FORMAT):
        MIGRATIONS[number](copy)
    write_atomically(copy / MARKER, json.dumps({"format": FORMAT}))


def migrate(data: Path) -> str | None:
    """Bring the data folder to this release's format on a copy, the old files kept (module
    docstring); what was done, in a line; None when it was in this format already.
    ``UserError`` for a folder of a newer format than this release knows."""
    if not data.is_dir():
        return None
    _finish_swap(data)
    found = format_of(data)
    if found == FORMAT:
        return None
    if found > FORMAT:
        raise UserError(f"{data}: the data is in format {found}, newer than this release's "
                        f"({FORMAT}): update the box, or restore a backup")
    formats = data / FORMATS
    formats.mkdir(exist_ok=True)
    shutil.rmtree(formats / NEXT, ignore_errors=True)
    _copy(data, formats / NEXT)
    bring_forward(formats / NEXT, found)
    _swap(data, NEXT, f"{KEPT}{found}")
    return f"the data folder went from format {found} to {FORMAT}; the old files are kept until the box is healthy"


def restore(data: Path) -> str | None:
    """Put back the files a migration kept (the release that migrated them was undone); the
    migrated ones go to ``.formats/undone``. What was done, in a line; None when nothing
    was kept."""
    formats = data / FORMATS
    if not formats.is_dir():
        return None
    _finish_swap(data)
    kept = sorted(entry.name for entry in formats.iterdir() if entry.name.startswith(KEPT))
    if not kept:
        return None
    _swap(data, kept[0], UNDONE)
    for other in kept[1:]:
        shutil.rmtree(formats / other, ignore_errors=True)
    return f"the data folder is back in format {kept[0].removeprefix(KEPT)}"


def drop_kept(data: Path) -> None:
    """The release reported healthy: the old files kept for it go."""
    formats = data / FORMATS
    with contextlib.suppress(FileNotFoundError):
        for entry in formats.iterdir():
            if entry.name.startswith(KEPT) or entry.name == UNDONE:
                shutil.rmtree(entry, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """``python -m companion.data_format --data DIR``: migrate (the service's start)."""
    parser = argparse.ArgumentParser(prog="companion.data_format")
    parser.add_argument("--data", required=True, help="the box's data folder")
    args = parser.parse_args(argv)
    try:
        done = migrate(Path(args.data))
    except (UserError, OSError) as exc:
        print(f"totem-companion: {exc}", file=sys.stderr)
        return 1
    if done:
        print(f"totem-companion: {done}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
