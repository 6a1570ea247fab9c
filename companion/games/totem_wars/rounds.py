"""The end of a round: the war's declarations (R2), who takes the cards (T9–T12, R3, R4,
T14) and the refill (T13).

Pure functions over counts and cards; ``game.py`` applies their result to the state.

>>> refill_order([0, 0, 0], deck_count=4, first=1)   # the rulebook's example
((1, 2), (2, 1), (0, 1))
>>> habitat_winner({0: "water", 1: "land", 2: "air"}) is None   # each is beaten (R3)
True
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from companion.games.totem_wars.arrangement import Arrangement, best_arrangement, war_grouping
from companion.games.totem_wars.deck import Card

HAND_SIZE = 5
#: T11: water beats land, land beats air, air beats water.
BEATS = {"water": "land", "land": "air", "air": "water"}

TAKEN, UNDER_DECK, REMOVED = "taken", "under the deck", "removed"


@dataclass(frozen=True)
class RoundResult:
    """What happened when a round resolved; per-player tuples are indexed by seat.

    ``arrangements``/``points`` are ``None`` for players who sat out; ``warring`` lists the
    players of a war (empty without one) and ``war_groupings`` their habitat groupings;
    ``declared`` holds the habitats the owners of two-habitat totems declared (R2), else
    ``None``; ``read_as`` the habitats of the wars' two-habitat totems nobody declared, read
    by the most war points (a record kept before the box asked, R2), else ``None``;
    ``habitats`` holds the totem habitats compared after a tied war (T11), else ``None``.
    ``destination`` says where ``cards`` went: taken, under the deck (T12) or removed (R4).
    """

    number: int
    starter: int
    placed: tuple[tuple[Card, ...], ...]
    arrangements: tuple[Arrangement | None, ...]
    warring: tuple[int, ...]
    war_groupings: tuple[Arrangement | None, ...]
    declared: tuple[str | None, ...]
    habitats: tuple[str | None, ...]
    taker: int | None
    last_player: bool
    destination: str
    cards: tuple[Card, ...]
    refill: tuple[tuple[int, int], ...]
    next_starter: int | None
    read_as: tuple[str | None, ...] = ()

    @property
    def points(self) -> tuple[int | None, ...]:
        """Each player's points with the best arrangement (T8, R1); ``None`` when sitting out."""
        return tuple(a.points if a else None for a in self.arrangements)

    @property
    def war(self) -> bool:
        """Whether the top score was shared and a war was fought (T10)."""
        return bool(self.warring)

    @property
    def war_points(self) -> tuple[int | None, ...]:
        """Each warring player's war points (T10), ``None`` for the others."""
        return tuple(a.points if a else None for a in self.war_groupings)

    @property
    def rule(self) -> str:
        """The rule that sent the cards where they went: the highest score (T9), the highest
        war score (T11), the totems' habitats (T11, or R3 for three or four), the last player
        with cards (T14), nobody (T12), or nobody in a round begun with the deck empty (R4)."""
        if self.taker is None:
            return "R4" if self.destination == REMOVED else "T12"
        if self.last_player:
            return "T14"
        compared = sum(h is not None for h in self.habitats)
        if compared:
            return "R3" if compared > 2 else "T11"
        return "T11" if self.war else "T9"


@dataclass(frozen=True)
class DeclarationDue:
    """A war waits for ``player`` to declare the habitat of their two-habitat totem (R2);
    ``habitats`` are the totem's, the best for the player first; ``war`` pairs each warring
    player with the habitat their totem fights in, ``None`` while it is still to declare."""

    player: int
    habitats: tuple[str, ...]
    war: tuple[tuple[int, str | None], ...]


def habitat_winner(habitats: dict[int, str]) -> int | None:
    """The winner among tied players by totem habitat (T11, R3), or ``None``.

    Every player whose habitat is beaten by another tied player's habitat drops out; a
    single survivor wins. Two players of the same habitat: nobody wins.
    """
    present = set(habitats.values())
    survivors = [p for p, h in habitats.items() if not any(BEATS[o] == h for o in present)]
    return survivors[0] if len(survivors) == 1 else None


def refill_order(hand_sizes: Sequence[int], deck_count: int, first: int) -> tuple[tuple[int, int], ...]:
    """T13: one card at a time clockwise from ``first`` until all hold 5 or the deck is empty.

    Returns ``(player, cards)`` pairs in the order players first receive a card.
    """
    sizes = list(hand_sizes)
    given: dict[int, int] = {}
    player = first
    while deck_count and any(s < HAND_SIZE for s in sizes):
        if sizes[player] < HAND_SIZE:
            sizes[player] += 1
            given[player] = given.get(player, 0) + 1
            deck_count -= 1
        player = (player + 1) % len(sizes)
    return tuple(given.items())


def next_with_cards(hand_sizes: Sequence[int], start: int) -> int | None:
    """``start`` if they hold cards, else the next player clockwise who does (T14)."""
    n = len(hand_sizes)
    for step in range(n):
        player = (start + step) % n
        if hand_sizes[player]:
            return player
    return None


def war_players(totems: Sequence[Card], table: Sequence[Sequence[Card]]) -> tuple[int, ...]:
    """The players of the war a complete round starts: those tied on the highest score,
    when two or more are (T10); ``()`` without a war, or when one player placed (T14)."""
    in_round = [p for p in range(len(table)) if table[p]]
    if len(in_round) < 2:
        return ()
    points = {p: best_arrangement(totems[p], table[p]).points for p in in_round}
    top = max(points.values())
    tied = tuple(p for p in in_round if points[p] == top)
    return tied if len(tied) > 1 else ()


def _war(totems: Sequence[Card], table: Sequence[Sequence[Card]],
         habitats: Mapping[int, str]) -> tuple[int | None, tuple[int, ...]]:
    """A war fought with ``habitats`` (warring seat → its totem's habitat): ``(taker, the
    players tied on the top war score)``. The top war score takes (T11); a shared one is
    settled by the totems' habitats (T11, R3), and may leave nobody winning."""
    points = {p: war_grouping(totems[p], table[p], h).points for p, h in habitats.items()}
    top = max(points.values())
    still = tuple(p for p in habitats if points[p] == top)
    if len(still) == 1:
        return still[0], ()
    return habitat_winner({p: habitats[p] for p in still}), still


def _others(totems: Sequence[Card], players: Sequence[int]) -> list[dict[int, str]]:
    """Every way ``players`` could declare their totems' habitats."""
    return [dict(zip(players, choice)) for choice in product(*(totems[p].habitats for p in players))]


def declaration_order(totems: Sequence[Card], table: Sequence[Sequence[Card]], fixed: Mapping[int, str], player: int,
                      later: Sequence[int]) -> tuple[str, ...]:
    """``player``'s totem habitats, the best for them first (R2): the most war points, then
    the one that beats the most totems tied with it on war points (T11), counted over every
    declaration the ``later`` owners may make (``fixed``: the habitats already known); the
    first listed when both are as good."""
    others = _others(totems, later)

    def points(p: int, habitat: str) -> int:
        return war_grouping(totems[p], table[p], habitat).points

    def rank(habitat: str) -> tuple[int, int]:
        mine = points(player, habitat)
        beaten = sum(BEATS[habitat] == theirs and points(p, theirs) == mine
                     for rest in others for p, theirs in {**fixed, **rest}.items())
        return -mine, -beaten

    return tuple(sorted(totems[player].habitats, key=rank))  # a stable sort: the first listed first


def war_plan(totems: Sequence[Card], table: Sequence[Sequence[Card]], warring: Sequence[int],
             declared: Sequence[str | None], starter: int) -> tuple[DeclarationDue | None, dict[int, str]]:
    """Who must declare next in the war of ``warring`` (R2), or the habitats it is fought
    with: ``(DeclarationDue, {})`` while a declaration is due, else ``(None, habitats)``.

    In seat order from ``starter``, each warring owner of a two-habitat totem who has not
    declared yet (``declared[p]`` is None) is asked when their choice can change who takes
    the cards, whatever the owners after them declare. One whose choice cannot is not
    asked: their totem fights with the habitat best for them.
    """
    n = len(table)
    seats = [(starter + i) % n for i in range(n)]
    fixed = {p: declared[p] or totems[p].habitats[0] for p in warring
             if declared[p] or len(totems[p].habitats) == 1}
    undeclared = [p for p in seats if p in warring and p not in fixed]
    for i, player in enumerate(undeclared):
        later = undeclared[i + 1:]
        order = declaration_order(totems, table, fixed, player, later)
        for rest in _others(totems, later):
            takers = {_war(totems, table, {**fixed, player: habitat, **rest})[0] for habitat in order}
            if len(takers) > 1:
                return DeclarationDue(player, order, tuple((p, fixed.get(p)) for p in warring)), {}
        fixed[player] = order[0]
    return None, fixed


def resolve_round(number: int, starter: int, totems: Sequence[Card], table: Sequence[Sequence[Card]],
                  hand_sizes: Sequence[int], deck_count: int,
                  habitats: Mapping[int, str], declared: Sequence[str | None],
                  read_as: Collection[int] = ()) -> RoundResult:
    """Resolve a completed round whose war, if any, is fought with ``habitats`` (warring seat
    → its totem's habitat, ``war_plan``'s); ``declared`` are the declarations made (R2),
    but for the seats of ``read_as``, whose habitat nobody declared (read by points).

    ``table`` holds each player's cards this round (empty for those who sat out);
    ``hand_sizes`` and ``deck_count`` are the counts before the refill: a round nobody wins
    sends its cards under the deck (T12), or out of the game when it began with the deck
    empty (R4: else the same cards would be dealt back for ever).
    """
    n = len(table)
    in_round = [p for p in range(n) if table[p]]
    arrangements = tuple(best_arrangement(totems[p], table[p]) if table[p] else None for p in range(n))
    warring = war_players(totems, table)
    war_groupings: list[Arrangement | None] = [None] * n
    compared: list[str | None] = [None] * n
    taker: int | None
    if len(in_round) == 1:
        taker = in_round[0]  # T14: the last player with cards takes them
    elif not warring:  # T9: the highest score takes
        taker = max(in_round, key=lambda p: best_arrangement(totems[p], table[p]).points)
    else:  # T10: only the tied players fight, each totem in its habitat (R2)
        for p in warring:
            war_groupings[p] = war_grouping(totems[p], table[p], habitats[p])
        taker, still = _war(totems, table, {p: habitats[p] for p in warring})
        for p in still:  # T11, R3: the totems' habitats were compared
            compared[p] = habitats[p]

    cards = tuple(c for p in range(n) for c in table[p])
    if taker is not None:
        destination = TAKEN
    elif deck_count == 0:
        destination = REMOVED
    else:
        destination = UNDER_DECK
        deck_count += len(cards)
    first = starter if taker is None else taker
    refill = refill_order(hand_sizes, deck_count, first)
    after = list(hand_sizes)
    for player, count in refill:
        after[player] += count
    return RoundResult(
        number=number, starter=starter, placed=tuple(tuple(t) for t in table),
        arrangements=arrangements, warring=warring, war_groupings=tuple(war_groupings),
        declared=tuple(None if p in read_as else d for p, d in enumerate(declared)), habitats=tuple(compared),
        taker=taker, last_player=len(in_round) == 1, destination=destination, cards=cards, refill=refill,
        next_starter=next_with_cards(after, first),
        read_as=tuple(declared[p] if p in read_as else None for p in range(n)))
