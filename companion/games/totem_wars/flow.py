"""Playing Totem Wars at the table: totems, placements, round results, undo.

- Totems (T2): each player in turn, from the dealer's left, scans the card laid as totem;
  the screen shows who is done, never which card, and once all are down reminds the dealer
  to deal one more card each and says who starts (T3).
- Placements (T4–T6, T14): the player to move scans the cards they lay down, then presses
  OK. A card that cannot be in a hand (a totem, a card on the table, a taken card) is
  refused at once; a count the rules forbid is refused at OK, with the rule. Back takes the
  last scanned card off again. Without a reader, OK (or ▲▼) opens a picker: tribe, animal.
- War declarations (R2): when the placement that completes a round starts a war where the
  habitat of a two-habitat totem can change who takes the cards, the box asks its owner,
  in seat order from the round's starter: the habitats with the war points each gives, the
  best for the owner lit first, so OK declares it; ▲▼ choose another. A scan waits until
  the war is declared.
- Round result: pages with each player's points and best arrangement (R1), the war with
  its habitat groupings and the totem comparison (T10, T11, R3), who takes the cards or
  that they go under the deck or leave the game (T9, T12, R4), then the refill and who
  starts next (T13). OK turns the pages; a scan goes straight on with the next round (no
  scan is lost).
- Undo: Back (or Undo) with nothing scanned, then OK, takes back the last placement or
  declaration (or the totems), as often as wanted. Holding Back offers to leave the game
  (it is kept).
- The box's seats (``box_seat.py``): the band says what to do for the box — deal its card
  onto a spot and scan it, turn up its totem, lay its spots —, a card it does not want is
  refused with what it wants, and undo goes back over its decisions.
- Hint (``hand_hint.py``, through ``hint_pages.py``): at a placement or the totem choice the
  player shows their hand privately and gets the suggested cards and why; at a war's
  declaration the habitats. The hand is forgotten when the hint closes.

An accepted action is written to the journal before the screen shows it. The screen after
an action follows from the game alone, so a resumed game shows what it showed before.
"""

from __future__ import annotations

from PIL import Image

from companion.engine import Cited, IllegalMove
from companion.errors import UserError
from companion.events import Hold, Press
from companion.games.totem_wars import (
    Card,
    ChooseTotems,
    Deal,
    DeclarationDue,
    Declare,
    Move,
    Play,
    RoundResult,
    TotemWars,
    event_line,
)
from companion.games.totem_wars.box_seat import BoxSeats
from companion.games.totem_wars.card_picker import CardPicker, card_problem
from companion.games.totem_wars.hand_hint import HandHint, HandView
from companion.games.totem_wars.items import CardTag
from companion.games.totem_wars.round_screens import round_page, round_page_count
from companion.games.totem_wars.screens import placement
from companion.games.totem_wars.views import (
    DealView,
    DeclareView,
    PlacementView,
    RoundView,
    StatusView,
    TotemsView,
    View,
    after_action,
    render,
)
from companion.games.totem_wars.words import animal_in_text, card_label, cards, refusal, t
from companion.signals import Signal
from companion.table.choice import step_of
from companion.table.flow import FlowEvent, Reply, Scan, ToScore
from companion.table.hint_pages import HintView, Tip
from companion.table.journal import Journal
from companion.table.play_flow import PlayFlow, Question
from companion.table.tag_tracker import TagTracker
from companion.table.views import MenuView, SharedView
from companion.ui.canvas import ELLIPSIS, note_lines
from companion.ui.screens import NOTE_LINES, fits_line, prompt_line, title_with_name


def totem_order(game: TotemWars) -> list[int]:
    """The seats in the order they lay their totems: clockwise from the dealer's left (T2)."""
    n = len(game.players)
    return [(game.dealer + 1 + i) % n for i in range(n)]


def describe(game: TotemWars, player: int | None, move: Move) -> str:
    """What a move did, for the undo question: ``Ben placed 2 cards``, ``Ana declared
    land``; for the totems, the last one laid (the others stay down)."""
    if isinstance(move, ChooseTotems):
        return t("tw.totem_of", name=game.players[totem_order(game)[-1]])
    assert player is not None  # a deal, a declaration or a placement is a seat's
    if isinstance(move, Deal):  # never the card: the box's hand is its own (T2)
        return t("tw.dealt", name=game.players[player])
    if isinstance(move, Declare):
        return t("tw.declared", name=game.players[player], habitat=t(f"habitat.{move.habitat}"))
    return t("tw.placed", name=game.players[player], cards=cards(len(move.cards)))


class TotemWarsFlow(PlayFlow):
    """A small game in progress: the engine, its journal and the tag tracker."""

    of_game = "totem-wars"  # its why-pages are Totem Wars' rules

    game: TotemWars
    describe = staticmethod(describe)
    event_line = staticmethod(event_line)

    def __init__(self, game: TotemWars, journal: Journal, tracker: TagTracker) -> None:
        super().__init__(game, journal, tracker)
        self.totems: list[Card] = []     # totems laid so far, in totem_order (secret, T2)
        self.pending: list[Card] = []    # cards scanned for the placement under way
        self.picker: CardPicker | None = None
        self.selected = 0            # the habitat lit while a war asks for one (R2)
        self.showing = after_action(game)  # "deal", "round" or None
        self.status = False  # the status page is shown (DOWN on the board)
        self.page = 0
        self._pages: dict[int, Image.Image] = {}
        self._pages_of: RoundResult | None = None  # the round result the cached pages show
        self.hand = HandHint()  # the hint's coach: the hand shown, never kept (hand_hint.py)
        self._rounds = 0  # rounds played before the move being taken back
        self.box = BoxSeats(game.box) if game.box else None  # the seats the box plays

    # --- the picture ---------------------------------------------------------------------

    @property
    def page_count(self) -> int:
        """How many pages the last round's result has."""
        return round_page_count(self.game, self.game.rounds[-1])

    def _page_frame(self) -> Image.Image:
        """The picture of the result page shown, drawn once per round and page."""
        result = self.game.last_round
        assert result is not None  # the pages of the round just played
        if self._pages_of is not result:  # another round, or the same one played again
            self._pages, self._pages_of = {}, result
        if self.page not in self._pages:
            self._pages[self.page] = round_page(self.game, result, self.page)
        return self._pages[self.page]

    def view(self) -> HandView | HintView | View | SharedView:
        """What the screen shows now."""
        game = self.game
        hand = self.hand.view(self)
        if hand is not None:
            return hand
        question = self.question_view()
        if question is not None:
            return question
        if self.picker is not None:
            return MenuView(self.picker.choice, footer=self.note or t("picker.footer"))
        if self.showing == "deal":
            return DealView()
        if self.showing == "round":
            return RoundView(self.page, self.page_count)
        if self.status:
            return StatusView()
        then = self.prompt(short=True) if self.prompt_under_note() else None
        if game.phase == "totems":
            return TotemsView(len(self.totems), self.note or self.prompt(), self.refused, then)
        if game.declaration_due is not None:
            return DeclareView(self.selected, self.note, self.refused)
        short = self.done is not None
        return PlacementView(tuple(self.pending), self.note or self.prompt(short), self.refused, self.done,
                             then)

    def prompt(self, short: bool = False) -> str | None:
        """What the player to move does now, by name: lay the totem (T2), place how many cards
        (T4–T6, T14); None while cards are being scanned (the board counts them).
        ``short``: the one-line form, under the confirmation of the last action."""
        game = self.game
        if self.box is not None:  # what to do for the box: deal, its totem, its spots
            said = self.box.prompt(game, len(self.totems), totem_order(game), self.pending, short)
            if said is not None:
                return said
        if game.phase == "totems":
            player = totem_order(game)[len(self.totems)]
            return prompt_line(t(f"tw.prompt.totem{'.short' if short else ''}"), game.players[player], short=short)
        if game.phase != "play" or self.pending or game.to_move is None:
            return None
        key, fields = placement(game)
        template = t(f"tw.prompt.{key}{'.short' if short else ''}", None, name="{name}", **fields)
        return prompt_line(template, game.players[game.to_move], short=short)

    def frame(self) -> Image.Image:
        """The picture of ``view()``."""
        view = self.view()
        if isinstance(view, HandView | HintView):
            return self.hand.frame(view)
        return self._page_frame() if isinstance(view, RoundView) else render(view, self.game)

    def coach(self) -> tuple[Tip, ...]:
        """The hint's tips (``hand_hint.py``): the hand screen first at a placement or the
        totem choice, then what the hand shown suggests; the habitats at a declaration. None
        in a game played with hints off: the hint button then gives the rule only."""
        return self.hand.coach(self, self._shown) if self.game.hints else ()

    # --- events --------------------------------------------------------------------------

    def handle(self, event: FlowEvent) -> Reply:
        """Take one event: a ``Scan`` of a card, a ``Press`` or a ``Hold``."""
        self.clear()
        reply = self.hand.take(self, event)  # the hand being shown for a hint
        if reply is not None:
            self.note, self.refused, self.done = self.hand.board  # the board stays as it was
        else:
            reply = self._event(event)
        self.hand.settle(self)  # the hint closed: its hand is forgotten
        return reply

    def _event(self, event: FlowEvent) -> Reply:
        answered = self.answer(event)
        if answered is not None:
            return answered
        if self.status:
            self.status = False  # any event closes the page; a scan is then taken as usual
            if isinstance(event, Press):
                return Reply()
        if self.picker is not None:
            if isinstance(event, Press):
                return self._picking(self.picker, event.button)
            self.picker = None
        if self.showing is not None:
            if isinstance(event, Press):
                return self._paging(event.button)
            if isinstance(event, Scan):
                self.showing = None  # the next placement has begun
        if self.box is not None:  # the box wants a card dealt, its totem or its spots laid
            said = self.box.meaning(self, event, totem_order(self.game))
            if said is not None:
                return said
        due = self.game.declaration_due
        if due is not None and isinstance(event, (Scan, Press)):
            return self._declaring(due, event)
        if isinstance(event, Scan):
            return self._scan(event)
        if isinstance(event, Press):
            return self._press(event.button)
        if event == Hold("back"):
            self.confirming = Question.LEAVE
        return Reply()

    def _picking(self, picker: CardPicker, button: str) -> Reply:
        if step_of(button):
            self.picker = picker.moved(step_of(button))
        elif button == "ok":
            self.picker, card = picker.ok()
            if card is not None:
                return self._card(card)
        elif button in ("back", "undo"):
            self.picker = picker.back()
        return Reply()

    def _declaring(self, due: DeclarationDue, event: Scan | Press) -> Reply:
        """The war asks ``due.player`` for a habitat (R2): ▲▼ choose, OK declares, Back
        offers to take the last move back; a card waits until the war is declared."""
        if isinstance(event, Scan):
            return self.refuse(refusal("declare_first", {"name": self.game.players[due.player]}, "R2"))
        button = event.button
        if step_of(button):
            self.selected = (self.selected + step_of(button)) % len(due.habitats)
        elif button == "ok":
            return self.commit(Declare(due.habitats[self.selected]))
        elif button in ("back", "undo"):
            self.confirming = Question.UNDO
        return Reply()

    def _paging(self, button: str) -> Reply:
        if button in ("back", "undo"):
            self.confirming = Question.UNDO
            return Reply()
        if self.showing == "round" and button == "up":
            self.page = max(self.page - 1, 0)
            return Reply()
        if button not in ("ok", "down"):
            return Reply()
        if self.showing == "round" and self.page + 1 < self.page_count:
            self.page += 1
            return Reply()
        self.showing = None
        if self.game.phase == "over":
            return Reply(then=ToScore())
        return Reply(Signal.YOUR_TURN)

    def _scan(self, scan: Scan) -> Reply:
        if not isinstance(scan.item, CardTag):
            return Reply()  # the session lets only this game's items through
        try:
            card = self.game.deck.card(scan.item.name)
        except KeyError:
            return self.refuse(refusal("no_card", {"name": scan.item.name}, "T1a"))
        return self._card(card)

    def _card(self, card: Card) -> Reply:
        game = self.game
        if game.phase == "over":
            return self.tell(t("tw.over"), True)
        if game.phase == "totems" and card in self.totems:
            # Everyone sees the screen: a totem is never named before all are down (T2).
            return self.refuse(refusal("totem_down", rule="T2"))
        if self.box is not None and self.box.totem_seat(game, len(self.totems), totem_order(game)) is None:
            mine = self.box.refused_person(game, card)  # a card of the box's strip
            if mine is not None:
                return self.refuse(mine)
        problem = card_problem(game, card, self.pending)
        if problem is not None:
            return self.refuse(problem.refusal)
        if game.phase == "totems":
            self.totems.append(card)
            if len(self.totems) < len(game.players):
                return Reply(Signal.ACCEPTED)
            by_seat = dict(zip(totem_order(game), self.totems))
            return self.commit(ChooseTotems(tuple(by_seat[p] for p in range(len(game.players)))))
        if len(self.pending) + 1 > max(game.legal_counts()):
            try:  # the engine names the limit: the hand (T5), an answer (T6), the last player (T14)
                game.check(Play(tuple(self.pending) + (card,)))
            except IllegalMove as exc:
                return self.refuse(exc.refusal)
        self.pending.append(card)
        return Reply(Signal.ACCEPTED)

    def _press(self, button: str) -> Reply:
        game = self.game
        if button in ("back", "undo"):
            if self.pending:
                card = self.pending.pop()
                return self.tell(t("tw.taken_off", card=card_label(card)))
            if not self.totems and not game.history:
                return self.tell(t("undo.nothing"), True)
            self.confirming = Question.UNDO
            return Reply()
        if game.phase == "over":
            return Reply(then=ToScore()) if button == "ok" else Reply()
        if button == "ok" and self.pending:
            return self.commit(Play(tuple(self.pending)))
        if button == "down" and not self.pending:
            self.status = True  # points, hands, taken cards and the deck, one page
        elif button in ("ok", "up", "down"):
            self._open_picker()
        return Reply()

    def _open_picker(self) -> None:
        game = self.game
        if game.phase == "totems":
            player = totem_order(game)[len(self.totems)]
            # The totems laid stay in the list: leaving them out would give them away (T2).
            offered, title = game.unseen, title_with_name(t("tw.totem_of", name="{name}"), game.players[player],
                                                          game.players)
        else:
            assert game.to_move is not None  # in play, someone places (T4–T6)
            offered = game.unseen - set(self.pending)
            title = title_with_name(t("tw.places", name="{name}"), game.players[game.to_move], game.players)
        self.picker = CardPicker.open(title, offered)

    def confirmation(self, player: int | None, move: Move) -> str:
        """``Ben placed 2 cards``; without the name when that is too long for the band."""
        full = describe(self.game, player, move)
        if fits_line(full) or not isinstance(move, Play):
            return full
        return t("tw.placed_short", cards=cards(len(move.cards)))

    def undo_hint(self, player: int | None, move: Move) -> str | None:
        """What to undo on the table for a placement taken back: its cards, by their animals
        (the last placement, by its count, when they do not fit the band), back in the
        player's hand (T4–T6)."""
        if not isinstance(move, Play) or player is None or len(self.game.rounds) < self._rounds:
            return None  # a play that ended its round: the round's pages said where every card went
        name = self.game.players[player]
        animals = ", ".join(animal_in_text(card.animal) for card in move.cards)
        said = t("tw.undo.to_hand", name=name, list=animals)
        if ELLIPSIS not in "".join(note_lines(said, NOTE_LINES)):
            return said
        return t("tw.undo.last_to_hand", name=name, cards=cards(len(move.cards)))

    def take_back(self) -> str:
        """Take back the last move (``PlayFlow.take_back``), the rounds counted before it."""
        self._rounds = len(self.game.rounds)
        return super().take_back()

    def undo_text(self) -> str:
        """What an undo would take back: the last totem laid, or the last move."""
        game = self.game
        if game.phase == "totems" and self.totems:
            player = totem_order(game)[len(self.totems) - 1]
            return t("tw.totem_of", name=game.players[player])
        if self.box is not None:
            return self.box.undo_text(game, describe)
        return super().undo_text()

    # --- changing the game ---------------------------------------------------------------

    def commit(self, move: Move) -> Reply:
        """Play ``move``: the engine checks it, the journal keeps it, then the screen shows it."""
        game = self.game
        before, level, rounds = game.to_move, game.level, len(game.rounds)
        first = before is not None and not game.table[before]
        refused = self.keep(move)
        if refused is not None:
            if isinstance(move, ChooseTotems) and game.phase == "totems":
                self.totems.pop()  # the last totem is not down until it is saved
            return refused
        if self.box is not None:
            self.box.declare(self)  # a war the box fights: its habitat at once (R2)
        self.pending, self.totems, self.selected = [], [], 0
        if isinstance(move, ChooseTotems):
            self.showing = "deal"
            return Reply(Signal.ACCEPTED)
        if len(game.rounds) > rounds:
            self.showing, self.page = "round", 0
        elif isinstance(move, Play) and first and 0 < level < len(move.cards):
            assert before is not None  # a first placement is its player's
            raised = t("tw.raises", name=game.players[before], level=game.level)
            self.done = Cited(raised if fits_line(raised) else t("tw.raised", level=game.level), "T5")
        return Reply(self.signal_after(before))

    def undo(self) -> Reply:
        """Take back the last totem laid, or the last move (journal first)."""
        game = self.game
        self.picker, self.showing, self.pending, self.selected = None, None, [], 0
        if game.phase == "totems" and self.totems:
            text = self.undo_text()
            self.totems.pop()
            return self.tell(t("undo.done", what=text))
        move = game.history[-1][1] if game.history else None
        try:
            if self.box is not None:  # over the box's decisions, to a person's (box_seat.py)
                move = self.box.take_back(self)
            else:
                self.take_back()
        except UserError as exc:
            return self.tell(str(exc), True)
        if isinstance(move, ChooseTotems):
            # Back to the last totem: the others stay down, as they are on the table.
            self.totems = [move.cards[p] for p in totem_order(game)][:-1]
        return Reply(Signal.ACCEPTED)
