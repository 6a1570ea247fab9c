"""The games kept for later besides the one in the journal, so that none is ever out of reach.

Starting a new game puts the unfinished one aside as ``DATA/games/…-<game>-unfinished.jsonl``
(``journal.archive_unfinished``). Those are the kept games the menu offers after the
journal's own: each by its game and players, the last played first (a file's modification
time is its last accepted action, since a rename keeps it). Resuming one brings it back as
``DATA/current.jsonl``, the game in the journal going aside in its place; the journal then
reads it as any unfinished game (a damaged end left out, see ``journal.py``).
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from companion.errors import UserError
from companion.files import folder_fd, shown_path
from companion.games import GAMES
from companion.records import JsonError, parse_json
from companion.table.journal import CURRENT, HEADER_BYTES, archive_unfinished
from companion.table.journal import GAMES as GAMES_FOLDER

#: How the name of a kept game's file ends (``-unfinished-2.jsonl`` when two were kept
#: aside in the same second).
KEPT_NAME = re.compile(r".*-unfinished(-[0-9]+)?\.jsonl")


@dataclass(frozen=True)
class KeptGame:
    """A game kept for later under ``DATA/games/``: its file's name there, its game (the
    record's name), its players, and when it was last played (seconds since the epoch)."""

    file: str
    game: str
    players: tuple[str, ...]
    played: float


def _header(path: Path) -> tuple[bytes, float] | None:
    """The first line of the regular file ``path`` and its modification time; None for
    anything else (a link, a pipe, a folder) or a file that cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        return os.read(fd, HEADER_BYTES).split(b"\n", 1)[0], info.st_mtime
    except OSError:
        return None
    finally:
        os.close(fd)


def _kept(path: Path) -> KeptGame | None:
    """The kept game of the file ``path``; None when its header names no game of the box
    with its players (a damaged file: the journal could not resume it either)."""
    found = _header(path)
    if found is None:
        return None
    first, played = found
    try:
        header = parse_json(first.decode("utf-8"))
    except (UnicodeDecodeError, JsonError):
        return None
    if not isinstance(header, dict):
        return None
    game, players = header.get("game"), header.get("players")
    if game not in GAMES or not isinstance(players, list) or len(players) < 2 \
            or not all(isinstance(name, str) for name in players):
        return None
    return KeptGame(path.name, str(game), tuple(players), played)


def kept_games(data_dir: str | os.PathLike[str]) -> list[KeptGame]:
    """The games kept for later under ``DATA/games/``, the last played first (the journal's
    own game, ``current.jsonl``, is not among them). A folder that cannot be read holds none."""
    folder = Path(data_dir) / GAMES_FOLDER
    try:
        names = [entry.name for entry in os.scandir(folder) if KEPT_NAME.fullmatch(entry.name)]
    except OSError:
        return []
    games = [game for game in (_kept(folder / name) for name in names) if game is not None]
    return sorted(games, key=lambda game: (game.played, game.file), reverse=True)


def bring_back(data_dir: str | os.PathLike[str], file: str) -> None:
    """Make the kept game ``file`` (its name under ``DATA/games/``) the journal's game: the
    game there now is kept aside first (``archive_unfinished``). ``UserError`` (one line)
    when ``file`` is no kept game or the data folder cannot be written."""
    data_dir = Path(data_dir)
    source = data_dir / GAMES_FOLDER / file
    if os.path.basename(file) != file or not KEPT_NAME.fullmatch(file) or _kept(source) is None:
        raise UserError(f"{shown_path(source)}: no game kept for later")
    archive_unfinished(data_dir)
    try:
        # The data folder belongs to one process (data_lock.py): the name just freed stays
        # free. Both folders are reached without following a link (files.folder_fd).
        with folder_fd(data_dir, make=False) as data, folder_fd(source.parent, make=False) as games:
            os.rename(file, CURRENT, src_dir_fd=games, dst_dir_fd=data)
            # On the table again now: the newest when it is next kept aside.
            os.utime(CURRENT, dir_fd=data, follow_symlinks=False)
            os.fsync(data)
            os.fsync(games)
    except OSError as exc:
        raise UserError(f"cannot bring back the game kept as {shown_path(source)}: "
                        f"{exc.strerror}") from None
