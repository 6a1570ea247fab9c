"""Where a lesson stands, kept in the data folder so that a lesson interrupted by a power cut
(or left from the menu) resumes at its step.

``DATA/tutorial.json`` holds one entry per game with a lesson under way, its ``Position``
(``lesson_position.py``): the step it is at, where that step began, the pages already
explained, each step before it with how it ended, and the order of the steps. The file is
replaced atomically at every change; the lesson's game itself is a journal of its own,
``DATA/tutorial/<game>/current.jsonl``, apart from the players' games (so a lesson never
sets aside an unfinished real game, and the menu never offers a lesson's game as one to
resume).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.files import read_bytes, write_atomically
from companion.records import JsonError, parse_json
from companion.table.lesson_position import STATUSES, Position, Record

#: The progress file inside the data folder.
PROGRESS_FILE = "tutorial.json"
#: The folder of the lessons' games inside the data folder (one folder per game).
LESSONS_FOLDER = "tutorial"
#: A progress file bigger than this is no progress file.
MAX_BYTES = 64 * 1024
VERSION = 1
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


def _position(entry: object) -> Position:
    """One game's entry as its ``Position``; ``ValueError`` when it is not one. An entry
    without an order (kept by a version that kept none) has the steps played as its order:
    ``Position.within`` puts the rest in the lesson's order."""
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
    played = [r[0] for r in records] + ([step] if step else [])
    order = entry.get("order", played)
    if not (isinstance(order, list) and all(isinstance(key, str) for key in order)):
        raise ValueError("order")
    position = Position(tuple(order), tuple(Record(*r) for r in records), start, tuple(taught))
    if position.step != (step or None):
        raise ValueError("the step is not the order's")
    return position


class TutorialStore:
    """The progress file of the data folder ``data_dir``."""

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.path = Path(data_dir) / PROGRESS_FILE
        self._kept: dict[str, Position] = {}  # what this store last wrote of each game

    def resumed(self, game: str, steps: tuple[str, ...]) -> tuple[Position | None, bool]:
        """``(position, damaged)``: where ``game``'s lesson under way stands in the lesson of
        ``steps`` (their keys) (None: none, or one that no longer fits the lesson since an
        update: it begins again), and whether the file was damaged (the lesson then begins
        again too)."""
        try:
            position = self.load(game)
        except UserError:
            return None, True
        return (position.within(steps) if position is not None else None), False

    def keep(self, game: str, position: Position) -> None:
        """Save ``game``'s ``position`` when it changed since this store last kept it;
        ``UserError`` (one line) when the file cannot be written (it is tried again at the
        next change)."""
        if self._kept.get(game) == position:
            return
        self.save(game, position)
        self._kept[game] = position

    def load(self, game: str) -> Position | None:
        """``game``'s lesson under way, or None; ``UserError`` (one line) for a file that
        cannot be read or is damaged."""
        entry = _read(self.path).get(game)
        if entry is None:
            return None
        try:
            return _position(entry)
        except ValueError:
            raise UserError(f"{self.path}: the lessons' progress is damaged") from None

    def save(self, game: str, position: Position | None) -> None:
        """Keep where ``game``'s lesson stands (None: the lesson is over, forget it), the
        other games' entries as they were; ``UserError`` (one line) when the file cannot be
        written."""
        try:
            lessons = _read(self.path)
        except UserError:
            lessons = {}  # a damaged file is replaced: the lesson being played is what counts
        if position is None:
            lessons.pop(game, None)
        else:
            # The step as well as the order: a box put back to its version before (an
            # update on trial that failed) reads the step and resumes there.
            lessons[game] = {"step": position.step, "order": list(position.order), "start": position.start,
                             "taught": list(position.taught),
                             "records": [[r.key, r.status, r.at] for r in position.records]}
        text = json.dumps({"version": VERSION, "lessons": lessons}, ensure_ascii=False, indent=1)
        try:
            write_atomically(self.path, text + "\n")
        except OSError as exc:
            raise UserError(f"{self.path}: cannot keep the lesson's progress ({exc.strerror})") from None
