"""The messages between a box and the club, as bytes on the broker.

A game: one JSON line ``{"id": ID, "finished": ISO-8601}`` then the record's bytes as the
box keeps them (its id is their SHA-256, so they travel untouched). An answer: one JSON
object ``{"id": ID, "status": "acknowledged" | "refused", "reason": "…"}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

ACKNOWLEDGED, REFUSED = "acknowledged", "refused"
#: The largest game message the club reads (a record is at most 16 MB on the box; a club's
#: games are a few kilobytes).
MAX_GAME_BYTES = 1 << 20


def game_message(key: str, finished: str, record: bytes) -> bytes:
    """The message of the finished game ``key``."""
    return json.dumps({"id": key, "finished": finished}).encode() + b"\n" + record


@dataclass(frozen=True)
class GameMessage:
    """A game as the club received it."""

    id: str
    finished: str
    record: bytes


def read_game(payload: bytes) -> GameMessage:
    """The game of a message; ``ValueError`` with the reason for anything else."""
    if len(payload) > MAX_GAME_BYTES:
        raise ValueError(f"the message is larger than {MAX_GAME_BYTES} bytes")
    head, sep, record = payload.partition(b"\n")
    try:
        fields = json.loads(head)
    except (ValueError, RecursionError):
        raise ValueError("the message's first line is not JSON") from None
    if not sep or not isinstance(fields, dict) or not isinstance(fields.get("id"), str) \
            or not isinstance(fields.get("finished"), str) or len(fields["finished"]) > 40:
        raise ValueError('the message\'s first line must be {"id": …, "finished": …}')
    return GameMessage(fields["id"], fields["finished"], record)


def answer_message(key: str, reason: str | None = None) -> bytes:
    """The club's answer for ``key``: acknowledged, or refused because of ``reason``."""
    if reason is None:
        return json.dumps({"id": key, "status": ACKNOWLEDGED}).encode()
    return json.dumps({"id": key, "status": REFUSED, "reason": reason}).encode()


def read_answer(payload: bytes | bytearray) -> tuple[str, str | None] | None:
    """``(id, None)`` for an acknowledgement, ``(id, reason)`` for a refusal; None for
    anything else."""
    try:
        fields = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if not isinstance(fields, dict) or not isinstance(fields.get("id"), str):
        return None
    if fields.get("status") == ACKNOWLEDGED:
        return fields["id"], None
    if fields.get("status") == REFUSED:
        return fields["id"], str(fields.get("reason") or "no reason given")
    return None
