"""Fast play-outs of a Totem Wars small game with every hand and the deck's order known (a
determinization, ``ismcts.py``): the rules of T4–T15 and R4 on plain lists of card numbers,
with the points of each set of cards (T8, R1) and of each war grouping (T10) looked up once
and kept, so a search can play a game out to its end (T15) a few hundred times a decision.

The engine (``game.py``) stays the referee; this is its copy for search only: a war is
fought with the engine's own functions, every declaration the one it offers first (R2);
the refill deals each player's cards in turn, as ``Simulation`` does (T13).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations

from companion.games.totem_wars.arrangement import best_arrangement
from companion.games.totem_wars.deck import Card
from companion.games.totem_wars.rounds import _war as war_result
from companion.games.totem_wars.rounds import refill_order, war_plan

#: A placement policy: ``(play-out, seat, legal counts) -> the cards placed``.
Policy = Callable[["Playout", int, Sequence[int]], tuple[int, ...]]

#: Rounds after which a play-out stops and is scored as it stands: deals where every seat
#: ties a war nobody wins send the cards under a deck that deals them back (T12, T13).
ROUND_LIMIT = 40


class Scores:
    """The points of one game's seats, by card numbers (the deck's order): a seat's cards
    by tribe (T8, R1) and by habitat in a war (T10), each worked out once."""

    def __init__(self, cards: Sequence[Card], totems: Sequence[Card]):
        self.cards = tuple(cards)
        self.totems = tuple(totems)
        self.tribe = tuple(c.tribe for c in self.cards)
        self.own = tuple(t.tribe for t in self.totems)
        tribes = sorted(set(self.tribe))
        #: Per seat, the bits of the cards of its totem's tribe (T15).
        self.own_mask = tuple(sum(1 << i for i, c in enumerate(self.cards) if c.tribe == t.tribe)
                              for t in self.totems)
        #: The bits of each tribe's cards, and of the cards of each animal.
        self._tribe_masks = tuple(sum(1 << i for i, c in enumerate(self.cards) if c.tribe == t) for t in tribes)
        self._tribe_index = tuple(tribes.index(t.tribe) for t in self.totems)
        self._animal = tuple(c.animal for c in self.cards)
        self._points: dict[tuple[int, int], int] = {}
        #: The wars fought (``Playout._war``) and the greedy placements found (``greedy``).
        self.wars: dict[tuple[int, tuple[tuple[int, int], ...]], int | None] = {}
        self.greedy: dict[tuple[int, int, int, tuple[int, ...]], tuple[int, ...]] = {}

    def points(self, seat: int, mask: int) -> int:
        """``seat``'s points with the cards of ``mask`` (bits by card number) down (T8, R1)."""
        key = (seat, mask)
        got = self._points.get(key)
        if got is None:
            got = self._points[key] = self._count(seat, mask)
        return got

    def _count(self, seat: int, mask: int) -> int:
        """T8 by counting, when no two of the cards (the totem with them) share an animal:
        every card then lies in its tribe's column (T7); else the exact search (R1)."""
        animals = {self.totems[seat].animal}
        size = 1
        for i in _bits(mask):
            animals.add(self._animal[i])
            size += 1
        if len(animals) < size:
            return best_arrangement(self.totems[seat], self._of(mask)).points
        mine = self._tribe_index[seat]
        total = 0
        for t, tribe_mask in enumerate(self._tribe_masks):
            c = (mask & tribe_mask).bit_count()
            if t == mine:
                total += 1 + 2 * c if c else 0
            elif c >= 2:
                total += c
        return total

    def _of(self, mask: int) -> list[Card]:
        return [self.cards[i] for i in range(len(self.cards)) if mask >> i & 1]


class Playout:
    """One determinization of a small game: hands, the deck top first, each seat's points so
    far (T15), the round's table; ``play`` runs it to the end with a policy per seat."""

    def __init__(self, scores: Scores, hands: list[list[int]], deck: Sequence[int], points: list[int],
                 starter: int):
        self.scores = scores
        self.hands = hands
        self.deck = deque(deck)
        self.points = points
        self.starter: int | None = starter
        self.n = len(hands)
        self.table = [0] * self.n
        #: The cards down this round per seat, in the order laid.
        self.laid: list[list[int]] = [[] for _ in range(self.n)]
        self.down = [0] * self.n
        self.level = 0
        self.rounds = 0
        #: The first round's taker (None: nobody) and whether it was a war, once resolved.
        self.first: tuple[int | None, bool] | None = None

    # -- a round --------------------------------------------------------------------
    def counts(self, seat: int, first: bool, alone: bool) -> list[int]:
        """The numbers of cards ``seat`` may place (T4–T6, T14), as ``TotemWars.legal_counts``."""
        hand = len(self.hands[seat])
        if alone:
            return [hand]
        if first:
            if self.level == 0:
                return list(range(1, hand + 1))
            return [hand] if hand < self.level else list(range(self.level, hand + 1))
        return [min(self.level - self.down[seat], hand)]

    def place(self, seat: int, cards: Sequence[int]) -> None:
        """``seat`` lays ``cards`` from its hand (a first placement sets or raises the level)."""
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
            self.table[seat] |= 1 << c
        self.laid[seat].extend(cards)
        self.down[seat] += len(cards)

    def round(self, policies: Sequence[Policy], opened: Sequence[int] = ()) -> None:
        """Play the round from its start, ``opened`` (the seats in order) having already
        placed their first placement, and resolve it (T9–T13)."""
        n, starter = self.n, self.starter
        assert starter is not None
        seats = [(starter + i) % n for i in range(n)]
        playing = [p for p in seats if self.hands[p] or self.down[p]]
        alone = len(playing) == 1
        for p in playing:
            if p in opened:
                continue
            cards = policies[p](self, p, self.counts(p, True, alone))
            self.place(p, cards)
            self.level = max(self.level, len(cards))
        for p in seats:  # T6: answers, clockwise from the starter
            if self.hands[p] and self.down[p] < self.level:
                self.place(p, policies[p](self, p, self.counts(p, False, alone)))
        self.resolve()

    def resolve(self) -> None:
        """The complete round's taker (T9–T11, R3, T14), where its cards go (T9, T12, R4),
        the refill (T13) and the next starter."""
        n, scores, table = self.n, self.scores, self.table
        in_round = [p for p in range(n) if table[p]]
        taker: int | None
        war = False
        if len(in_round) == 1:
            taker = in_round[0]
        else:
            pts = {p: scores.points(p, table[p]) for p in in_round}
            top = max(pts.values())
            tied = [p for p in in_round if pts[p] == top]
            war = len(tied) > 1
            taker = self._war(tied) if war else tied[0]
        if self.first is None:
            self.first = (taker, war)
        if taker is not None:
            own_mask = scores.own_mask[taker]
            self.points[taker] += sum((table[p] & own_mask).bit_count() for p in in_round)
        elif self.deck:
            self.deck.extend(c for laid in self.laid for c in laid)  # T12
        # else R4: the round began with the deck empty (a refill empties it only after rounds)
        first = self.starter if taker is None else taker
        assert first is not None
        hands, deck = self.hands, self.deck
        # T13, as ``Simulation`` deals it: each player's cards from the deck in turn (the
        # deck is shuffled, so who gets which card is as random as one at a time).
        if deck:
            for p, count in refill_order([len(h) for h in hands], len(deck), first):
                for _ in range(count):
                    hands[p].append(deck.popleft())
        self.starter = next((s for s in ((first + i) % n for i in range(n)) if hands[s]), None)
        self.table = [0] * n
        self.laid = [[] for _ in range(n)]
        self.down = [0] * n
        self.level = 0
        self.rounds += 1

    def _war(self, tied: list[int]) -> int | None:
        """The war of the ``tied`` seats (T10, T11, R3), each owner of a two-habitat totem
        declaring as the engine offers first (R2), the engine's own functions deciding;
        kept per starter and the tied seats' cards."""
        scores, starter = self.scores, self.starter
        assert starter is not None, "a round under way has a starter"
        key = (starter, tuple((p, self.table[p]) for p in tied))
        if key in scores.wars:
            return scores.wars[key]
        table = [tuple(scores.cards[c] for c in _bits(mask)) for mask in self.table]
        declared: list[str | None] = [None] * self.n
        while True:
            due, habitats = war_plan(scores.totems, table, tied, declared, starter)
            if due is None:
                taker = scores.wars[key] = war_result(scores.totems, table, habitats)[0]
                return taker
            declared[due.player] = due.habitats[0]

    def play(self, policies: Sequence[Policy], opened: Sequence[int] = (), rounds: int = ROUND_LIMIT) -> list[int]:
        """Play ``rounds`` rounds or to the end of the game, whichever comes first (at most
        ``ROUND_LIMIT``): each seat's points (T15)."""
        while self.starter is not None and self.rounds < min(rounds, ROUND_LIMIT):
            self.round(policies, opened)
            opened = ()
        return self.points


def _bits(mask: int) -> Iterator[int]:
    c = 0
    while mask:
        if mask & 1:
            yield c
        mask >>= 1
        c += 1


def greedy(out: Playout, seat: int, counts: Sequence[int]) -> tuple[int, ...]:
    """What scores most this round (T8, R1), fewest cards on a tie, then keeping the cards
    of the seat's totem tribe: the greedy player. Kept per seat, cards down, hand and counts:
    play-outs ask the same again and again."""
    scores, down, hand = out.scores, out.table[seat], out.hands[seat]
    handmask = 0
    for c in hand:
        handmask |= 1 << c
    key = (seat, down, handmask, tuple(counts))
    got = scores.greedy.get(key)
    if got is not None:
        return got
    own = scores.own[seat]
    tribe = scores.tribe
    best: tuple[int, ...] = ()
    best_key = None
    for n in counts:
        for cards in combinations(sorted(hand), n):
            mask = down
            for c in cards:
                mask |= 1 << c
            rank = (scores.points(seat, mask), -n, -sum(tribe[c] == own for c in cards))
            if best_key is None or rank > best_key:
                best, best_key = cards, rank
    scores.greedy[key] = best
    return best


def canny(out: Playout, seat: int, counts: Sequence[int]) -> tuple[int, ...]:
    """``greedy``, but the last to place in a round, who knows how it ends, places what
    takes it with the most cards of its totem tribe (T9, T15), or when nothing takes it
    outright, the cards of its tribe it can keep back (T9: the taker has them)."""
    level, down, hands = out.level, out.down, out.hands
    need = level - down[seat]
    last = level and need in counts and all(
        p == seat or not hands[p] or 0 < level <= down[p] for p in range(out.n))
    if not last:
        return greedy(out, seat, counts)
    scores, table = out.scores, out.table
    best_other = max((scores.points(p, table[p]) for p in range(out.n) if p != seat and table[p]), default=-1)
    own_mask = scores.own_mask[seat]
    best: tuple[int, ...] = ()
    best_key = None
    for cards in combinations(sorted(hands[seat]), need):
        mask = table[seat]
        for c in cards:
            mask |= 1 << c
        own = (mask & own_mask).bit_count()
        takes = scores.points(seat, mask) > best_other
        key = (takes, own if takes else -own)
        if best_key is None or key > best_key:
            best, best_key = cards, key
    return best
