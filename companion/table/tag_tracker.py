"""Which physical tag is where: on a reader right now, in a hand, on a pole.

Readers report a tag again and again while it lies on them, a piece already built can be
scanned by mistake, a reader can be unplugged with tags on it. The tracker lets the session
tell a new scan from a repeated read, and a fresh piece from one already used, so that no
physical action is ever applied twice.

Places are kept per accepted move (its index in the game's history), so an undo simply
forgets what the moves it took back had placed.

>>> t = TagTracker()
>>> t.arrive("0A1B2C3D4E", "pad"), t.arrive("0A1B2C3D4E", "pad")
(True, False)
>>> t.place(0, "0A1B2C3D4E", Place("pole", 2)); t.where("0A1B2C3D4E")
Place(kind='pole', index=2)
>>> t.present("pad"), t.placed_on(2)
({'0A1B2C3D4E'}, [(0, '0A1B2C3D4E')])
>>> t.forget_from(0); t.where("0A1B2C3D4E") is None
True

With the reader hub, the tags present on a village's slot are compared with the pieces the
record puts on that village's pole (``present``, ``placed_on``); the tracker also keeps what
each tag was resolved to (``identify``, ``item_of``), so that tags already lying on the
board when a game is resumed can be matched to the record's pieces.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.contract import Item


def normalise_uid(token: str) -> str | None:
    """The upper-case UID for a token that looks like one (8 or more hex digits), else ``None``.

    Item names such as ``eagle`` or ``village:sun`` are never UIDs.
    """
    if len(token) >= 8 and all(c in "0123456789abcdefABCDEF" for c in token):
        return token.upper()
    return None


@dataclass(frozen=True)
class Place:
    """Where a tagged item went: ``("hand", player)`` after a draw, ``("pole", village)`` after
    a build or a claim (village 1-6)."""

    kind: str
    index: int


class TagTracker:
    """Tags present on each reader, and the place of each physical tag used in the game."""

    def __init__(self) -> None:
        self._present: dict[str, set[str]] = {}  # reader -> the tokens on it
        self._placed: dict[int, tuple[str, Place]] = {}
        self._items: dict[str, Item] = {}

    # --- presence on the readers --------------------------------------------------------

    def arrive(self, uid: str, reader: str) -> bool:
        """Note that ``uid`` is on ``reader``; False when it was already there (a repeated read)."""
        on_reader = self._present.setdefault(reader, set())
        if uid in on_reader:
            return False
        on_reader.add(uid)
        return True

    def leave(self, uid: str, reader: str) -> None:
        """Note that ``uid`` left ``reader`` (a later read of it is a new scan)."""
        self._present.get(reader, set()).discard(uid)

    def reader_lost(self, reader: str) -> None:
        """Forget every tag on a reader that was disconnected: it cannot report them leaving."""
        self._present.pop(reader, None)

    def present(self, reader: str) -> set[str]:
        """The UIDs (upper case) on ``reader`` now. Item names typed in an input script are
        not UIDs and are left out: such pieces cannot be told apart, so nobody follows them."""
        uids = (normalise_uid(token) for token in self._present.get(reader, ()))
        return {uid for uid in uids if uid is not None}

    def identify(self, uid: str, item: Item) -> None:
        """Note that the tag ``uid`` stands for ``item`` (the registry said so)."""
        self._items[uid] = item

    def item_of(self, uid: str) -> Item | None:
        """What the tag ``uid`` stands for, when a reader has reported it; else None."""
        return self._items.get(uid)

    # --- places, per accepted move -------------------------------------------------------

    def place(self, move_index: int, uid: str, where: Place) -> None:
        """Record that the move at ``move_index`` of the game history put ``uid`` at ``where``."""
        self._placed[move_index] = (uid, where)

    def forget_from(self, move_index: int) -> None:
        """Forget the places of the moves from ``move_index`` on (they were taken back)."""
        self._placed = {i: entry for i, entry in self._placed.items() if i < move_index}

    def placed_on(self, village: int) -> list[tuple[int, str]]:
        """``(move index, uid)`` of the tags the kept moves put on ``village``'s pole, bottom
        to top."""
        return [(index, uid) for index, (uid, where) in sorted(self._placed.items())
                if where.index == village and where.kind == "pole"]

    def where(self, uid: str) -> Place | None:
        """The last known place of ``uid``; None when no kept move used it."""
        found = self.placed_by(uid)
        return found[1] if found is not None else None

    def placed_by(self, uid: str) -> tuple[int, Place] | None:
        """The index of the last kept move that used ``uid``, and where it put it; None
        when no kept move used it."""
        found = None
        for index in sorted(self._placed):
            placed_uid, where = self._placed[index]
            if placed_uid == uid:
                found = index, where
        return found

    def reset(self) -> None:
        """Forget every place (a new or resumed game); tags on the readers stay present."""
        self._placed.clear()
