"""Game records: JSON Lines, one object a line, the first line a header (rules/*.md).

This module only reads and writes lines; each game's ``record`` module gives them meaning.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from companion.errors import RecordError, UserError


def parse_lines(text: str) -> tuple[list[tuple[int, dict]], list[str]]:
    """Split a record into ``(line number, object)`` pairs, skipping empty lines.

    A last line that has no newline and does not parse is a torn write (the box lost power
    mid-write): it is dropped with a warning, never fatal. Any other bad line raises
    ``RecordError``.
    """
    lines = text.split("\n")
    torn_possible = not text.endswith("\n")
    out: list[tuple[int, dict]] = []
    warnings: list[str] = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            if torn_possible and number == len(lines):
                warnings.append(f"line {number}: torn last line ignored (an interrupted write)")
                break
            raise RecordError(number, f"not valid JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise RecordError(number, "each line must be a JSON object")
        out.append((number, obj))
    if not out:
        raise RecordError(1, "the record is empty (line 1 must be the header)")
    return out, warnings


def read_text(path: str | os.PathLike, kind: str = "record") -> str:
    """The text of a file (a record, an input script), with a one-line error for a missing
    or unreadable file."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{path}: is a folder, not {'an' if kind[0] in 'aeiou' else 'a'} {kind}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not a UTF-8 text file") from None
    except OSError as exc:
        raise UserError(f"{path}: {exc.strerror or exc}") from None


def dump_line(obj: dict) -> str:
    """One record line (compact, UTF-8, with its newline)."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": ")) + "\n"


def check_keys(line: int, obj: dict, required: set[str], optional: frozenset[str] | set[str] = frozenset()) -> None:
    """Raise ``RecordError`` for unknown or missing keys of a record line."""
    unknown = sorted(set(obj) - required - set(optional))
    if unknown:
        raise RecordError(line, f"unknown key '{unknown[0]}'")
    missing = sorted(required - set(obj))
    if missing:
        raise RecordError(line, f"missing key '{missing[0]}'")


def games_line_by_line(text: str, read_record):
    """``(before, after)``: the game before and after each line of a record, in order
    (``before`` is None for the header), for replays. The whole record is read first, so a
    bad line is reported (``RecordError``) before anything is yielded."""
    read_record(text)
    lines, _ = parse_lines(text)
    before = None
    for count in range(1, len(lines) + 1):
        after, _ = read_record("".join(dump_line(obj) for _, obj in lines[:count]))
        yield before, after
        before = after
