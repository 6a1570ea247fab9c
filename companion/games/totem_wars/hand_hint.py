"""The Totem Wars coach behind the hint button: the player shows the box their hand, the
box suggests what to do with it, and forgets it.

The box never sees a hand (T2, T5), so the coach works from what the player shows it:

- **A placement** (T4–T6, T14) or **the totem choice** (T2): HINT (``hint_pages.py``)
  opens on one tip, the hand screen — "show me your hand": the player scans each card of
  their hand on the pad (▲▼ pick a card without a reader), OK when all are scanned. A card
  that cannot be in a hand is refused at once with its rule: a totem, a card on the table,
  a taken card, one out of the game (T2, T4, T9, R4); so is a card scanned twice and one
  card more than the hand holds. Cards already scanned for the placement under way are in
  the hand already. BACK cancels; HINT goes on to the rule instead.
- Then the tips: the search's placements (``search.py``), best first, each with the
  search's own why — the expected end points (T15) that order them, the points it scores
  now (T8, R1), its chance to take the round in words, what a raise costs (T5) and the
  chance of a war (T10); for the totem, how many of the hand's cards share its tribe.
  HINT (or ▼) shows the next best, then the rule.
- **A war declaration** (R2) needs no hand: the tips are the habitats, best first, with the
  war points each gives.

The hand is never written to the journal, and it is forgotten — with the tips that name
its cards — as soon as the hint closes, whatever closes it (OK, BACK, a scan, the next
placement): the hand screen says so.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Protocol

from PIL import Image

from companion.engine import Refusal
from companion.events import Press
from companion.games.totem_wars.box_seat import public_game
from companion.games.totem_wars.card_picker import CardPicker, card_problem
from companion.games.totem_wars.deck import Card
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.hint_screens import TipPicture, by_tribe, hand_screen, tip_screen
from companion.games.totem_wars.items import CardTag
from companion.games.totem_wars.moves import Declare, Play
from companion.games.totem_wars.rounds import HAND_SIZE
from companion.games.totem_wars.search import DEFAULT_LEVEL, TotemChoice, suggest
from companion.games.totem_wars.words import card_label, refusal, t
from companion.games.totem_wars.words import cards as cards_words
from companion.search import Suggestion
from companion.signals import Signal
from companion.table.choice import step_of
from companion.table.flow import Flow, FlowEvent, Note, Reply, Scan
from companion.table.hint_pages import HintPages, HintView, Tip
from companion.table.views import MenuView
from companion.table.why_flow import WhyPages

#: How many suggestions the tips offer: the best and the next two.
MOVES = 3


@dataclass(frozen=True)
class HandView:
    """The hand screen: ``name`` shows ``size`` cards, ``count`` scanned so far, ``last`` the
    card scanned last (for the player to check), ``message`` a note (a refusal when
    ``refused``)."""

    name: str
    count: int
    size: int
    last: Card | None = None
    message: Note | None = None
    refused: bool = False
    kind = "hand"


class HandFlow(Protocol):
    """What the coach reads and sets of the play flow it helps (``flow.py``): the game, the
    page over the board, the totems laid and the cards scanned so far, and the help."""

    game: TotemWars
    showing: str | None
    status: bool
    totems: list[Card]
    pending: list[Card]
    hint: HintPages
    why: WhyPages

    def coach(self) -> tuple[Tip, ...]: ...


def hand_owner(flow: HandFlow) -> int | None:
    """Whose hand a hint would ask for: the player to lay a totem (T2) or to place (T4–T6);
    None when no hand is due — a war's declaration (R2), the game over, a page over the
    board (the deal reminder, a round's result, the status page), a card due to the box's
    spots, or the turn of a seat the box plays (its hand is its own, box_seat.py)."""
    game = flow.game
    if flow.showing is not None or flow.status or game.deal_due is not None:
        return None
    seat: int | None = None
    if game.phase == "totems":
        order = [(game.dealer + 1 + i) % len(game.players) for i in range(len(game.players))]
        seat = order[len(flow.totems)]
    elif game.phase == "play":
        seat = game.to_move
    return None if seat in game.box else seat


class HandHint:
    """The coach of one Totem Wars play flow: the hand being shown and the tips made from
    it, both held only while the hint shows them."""

    def __init__(self) -> None:
        self.invitation: Tip | None = None  # the hand screen's tip, while it may be shown
        self.seat: int | None = None
        self.cards: list[Card] = []
        self.tips: tuple[Tip, ...] = ()
        self.why: dict[Tip, str] = {}       # each tip's reason without its move
        self.picker: CardPicker | None = None
        self.note: Note | None = None
        self.refused = False
        self._spent = False  # the help showed tips naming the hand's cards
        #: The board's note, refusal mark and confirmation when the hint opened: the board
        #: comes back as it was, though a scan clears the note before the flow sees it.
        self.board: tuple[Note | None, bool, str | None] = (None, False, None)

    # --- what the hint button gives (``PlayFlow.coach``) ---------------------------------

    def coach(self, flow: HandFlow, board: tuple[Note | None, bool, str | None]) -> tuple[Tip, ...]:
        """The tips for now: the suggestions made from the hand just shown; for a war's
        declaration (R2) the habitats; else, when a hand is due, the hand screen (``board``:
        the board's note, refusal mark and confirmation, to give back as they were)."""
        if self.tips:
            return self.tips
        game = flow.game
        if game.phase == "declare":
            due = game.declaration_due
            assert due is not None  # the declare phase waits for a declaration (R2)
            return self._make_tips(flow, suggest(public_game(game), due.player))
        seat = hand_owner(flow)
        if seat is None:
            return ()
        self._forget()
        self.seat = seat
        self.board = board
        self.cards = list(flow.pending) if game.phase == "play" else []
        self.invitation = Tip(None, t("tw.hand.ask", name=game.players[seat]))
        return (self.invitation,)

    def asking(self, flow: HandFlow) -> bool:
        """Whether the hand screen is on: the hint shows its tip."""
        view = flow.hint.view
        return view is not None and self.invitation is not None and view.tip is self.invitation

    def size(self, flow: HandFlow) -> int:
        """How many cards the hand shown holds: 5 at the totems (T2), else what the rules
        leave in it (T5, T13)."""
        assert self.seat is not None, "a hand is being shown"
        return HAND_SIZE if flow.game.phase == "totems" else flow.game.hand_sizes[self.seat]

    # --- the hand screen's events -------------------------------------------------------

    def take(self, flow: HandFlow, event: FlowEvent) -> Reply | None:
        """Take ``event`` while the hand screen is on (None otherwise, or when the event is
        not the hand screen's: HINT goes on to the rule, any other closes the hint)."""
        if not self.asking(flow):
            return None
        self.note, self.refused = None, False
        if isinstance(event, Scan):
            return self._card_of(flow, event) if isinstance(event.item, CardTag) else None
        if not isinstance(event, Press):
            return None
        button = event.button
        if self.picker is not None:
            return self._picking(flow, self.picker, button)
        if step_of(button):
            assert self.seat is not None  # a hand is being shown
            offered = flow.game.unseen - set(self.cards)
            self.picker = CardPicker.open(t("tw.hand.title", name=flow.game.players[self.seat]), offered)
            return Reply()
        if button == "ok":
            return self._done(flow)
        if button in ("back", "undo"):
            flow.hint.close()
            return Reply()
        return None

    def _picking(self, flow: HandFlow, picker: CardPicker, button: str) -> Reply | None:
        if step_of(button):
            self.picker = picker.moved(step_of(button))
        elif button == "ok":
            self.picker, card = picker.ok()
            if card is not None:
                return self._add(flow, card)
        elif button in ("back", "undo"):
            self.picker = picker.back()
        else:
            self.picker = None
            return None
        return Reply()

    def _card_of(self, flow: HandFlow, scan: Scan) -> Reply:
        try:
            card = flow.game.deck.card(scan.item.name)
        except KeyError:
            return self._refuse(refusal("no_card", {"name": scan.item.name}, "T1a"))
        return self._add(flow, card)

    def _add(self, flow: HandFlow, card: Card) -> Reply:
        """One more card of the hand, or why it cannot be one."""
        if flow.game.phase == "totems" and card in flow.totems:
            return self._refuse(refusal("totem_down", rule="T2"))  # never named before all are down
        problem = card_problem(flow.game, card)
        if problem is not None:
            return self._refuse(problem.refusal)
        if card in self.cards:
            return self._refuse(refusal("hand.twice", {"card": card}))
        size = self.size(flow)
        assert self.seat is not None  # a hand is being shown
        if len(self.cards) == size:
            return self._refuse(refusal("hand.full", {"name": flow.game.players[self.seat], "n": size}))
        self.cards.append(card)
        return Reply(Signal.ACCEPTED)

    def _refuse(self, refusal: Refusal) -> Reply:
        self.note, self.refused = refusal, True
        return Reply(Signal.REFUSED)

    def _done(self, flow: HandFlow) -> Reply:
        """OK: with the whole hand, the suggestions, shown at once as the hint's tips."""
        size = self.size(flow)
        if len(self.cards) < size:
            return self._refuse(refusal("hand.short", {"n": size - len(self.cards), "size": size}))
        game = flow.game
        seat = self.seat
        assert seat is not None
        # Without the box's deals: the play-outs deal its seats from the unseen cards too.
        suggestion = suggest(public_game(game), seat, level=DEFAULT_LEVEL, hand=[card.name for card in self.cards])
        self._make_tips(flow, suggestion)
        self.invitation = None
        flow.hint.close()
        assert isinstance(flow, Flow)  # the play flow itself: its help opens over it
        flow.hint.take(flow, Press("hint"), None)  # opens again, on the tips (coach gives them)
        return Reply(Signal.ACCEPTED)

    # --- the tips -----------------------------------------------------------------------

    def _make_tips(self, flow: HandFlow, suggestion: Suggestion) -> tuple[Tip, ...]:
        """The suggestion and its next best as tips, each with the search's reason (kept in
        ``why`` without the move: the screen shows the move its own way)."""
        ranked = [(suggestion.move, suggestion.reason),
                  *((alternative.move, alternative.reason) for alternative in suggestion.alternatives)]
        # Cards already scanned for this placement are on the table: a tip that keeps one
        # in the hand would ask to take it back, so such tips go when any other is left.
        placed = set(flow.pending)
        keeping = [(move, reason) for move, reason in ranked
                   if not isinstance(move, Play) or placed <= set(move.cards)]
        ranked = keeping or ranked
        tips = []
        for move, reason in ranked[:MOVES]:
            said = _move_words(move)
            why = _after(reason, said)
            tip = Tip(move, t("hint.because", move=said, why=why))
            self.why[tip] = why
            tips.append(tip)
        self.tips = tuple(tips)
        self._spent = True
        return self.tips

    # --- forgetting -----------------------------------------------------------------------

    def settle(self, flow: HandFlow) -> None:
        """After each event: once the hint is closed, the hand and the tips are forgotten,
        with the help that showed them (``HintPages`` keeps the tips it showed until it
        opens again)."""
        if flow.hint.shown:
            return
        self._forget()
        if self._spent:
            flow.hint = HintPages(flow.why, flow.coach)
            self._spent = False

    def _forget(self) -> None:
        self.invitation, self.seat, self.cards, self.tips, self.why = None, None, [], (), {}
        self.picker, self.note, self.refused = None, None, False

    # --- what the screen shows ------------------------------------------------------------

    def view(self, flow: HandFlow) -> HandView | MenuView | None:
        """The hand screen (or its card picker) while it is on; else None."""
        if not self.asking(flow):
            return None
        if self.picker is not None:
            return MenuView(self.picker.choice, footer=self.note or t("picker.footer"))
        assert self.seat is not None
        return HandView(flow.game.players[self.seat], len(self.cards), self.size(flow),
                        self.cards[-1] if self.cards else None, self.note, self.refused)

    def picture(self, view: HintView) -> TipPicture:
        """A tip as its screen shows it: a placement's cards by tribe — for four cards or
        more, the cards kept ("place 4, keep 1") —, the totem, or the habitat (R2); the
        reason without its move."""
        move = view.tip.move
        why = self.why.get(view.tip, view.tip.words)
        if isinstance(move, Play):
            placed = list(move.cards)
            kept = [card for card in self.cards if card not in placed]
            if len(placed) <= 3:
                return TipPicture(t("tw.tip.place", cards=cards_words(len(placed))), by_tribe(placed),
                                  why, view.footer)
            if not kept:
                return TipPicture(t("tw.tip.all", n=len(placed)), (), why, view.footer)
            return TipPicture(t("tw.tip.keep", n=len(placed), kept=len(kept)), by_tribe(kept),
                              why, view.footer)
        if isinstance(move, TotemChoice):
            return TipPicture(t("tw.tip.totem"), by_tribe([move.card]), why, view.footer)
        assert isinstance(move, Declare), move
        return TipPicture(t("tw.tip.declare", habitat=t(f"habitat.{move.habitat}")), (), why, view.footer)

    def frame(self, view: HandView | HintView) -> Image.Image:
        """The picture of the hand screen or of a tip."""
        if isinstance(view, HandView):
            return hand_screen(view.name, view.count, view.size, view.last, view.message, view.refused)
        return tip_screen(self.picture(view))


def _move_words(move: Hashable) -> str:
    """A suggested move as the search's reason begins: ``place …``, ``totem …``,
    ``declare …`` (``tw.hint.*``)."""
    if isinstance(move, Play):
        return t("tw.hint.place", cards=", ".join(card_label(card) for card in move.cards))
    if isinstance(move, TotemChoice):
        return t("tw.hint.totem", card=card_label(move.card))
    assert isinstance(move, Declare), move
    return t("tw.hint.declare", habitat=t(f"habitat.{move.habitat}"))


def _after(reason: str, said: str) -> str:
    """The search's ``reason`` without the move it begins with (``hint.because``)."""
    head = t("hint.because", move=said, why="")
    return reason[len(head):] if reason.startswith(head) else reason

