"""Playing Wakanda at the table: draw, build, claim, turn up a tile, pass, undo.

Every physical action has a scan way and a buttons way (rules/wakanda.md, W4):

- draw: scan the drawn piece on the pad, or OK and pick its type;
- build: scan the piece then press the village's button, or press the village's button
  (and pick the piece when the hand holds several types); on the reader hub, put the
  piece on the village's slot;
- claim: scan your headdress then press the village's button, or hold the village's button;
- a face-down tile turned up (W10): scan it, or OK and pick it;
- the forced pass (R3): OK; undo: Back (or Undo), then OK to confirm.

An action the rules forbid changes nothing and shows one line with the rule. An accepted
action is written to the journal before the screen shows it.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import IllegalMove, Refusal
from companion.errors import UserError
from companion.events import Hold, Press
from companion.games.wakanda import Build, Claim, Draw, Pass, Reveal, event_line
from companion.games.wakanda.items import Headdress, Piece, Tile
from companion.games.wakanda.rules import HEADDRESSES, PIECES
from companion.games.wakanda.views import BoardView, render
from companion.signals import Signal
from companion.table.choice import Choice, step_of
from companion.table.flow import Reply, Scan, ToScore
from companion.table.play_flow import PlayFlow, Question
from companion.table.tag_tracker import Place
from companion.table.views import PickerView
from companion.ui.text import piece_name, t

VILLAGE_BUTTONS = {f"v{n}": n for n in range(1, 7)}


@dataclass(frozen=True)
class Pending:
    """A piece or headdress scanned for the next village press (``uid`` None when unknown)."""

    item: Piece | Headdress
    uid: str | None


def _headdress(item: str) -> str:
    """A headdress's name for players: ``Wings``."""
    return t(f"headdress.{item}")


def _lower(item: str) -> str:
    """A piece's, village's or headdress's name inside a sentence: ``sun``, ``томахавка``."""
    return (_headdress(item) if item in HEADDRESSES else piece_name(item)).lower()


def describe(game, player: int | None, move) -> str:
    """What a move did, in the past tense: ``Ana built sun on village 2``."""
    if isinstance(move, Reveal):
        return t("play.turned_up", n=game.open_count, village=_lower(move.village))
    name = game.name(player)
    if isinstance(move, Draw):
        return t("play.drew", name=name, piece=_lower(move.piece))
    if isinstance(move, Build):
        return t("play.built", name=name, piece=_lower(move.piece), n=move.village)
    if isinstance(move, Claim):
        return t("play.claimed", name=name, n=move.village)
    return t("play.passed", name=name)


def move_label(move) -> str:
    """A move as a menu line: ``Build sun on 2``, ``Claim 3``, ``Pass``."""
    if isinstance(move, Build):
        return t("move.build", piece=_lower(move.piece), n=move.village)
    if isinstance(move, Claim):
        return t("move.claim", n=move.village)
    if isinstance(move, Reveal):
        return piece_name(move.village)
    return t("move.pass")


class WakandaFlow(PlayFlow):
    """The game in progress: the engine, its journal and the tag tracker."""

    describe = staticmethod(describe)
    event_line = staticmethod(event_line)

    def __init__(self, game, journal, tracker):
        super().__init__(game, journal, tracker)
        self.pending: Pending | None = None
        self.choice: Choice | None = None

    # --- the picture ---------------------------------------------------------------------

    def view(self):
        """What the screen shows now."""
        question = self.question_view()
        if question is not None:
            return question
        if self.choice is not None:
            return PickerView(self.choice)
        return BoardView(pending=self.pending.item.name if self.pending else None,
                         message=self.note or self.prompt(), refused=self.refused)

    def prompt(self) -> str | Refusal | None:
        """The next step, when the board alone does not say it: the scanned piece or
        headdress waiting for its village, the tile to turn up (W10), the forced pass (R3)."""
        game = self.game
        if self.pending is not None:
            item = self.pending.item
            if isinstance(item, Headdress):
                return t("play.press_claim", headdress=_headdress(item.kind))
            return t("play.press_village", piece=piece_name(item.kind))
        if game.phase == "reveal":
            return t("play.turn_up", n=game.open_count)
        if game.phase == "action" and list(game.legal_moves()) == [Pass()]:
            return Refusal("no_move", rule="R3")
        return None

    def frame(self):
        """The picture of ``view()``."""
        return render(self.view(), self.game)

    # --- events --------------------------------------------------------------------------

    def handle(self, event) -> Reply:
        """Take one event: a ``Scan``, a ``Press`` or a ``Hold``."""
        self.clear()
        answered = self.answer(event)
        if answered is not None:
            return answered
        if self.choice is not None:
            if isinstance(event, Press) and step_of(event.button):
                self.choice = self.choice.moved(step_of(event.button))
                return Reply()
            choice, self.choice = self.choice, None
            if event == Press("ok"):
                return self.commit(choice.value)
            if event == Press("back"):
                return Reply()
        if isinstance(event, Scan):
            return self._scan(event)
        if isinstance(event, Press):
            return self._press(event.button)
        if isinstance(event, Hold):
            return self._hold(event.button)
        return Reply()

    def _scan(self, scan: Scan) -> Reply:
        item = scan.item
        where = self.tracker.where(scan.uid) if scan.uid else None
        if where is not None and where.kind == "pole" and scan.slot == where.index:
            return Reply()  # a piece seen again on its own pole: nothing happened
        # A new scan means the player moved on: what waited for a village press is dropped,
        # so a refused scan never leaves an old headdress to claim with the next press.
        self.pending = None
        if isinstance(item, Tile):
            return self._tile(item.village)
        if not isinstance(item, Piece | Headdress):
            return Reply()  # the session lets only this game's items through
        if where is not None and where.kind == "pole":
            return self.tell(t("play.on_pole", piece=_lower(item.kind), n=where.index), True)
        game = self.game
        if game.phase == "reveal":
            return self._refuse(Claim(game.open_count))
        if isinstance(item, Headdress):
            return self._headdress(scan, item)
        piece = item.kind
        if game.phase == "draw":
            if scan.slot is not None:
                return self._refuse(Build(piece, scan.slot))
            if where is not None:
                return self.tell(t("play.drawn_already", piece=piece_name(piece)), True)
            return self.commit(Draw(piece), scan.uid, Place("hand", game.to_move))
        if scan.slot is not None:
            return self.commit(Build(piece, scan.slot), scan.uid, Place("pole", scan.slot))
        if not game.hands[game.to_move][piece]:
            return self.refuse(Refusal("not_in_hand", {"piece": piece, "name": game.name(game.to_move)}, "W4"))
        self.pending = Pending(item, scan.uid)
        return Reply(Signal.ACCEPTED)

    def _headdress(self, scan: Scan, item: Headdress) -> Reply:
        game = self.game
        owner = item.player
        if owner != game.to_move:
            return self.refuse(Refusal("not_yours", {"headdress": item.kind, "owner": game.name(owner),
                                                     "mover": game.name(game.to_move)}, "W4"))
        if game.phase == "draw":
            return self._refuse(Claim(scan.slot or 1))
        if not game.headdresses[owner]:
            return self.refuse(Refusal("no_headdress", {"name": game.name(owner)}, "W6"))
        if scan.slot is not None:
            return self.commit(Claim(scan.slot), scan.uid, Place("pole", scan.slot))
        self.pending = Pending(item, scan.uid)
        return Reply(Signal.ACCEPTED)

    def _tile(self, name: str) -> Reply:
        game = self.game
        if game.phase == "reveal":
            return self.commit(Reveal(name))
        if name in game.villages:
            return self.tell(t("play.tile_is", village=_lower(name),
                               n=game.villages.index(name) + 1))
        if None in game.villages:
            # Face-down tiles are unknown until turned up: it may be one of them.
            return self.tell(Refusal("face_down", rule="W10"))
        return self.tell(t("play.tile_absent", village=_lower(name)))

    def _press(self, button: str) -> Reply:
        game = self.game
        if button in VILLAGE_BUTTONS:
            return self._village(VILLAGE_BUTTONS[button])
        if button == "ok":
            return self._ok()
        if button == "back" and self.pending is not None:
            self.pending = None
            return Reply()
        if button in ("back", "undo"):
            self.pending = None
            if not game.history:
                return self.tell(t("undo.nothing"), True)
            self.confirming = Question.UNDO
            return Reply()
        return Reply()

    def _hold(self, button: str) -> Reply:
        if button in VILLAGE_BUTTONS:
            self.pending = None
            return self.commit(Claim(VILLAGE_BUTTONS[button]))
        if button == "back":
            self.confirming = Question.LEAVE
        return Reply()

    def _village(self, village: int) -> Reply:
        game = self.game
        if game.phase != "action":
            return self._refuse(Claim(village))
        if self.pending is not None:
            pending = self.pending
            item = pending.item
            move = Claim(village) if isinstance(item, Headdress) else Build(item.kind, village)
            return self.commit(move, pending.uid, Place("pole", village))
        builds = [m for m in game.legal_moves() if isinstance(m, Build) and m.village == village]
        if len(builds) == 1:
            return self.commit(builds[0])
        if builds:
            last = game.history[-1][1] if game.history else None
            self.choice = Choice(t("play.on_village", n=village),
                                 tuple(m.piece for m in builds), tuple(builds))
            if isinstance(last, Draw):
                self.choice = self.choice.select(Build(last.piece, village))
            return Reply()
        hand = game.hands[game.to_move]
        held = [piece for piece in PIECES if hand[piece]]
        if held:
            return self._refuse(Build(held[0], village))
        if list(game.legal_moves()) == [Pass()]:
            return self.refuse(Refusal("no_move", rule="R3"))
        return self.tell(t("play.hand_empty"), True)

    def _ok(self) -> Reply:
        game = self.game
        if self.pending is not None:
            return self.tell(t("play.press_now"))
        moves = list(game.legal_moves())
        if moves == [Pass()]:
            return self.commit(Pass())
        if game.phase == "draw":
            title = t("play.drew_title", name=game.name(game.to_move))
            labels = tuple(m.piece for m in moves)  # piece names: the picker shows their icons
        elif game.phase == "reveal":
            title = t("play.village_is", n=game.open_count)
            labels = tuple(move_label(m) for m in moves)
        else:
            title = t("play.move_title", name=game.name(game.to_move))
            labels = tuple(move_label(m) for m in moves)
        self.choice = Choice(title, labels, tuple(moves))
        return Reply()

    # --- changing the game ---------------------------------------------------------------

    def _refuse(self, move) -> Reply:
        """Refuse ``move`` with the engine's reason; a move that turns out legal is played."""
        try:
            self.game.check(move)
        except IllegalMove as exc:
            return self.refuse(exc.refusal)
        return self.commit(move)

    def commit(self, move, uid: str | None = None, where: Place | None = None) -> Reply:
        """Play ``move``: the engine checks it, the journal keeps it, then the screen shows it."""
        game = self.game
        before = game.to_move
        refused = self.keep(move)
        if refused is not None:
            return refused
        if uid is not None and where is not None:
            self.tracker.place(len(game.history) - 1, uid, where)
        self.pending = None
        if isinstance(move, Pass):
            self.tell(t("play.passed_r3", name=game.name(before)))
        if game.phase == "over":
            return Reply(Signal.ACCEPTED, ToScore())
        return Reply(self.signal_after(before))

    def undo(self) -> Reply:
        """Take back the last move (a draw goes back to the bag), journal first."""
        try:
            note = self.take_back()
        except UserError as exc:
            return self.tell(str(exc), True)
        self.pending = None
        self.choice = None
        self.tell(note)
        return Reply(Signal.ACCEPTED)
