"""Writes tests/data/wakanda_against_box.txt: a whole game of Wakanda against the box, as the
input events a player makes at the table (tests/test_play_against_box.py plays it).

The person plays the greedy bot, draws come out of a seeded bag, and the box's moves are the
ones the box asks for, read off the session as it plays — so the script stays true to what
the box decides. It also tries a wrong piece and a wrong village on the box's turn (both
refused) and takes back one of the box's moves (with the person's move before it).
Regenerate it when the search or the set-up changes what the box asks:

    .venv/bin/python tests/box_script.py
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from companion.events import Hold, Press, Tag, TagGone
from companion.games.wakanda import Build, Claim, Pass
from companion.games.wakanda.bots import greedy_bot
from companion.games.wakanda.chance import sample_draw
from companion.games.wakanda.setup import random_setup
from companion.signals import Signal
from companion.table.registry import TagRegistry
from companion.table.session import Session

SCRIPT = Path(__file__).parent / "data" / "wakanda_against_box.txt"
SEED = 4
#: The box's turns (counted from 1) that get a wrong scan and a wrong press first, and the
#: one taken back after it is played.
WRONG_TURN, UNDO_TURN = 2, 3

HEADER = """\
# A whole game of Wakanda against the box (issue 12, "Play against the box"): Player 1
# wears the wings, the box the crests at its strongest level. Player 1 draws for the box
# and places its pieces and headdresses as it asks (scan, then the village's button); a
# wrong piece and a wrong village on the box's turn are refused; one of the box's moves is
# taken back (with Player 1's move before it), and Player 1 plays again.
# Written by tests/box_script.py (regenerate it when the box comes to decide otherwise);
# played by tests/test_play_against_box.py, whole and resumed halfway.
"""


class Writer:
    """Feeds events to a session and writes them down, one script line each."""

    #: The column each line's comment starts at.
    COMMENTS = 24

    def __init__(self, session: Session):
        self.session = session
        self.lines: list[str] = []

    def send(self, line: str, event, comment: str = "", refused: bool = False) -> None:
        out = self.session.handle(event)
        if (out.signal is Signal.REFUSED) != refused:
            raise AssertionError(f"{line}: {'accepted' if refused else 'refused'}: {self.session.message}")
        self.check(line)
        self.lines.append(f"{line:<{self.COMMENTS}}# {comment}" if comment else line)

    def check(self, line: str) -> None:
        """What else must hold once the event of ``line`` is taken (here, nothing)."""

    def scan(self, item: str, comment: str = "", refused: bool = False) -> None:
        self.send(f"tag {item}", Tag(item), comment, refused)
        self.send(f"gone {item}", TagGone(item))


def write(seed: int = SEED) -> str:
    """The script of the game of ``seed``."""
    rng = random.Random(seed)
    row = random_setup(rng)
    with tempfile.TemporaryDirectory() as folder:
        session = Session(Path(folder) / "data", TagRegistry(Path(folder) / "tags.json", {}),
                          rng=random.Random(1))
        w = Writer(session)
        w.send("press ok", Press("ok"), "New: Wakanda")
        w.send("press down", Press("down"))
        w.send("press down", Press("down"), "Open, vs the box")
        w.send("press ok", Press("ok"))
        w.send("press ok", Press("ok"), "the box at its strongest (the default)")
        for village in row:
            w.scan(f"village:{village}")
        w.send("press ok", Press("ok"), "Player 1 starts")
        _play(w, rng)
    return HEADER + "\n".join(w.lines) + "\n"


def _play(w: Writer, rng: random.Random) -> None:
    session = w.session
    game = session.game
    box_turns = 0
    undone = False
    while game.phase != "over":
        seat = game.to_move
        name = "the box" if seat in game.box else "Player 1"
        if game.phase == "draw":
            move = sample_draw(game, rng)
            w.scan(move.piece, f"{name} draws {move.piece}" if seat not in game.box
                   else f"drawn for the box: {move.piece}")
            continue
        if seat in game.box:
            box_turns += 1
            move = session.play.box_player.move(game)
            if box_turns == WRONG_TURN:
                wrong = next(p for p in ("eagle", "chief", "tomahawk", "skin", "teepee", "sun")
                             if not isinstance(move, Build) or p != move.piece)
                w.scan(wrong, "refused: not the box's move", refused=True)
                other = next(n for n in range(1, 7) if n != getattr(move, "village", 0))
                w.send(f"press v{other}", Press(f"v{other}"), "refused: not the box's village", True)
            _enter(w, move, "the box", box=True)
            if box_turns == UNDO_TURN and not undone:
                undone = True
                w.send("press back", Press("back"), "take back the box's move…")
                w.send("press ok", Press("ok"), "…and Player 1's before it")
            continue
        _enter(w, greedy_bot(game, rng), "Player 1", box=False)


def _enter(w: Writer, move, name: str, box: bool) -> None:
    """A build, claim or pass as a player enters it at the table."""
    if isinstance(move, Pass):
        w.send("press ok", Press("ok"), f"{name} passes (R3)")
    elif isinstance(move, Build):
        w.scan(move.piece, f"{name} builds {move.piece} on {move.village}")
        w.send(f"press v{move.village}", Press(f"v{move.village}"))
    elif isinstance(move, Claim) and box:
        w.scan("crests", f"the box claims village {move.village}")
        w.send(f"press v{move.village}", Press(f"v{move.village}"))
    else:
        w.send(f"hold v{move.village}", Hold(f"v{move.village}"), f"{name} claims village {move.village}")


if __name__ == "__main__":
    SCRIPT.write_text(write(int(sys.argv[1]) if len(sys.argv) > 1 else SEED), encoding="utf-8")
    print(f"wrote {SCRIPT}")
