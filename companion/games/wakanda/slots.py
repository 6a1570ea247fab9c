"""Wakanda on the reader hub: does what lies on each village slot match the game?

With a reader under each village tile, the box compares the tags each slot's reader sees
with the pieces and headdresses the record puts on that village's pole, as a smart chess
board compares squares. A reader sees the tags within its reach, not always a whole pole,
so a tag counts as missing only once the hub has reported it on its slot while the record
had it there (it is *watched*): a top piece out of reach raises no false alarm.

Everything here is a pure function of the game, the tag tracker and the flow's two sets of
``(uid, village)``: ``watched`` (seen on its pole) and ``ignored`` (strays the players chose
to leave where they are, until they are lifted).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.wakanda.items import Headdress, Piece
from companion.games.wakanda.moves import Build, Claim
from companion.games.wakanda.rules import HEADDRESSES
from companion.table.tag_tracker import Place, TagTracker


@dataclass(frozen=True)
class Missing:
    """A piece (or headdress) ``item`` the record puts on ``village``'s pole, seen there,
    and gone from its slot."""

    village: int
    uid: str
    item: str


@dataclass(frozen=True)
class Stray:
    """A piece (or headdress) ``item`` lying on ``village``'s slot that the record does not
    put on that pole; ``belongs`` is where the record has it: another pole, a hand, or
    nowhere (None: not drawn, or its placement was refused)."""

    village: int
    uid: str
    item: str
    belongs: Place | None


Problem = Missing | Stray


def slot_reader(village: int) -> str:
    """The reader name of a village's slot: ``slot3``."""
    return f"slot{village}"


def item_kind(item: object) -> str | None:
    """The piece kind or headdress of a tagged item; None for anything else (a tile)."""
    return item.kind if isinstance(item, Piece | Headdress) else None


def on_poles(game) -> dict[int, tuple[int, str]]:
    """Move index → ``(village, item)`` for every kept move that put something on a pole:
    each build's piece and each claim's headdress."""
    placed = {}
    for index, (player, move) in enumerate(game.history):
        if isinstance(move, Build):
            placed[index] = (move.village, move.piece)
        elif isinstance(move, Claim):
            placed[index] = (move.village, HEADDRESSES[player])
    return placed


def pole_moves(game, village: int) -> list[tuple[int, str]]:
    """``(move index, item)`` of the kept moves that put something on ``village``'s pole,
    bottom to top."""
    return [(index, item) for index, (on, item) in on_poles(game).items() if on == village]


def problems(game, tracker: TagTracker, watched: set[tuple[str, int]],
             ignored: set[tuple[str, int]]) -> list[Problem]:
    """What differs between the slots and the record: the missing tags first (village by
    village, bottom to top), then the strays (village by village)."""
    missing: list[Problem] = []
    strays: list[Problem] = []
    items = on_poles(game)
    for village in range(1, len(game.villages) + 1):
        on_slot = tracker.present(slot_reader(village))
        placed = tracker.placed_on(village)
        for index, uid in placed:
            if (uid, village) in watched and uid not in on_slot:
                missing.append(Missing(village, uid, items[index][1]))
        here = {uid for _, uid in placed}
        for uid in sorted(on_slot - here):
            kind = item_kind(tracker.item_of(uid))
            if kind is not None and (uid, village) not in ignored:
                strays.append(Stray(village, uid, kind, tracker.where(uid)))
    return missing + strays


def adoptable(game, tracker: TagTracker, village: int, uid: str, kind: str) -> int | None:
    """The kept move a tag of ``kind`` lying on ``village``'s slot stands for, when the
    record already has that piece on the pole without knowing its tag (built with the
    buttons, or a resumed game: records carry no tags); None when it stands for none.

    The lowest such move of that kind is taken. A tag the record has in a hand can only be
    a later build by that hand's player; a tag already on a pole is none of them.
    """
    found = tracker.placed_by(uid)
    if found is not None and found[1].kind == "pole":
        return None
    since, owner = (found[0], found[1].index) if found is not None else (-1, None)
    known = {index for index, _ in tracker.placed_on(village)}
    for index, move_kind in pole_moves(game, village):
        if index in known or move_kind != kind or index < since:
            continue
        if owner is None or game.history[index][0] == owner:
            return index
    return None
