"""``totem-companion engine [--level L]``: the engine protocol on standard input and output
(shared/DESIGN.md, "Engine protocol").

One JSON request a line in, one JSON answer a line out, in order, each flushed:

    {"id": 7, "record": [{"game": "wakanda", ...}, {"p": 0, "draw": "sun"}], "seat": 0,
     "level": "standard", "seed": 42}
    {"id": 7, "move": {"p": 0, "build": "sun", "village": 3}, "reason": "...", "ms": 12.5}
    {"id": 8, "error": "line 3: not Ben's turn (W4)"}

``record`` is the game so far, one record line an element (a JSON Lines text is taken too);
``seat`` defaults to the player to move, ``level`` to ``--level`` or the game's default,
``seed`` to 0; Totem Wars requests carry ``hand``, the seat's cards. ``ms`` is the time the
search took. A bad request is answered with an ``error`` line and the engine goes on:
a line that is not UTF-8, not a JSON object, gives a key twice, holds a number of
thousands of digits, is nested deeper than a record needs, or is longer than a whole
record may be (16 MB). Blank lines are skipped; the end of input ends it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO, TextIO, TypeVar

from companion.advice import advise, all_levels
from companion.commands.records_each import data_folder
from companion.errors import UsageError, UserError, one_line
from companion.files import SMALL_BYTES, shown
from companion.records import JsonError, dump_line, json_text, parse_json, shown_value

#: The longest request: a whole game's record is a few dozen KB; millions of tiny elements
#: in a longer one would take hundreds of MB to parse.
REQUEST_BYTES = SMALL_BYTES
#: The keys a request may have.
REQUEST_KEYS = ("id", "record", "seat", "level", "seed", "hand")

#: The type of a request's optional value (``_optional``).
T = TypeVar("T")


def run(args: argparse.Namespace) -> int:
    """Answer requests from standard input until it ends."""
    if args.level is not None and args.level not in all_levels():
        raise UsageError(f"unknown level {shown(args.level)} (levels: {', '.join(all_levels())})")
    serve(sys.stdin.buffer, sys.stdout, args.level, data_folder(args))
    return 0


def serve(requests: BinaryIO, answers: TextIO, level: str | None = None, data_dir: Path | None = None) -> None:
    """Answer each request line of the bytes ``requests`` on ``answers``, one flushed line
    each; a line longer than ``REQUEST_BYTES`` is answered with an error, unread."""
    while line := requests.readline(REQUEST_BYTES + 1):
        if len(line) > REQUEST_BYTES and not line.endswith(b"\n"):
            while (rest := requests.readline(REQUEST_BYTES + 1)) and not rest.endswith(b"\n"):
                pass  # the rest of the line, dropped a piece at a time
            reply: dict[str, Any] = {"id": None, "error": f"a request is at most {REQUEST_BYTES // 2**20} MB"}
        elif not line.strip():
            continue
        else:
            try:
                reply = answer(line.decode("utf-8"), level, data_dir)
            except UnicodeDecodeError:
                reply = {"id": None, "error": "a request is UTF-8 text"}
        answers.write(json_text(reply) + "\n")
        answers.flush()


def answer(line: str, default_level: str | None = None, data_dir: Path | None = None) -> dict[str, Any]:
    """The answer to one request line: the move, or ``{"id": …, "error": "…"}``."""
    try:
        request = parse_json(line)
    except JsonError as exc:
        return {"id": None, "error": exc.reason}
    if not isinstance(request, dict):
        return {"id": None, "error": "a request is a JSON object"}
    request_id = request.get("id")
    try:
        advice = advise(_record_text(request), seat=_seat(request),
                        level=_optional(request, "level", str) or default_level,
                        seed=_seed(request), hand=_hand(request), data_dir=data_dir)
    except (UserError, UsageError) as exc:
        return {"id": request_id, "error": one_line(str(exc))}
    except Exception as exc:  # a fault of ours must not end the session of the program asking
        return {"id": request_id, "error": one_line(f"internal error: {type(exc).__name__}: {exc}")}
    return {"id": request_id, "move": advice.move_line, "reason": advice.suggestion.reason,
            "ms": round(advice.ms, 1)}


def _record_text(request: Mapping[str, object]) -> str:
    unknown = sorted(set(request) - set(REQUEST_KEYS))
    if unknown:
        raise UserError(f"unknown key {shown_value(unknown[0])} (a request has {', '.join(REQUEST_KEYS)})")
    if "record" not in request:
        raise UserError("missing key 'record': the game so far, one record line an element")
    record = request["record"]
    if isinstance(record, str):
        return record
    if not isinstance(record, list) or not record:
        raise UserError("record must be a list of record lines, the header first")
    for number, obj in enumerate(record, start=1):
        if not isinstance(obj, dict):
            raise UserError(f"line {number}: each line must be a JSON object")
    return "".join(dump_line(obj) for obj in record)


def _optional(request: Mapping[str, object], key: str, kind: type[T]) -> T | None:
    value = request.get(key)
    if value is None:
        return None
    if not isinstance(value, kind) or isinstance(value, bool):
        raise UserError(f"{key} must be {'a whole number' if kind is int else 'a string'}, got {shown_value(value)}")
    return value


def _seat(request: Mapping[str, object]) -> int | None:
    return _optional(request, "seat", int)


def _seed(request: Mapping[str, object]) -> int:
    seed = _optional(request, "seed", int)
    return 0 if seed is None else seed


def _hand(request: Mapping[str, object]) -> list[str] | None:
    hand = request.get("hand")
    if hand is not None and (not isinstance(hand, list) or not all(isinstance(c, str) for c in hand)):
        raise UserError("hand must be a list of card names")
    return hand
