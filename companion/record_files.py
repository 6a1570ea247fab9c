"""Reading a record file, below everything that reads one: the command line's ``score``,
``moves``, ``replay`` and ``hint`` (``companion/commands/records_each.py``) and the phone
page's past games (``companion/web/history.py``) alike."""

from __future__ import annotations

import os

from companion.files import RECORD_BYTES, read_text


def read_record_file(path: str | os.PathLike[str]) -> str:
    """The text of a record file: a regular file of at most 16 MB, UTF-8; else one
    ``UserError`` line naming it."""
    return read_text(path, "a record", RECORD_BYTES)
