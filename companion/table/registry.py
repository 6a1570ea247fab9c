"""The tag registry: which RFID tag (UID) is on which item, kept in ``DATA/tags.json``.

The file is small, readable JSON::

    {"version": 1, "tags": {"0A1B2C3D4E": "eagle", "0A1B2C3D4F": "village:sun"}}

``totem-companion enroll`` writes it; it is saved atomically (a temporary file, fsynced,
then renamed over the old one), so a power cut leaves the old or the new registry, never a
mix. To use the same tagged set on another box, copy the file into that box's data folder
(default ``~/.local/share/totem-companion/tags.json``, or the ``--data`` folder), e.g.
``scp ~/.local/share/totem-companion/tags.json pi@otherbox:.local/share/totem-companion/``.
UIDs are stored and compared in upper case, so files edited by hand still match.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from companion.errors import UserError
from companion.files import SMALL_BYTES, read_bytes, shown_path, write_atomically
from companion.records import JsonError, parse_json, shown_value
from companion.table.items import is_item
from companion.table.tag_tracker import normalise_uid

#: The registry's file name inside the data folder.
TAGS_FILE = "tags.json"

VERSION = 1


class TagRegistry:
    """UID → item name, loaded from and saved to one JSON file."""

    def __init__(self, path: str | os.PathLike[str], tags: dict[str, str] | None = None):
        self.path = Path(path)
        self._tags: dict[str, str] = {uid.upper(): item for uid, item in (tags or {}).items()}

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TagRegistry:
        """Read a registry file; a missing file is an empty registry.

        A file that cannot be read (not a regular file, over 1 MB, not UTF-8) or is not a
        registry (a UID given twice, even in other cases of its letters) raises one
        ``UserError`` line naming it.
        """
        path = Path(path)
        data = read_bytes(path, "the tag registry", SMALL_BYTES, missing_ok=True)
        if data is None:
            return cls(path)
        try:
            doc = parse_json(data.decode("utf-8"))
        except (UnicodeDecodeError, JsonError) as exc:
            reason = exc.reason if isinstance(exc, JsonError) else "not UTF-8 text"
            raise UserError(f"{shown_path(path)}: the tag registry is damaged ({reason}); "
                            "restore a copy or enroll again") from None
        if not isinstance(doc, dict) or not isinstance(doc.get("tags"), dict):
            raise UserError(f"{shown_path(path)}: not a tag registry (expected {{\"version\": 1, \"tags\": {{…}}}})")
        version = doc.get("version")
        if type(version) is not int or version != VERSION:  # not 1.0 or true
            raise UserError(f"{shown_path(path)}: tag registry version {shown_value(version)} is not "
                            f"supported (this companion reads version {VERSION})")
        tags: dict[str, str] = {}
        for uid, item in doc["tags"].items():
            if normalise_uid(uid) is None or not isinstance(item, str) or not is_item(item):
                raise UserError(f"{shown_path(path)}: bad entry {shown_value({uid: item})} "
                                "(a UID in hex and an item name)")
            if uid.upper() in tags:
                raise UserError(f"{shown_path(path)}: tag {shown_value(uid.upper())} is listed twice; "
                                "which item it is on is ambiguous")
            tags[uid.upper()] = item
        return cls(path, tags)

    def __len__(self) -> int:
        return len(self._tags)

    def items(self) -> dict[str, str]:
        """A copy of the whole mapping, UID → item."""
        return dict(self._tags)

    def item_for(self, uid: str) -> str | None:
        """The item a UID is enrolled for, or ``None``."""
        return self._tags.get(uid.upper())

    def bind(self, uid: str, item: str) -> str | None:
        """Enroll ``uid`` for ``item``; returns the item it was bound to before (it moves).

        Raises ``ValueError`` for a token that is not a UID or a name that is not an item.
        """
        key = normalise_uid(uid)
        if key is None:
            raise ValueError(f"'{uid}' is not a tag UID")
        if not is_item(item):
            raise ValueError(f"'{item}' is not an item name")
        previous = self._tags.get(key)
        self._tags[key] = item
        return previous

    def bind_and_save(self, uid: str, item: str) -> str | None:
        """``bind`` then ``save``; returns the item ``uid`` was bound to before. When the save
        fails (``UserError``) the binding is undone: memory and file stay alike."""
        previous = self.bind(uid, item)
        try:
            self.save()
        except UserError:
            if previous is None:
                self.unbind(uid)
            else:
                self.bind(uid, previous)
            raise
        return previous

    def unbind(self, uid: str) -> str | None:
        """Forget a UID; returns the item it was bound to, or ``None`` if it was not enrolled."""
        return self._tags.pop(uid.upper(), None)

    def resolve(self, token: str) -> str | None:
        """The item a scanned token stands for: an enrolled UID gives its item; a token that
        is itself an item name (input scripts, the simulator) gives that item; else ``None``."""
        item = self._tags.get(token.upper())
        if item is not None:
            return item
        name = token.lower()
        return name if is_item(name) else None

    def save(self) -> None:
        """Write the registry atomically; one ``UserError`` line if the folder is not writable."""
        text = json.dumps({"version": VERSION, "tags": dict(sorted(self._tags.items()))},
                          indent=2, ensure_ascii=False) + "\n"
        try:
            write_atomically(self.path, text)
        except OSError as exc:
            raise UserError(f"cannot save the tag registry {self.path}: {exc.strerror}") from None
