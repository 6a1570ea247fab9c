"""The Totem Wars game as the companion sees it (T2–T15): counts of hidden hands, open cards.

The companion never sees a hand: it tracks each hand's size, the unseen cards (hands and
deck together), the deck count, the totems, the table, the taken piles and the cards that
left the game (R4). A round resolves by itself when its last placement is pushed — or,
when that placement starts a war where the habitat of a two-habitat totem can change who
takes the cards, once its owner has declared it (R2: phase ``"declare"``).

A ``companion.engine.Engine``: ``legal_moves()`` lists how many cards may be placed
(``Count``; hands are hidden), that the totems are due (``TotemsDue``), or the habitats
the owner to declare may choose (``Declare``, the best for them first); ``push`` takes a
``ChooseTotems``, a ``Play`` or a ``Declare`` and refuses with the shared ``IllegalMove``;
``outcome()`` is the shared ``Outcome`` (T15); the points are the game's:
``points(player)``, ``all_points()``.

>>> from companion.games.totem_wars.deck import default_deck
>>> d = default_deck().card
>>> g = TotemWars(["Ana", "Ben"])
>>> g.legal_moves()
[TotemsDue(n=2)]
>>> g.push(ChooseTotems((d("indians/snake"), d("africans/lion"))))
>>> g.to_move, g.legal_counts()          # Ben sits left of the dealer (T3)
(1, [1, 2, 3, 4, 5])
>>> g.push(Play((d("africans/zebra"), d("africans/giraffe"))))
>>> g.legal_moves()                      # at least the level, or a raise (T5)
[Count(n=2), Count(n=3), Count(n=4), Count(n=5)]
>>> g.push(Play((d("indians/wolf"),)))
Traceback (most recent call last):
...
companion.engine.IllegalMove: place at least 2 cards, the level of this round (T5)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from companion.engine import IllegalMove, Outcome, Termination
from companion.errors import UserError
from companion.games.totem_wars.arrangement import war_grouping
from companion.games.totem_wars.deck import HABITATS, TRIBES, Card, Deck, default_deck
from companion.games.totem_wars.moves import (
    ChooseTotems,
    Count,
    Deal,
    DealDue,
    Declare,
    LegalMove,
    Move,
    Play,
    TotemsDue,
)
from companion.games.totem_wars.rounds import (
    HAND_SIZE,
    DeclarationDue,
    RoundResult,
    resolve_round,
    war_plan,
    war_players,
)
from companion.games.totem_wars.words import illegal

__all__ = ["SPOTS", "IllegalMove", "Outcome", "Position", "SetupError", "Termination", "TotemWars"]

#: The numbered spots of the strip beside the box where a seat it plays keeps its cards face
#: down (box_seat.py); a hand never holds more than 5 (T2, T13), the strip leaves room.
SPOTS = 7


class SetupError(UserError):
    """Settings that do not describe a small game (T1 players, T2 dealer); one line."""


@dataclass(frozen=True)
class _State:
    """Everything that changes during a game; ``push`` builds a new one, ``pop`` restores."""

    phase: str                            # "totems" | "play" | "declare" | "over"
    totems: tuple[Card, ...]              # empty until the totems are down
    hand_sizes: tuple[int, ...]
    deck_count: int
    unseen: frozenset[Card]               # in hands or in the deck
    table: tuple[tuple[Card, ...], ...]   # this round, per player
    taken: tuple[tuple[Card, ...], ...]
    removed: tuple[Card, ...]
    starter: int | None
    level: int                            # 0 before the first placement of the round
    playing: tuple[bool, ...]             # held cards when the round began (T6, T14)
    placed_first: tuple[bool, ...]
    declared: tuple[str | None, ...]      # the war's declarations so far (R2)
    read_as: frozenset[int]               # of those, the ones nobody made: read by points (R2)
    due: DeclarationDue | None            # the declaration the war waits for (R2)
    rounds: tuple[RoundResult, ...]
    spots: tuple[tuple[Card | None, ...], ...] = ()  # a box seat's strip (else empty), T2, T13


def _next_to_move(s: _State) -> int | None:
    """First placements clockwise from the starter (T4, T5), then answers (T6); else None."""
    if s.starter is None:
        return None
    n = len(s.hand_sizes)
    seats = [(s.starter + i) % n for i in range(n)]
    for p in seats:
        if s.playing[p] and not s.placed_first[p]:
            return p
    for p in seats:
        if s.hand_sizes[p] and len(s.table[p]) < s.level:
            return p
    return None


class Position:
    """A game of Totem Wars as it stands, read only (python-chess's ``BaseBoard`` beside
    its ``Board``): the players, the deck, the cards where the companion knows them, the
    rounds, whose turn it is and the points so far. ``TotemWars`` adds the moves."""

    _players: tuple[str, ...]
    _dealer: int
    _hints: bool
    _box: Mapping[int, str]
    _deck: Deck
    _state: _State
    _history: list[tuple[int | None, Move]]

    # -- read-only views -------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        """Player names in seat order (clockwise)."""
        return self._players

    @property
    def hints(self) -> bool:
        """Whether the game is played with the box's coach on (the box's Hints setting when
        it started): the hint button then asks for the hand and suggests cards."""
        return self._hints

    @property
    def box(self) -> Mapping[int, str]:
        """The seats the box plays, seat → its search level (empty: people play every seat)."""
        return self._box

    def spots(self, seat: int) -> tuple[Card | None, ...]:
        """The strip of a seat the box plays: spot 1 first, None where it is empty; ``()``
        for a person's seat (their hand is never seen)."""
        return self._state.spots[seat]

    def box_hand(self, seat: int) -> list[Card]:
        """The cards a seat the box plays holds, spot by spot."""
        return [card for card in self._state.spots[seat] if card is not None]

    @property
    def deal_due(self) -> DealDue | None:
        """The card the dealer deals next to a seat the box plays, and onto which spot: while
        its strip holds fewer cards than its hand (T2, T13), seats clockwise from the
        dealer's left; None when every box seat's hand is on its strip."""
        s = self._state
        if not self._box or s.phase == "over":
            return None
        n = len(self._players)
        for i in range(n):
            p = (self._dealer + 1 + i) % n
            if p in self._box and len(self.box_hand(p)) < s.hand_sizes[p]:
                return DealDue(p, s.spots[p].index(None) + 1)
        return None

    @property
    def phase(self) -> str:
        """``"totems"``, ``"play"``, ``"declare"`` (a war waits for a habitat, R2) or ``"over"``."""
        return self._state.phase

    @property
    def history(self) -> tuple[tuple[int | None, Move], ...]:
        """``(player, move)`` pairs, oldest first; player None for the totems."""
        return tuple(self._history)

    @property
    def dealer(self) -> int:
        """The dealer's seat (T2)."""
        return self._dealer

    @property
    def deck(self) -> Deck:
        """The deck of this game."""
        return self._deck

    @property
    def level(self) -> int:
        """The round's level L (T4, T5); 0 before it is set."""
        return self._state.level

    @property
    def round_starter(self) -> int | None:
        """Who starts the round (T3, T13)."""
        return self._state.starter

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Cards in each hand (never their faces)."""
        return self._state.hand_sizes

    @property
    def deck_count(self) -> int:
        """Cards left in the deck."""
        return self._state.deck_count

    @property
    def unseen(self) -> frozenset[Card]:
        """Cards in hands or in the deck."""
        return self._state.unseen

    @property
    def table(self) -> tuple[tuple[Card, ...], ...]:
        """Each player's cards on the table this round."""
        return self._state.table

    @property
    def taken(self) -> tuple[tuple[Card, ...], ...]:
        """Each player's pile of taken cards (T9)."""
        return self._state.taken

    @property
    def removed(self) -> tuple[Card, ...]:
        """Cards that left the game (R4)."""
        return self._state.removed

    @property
    def rounds(self) -> tuple[RoundResult, ...]:
        """The resolved rounds, in order."""
        return self._state.rounds

    @property
    def totems(self) -> tuple[Card | None, ...]:
        """Each player's totem; ``None`` before the totems are down."""
        return self._state.totems or (None,) * len(self._players)

    @property
    def last_round(self) -> RoundResult | None:
        """The last resolved round, ``None`` before the first one resolves."""
        return self._state.rounds[-1] if self._state.rounds else None

    @property
    def declaration_due(self) -> DeclarationDue | None:
        """The declaration a war waits for (R2): who declares, their totem's habitats best
        first; ``None`` outside phase ``"declare"``."""
        return self._state.due

    @property
    def to_move(self) -> int | None:
        """The player who places or declares next; ``None`` while choosing totems and when
        it is over."""
        s = self._state
        if s.due is not None:
            return s.due.player
        return _next_to_move(s) if s.phase == "play" else None

    # -- scoring ---------------------------------------------------------------------
    def taken_by_tribe(self, player: int) -> dict[str, int]:
        """How many cards of each tribe ``player`` has taken."""
        counts = dict.fromkeys(TRIBES, 0)
        for card in self._state.taken[player]:
            counts[card.tribe] += 1
        return counts

    def points(self, player: int) -> int:
        """T15 points so far: 1 for the totem and 1 per taken card of the totem's tribe."""
        totem = self.totems[player]
        return 0 if totem is None else 1 + self.taken_by_tribe(player)[totem.tribe]

    def all_points(self) -> tuple[int, ...]:
        """Every player's T15 points so far, in seat order (final once the game is over)."""
        return tuple(self.points(p) for p in range(len(self._players)))


class TotemWars(Position):
    """One small game of Totem Wars, python-chess-like: ``legal_moves``, ``push``, ``pop``,
    ``outcome()``."""

    def __init__(self, players: Sequence[str], dealer: int = 0, deck: Deck | None = None, *,
                 hints: bool = False, box: Mapping[int, str] | None = None):
        players = tuple(players)
        if not 2 <= len(players) <= 4:
            raise SetupError(f"Totem Wars is for 2 to 4 players, not {len(players)} (T1)")
        if not isinstance(dealer, int) or not 0 <= dealer < len(players):
            raise SetupError(f"the dealer must be a seat from 0 to {len(players) - 1} (T2)")
        if not isinstance(hints, bool):
            raise SetupError(f"hints must be true or false, got {hints!r}")
        box = dict(box or {})
        if not all(isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players)
                   and isinstance(level, str) for seat, level in box.items()):
            raise SetupError(f"box must map seats 0 to {len(players) - 1} to a level, got {box!r}")
        # The seats the box plays and their levels (box_seat.py): the engine keeps their
        # hands, dealt onto the strip's spots and scanned, so their plays come from them.
        self._box = MappingProxyType(box)
        self._players: tuple[str, ...] = players
        self._dealer = dealer
        self._hints = hints  # played with the box's coach on: nothing the rules read
        self._deck = deck if deck is not None else default_deck()
        n = len(players)
        self._state = _State(
            phase="totems", totems=(), hand_sizes=(HAND_SIZE,) * n,
            deck_count=len(self._deck) - HAND_SIZE * n, unseen=frozenset(self._deck.cards),
            table=((),) * n, taken=((),) * n, removed=(), starter=None, level=0,
            playing=(False,) * n, placed_first=(False,) * n, declared=(None,) * n,
            read_as=frozenset(), due=None, rounds=(),
            spots=tuple((None,) * SPOTS if p in box else () for p in range(n)))
        self._stack: list[_State] = []
        self._history: list[tuple[int | None, Move]] = []

    def legal_moves(self) -> list[LegalMove]:
        """What may be played now, as far as the companion can know (hands are hidden): a
        ``Count`` per number of cards the player to move may place, fewest first (T4–T6,
        T14) — any ``Play`` of that many cards from their hand is legal —, before the first
        round ``[TotemsDue(players)]`` (T2), while a war waits for a habitat the owner's
        ``Declare`` moves, the best for them first (R2); ``[]`` once the game is over."""
        s = self._state
        deal = self.deal_due
        if deal is not None:
            return [deal]
        if s.phase == "totems":
            return [TotemsDue(len(self._players))]
        if s.due is not None:
            return [Declare(h) for h in s.due.habitats]
        return [Count(n) for n in self.legal_counts()]

    def legal_counts(self) -> list[int]:
        """The numbers of cards the player to move may place (T4–T6, T14), fewest first:
        the ``n`` of ``legal_moves()``'s counts; ``[]`` when no player is to place."""
        s = self._state
        p = self.to_move
        if p is None or s.phase != "play":
            return []
        hand = s.hand_sizes[p]
        if sum(s.playing) == 1:
            return [hand]                           # T14: the last player places all
        if not s.placed_first[p]:
            if s.level == 0:
                return list(range(1, hand + 1))     # T4: the starter sets the level
            if hand < s.level:
                return [hand]                       # T5: all-in
            return list(range(s.level, hand + 1))   # T5: at least L, more is a raise
        return [min(s.level - len(s.table[p]), hand)]  # T6: answers never raise

    # -- moves -----------------------------------------------------------------------
    def check(self, move: Move) -> None:
        """Raise ``IllegalMove`` (with the rule) unless ``move`` is legal now."""
        s = self._state
        if s.phase == "over":
            raise illegal("game_over", rule="T15")  # T15: deck and hands are empty
        deal = self.deal_due
        if isinstance(move, Deal):
            self._check_deal(deal, move)
            return
        if deal is not None:  # the box decides from its whole hand: its cards are dealt first
            raise illegal("deal_box_first", rule="T2" if s.phase == "totems" else "T13",
                          name=self._players[deal.seat], spot=deal.spot)
        if isinstance(move, ChooseTotems):
            self._check_totems(move)
        elif isinstance(move, Play):
            if s.phase == "totems":  # T2: the totems come first
                raise illegal("totems_first", rule="T2")
            if s.due is not None:  # R2: the war is scored once its habitats are declared
                raise illegal("declare_first", rule="R2", name=self._players[s.due.player])
            self._check_play(move)
        elif isinstance(move, Declare):
            self._check_declare(move)
        else:
            raise illegal("not_totem_wars_move", rule="T4", move=move)

    def _check_deal(self, due: DealDue | None, move: Deal) -> None:
        """T2, T13: only while a box seat's strip is short of its hand, a card still unseen
        and on no strip."""
        if due is None:
            raise illegal("no_deal_due", rule="T13")
        self._check_cards((move.card,), "T13")
        self._check_box_cards(None, (move.card,))

    def _check_box_cards(self, player: int | None, cards: Sequence[Card]) -> None:
        """A seat the box plays lays only cards of its strip; a person (or the dealer,
        ``None``) never one of them — said by its spot, never its face (T2)."""
        s = self._state
        for card in cards:
            if player is not None and player in self._box:
                if card not in s.spots[player]:
                    raise illegal("not_on_spots", rule="T4", name=self._players[player], card=card)
                continue
            for strip in s.spots:
                if card in strip:
                    raise illegal("on_spot", rule="T2", spot=strip.index(card) + 1)

    def _check_declare(self, move: Declare) -> None:
        """R2: only while a war waits for it, one of the declaring owner's totem habitats."""
        due = self._state.due
        if due is None:
            raise illegal("no_declaration", rule="R2")
        if move.habitat not in HABITATS:
            raise illegal("not_a_habitat", rule="T1", habitat=move.habitat)
        if move.habitat not in due.habitats:
            raise illegal("not_totem_habitat", rule="R2", name=self._players[due.player],
                              habitat=move.habitat)

    def _check_totems(self, move: ChooseTotems) -> None:
        """T2: once, one card per player."""
        if self._state.phase != "totems":
            raise illegal("totems_laid", rule="T2")
        n = len(self._players)
        if len(move.cards) != n:
            raise illegal("one_totem_each", rule="T2", players=n, given=len(move.cards))
        self._check_cards(move.cards, "T2")
        for player, card in enumerate(move.cards):
            self._check_box_cards(player, (card,))

    def _check_play(self, move: Play) -> None:
        """T4–T6, T14: the number of cards placed; the cards themselves by ``_check_cards``."""
        s = self._state
        p = self.to_move
        assert p is not None  # in play, a round always has a player to place
        self._check_cards(move.cards, "T4")
        self._check_box_cards(p, move.cards)
        count, legal = len(move.cards), self.legal_counts()
        if count in legal:
            return
        name, hand = self._players[p], s.hand_sizes[p]
        if count > hand:  # T5: nobody places more than they hold
            raise illegal("holds_only", rule="T5", name=name, hand=hand)
        if sum(s.playing) == 1:  # T14: the last player with cards places them all
            raise illegal("last_places_all", rule="T14", name=name, hand=hand)
        if s.placed_first[p]:  # T6: an answer brings the player up to the level, no raise
            raise illegal("answer_exactly", rule="T6", name=name, count=legal[0])
        if s.level == 0:  # T4: the starter places 1 or more
            raise illegal("starter_places_one", rule="T4")
        if hand < s.level:  # T5: all-in with fewer cards than the level
            raise illegal("all_in", rule="T5", name=name, level=s.level, hand=hand)
        raise illegal("at_least_level", rule="T5", level=s.level)  # T5: at least L

    def _check_cards(self, cards: Sequence[object], rule: str) -> None:
        """Each card could be in a hand: of this deck (T1a), named once, not a totem (T2),
        not on the table, not taken (T9), not out of the game (R4)."""
        s = self._state
        if not cards:
            raise illegal("no_cards_named", rule=rule)
        for i, card in enumerate(cards):
            if not isinstance(card, Card) or card not in self._deck:
                raise illegal("not_in_deck", rule="T1a", card=card)
            if card in cards[:i]:
                raise illegal("named_twice", rule=rule, card=card)
            if card in s.unseen:
                continue
            if card in s.totems:
                raise illegal("totem_card", rule="T2", card=card)
            if any(card in t for t in s.table):
                raise illegal("on_table", rule=rule, card=card)
            if any(card in t for t in s.taken):
                raise illegal("taken_card", rule="T9", card=card)
            raise illegal("out_of_game", rule="R4", card=card)

    def push(self, move: Move) -> None:
        """Apply a legal move (``IllegalMove`` otherwise, the state unchanged)."""
        self.check(move)
        deal = self.deal_due
        player = deal.seat if isinstance(move, Deal) and deal is not None else self.to_move
        self._stack.append(self._state)
        self._history.append((player, move))
        if isinstance(move, Deal):
            assert deal is not None  # check() let it through: a deal is due
            self._state = replace(self._state, spots=_with_spot(self._state.spots, deal.seat,
                                                                 deal.spot - 1, move.card))
            return
        if isinstance(move, ChooseTotems):
            self._state = _after_totems(self._state, move, self._dealer)
            return
        assert player is not None  # check() let a Play or a Declare through: someone moves
        if isinstance(move, Play):
            self._state = _after_play(self._state, player, move)
        else:
            self._state = _after_declare(self._state, player, move.habitat)

    def declare_by_points(self) -> None:
        """Make every declaration the war waits for (R2) with the habitat that gives the
        most war points, the first listed on a tie, as part of the play that started the war:
        no move of its own, taken back with that play.

        That is how records kept before owners declared were scored, so such a record
        reads as it was played. ``IllegalMove`` when no declaration is due.
        """
        s = self._state
        if s.due is None:
            raise illegal("no_declaration", rule="R2")
        while s.due is not None:
            p = s.due.player
            s = replace(s, read_as=s.read_as | {p})  # nobody declared: the round says so
            s = _after_declare(s, p, war_grouping(s.totems[p], s.table[p]).totem_column.key)
        self._state = s

    def pop(self) -> Move:
        """Take back the last move (unlimited undo), including a round it resolved.

        ``IllegalMove("nothing_to_undo")`` when there is nothing to take back.
        """
        if not self._stack:
            raise illegal("nothing_to_undo")
        self._state = self._stack.pop()
        return self._history.pop()[1]

    # -- the end -----------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """``None`` while playing; at the end the winners — the most points, a tie shared —
        with ``Termination.DECK_EXHAUSTED`` and rule T15. The points are ``all_points()``;
        the report's ``result_line`` puts the result into words."""
        if self._state.phase != "over":
            return None
        points = self.all_points()
        top = max(points)
        winners = tuple(p for p, v in enumerate(points) if v == top)
        return Outcome(winners, Termination.DECK_EXHAUSTED, "T15")


def _with_spot(spots: tuple[tuple[Card | None, ...], ...], seat: int, index: int,
               card: Card) -> tuple[tuple[Card | None, ...], ...]:
    """The strips with ``card`` on spot ``index`` (from 0) of ``seat``'s."""
    strip = list(spots[seat])
    strip[index] = card
    return spots[:seat] + (tuple(strip),) + spots[seat + 1:]


def _without(spots: tuple[tuple[Card | None, ...], ...],
             cards: Sequence[Card]) -> tuple[tuple[Card | None, ...], ...]:
    """The strips with ``cards`` taken off them (turned up as a totem, laid on the table):
    their spots are empty, for the next cards dealt (T2, T13)."""
    return tuple(tuple(None if card in cards else card for card in strip) for strip in spots)


def _after_totems(s: _State, move: ChooseTotems, dealer: int) -> _State:
    """The totems are down (T2): each hand is 4 after its totem, and the dealer deals one
    more card each; the dealer's left starts (T3)."""
    n = len(s.hand_sizes)
    return replace(s, phase="play", totems=tuple(move.cards), unseen=s.unseen - set(move.cards),
                   spots=_without(s.spots, move.cards),
                   deck_count=s.deck_count - n, starter=(dealer + 1) % n,  # T3
                   playing=tuple(h > 0 for h in s.hand_sizes))


def _after_play(s: _State, player: int, move: Play) -> _State:
    """``player`` placed ``move``'s cards (T4-T6); a complete round goes on to its war."""
    count = len(move.cards)
    level = s.level
    if not s.placed_first[player]:
        level = max(level, count)  # T4 sets it, a raise lifts it (T5), all-in leaves it
    table = list(s.table)
    table[player] += tuple(move.cards)
    hands = list(s.hand_sizes)
    hands[player] -= count
    placed_first = list(s.placed_first)
    placed_first[player] = True
    s = replace(s, table=tuple(table), hand_sizes=tuple(hands), unseen=s.unseen - set(move.cards),
                level=level, placed_first=tuple(placed_first), spots=_without(s.spots, move.cards))
    return s if _next_to_move(s) is not None else _after_war_step(s)


def _after_declare(s: _State, player: int, habitat: str) -> _State:
    """``player`` declared ``habitat`` for the war (R2)."""
    declared = list(s.declared)
    declared[player] = habitat
    return _after_war_step(replace(s, declared=tuple(declared)))


def _after_war_step(s: _State) -> _State:
    """A complete round: the next declaration its war waits for (R2), else resolved."""
    assert s.starter is not None  # a round under way has a starter
    warring = war_players(s.totems, s.table)
    due, habitats = war_plan(s.totems, s.table, warring, s.declared, s.starter)
    if due is not None:
        return replace(s, phase="declare", due=due)
    return _resolve(s, habitats)


def _resolve(s: _State, habitats: dict[int, str]) -> _State:
    """The round resolved (T7-T13): its cards taken, removed or back in the deck, the hands
    refilled, the next round's starter (none: the game is over, T15)."""
    assert s.starter is not None  # a round under way has a starter
    result = resolve_round(len(s.rounds) + 1, s.starter, s.totems, s.table,
                           s.hand_sizes, s.deck_count, habitats, s.declared, s.read_as)
    n = len(s.hand_sizes)
    taken, unseen, removed, deck_count = list(s.taken), s.unseen, s.removed, s.deck_count
    if result.taker is not None:
        taken[result.taker] += result.cards
    elif result.destination == "removed":
        removed += result.cards
    else:
        unseen |= set(result.cards)
        deck_count += len(result.cards)
    hands = list(s.hand_sizes)
    for player, count in result.refill:
        hands[player] += count
        deck_count -= count
    over = result.next_starter is None
    return replace(s, phase="over" if over else "play", hand_sizes=tuple(hands), deck_count=deck_count,
                   unseen=unseen, table=((),) * n, taken=tuple(taken), removed=removed,
                   starter=result.next_starter, level=0, playing=tuple(h > 0 for h in hands),
                   placed_first=(False,) * n, declared=(None,) * n, read_as=frozenset(), due=None,
                   rounds=s.rounds + (result,))
