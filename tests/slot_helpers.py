"""Helpers for the slot-mode tests: an enrolled set of Wakanda tags and a box to play on.

Every piece, headdress and tile has a UID of its own (``uid("teepee", 3)``: the third
teepee), so that tests can lay the same physical piece on the pad, then on a slot, as
players do.
"""

from __future__ import annotations

import random

from companion.events import Press, Tag, TagGone
from companion.games.wakanda.rules import HEADDRESSES, HEADDRESSES_EACH, PIECES, VILLAGES
from companion.table.registry import TagRegistry
from companion.table.session import Session

ROW = ("teepee", "eagle", "chief", "variety", "sun", "tomahawk")
#: Type codes in the UIDs: pieces 1-6, headdresses 7-8, village tiles 9.
_CODES = {**{kind: n for n, kind in enumerate(PIECES, 1)},
          **{kind: 7 + n for n, kind in enumerate(HEADDRESSES)}}


def uid(item: str, n: int = 1) -> str:
    """The UID of the ``n``-th tag of ``item`` (a piece kind, a headdress or ``village:X``):
    7 bytes, as an NTAG sticker has."""
    if item.startswith("village:"):
        return f"0409{VILLAGES.index(item[8:]) + 1:02d}00000000"
    return f"04{_CODES[item]:02d}{n:02d}00000000"


def enrolled() -> dict[str, str]:
    """UID → item name for every Wakanda tag (W1)."""
    tags = {uid(kind, n): kind for kind, count in PIECES.items() for n in range(1, count + 1)}
    tags |= {uid(h, n): h for h in HEADDRESSES for n in range(1, HEADDRESSES_EACH + 1)}
    tags |= {uid(f"village:{v}"): f"village:{v}" for v in VILLAGES}
    return tags


def new_box(tmp_path) -> Session:
    """A box at the start menu, every tag enrolled."""
    return Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json", enrolled()),
                   rng=random.Random(1))


def started(tmp_path) -> Session:
    """A new open game, tiles in ``ROW``, Player 1 to draw."""
    box = new_box(tmp_path)
    box.handle(Press("ok"))                                 # new Wakanda game
    box.handle(Press("ok"))                                 # open variant
    for village in ROW:
        scan(box, uid(f"village:{village}"))
    box.handle(Press("ok"))                                 # Player 1 starts
    assert box.screen == "board"
    return box


def scan(box, tag: str):
    """A tag laid on the pad and lifted again; the output of laying it."""
    out = box.handle(Tag(tag, "pad"))
    box.handle(TagGone(tag, "pad"))
    return out


def put(box, tag: str, village: int):
    """A tag laid on a village's slot; the output."""
    return box.handle(Tag(tag, f"slot{village}"))


def lift(box, tag: str, village: int):
    """A tag lifted off a village's slot; the output."""
    return box.handle(TagGone(tag, f"slot{village}"))
