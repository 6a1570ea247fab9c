"""The box as a Wakanda player: one seat (or both) played by the search, at a level chosen at
set-up (``setup_flow.py``) and kept in the record's header (``"box": {"1": "strong"}``).

The players do the box's handwork. When the box is to draw (W4), it asks for a piece to be
drawn for it and scanned: that scan is its draw. When it is to act, it decides once, from
its own information only (``search.suggest`` for its seat: its hand, the public poles,
claims and tiles, the other hand's size — never the other hand's contents, though the box
saw those scans), says the move ("I build sun on village 3: place it") and waits for it to
be entered as any build or claim is: the piece (or headdress) scanned then the village's
button, the village's button alone, a hold for a claim, or the piece laid on its slot of
the reader hub. Anything else is refused with a line that names what it wants. A tile to
turn up (W10) and the forced pass (R3, OK) are entered as for people.

The decision's seed comes from the game's public facts (the row as laid out, who started,
the names and how many moves were made), so the same position gives the same move — after
a resume, or when the same turn comes back after an undo.

Undo: a draw or a tile turned up for the box is the players' own entry (a wrong scan), and
is taken back alone. The box's decisions are its own, so taking one back would only bring
the same move again: undo then goes back over the box's turn to the last decision of a
person, who can play it again (or to the start, when only the box has decided so far).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Mapping

from companion.engine import Cited, Refusal
from companion.errors import UserError
from companion.events import Press
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.items import Headdress, Piece
from companion.games.wakanda.moves import Build, Claim, Draw, Move, Pass, Reveal
from companion.games.wakanda.rules import HEADDRESSES
from companion.games.wakanda.search import suggest
from companion.games.wakanda.words import in_text, piece_name, refusal, t
from companion.table.box_undo import undo_count
from companion.table.flow import FlowEvent, Scan
from companion.table.play_flow import PlayFlow

VILLAGE_BUTTONS = {f"v{n}": n for n in range(1, 7)}


def decision_seed(game: Wakanda) -> int:
    """The seed of the box's decision now: from public facts only, the same for the same
    position (never from a hand's contents, so it gives nothing away either)."""
    facts = [list(game.setup_villages), game.first, list(game.players), len(game.history)]
    return zlib.crc32(json.dumps(facts).encode("utf-8"))


def _decision(move: Move) -> bool:
    """Whether ``move`` is a player's decision (W4 A/B, R3), not chance (a draw, a tile)."""
    return isinstance(move, Build | Claim | Pass)


#: The box's last decision, by (seed, history, level): what it does follows from those
#: alone, so the note of a resumed game and the flow's prompt share one search.
_DECIDED: dict[tuple[int, tuple[tuple[int | None, Move], ...], str], Move] = {}


class BoxPlayer:
    """The seats the box plays in one game (``levels``: seat → search level)."""

    def __init__(self, levels: Mapping[int, str]):
        self.levels = dict(levels)

    def deciding(self, game: Wakanda) -> bool:
        """Whether the box is to build, claim or pass now."""
        return game.phase == "action" and game.to_move in self.levels

    def move(self, game: Wakanda) -> Move | None:
        """The box's move when it is deciding (else None), searched once per position."""
        if not self.deciding(game):
            return None
        seat = game.to_move
        assert seat is not None
        seed = decision_seed(game)
        key = (seed, game.history, self.levels[seat])
        if key not in _DECIDED:
            found = suggest(game, seat, level=self.levels[seat], seed=seed).move
            assert isinstance(found, Build | Claim | Pass), found
            _DECIDED.clear()
            _DECIDED[key] = found
        return _DECIDED[key]

    # --- what it says ------------------------------------------------------------------

    def prompt(self, game: Wakanda, pending: bool, short: bool) -> str | None:
        """What the players do for the box now: draw for it (W4), place its piece or
        headdress, press the village once the right one is scanned. None when it is not the
        box's turn, or a tile to turn up (W10) or the forced pass (R3) is said as for people."""
        seat = game.to_move
        if seat not in self.levels:
            return None
        form = ".short" if short else ""
        if game.phase == "draw":
            return t(f"box.draw{form}")
        move = self.move(game)
        if isinstance(move, Build | Claim) and pending:
            return t("box.press", n=move.village)
        if isinstance(move, Build):
            return t(f"box.build{form}", piece=in_text(move.piece), n=move.village)
        if isinstance(move, Claim):
            return t(f"box.claim{form}", n=move.village, headdress=in_text(HEADDRESSES[seat]))
        return None

    def refusal(self, game: Wakanda) -> Refusal:
        """The line that refuses anything but the box's move, naming that move."""
        move = self.move(game)
        if isinstance(move, Build):
            return refusal("box_build", {"piece": move.piece, "n": move.village})
        if isinstance(move, Claim):
            return refusal("box_claim", {"n": move.village, "headdress": HEADDRESSES[game.to_move or 0]})
        return refusal("no_move", rule="R3")

    # --- what it takes -----------------------------------------------------------------

    def check(self, game: Wakanda, move: Move) -> Refusal | None:
        """None when ``move`` may be played now as far as the box is concerned (it is not
        deciding, or it is its move); else the refusal naming what it wants."""
        if not self.deciding(game) or move == self.move(game):
            return None
        return self.refusal(game)

    def meaning(self, game: Wakanda, event: FlowEvent, pending: bool) -> Move | Refusal | None:
        """What an event means while the box is deciding, before the flow's usual reading:
        a move to play (its village's button pressed for its build: no piece to pick), a
        refusal (the wrong piece or headdress scanned, another village, OK while it does
        not pass), or None: read as usual (the right scan, a hold, undo, the status page…),
        the move itself then checked by ``check``."""
        if not self.deciding(game):
            return None
        wanted = self.move(game)
        if isinstance(event, Scan) and event.slot is None:
            item = event.item
            if isinstance(item, Piece):
                right = isinstance(wanted, Build) and item.kind == wanted.piece
            elif isinstance(item, Headdress):
                right = isinstance(wanted, Claim) and item.player == game.to_move
            else:
                return None  # a tile: said as usual
            return None if right else self.refusal(game)
        if not isinstance(event, Press) or pending:
            return None  # with the right piece scanned, its village's button plays it (checked)
        if event.button in VILLAGE_BUTTONS:
            village = VILLAGE_BUTTONS[event.button]
            if isinstance(wanted, Build) and wanted.village == village:
                return wanted
            return self.refusal(game)
        if event.button == "ok" and not isinstance(wanted, Pass):
            return self.refusal(game)
        return None

    # --- undo ----------------------------------------------------------------------------

    def undo_count(self, game: Wakanda) -> int:
        """How many moves an undo takes back: one, unless the last is a decision of the
        box; then back to the last decision of a person, that one included (or to the
        start)."""
        return undo_count(game.history, lambda player, move: player in self.levels and _decision(move),
                          lambda player, move: player is not None and player not in self.levels and _decision(move))

    def undo_text(self, game: Wakanda, describe: Callable[[Wakanda, int | None, Move], str]) -> str:
        """What an undo would take back, for the question: the last move (``describe``d);
        over the box's turn, the person's move it goes back to ("Skin on village 2, and my
        reply"), or the start."""
        count = self.undo_count(game)
        player, move = game.history[-count]
        if count == 1:
            return describe(game, player, move)
        if player is None or player in self.levels or not _decision(move):
            return t("box.undo_start")
        if isinstance(move, Build):
            what = t("done.built", piece=piece_name(move.piece), n=move.village)
        elif isinstance(move, Claim):
            what = t("done.claimed", n=move.village)
        else:
            what = Cited(t("done.passed"), "R3")
        return t("box.undo", what=what)

    def take_back(self, flow: PlayFlow) -> None:
        """Undo as ``undo_count`` says through ``flow`` (journal first, one move at a time);
        over several moves, the note then says in one line what goes back where on the
        table: the box's piece off its village to the bag, the person's to the hand…
        ``UserError`` from the journal stops it where it is (each move taken back is kept,
        and the error says how many)."""
        game = flow.game
        count = self.undo_count(game)
        if count <= 1:
            flow.take_back()
            return
        popped: list[tuple[int | None, Move, int]] = []
        for _ in range(count):
            player, move = game.history[-1]
            try:
                flow.take_back()
            except UserError:
                if not popped:
                    raise
                raise UserError(t("save.partly_taken_back", done=len(popped), n=count)) from None
            # A tile turned up goes face down where the first face-down tile now is.
            popped.append((player, move, game.villages.index(None) + 1 if None in game.villages else 0))
        said = ", ".join(_table_parts(popped))
        flow.note = said[:1].upper() + said[1:]


def _table_parts(popped: list[tuple[int | None, Move, int]]) -> list[str]:
    """What to put back on the table for moves taken back, latest first: a piece off its
    village (to its player's hand), or to the bag when its draw was taken back too; a
    headdress off its village; a drawn piece to the bag; then the tiles face down again
    (last: the board shows them hatched, should the line run out)."""
    parts: list[tuple[str, str | None, int | None]] = []  # catalogue key, piece or headdress, village
    tiles: list[tuple[str, str | None, int | None]] = []
    builds: dict[tuple[int | None, str], list[int]] = {}
    for player, move, face_down in popped:
        if isinstance(move, Build):
            builds.setdefault((player, move.piece), []).append(len(parts))
            parts.append(("undo.part.hand", move.piece, move.village))
        elif isinstance(move, Draw):
            built = builds.get((player, move.piece))
            if built:
                at = built.pop()
                parts[at] = ("undo.part.pole_bag", *parts[at][1:])
            else:
                parts.append(("undo.part.bag", move.piece, None))
        elif isinstance(move, Claim) and player is not None:
            parts.append(("undo.part.headdress", HEADDRESSES[player], move.village))
        elif isinstance(move, Reveal):
            tiles.append(("undo.part.face_down", None, face_down))
    return [t(key, piece=in_text(item) if item else "", headdress=in_text(item) if item else "",
              n=village) for key, item, village in parts + tiles]
