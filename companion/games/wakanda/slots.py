"""Wakanda on the reader hub: does what lies on each village slot match the game?

With a reader under each village tile, the box compares the tags each slot's reader sees
with the pieces and headdresses the record puts on that village's pole, as a smart chess
board compares squares. A reader sees the tags within its reach, not always a whole pole,
so a tag counts as missing only once the hub has reported it on its slot while the record
had it there (it is *watched*): a top piece out of reach raises no false alarm.

The functions here are pure functions of the game, the tag tracker and the play flow's
``SlotBoard``: its two sets of ``(uid, village)``, ``watched`` (seen on its pole) and
``ignored`` (strays the players chose to leave where they are, until they are lifted), and
why a placement on a slot was refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import Refusal
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.items import Headdress, Piece
from companion.games.wakanda.moves import Build, Claim
from companion.games.wakanda.rules import HEADDRESSES
from companion.games.wakanda.words import in_text, refusal, t
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


def on_poles(game: Wakanda) -> dict[int, tuple[int, str]]:
    """Move index → ``(village, item)`` for every kept move that put something on a pole:
    each build's piece and each claim's headdress."""
    placed = {}
    for index, (player, move) in enumerate(game.history):
        if isinstance(move, Build):
            placed[index] = (move.village, move.piece)
        elif isinstance(move, Claim) and player is not None:  # a claim is always a seat's
            placed[index] = (move.village, HEADDRESSES[player])
    return placed


def pole_moves(game: Wakanda, village: int) -> list[tuple[int, str]]:
    """``(move index, item)`` of the kept moves that put something on ``village``'s pole,
    bottom to top."""
    return [(index, item) for index, (on, item) in on_poles(game).items() if on == village]


def problems(game: Wakanda, tracker: TagTracker, watched: set[tuple[str, int]],
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


def adoptable(game: Wakanda, tracker: TagTracker, village: int, uid: str, kind: str) -> int | None:
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


class SlotBoard:
    """What the play flow knows of the village slots beyond the tag tracker: the tags
    ``watched`` on their own pole, the strays ``ignored`` where they lie (OK), the
    ``reasons`` a placement on a slot was refused, and whether the hub is live (a box
    without a hub has nothing on its slots: nothing to judge)."""

    def __init__(self) -> None:
        self.watched: set[tuple[str, int]] = set()
        self.ignored: set[tuple[str, int]] = set()
        self.reasons: dict[tuple[str, int], Refusal] = {}
        self.hub_live = True

    def problems(self, game: Wakanda, tracker: TagTracker) -> list[Problem]:
        """What differs between the village slots and the record, first what to fix first;
        nothing while the hub is away (nobody can see the board then)."""
        if not self.hub_live:
            return []
        return problems(game, tracker, self.watched, self.ignored)

    def note(self, problem: Problem) -> str | Refusal:
        """What to do about ``problem``: "Put the teepee back on village 3", "Take the eagle
        off village 5: village 5 is not open yet — W4"."""
        village, piece = problem.village, in_text(problem.item)
        if isinstance(problem, Missing):
            return t("slot.put_back", piece=piece, n=village)
        reason = self.reasons.get((problem.uid, village))
        if reason is not None:
            return refusal("slot.take_off", {"item": problem.item, "n": village, "why": reason},
                           reason.rule)
        belongs = problem.belongs
        if belongs is not None and belongs.kind == "pole":
            return t("slot.belongs", piece=piece, n=village, m=belongs.index)
        return t("slot.take_off", piece=piece, n=village)

    def keep_on_poles(self, game: Wakanda, tracker: TagTracker) -> None:
        """Watch only tags the record still has on a pole (after an undo)."""
        self.watched &= {(uid, village) for village in range(1, len(game.villages) + 1)
                         for _, uid in tracker.placed_on(village)}

    def adopt_all(self, game: Wakanda, tracker: TagTracker) -> None:
        """Match the tags lying on the slots to the record's pieces (a resumed game: its
        record carries no tags); what matches nothing is a stray."""
        for village in range(1, len(game.villages) + 1):
            for uid in sorted(tracker.present(slot_reader(village))):
                self.adopt(game, tracker, uid, village)

    def adopt(self, game: Wakanda, tracker: TagTracker, uid: str, village: int) -> bool:
        """Watch ``uid`` on ``village`` if the record has it there, or has there a piece of
        its kind whose tag it does not know yet (``adoptable``); whether it did."""
        if tracker.where(uid) == Place("pole", village):
            self.watched.add((uid, village))
            return True
        kind = item_kind(tracker.item_of(uid))
        index = adoptable(game, tracker, village, uid, kind) if kind else None
        if index is None:
            return False
        tracker.place(index, uid, Place("pole", village))
        self.watched.add((uid, village))
        return True

    def lifted(self, uid: str, village: int) -> None:
        """``uid`` left ``village``'s slot: a stray gone is one problem less."""
        self.ignored.discard((uid, village))
        self.reasons.pop((uid, village), None)

    def carry_on(self, game: Wakanda, tracker: TagTracker) -> None:
        """Go on with the table as it is: missing tags are no longer expected on their
        slots, strays stay until lifted."""
        for problem in self.problems(game, tracker):
            key = (problem.uid, problem.village)
            if isinstance(problem, Missing):
                self.watched.discard(key)
            else:
                self.ignored.add(key)

    def reader(self, reader: str, village: int | None, connected: bool, hub: bool) -> None:
        """The ``hub`` itself, or the reader of ``village``'s slot, went away or came back.
        A slot's reader that went away forgets its tags: they are no longer expected there
        (nobody can tell whether they left) until it reports them again."""
        if hub:
            self.hub_live = connected
        if village is not None and not connected:
            self.watched = {key for key in self.watched if key[1] != village}
