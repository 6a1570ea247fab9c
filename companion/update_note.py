"""Why the box went back to its previous release by itself, said on the OLED at its next
start. The updater's guard (``companion/update.py``) leaves ``DATA/update-undone.json``
when a new release did not report healthy in its time; the box takes it (reads and removes
it) when its loop starts, and shows the line over its first screens until a button is
pressed (``companion/table/app_loop.py``)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from companion.errors import UserError
from companion.files import read_bytes, write_atomically
from companion.records import JsonError, parse_json

NOTE = "update-undone.json"
#: Why a release was undone -> the catalogue's line for it.
WHYS = {"timeout": "update.undone_slow", "failed": "update.undone_failed"}


def leave(data: Path, why: str) -> None:
    """Leave the note for the box's next start (``why``: a key of ``WHYS``)."""
    write_atomically(data / NOTE, json.dumps({"why": why}))


def take(data: Path) -> str | None:
    """The catalogue key of the note left, removed once read; None when there is none. A
    note that cannot be read is dropped: it only ever says why, the box plays on."""
    path = data / NOTE
    try:
        raw = read_bytes(path, "the update's note", 4096, missing_ok=True)
        doc = parse_json(raw.decode("utf-8")) if raw is not None else None
    except (UserError, JsonError, UnicodeDecodeError):
        doc = {}
    if doc is None:
        return None
    with contextlib.suppress(OSError):
        path.unlink()
    why = doc.get("why") if isinstance(doc, dict) else None
    return WHYS.get(why) if isinstance(why, str) else None
