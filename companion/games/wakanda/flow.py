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

A seat the box plays (``box_player.py``): on its turn the band says what to do for it, its
move is entered as any move and anything else is refused; undo over its move goes back to
the move of a person before it.

Slot mode (the reader hub, one reader under each village tile): a piece put on village k's
slot is its build there, a headdress the claim; the pad still reads the draws. The box
compares each slot's tags with the record (``slots.py``) and, when they differ — a piece
lifted off its pole, a placement the rules refuse, a piece on the wrong pole — says what
to put right and holds further scans until the slot matches again. Taking the last piece
off its pole asks whether to take the move back. OK on such a note carries on as the
table is; every button works as without a hub.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PIL import Image

from companion.engine import Cited, IllegalMove, Refusal
from companion.errors import UserError
from companion.events import Hold, Press, ReaderState
from companion.games.wakanda import Build, Claim, Draw, Pass, Reveal, Wakanda, event_line
from companion.games.wakanda.box_player import BoxPlayer
from companion.games.wakanda.hints import Coach
from companion.games.wakanda.items import Headdress, Piece, Tile
from companion.games.wakanda.moves import Move
from companion.games.wakanda.rules import HEADDRESSES, OPEN_AT_START, PIECES, ROW
from companion.games.wakanda.slots import Problem, SlotBoard, item_kind
from companion.games.wakanda.views import BoardView, StatusView, render
from companion.games.wakanda.words import in_text, piece_name, refusal, t
from companion.signals import Signal
from companion.table.choice import Choice, step_of
from companion.table.flow import FlowEvent, Lift, Reply, Scan, ToScore, slot_of
from companion.table.hint_pages import HintView, Tip
from companion.table.journal import Journal
from companion.table.play_flow import PlayFlow, Question
from companion.table.tag_tracker import Place, TagTracker
from companion.table.views import ConfirmView, PickerView, WhyView
from companion.ui.screens import fits_line, prompt_line, title_with_name

VILLAGE_BUTTONS = {f"v{n}": n for n in range(1, 7)}
#: The reader name of the reader hub as a whole, in ``ReaderState`` events.
HUB = "hub"


def action_kind(game: Wakanda) -> str:
    """What the player to move can do in the action phase, for the prompt: ``act`` (build or
    claim), ``build`` alone (no headdress left, or none can claim), ``claim`` alone, or
    ``pass`` (R3) — never a move the rules refuse (W5, W6)."""
    moves = list(game.legal_moves())
    builds = any(isinstance(move, Build) for move in moves)
    claims = any(isinstance(move, Claim) for move in moves)
    if builds and claims:
        return "act"
    return "build" if builds else "claim" if claims else "pass"


@dataclass(frozen=True)
class Pending:
    """A piece or headdress scanned for the next village press (``uid`` None when unknown)."""

    item: Piece | Headdress
    uid: str | None


def _headdress(item: str) -> str:
    """A headdress's name for players: ``Wings``."""
    return t(f"headdress.{item}")


def describe(game: Wakanda, player: int | None, move: Move) -> str:
    """What a move did, in the past tense: ``Ana built sun on village 2``."""
    if isinstance(move, Reveal):
        return t("play.turned_up", n=game.open_count, village=in_text(move.village))
    assert player is not None  # every move but a tile turned up is a seat's
    name = game.name(player)
    if isinstance(move, Draw):
        return t("play.drew", name=name, piece=in_text(move.piece))
    if isinstance(move, Build):
        return t("play.built", name=name, piece=in_text(move.piece), n=move.village)
    if isinstance(move, Claim):
        return t("play.claimed", name=name, n=move.village)
    return Cited(t("play.passed", name=name), "R3")


def move_label(move: Move) -> str:
    """A move as a menu line: ``Build sun on 2``, ``Claim 3``, ``Pass``."""
    if isinstance(move, Build):
        return t("move.build", piece=in_text(move.piece), n=move.village)
    if isinstance(move, Claim):
        return t("move.claim", n=move.village)
    if isinstance(move, Reveal):
        return piece_name(move.village)
    return t("move.pass")


class WakandaFlow(PlayFlow):
    """The game in progress: the engine, its journal and the tag tracker."""

    of_game = "wakanda"  # its why-pages are Wakanda's rules

    describe = staticmethod(describe)
    event_line = staticmethod(event_line)
    follows_slots = True

    def __init__(self, game: Wakanda, journal: Journal, tracker: TagTracker) -> None:
        super().__init__(game, journal, tracker)
        self.pending: Pending | None = None
        self.choice: Choice | None = None
        self.status = False  # the status page is shown (DOWN on the board)
        self.slots = SlotBoard()  # slot mode: what is watched on the slots (slots.py)
        self.fixing = False  # the slots differ from the record: the note says what to fix
        # The seats the box plays itself (box_player.py), if any.
        self.box_player = BoxPlayer(game.box) if game.box else None
        self._coach = Coach()  # the hint button's moves, searched once a position (hints.py)
        self.slots.adopt_all(game, tracker)
        self._in_order = not self.board_problems()

    # --- the picture ---------------------------------------------------------------------

    def view(self) -> BoardView | StatusView | PickerView | HintView | ConfirmView | WhyView:
        """What the screen shows now."""
        question = self.question_view()
        if question is not None:
            return question
        if self.choice is not None:
            return PickerView(self.choice)
        if self.status:
            return StatusView()
        # Under a refusal or an undo's note, what to do now stays on the bottom line; not
        # while the board is being put right (the note says what to do then).
        then = self.prompt(short=True) if self.prompt_under_note() and not self.fixing else None
        return BoardView(pending=self.pending.item.name if self.pending else None,
                         message=self.note or self.prompt(short=self.done is not None),
                         refused=self.refused, done=self.done, lit=self._box_village(),
                         then=str(then) if then else None)

    def _box_village(self) -> int | None:
        """On the box's turn to build or claim, the village of its move: lit alone."""
        if self.box_player is None or not self.box_player.deciding(self.game):
            return None
        move = self.box_player.move(self.game)
        return move.village if isinstance(move, Build | Claim) else None

    def coach(self) -> tuple[Tip, ...]:
        """The hint button's tips for the player to move (``hints.py``): the best moves and
        why, or what to do when a draw or a tile is due; none with hints off."""
        return self._coach.tips(self.game)

    def prompt(self, short: bool = False) -> str | Refusal | None:
        """What the player to move does next, in plain words: draw (W4), build or claim,
        place the piece or headdress scanned, turn up a tile (W10), the forced pass (R3).
        ``short``: the one-line form, under the confirmation of the last action."""
        game = self.game
        if game.phase == "over":
            return None
        if self.box_player is not None:  # the box's turn: what to do for it
            said = self.box_player.prompt(game, self.pending is not None, short)
            if said is not None:
                return said
        if self.pending is not None:
            if short:
                return t("play.press.short")
            item = self.pending.item
            if isinstance(item, Headdress):
                return t("play.press_claim", headdress=in_text(item.kind))
            return t("play.press_village", piece=in_text(item.kind))
        if game.phase == "reveal":
            return t("play.turn_up.short" if short else "play.turn_up", n=game.open_count)
        name = game.name(game.to_move)
        form = ".short" if short else ""
        key = f"prompt.{'draw' if game.phase == 'draw' else action_kind(game)}{form}"
        # A long name is shortened, never the prompt: one line under the last action's
        # confirmation, else the band's two lines.
        return prompt_line(t(key, name="{name}"), name, game.players, short=short)

    def frame(self) -> Image.Image:
        """The picture of ``view()``."""
        return render(self.view(), self.game)

    # --- events --------------------------------------------------------------------------

    def handle(self, event: FlowEvent) -> Reply:
        """Take one event: a ``Scan``, a ``Lift``, a ``Press``, a ``Hold`` or a
        ``ReaderState``. While the village slots differ from the record, the first thing
        to put right is the note; the board falling out of order, or coming back to it,
        gives the refused or the accepted signal."""
        if isinstance(event, ReaderState):
            self.slots.reader(event.reader, slot_of(event.reader), event.connected, event.reader == HUB)
            self._in_order = not self.board_problems()
            return Reply()
        reply = self._event(event)
        if self.confirming is not None:
            return reply  # the question first (take back the piece just lifted?), the board after
        found = self.board_problems()
        self.fixing = bool(found)
        if found and self.note is None:
            self.note, self.refused = self.slots.note(found[0]), True
        in_order = not found
        if reply.signal is None and in_order != self._in_order:
            reply = replace(reply, signal=Signal.ACCEPTED if in_order else Signal.REFUSED)
        self._in_order = in_order
        return reply

    def _event(self, event: FlowEvent) -> Reply:
        self.clear()
        answered = self.answer(event)
        if answered is not None:
            return answered
        if self.status:
            self.status = False  # any event closes the page; a scan is then taken as usual
            if isinstance(event, Press) and event.button in ("down", "up", "ok", "back"):
                return Reply()
        if self.choice is not None:
            if isinstance(event, Press) and step_of(event.button):
                self.choice = self.choice.moved(step_of(event.button))
                return Reply()
            choice, self.choice = self.choice, None
            if event == Press("ok"):
                return self.commit(choice.value)
            if event == Press("back"):
                return Reply()
        if self.box_player is not None and not self.board_problems():
            # The box deciding: its move's village button plays it, anything else is refused.
            said = self.box_player.meaning(self.game, event, self.pending is not None)
            if said is not None:
                return self.refuse(said) if isinstance(said, Refusal) else self.commit(said)
        if isinstance(event, Lift):
            return self._lift(event)
        if isinstance(event, Scan):
            return self._scan(event)
        if isinstance(event, Press):
            return self._press(event.button)
        if isinstance(event, Hold):
            return self._hold(event.button)
        return Reply()

    def _scan(self, scan: Scan) -> Reply:
        uid, village = scan.uid, scan.slot
        if uid is not None and village is not None and item_kind(scan.item) is not None:
            return self._on_slot(scan, uid, village)
        found = self.board_problems()
        if found:
            return self.tell(t("slot.fix_first", n=found[0].village), True)
        return self._play_scan(scan)

    def _play_scan(self, scan: Scan) -> Reply:
        """What a scan means now: a draw, a piece or headdress to place, a build or a
        claim where it was laid, a tile turned up."""
        item = scan.item
        where = self.tracker.where(scan.uid) if scan.uid else None
        # A new scan means the player moved on: what waited for a village press is dropped,
        # so a refused scan never leaves an old headdress to claim with the next press.
        self.pending = None
        if isinstance(item, Tile):
            return self._tile(item.village)
        if not isinstance(item, Piece | Headdress):
            return Reply()  # the session lets only this game's items through
        if where is not None and where.kind == "pole":
            return self.tell(t("play.on_pole", piece=in_text(item.kind), n=where.index), True)
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
            return self.refuse(refusal("not_in_hand", {"piece": piece, "name": game.name(game.to_move)}, "W4"))
        self.pending = Pending(item, scan.uid)
        return Reply(Signal.ACCEPTED)

    def _headdress(self, scan: Scan, item: Headdress) -> Reply:
        game = self.game
        owner = item.player
        if owner != game.to_move:
            return self.refuse(refusal("not_yours", {"headdress": item.kind, "owner": game.name(owner),
                                                     "mover": game.name(game.to_move)}, "W4"))
        if game.phase == "draw":
            return self._refuse(Claim(scan.slot or 1))
        if not game.headdresses[owner]:
            return self.refuse(refusal("no_headdress", {"name": game.name(owner)}, "W6"))
        if scan.slot is not None:
            return self.commit(Claim(scan.slot), scan.uid, Place("pole", scan.slot))
        self.pending = Pending(item, scan.uid)
        return Reply(Signal.ACCEPTED)

    def _tile(self, name: str) -> Reply:
        game = self.game
        if game.phase == "reveal":
            return self.commit(Reveal(name))
        if name in game.villages:
            return self.tell(t("play.tile_is", village=in_text(name),
                               n=game.villages.index(name) + 1))
        if None in game.villages:
            # Face-down tiles are unknown until turned up: it may be one of them.
            return self.tell(refusal("face_down", rule="W10"))
        return self.tell(t("play.tile_absent", village=in_text(name)))

    def _press(self, button: str) -> Reply:
        game = self.game
        if button in VILLAGE_BUTTONS:
            return self._village(VILLAGE_BUTTONS[button])
        if button == "ok" and self.board_problems():
            self.slots.carry_on(self.game, self.tracker)
            return Reply(Signal.ACCEPTED)
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
        if button == "down" and self.pending is None:
            self.status = True  # headdresses, hands, bag and the score so far, one page
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
            return self.refuse(refusal("no_move", rule="R3"))
        return self.tell(t("play.hand_empty"), True)

    def _ok(self) -> Reply:
        game = self.game
        if self.pending is not None:
            return self.tell(t("play.press_now"))
        moves = list(game.legal_moves())
        if moves == [Pass()]:
            return self.commit(Pass())
        if game.phase == "draw":
            title = title_with_name(t("play.drew_title", name="{name}"), game.name(game.to_move), game.players)
            labels = tuple(m.piece for m in moves)  # piece names: the picker shows their icons
        elif game.phase == "reveal":
            title = t("play.village_is", n=game.open_count)
            labels = tuple(move_label(m) for m in moves)
        else:
            title = title_with_name(t("play.move_title", name="{name}"), game.name(game.to_move), game.players)
            labels = tuple(move_label(m) for m in moves)
        self.choice = Choice(title, labels, tuple(moves))
        return Reply()

    # --- changing the game ---------------------------------------------------------------

    def _refuse(self, move: Move) -> Reply:
        """Refuse ``move`` with the engine's reason; a move that turns out legal is played."""
        try:
            self.game.check(move)
        except IllegalMove as exc:
            return self.refuse(exc.refusal)
        return self.commit(move)

    def commit(self, move: Move, uid: str | None = None, where: Place | None = None) -> Reply:
        """Play ``move``: the engine checks it, the journal keeps it, then the screen shows it."""
        game = self.game
        before = game.to_move
        wrong = self.box_player.check(game, move) if self.box_player is not None else None
        if wrong is not None:
            return self.refuse(wrong)  # the box is deciding: only its move
        refused = self.keep(move)
        if refused is not None:
            return refused
        if uid is not None and where is not None:
            self.tracker.place(len(game.history) - 1, uid, where)
        self.pending = None
        if game.phase == "over":
            return Reply(Signal.ACCEPTED, ToScore())
        return Reply(self.signal_after(before))

    def undo(self) -> Reply:
        """Take back the last move (a draw goes back to the bag), journal first; a move of
        the box, back to the move of a person before it (``box_player.py``). A piece taken
        back that still lies on its slot is then a stray there, to be taken off."""
        try:
            if self.box_player is not None:
                self.box_player.take_back(self)
            else:
                self.take_back()
        except UserError as exc:
            return self.tell(str(exc), True)
        self.pending = None
        self.choice = None
        self.slots.keep_on_poles(self.game, self.tracker)
        return Reply(Signal.ACCEPTED)

    def undo_text(self) -> str:
        """What an undo would take back (over the box's move: the person's move before it)."""
        if self.box_player is not None:
            return self.box_player.undo_text(self.game, describe)
        return super().undo_text()

    @staticmethod
    def _opened(game: Wakanda, taken_back: int = 0) -> bool:
        """Whether the last claim played (``taken_back``: one more, just taken back) opened a
        tile: the row had one still turned (W4 B)."""
        claims = sum(isinstance(move, Claim) for _, move in game.history) + taken_back
        return claims <= ROW - OPEN_AT_START

    def confirmation(self, player: int | None, move: Move) -> str:
        """``Ana built sun on village 2``; without the name when that is too long for the
        band's line (the village is what matters)."""
        game = self.game
        if isinstance(move, Claim) and game.variant == "open" and self._opened(game):
            # The claim opened the next tile (W4 B): the table turns it straight, said first.
            return t("done.straighten", n=game.open_count)
        full = describe(game, player, move)
        if fits_line(full):
            return full
        if isinstance(move, Reveal):
            return t("done.turned_up", n=self.game.open_count, village=piece_name(move.village))
        if isinstance(move, Draw):
            return t("done.drew", piece=in_text(move.piece))
        if isinstance(move, Build):
            return t("done.built", piece=piece_name(move.piece), n=move.village)
        if isinstance(move, Claim):
            return t("done.claimed", n=move.village)
        return Cited(t("done.passed"), "R3")

    def undo_hint(self, player: int | None, move: Move) -> str | None:
        """What to undo on the table: the piece back to the bag or the hand, the headdress
        back, the tile face down again."""
        if isinstance(move, Draw):
            return t("undo.to_bag", piece=in_text(move.piece))
        if isinstance(move, Build):
            return t("undo.to_hand", piece=in_text(move.piece), n=move.village)
        if isinstance(move, Claim):
            game = self.game  # the claim is already taken back: the row as before it
            if game.variant == "open" and self._opened(game, taken_back=1):
                # It had opened the next tile (W4 B), turned straight: turned back as it lay.
                return t("undo.headdress_off.turn_back", n=move.village, m=game.open_count + 1)
            return t("undo.headdress_off", n=move.village)
        if isinstance(move, Reveal):
            return t("undo.face_down", n=self.game.villages.index(None) + 1)
        return None

    # --- slot mode (the reader hub) --------------------------------------------------------

    def board_problems(self) -> list[Problem]:
        """What differs between the village slots and the record, first what to fix first
        (``SlotBoard.problems``)."""
        return self.slots.problems(self.game, self.tracker)

    def _on_slot(self, scan: Scan, uid: str, village: int) -> Reply:
        """A piece or headdress ``uid`` arrived on ``village``'s slot: nothing to do when
        the record has it on that pole (back where it was: its problem is gone); a stray,
        held, when the board is out of order or it belongs on another pole; else its build
        or claim. One the rules refuse leaves it a stray, its note saying why, until taken
        off."""
        key = (uid, village)
        if self.slots.adopt(self.game, self.tracker, uid, village):
            return Reply()
        if key in self.slots.ignored or key in self.slots.reasons:
            return Reply()  # a stray seen again (its reader came back): still a stray
        where = self.tracker.where(uid)
        others = [p for p in self.board_problems() if (p.uid, p.village) != key]
        if others or (where is not None and where.kind == "pole"):
            # Not played: the players are putting the board right, or moving a built piece;
            # it lies there as a stray, to be taken off.
            return Reply(Signal.REFUSED)
        reply = self._play_scan(scan)
        if isinstance(self.note, Refusal):
            self.slots.reasons[key] = self.note
            self.note = None
        elif self.tracker.where(uid) == Place("pole", village):
            self.slots.watched.add(key)
        return reply

    def _lift(self, lift: Lift) -> Reply:
        """A piece or headdress left a village slot: a stray gone is one problem less; the
        piece of the last move asks to take that move back; any other piece on its pole
        is missing (the board says so). While the hub is away, nothing is judged."""
        village = lift.slot
        kind = item_kind(lift.item)
        if village is None or kind is None:
            return Reply()
        if lift.uid is not None:
            self.slots.lifted(lift.uid, village)
        if self.slots.hub_live and self._last_move_on(village, lift.uid, kind):
            self.pending = None
            self.confirming = Question.UNDO
        return Reply()

    def _last_move_on(self, village: int, uid: str | None, kind: str) -> bool:
        """Whether the tag lifted off ``village`` is the piece or headdress the last kept
        move put there (for a tag without a UID, one of the same kind)."""
        history = self.game.history
        if not history:
            return False
        player, move = history[-1]
        if isinstance(move, Build) and move.village == village:
            last = move.piece
        elif isinstance(move, Claim) and move.village == village:
            last = HEADDRESSES[player]
        else:
            return False
        if uid is None:
            return kind == last
        return (len(history) - 1, uid) in self.tracker.placed_on(village)
