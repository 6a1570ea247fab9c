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
>>> t.forget_from(0); t.where("0A1B2C3D4E") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Place:
    """Where a tagged item went: ``("hand", player)`` after a draw, ``("pole", village)`` after
    a build or a claim (village 1-6)."""

    kind: str
    index: int


class TagTracker:
    """Tags present on each reader, and the place of each physical tag used in the game."""

    def __init__(self) -> None:
        self._present: set[tuple[str, str]] = set()
        self._placed: dict[int, tuple[str, Place]] = {}

    # --- presence on the readers --------------------------------------------------------

    def arrive(self, uid: str, reader: str) -> bool:
        """Note that ``uid`` is on ``reader``; False when it was already there (a repeated read)."""
        key = (uid, reader)
        if key in self._present:
            return False
        self._present.add(key)
        return True

    def leave(self, uid: str, reader: str) -> None:
        """Note that ``uid`` left ``reader`` (a later read of it is a new scan)."""
        self._present.discard((uid, reader))

    def reader_lost(self, reader: str) -> None:
        """Forget every tag on a reader that was disconnected: it cannot report them leaving."""
        self._present = {key for key in self._present if key[1] != reader}

    # --- places, per accepted move -------------------------------------------------------

    def place(self, move_index: int, uid: str, where: Place) -> None:
        """Record that the move at ``move_index`` of the game history put ``uid`` at ``where``."""
        self._placed[move_index] = (uid, where)

    def forget_from(self, move_index: int) -> None:
        """Forget the places of the moves from ``move_index`` on (they were taken back)."""
        self._placed = {i: entry for i, entry in self._placed.items() if i < move_index}

    def where(self, uid: str) -> Place | None:
        """The last known place of ``uid``; None when no kept move used it."""
        found = None
        for index in sorted(self._placed):
            placed_uid, where = self._placed[index]
            if placed_uid == uid:
                found = where
        return found

    def reset(self) -> None:
        """Forget every place (a new or resumed game); tags on the readers stay present."""
        self._placed.clear()
