"""Where a lesson stands, kept in the data folder so that a lesson interrupted by a power cut
(or left from the menu) resumes at its step.

``DATA/tutorial.json`` holds one entry per game with a lesson under way: the step it is at,
where that step began, the pages already explained, and each step before it with how it
ended. The file is replaced atomically at every change; the lesson's game itself is a
journal of its own, ``DATA/tutorial/<game>/current.jsonl``, apart from the players' games
(so a lesson never sets aside an unfinished real game, and the menu never offers a lesson's
game as one to resume).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.files import read_bytes, write_atomically
from companion.records import JsonError, parse_json

#: The progress file inside the data folder.
PROGRESS_FILE = "tutorial.json"
#: The folder of the lessons' games inside the data folder (one folder per game).
LESSONS_FOLDER = "tutorial"
#: A progress file bigger than this is no progress file.
MAX_BYTES = 64 * 1024
VERSION = 1
#: How a step before the current one ended.
STATUSES = ("done", "passed", "skipped")


@dataclass(frozen=True)
class Record:
    """A step the lesson has left behind: its key, how it ended (``STATUSES``) and the
    number of moves in the game when it ended (0 before the game is set up)."""

    key: str
    status: str
    at: int


@dataclass(frozen=True)
class Progress:
    """Where one game's lesson stands: the steps left behind, the current step's key (None
    when every step is behind), the number of moves when it began (None: not begun), and
    the pages explained so far."""

    records: tuple[Record, ...] = ()
    step: str | None = None
    start: int | None = None
    taught: tuple[str, ...] = ()

    @property
    def keys(self) -> tuple[str, ...]:
        """The keys of the steps left behind, then the current step's."""
        return tuple(r.key for r in self.records) + ((self.step,) if self.step else ())

    def order(self, steps: tuple[str, ...]) -> tuple[int, ...]:
        """The order the lesson's ``steps`` (their keys) are played in so far: the steps left
        behind, the current one, then the rest in the lesson's order.

        >>> Progress((Record("b", "done", 0),), "c").order(("a", "b", "c"))
        (1, 2, 0)
        """
        numbers = {key: number for number, key in enumerate(steps)}
        played = tuple(numbers[key] for key in self.keys)
        return played + tuple(n for n in range(len(steps)) if n not in played)


def lesson_folder(data_dir: Path, game: str) -> Path:
    """The folder of ``game``'s lesson game inside the data folder."""
    return Path(data_dir) / LESSONS_FOLDER / game


def _read(path: Path) -> dict[str, Any]:
    """The parsed file; ``{}`` when there is none; ``UserError`` (one line) when it cannot be
    read or is not a progress file."""
    data = read_bytes(path, "the lessons' progress", MAX_BYTES, missing_ok=True)
    if data is None:
        return {}
    try:
        # Read like settings.json: a hostile file (nested deep, a key twice, a huge number)
        # is a damaged file, never a crash of Learn.
        doc = parse_json(data.decode("utf-8"))
    except (UnicodeDecodeError, JsonError):
        doc = None
    if not isinstance(doc, dict) or doc.get("version") != VERSION or not isinstance(doc.get("lessons"), dict):
        raise UserError(f"{path}: the lessons' progress is damaged")
    lessons: dict[str, Any] = doc["lessons"]
    return lessons


def _progress(entry: object) -> Progress:
    """One game's entry as ``Progress``; ``ValueError`` when it is not one."""
    if not isinstance(entry, dict):
        raise ValueError("not an object")
    records = entry.get("records", [])
    step, start, taught = entry.get("step"), entry.get("start"), entry.get("taught", [])
    if not (isinstance(records, list) and all(
            isinstance(r, list) and len(r) == 3 and isinstance(r[0], str) and r[1] in STATUSES
            and isinstance(r[2], int) and r[2] >= 0 for r in records)):
        raise ValueError("records")
    if not (step is None or isinstance(step, str)) or not (start is None or isinstance(start, int)):
        raise ValueError("step")
    if not (isinstance(taught, list) and all(isinstance(key, str) for key in taught)):
        raise ValueError("taught")
    return Progress(tuple(Record(*r) for r in records), step, start, tuple(taught))


class TutorialStore:
    """The progress file of the data folder ``data_dir``."""

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.path = Path(data_dir) / PROGRESS_FILE
        self._kept: dict[str, Progress] = {}  # what this store last wrote of each game

    def resumed(self, game: str, steps: tuple[str, ...]) -> tuple[Progress | None, bool]:
        """``(progress, damaged)``: ``game``'s lesson under way (None: none, or one that no
        longer fits the lesson's ``steps`` (their keys) since an update: it begins again),
        and whether the file was damaged (the lesson then begins again too)."""
        try:
            progress = self.load(game)
        except UserError:
            return None, True
        if progress is not None and (not set(progress.keys) <= set(steps)
                                     or len(set(progress.keys)) != len(progress.keys)):
            return None, False
        return progress, False

    def keep(self, game: str, progress: Progress) -> None:
        """Save ``game``'s ``progress`` when it changed since this store last kept it;
        ``UserError`` (one line) when the file cannot be written (it is tried again at the
        next change)."""
        if self._kept.get(game) == progress:
            return
        self.save(game, progress)
        self._kept[game] = progress

    def load(self, game: str) -> Progress | None:
        """``game``'s lesson under way, or None; ``UserError`` (one line) for a file that
        cannot be read or is damaged."""
        entry = _read(self.path).get(game)
        if entry is None:
            return None
        try:
            return _progress(entry)
        except ValueError:
            raise UserError(f"{self.path}: the lessons' progress is damaged") from None

    def save(self, game: str, progress: Progress | None) -> None:
        """Keep ``game``'s progress (None: the lesson is over, forget it), the other games'
        entries as they were; ``UserError`` (one line) when the file cannot be written."""
        try:
            lessons = _read(self.path)
        except UserError:
            lessons = {}  # a damaged file is replaced: the lesson being played is what counts
        if progress is None:
            lessons.pop(game, None)
        else:
            lessons[game] = {"step": progress.step, "start": progress.start,
                             "taught": list(progress.taught),
                             "records": [[r.key, r.status, r.at] for r in progress.records]}
        text = json.dumps({"version": VERSION, "lessons": lessons}, ensure_ascii=False, indent=1)
        try:
            write_atomically(self.path, text + "\n")
        except OSError as exc:
            raise UserError(f"{self.path}: cannot keep the lesson's progress ({exc.strerror})") from None
