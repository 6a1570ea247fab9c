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
search took. A bad request is answered with an ``error`` line and the engine goes on;
blank lines are skipped; the end of input ends it.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from companion.errors import UsageError, UserError
from companion.records import dump_line
from companion.search import advise, all_levels

#: The keys a request may have.
REQUEST_KEYS = ("id", "record", "seat", "level", "seed", "hand")


def run(args) -> int:
    """Answer requests from standard input until it ends."""
    if args.level is not None and args.level not in all_levels():
        raise UsageError(f"unknown level '{args.level}' (levels: {', '.join(all_levels())})")
    serve(sys.stdin, sys.stdout, args.level)
    return 0


def serve(requests: TextIO, answers: TextIO, level: str | None = None) -> None:
    """Answer each request line of ``requests`` on ``answers``, one flushed line each."""
    for line in requests:
        if not line.strip():
            continue
        answers.write(json.dumps(answer(line, level), ensure_ascii=False) + "\n")
        answers.flush()


def answer(line: str, default_level: str | None = None) -> dict[str, Any]:
    """The answer to one request line: the move, or ``{"id": …, "error": "…"}``."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"id": None, "error": f"not valid JSON ({exc.msg})"}
    if not isinstance(request, dict):
        return {"id": None, "error": "a request is a JSON object"}
    request_id = request.get("id")
    try:
        advice = advise(_record_text(request), seat=_seat(request),
                        level=_optional(request, "level", str) or default_level,
                        seed=_seed(request), hand=_hand(request))
    except (UserError, UsageError) as exc:
        return {"id": request_id, "error": str(exc)}
    except Exception as exc:  # a fault of ours must not end the session of the program asking
        return {"id": request_id, "error": f"internal error: {type(exc).__name__}: {exc}"}
    return {"id": request_id, "move": advice.move_line, "reason": advice.suggestion.reason,
            "ms": round(advice.ms, 1)}


def _record_text(request: dict) -> str:
    unknown = sorted(set(request) - set(REQUEST_KEYS))
    if unknown:
        raise UserError(f"unknown key '{unknown[0]}' (a request has {', '.join(REQUEST_KEYS)})")
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


def _optional(request: dict, key: str, kind: type) -> Any:
    value = request.get(key)
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
        raise UserError(f"{key} must be {'a number' if kind is int else 'a string'}, got {value!r}")
    return value


def _seat(request: dict) -> int | None:
    return _optional(request, "seat", int)


def _seed(request: dict) -> int:
    seed = _optional(request, "seed", int)
    return 0 if seed is None else seed


def _hand(request: dict) -> list[str] | None:
    hand = request.get("hand")
    if hand is not None and (not isinstance(hand, list) or not all(isinstance(c, str) for c in hand)):
        raise UserError("hand must be a list of card names")
    return hand
