"""The box as a Totem Wars player: seats played by the search (``search.suggest``), at a level
chosen at set-up (``box_setup.py``) and kept in the record's header (``"box": {"1": "standard"}``).

Its cards never show. The dealer deals them face down onto the numbered spots of a strip
beside the box (1 to 7), scanning each as it is laid ("Deal my card onto spot 3: scan it"):
the engine keeps them (``TotemWars.spots``, from the record's ``deal`` lines), so the box
knows its hand and nobody else sees it (T2, T13). The first empty spot is always the next.

- Its totem (T2): at its turn in the totem order it says which spot to turn up; the scan
  must be that card.
- Its placement (T4–T6, T14): it says which spots to lay; a player lays them face up and
  scans each; a card that is not one of them is refused with what it wants; the last one
  scanned plays them (no OK).
- Its war declaration (R2): made at once, as its own record line.

Each decision comes from the seat's own information only (its hand, the public table, the
unseen cards at their known sizes), with a seed from public facts, so the same position
gives the same decision — after a resume, or after an undo.

Undo: a card dealt to the box is the players' entry (a wrong scan) and goes back alone. The
box's decisions would only come again: undo then goes back over them to the last decision
of a person (a placement, a declaration, the totems), that one included.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from companion.engine import Refusal
from companion.errors import UserError
from companion.events import Press
from companion.games.totem_wars.arrangement import best_arrangement
from companion.games.totem_wars.deck import Card
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.items import CardTag
from companion.games.totem_wars.moves import Deal, Declare, Move, Play
from companion.games.totem_wars.search import TotemChoice, suggest
from companion.games.totem_wars.words import refusal, t
from companion.signals import Signal
from companion.table.box_undo import undo_count
from companion.table.flow import FlowEvent, Reply, Scan
from companion.ui.canvas import SMALL, WIDTH, wrap
from companion.ui.screens import prompt_line


def decision_seed(game: TotemWars) -> int:
    """The seed of the box's decision now: from public facts only (never a hand), the same
    for the same position."""
    facts = [list(game.players), game.dealer, len(game.history)]
    return zlib.crc32(json.dumps(facts).encode("utf-8"))


def public_game(game: TotemWars) -> TotemWars:
    """``game`` as the search sees it: the same moves without the cards dealt to the box's
    spots, so its play-outs deal every other hand from the unseen cards (the box's other
    seats too) and it decides from the seat's own information only. ``game`` itself when
    the box plays no seat."""
    if not game.box:
        return game
    public = TotemWars(game.players, game.dealer, game.deck, hints=game.hints)
    for _, move in game.history:
        if not isinstance(move, Deal):
            public.push(move)
    return public


def column_of(game: TotemWars, seat: int, move: Play) -> str | None:
    """The tribe of the column all of ``move``'s cards go into, in the seat's best
    arrangement with them (T7, R1); None when they go into several."""
    totem = game.totems[seat]
    if totem is None:
        return None
    arrangement = best_arrangement(totem, game.table[seat] + move.cards)
    keys = {column.key for column in arrangement.columns if set(column.cards) & set(move.cards)}
    return keys.pop() if len(keys) == 1 else None


def box_names(count: int) -> tuple[str, ...]:
    """The names of ``count`` seats the box plays: ``Box``, or ``Box 1``, ``Box 2`` …"""
    if count == 1:
        return (t("tw.box.name"),)
    return tuple(t("tw.box.numbered", n=i + 1) for i in range(count))


def spot_list(spots: list[int]) -> str:
    """Spot numbers as said: ``2``, ``2, 5``."""
    return ", ".join(str(n) for n in sorted(spots))


#: The box's last decisions, by (seed, history, seat, level): what it does follows from
#: those alone, so the prompt, the check and a resume share one search.
_DECIDED: dict[tuple[int, tuple[tuple[int | None, Move], ...], int, str], Move | Card] = {}


class SeatsFlow(Protocol):
    """What the box's seats read and do through the play flow (``flow.py``): the game, the
    totems laid and the cards scanned so far, and its journal-first changes."""

    game: TotemWars
    totems: list[Card]
    pending: list[Card]

    def keep(self, move: Move) -> Reply | None: ...

    def refuse(self, refusal: Refusal) -> Reply: ...

    def commit(self, move: Move) -> Reply: ...

    def take_back(self) -> str: ...


class BoxSeats:
    """The seats the box plays in one game (``levels``: seat → search level)."""

    def __init__(self, levels: Mapping[int, str]):
        self.levels = dict(levels)

    # --- its decisions -----------------------------------------------------------------

    def _decide(self, game: TotemWars, seat: int) -> Move | Card:
        key = (decision_seed(game), game.history, seat, self.levels[seat])
        if key not in _DECIDED:
            hand = [card.name for card in game.box_hand(seat)]
            found = suggest(public_game(game), seat, level=self.levels[seat], seed=key[0], hand=hand).move
            _DECIDED.clear()
            # The totem choice is answered with its card; a placement or a habitat as moves.
            assert isinstance(found, TotemChoice | Play | Declare), found
            _DECIDED[key] = found.card if isinstance(found, TotemChoice) else found
        return _DECIDED[key]

    def totem(self, game: TotemWars, seat: int) -> Card:
        """The card ``seat`` turns up as its totem (T2), once its five cards are dealt."""
        card = self._decide(game, seat)
        assert isinstance(card, Card), card
        return card

    def placement(self, game: TotemWars) -> Play | None:
        """The box's placement when a seat it plays is to place (else None)."""
        seat = game.to_move
        if (seat not in self.levels or game.phase != "play" or game.declaration_due is not None
                or game.deal_due is not None):
            return None
        move = self._decide(game, seat)
        assert isinstance(move, Play), move
        return move

    def totem_seat(self, game: TotemWars, laid: int, order: list[int]) -> int | None:
        """The seat the box plays whose totem is next (``laid`` totems down), else None."""
        if game.phase != "totems" or game.deal_due is not None or laid >= len(order):
            return None
        seat = order[laid]
        return seat if seat in self.levels else None

    def declare(self, flow: SeatsFlow) -> None:
        """Make (and keep) every war declaration due from a seat the box plays (R2)."""
        game = flow.game
        while game.declaration_due is not None and game.declaration_due.player in self.levels:
            move = self._decide(game, game.declaration_due.player)
            assert isinstance(move, Declare), move
            if flow.keep(move) is not None:
                return  # not saved: the refusal says so, the war still waits

    def _spots_of(self, game: TotemWars, seat: int, cards: Iterable[Card]) -> list[int]:
        strip = game.spots(seat)
        return [strip.index(card) + 1 for card in cards]

    # --- what it says ------------------------------------------------------------------

    def prompt(self, game: TotemWars, laid: int, order: list[int], pending: list[Card],
               short: bool) -> str | None:
        """What the players do for the box now: deal its card onto a spot and scan it, turn
        up its totem, lay its spots; None when nothing is asked of them for the box."""
        form = ".short" if short else ""
        deal = game.deal_due
        if deal is not None:
            template = t(f"tw.prompt.box_deal{form}", name="{name}", spot=deal.spot)
            return prompt_line(template, game.players[deal.seat], short=short)
        seat = self.totem_seat(game, laid, order)
        if seat is not None:
            spot = self._spots_of(game, seat, [self.totem(game, seat)])[0]
            return prompt_line(t(f"tw.prompt.box_totem{form}", name="{name}", spot=spot), game.players[seat],
                               short=short)
        move = self.placement(game)
        if move is None or game.to_move is None:
            return None
        left = self._spots_of(game, game.to_move, [c for c in move.cards if c not in pending])
        name = game.players[game.to_move]
        tribe = None if short else column_of(game, game.to_move, move)
        if tribe is not None:  # the column too, when it fits the band's two lines
            said = prompt_line(t("tw.prompt.box_lay_column", name="{name}", spots=spot_list(left), n=len(left),
                                 tribe=t(f"tribe.{tribe}")), name)
            if len(wrap(said, WIDTH - 4, SMALL)) <= 2:
                return said
        template = t(f"tw.prompt.box_lay{form}", name="{name}", spots=spot_list(left), n=len(left))
        return prompt_line(template, name, short=short)

    def _wants(self, game: TotemWars, laid: int, order: list[int], pending: list[Card]) -> Refusal | None:
        """The refusal that names what the box wants now (None when it wants nothing)."""
        deal = game.deal_due
        if deal is not None:
            return refusal("deal_box_first", {"name": game.players[deal.seat], "spot": deal.spot},
                           "T2" if game.phase == "totems" else "T13")
        seat = self.totem_seat(game, laid, order)
        if seat is not None:
            spot = self._spots_of(game, seat, [self.totem(game, seat)])[0]
            return refusal("box_totem", {"spot": spot}, "T2")
        move = self.placement(game)
        if move is None or game.to_move is None:
            return None
        left = self._spots_of(game, game.to_move, [c for c in move.cards if c not in pending])
        return refusal("box_lay", {"spots": spot_list(left), "n": len(left)}, "T4")

    # --- what it takes -----------------------------------------------------------------

    def meaning(self, flow: SeatsFlow, event: FlowEvent, order: list[int]) -> Reply | None:
        """What ``event`` means while the box wants something (a deal, its totem, its
        placement), before the flow's usual reading: the card dealt kept, the box's card
        laid, or the refusal naming what it wants; None: read as usual (the right totem,
        Back, undo, the status page…)."""
        game = flow.game
        laid = len(flow.totems)
        wanted = self._wants(game, laid, order, flow.pending)
        if wanted is None:
            return None
        if isinstance(event, Press):
            return flow.refuse(wanted) if event.button in ("ok", "up") else None
        if not isinstance(event, Scan) or not isinstance(event.item, CardTag):
            return None
        try:
            card = game.deck.card(event.item.name)
        except KeyError:
            return None  # the flow names the unknown card (T1a)
        if game.deal_due is not None:
            kept = flow.keep(Deal(card))
            return kept if kept is not None else Reply(Signal.ACCEPTED)
        seat = self.totem_seat(game, laid, order)
        if seat is not None:
            return None if card == self.totem(game, seat) else flow.refuse(wanted)
        move = self.placement(game)
        assert move is not None  # _wants named a placement
        if card not in move.cards or card in flow.pending:
            return flow.refuse(wanted)
        flow.pending.append(card)
        if len(flow.pending) < len(move.cards):
            return Reply(Signal.ACCEPTED)
        return flow.commit(Play(tuple(flow.pending)))

    def refused_person(self, game: TotemWars, card: Card) -> Refusal | None:
        """A card of a box seat's strip scanned for a person: refused (it is in the box's
        hand, T2); None for any other card."""
        for seat in self.levels:
            strip = game.spots(seat)
            if card in strip:
                return refusal("on_spot", {"spot": strip.index(card) + 1}, "T2")
        return None

    # --- undo ----------------------------------------------------------------------------

    def _decision(self, player: int | None, move: Move) -> bool:
        return isinstance(move, Play | Declare) and player in self.levels

    def undo_count(self, game: TotemWars) -> int:
        """How many moves an undo takes back: one, unless the last is a decision of the
        box; then back to the last decision of a person, that one included (or to the
        start)."""
        return undo_count(game.history, self._decision,
                          lambda player, move: not isinstance(move, Deal) and not self._decision(player, move))

    def undo_text(self, game: TotemWars, describe: Callable[[TotemWars, int | None, Move], str]) -> str:
        """What an undo would take back, for the question: the last move (``describe``d);
        over the box's decisions, the person's move it goes back to and the box's reply."""
        count = self.undo_count(game)
        player, move = game.history[-count]
        if count == 1:
            return describe(game, player, move)
        if isinstance(move, Deal) or self._decision(player, move):
            return t("tw.box.undo_start")
        return t("tw.box.undo", what=describe(game, player, move))

    def take_back(self, flow: SeatsFlow) -> Move | None:
        """Undo as ``undo_count`` says through ``flow`` (journal first, one move at a time);
        the last move taken back. ``UserError`` from the journal stops it where it is."""
        count = self.undo_count(flow.game)
        last: Move | None = None
        for done in range(count):
            last = flow.game.history[-1][1]
            try:
                flow.take_back()
            except UserError:
                if not done:
                    raise
                raise UserError(t("tw.box.partly_taken_back", done=done, n=count)) from None
        return last

