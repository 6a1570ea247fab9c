"""The end of a round: who takes the cards (T9–T12, R3, R4, T14) and the refill (T13).

Pure functions over counts and cards; ``game.py`` applies their result to the state.

>>> refill_order([0, 0, 0], deck_count=4, first=1)   # the rulebook's example
((1, 2), (2, 1), (0, 1))
>>> habitat_winner({0: "water", 1: "land", 2: "air"}) is None   # each is beaten (R3)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.totem_wars.arrangement import Arrangement, best_arrangement, war_grouping
from companion.games.totem_wars.deck import Card

HAND_SIZE = 5
#: Rounds in a row without a winner after which the table cards leave the game (R4).
NO_WINNER_LIMIT = 3
#: T11: water beats land, land beats air, air beats water.
BEATS = {"water": "land", "land": "air", "air": "water"}

TAKEN, UNDER_DECK, REMOVED = "taken", "under the deck", "removed"


@dataclass(frozen=True)
class RoundResult:
    """What happened when a round resolved; per-player tuples are indexed by seat.

    ``arrangements``/``points`` are ``None`` for players who sat out; ``warring`` lists the
    players of a war (empty without one) and ``war_groupings`` their habitat groupings;
    ``habitats`` holds the totem habitats compared after a tied war (T11), else ``None``.
    ``destination`` says where ``cards`` went: taken, under the deck (T12) or removed (R4).
    """

    number: int
    starter: int
    placed: tuple[tuple[Card, ...], ...]
    arrangements: tuple[Arrangement | None, ...]
    warring: tuple[int, ...]
    war_groupings: tuple[Arrangement | None, ...]
    habitats: tuple[str | None, ...]
    taker: int | None
    last_player: bool
    destination: str
    cards: tuple[Card, ...]
    refill: tuple[tuple[int, int], ...]
    next_starter: int | None

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
        with cards (T14), nobody (T12), or nobody three times in a row (R4)."""
        if self.taker is None:
            return "R4" if self.destination == "removed" else "T12"
        if self.last_player:
            return "T14"
        compared = sum(h is not None for h in self.habitats)
        if compared:
            return "R3" if compared > 2 else "T11"
        return "T11" if self.war else "T9"


def habitat_winner(habitats: dict[int, str]) -> int | None:
    """The winner among tied players by totem habitat (T11, R3), or ``None``.

    Every player whose habitat is beaten by another tied player's habitat drops out; a
    single survivor wins. Two players of the same habitat: nobody wins.
    """
    present = set(habitats.values())
    survivors = [p for p, h in habitats.items() if not any(BEATS[o] == h for o in present)]
    return survivors[0] if len(survivors) == 1 else None


def refill_order(hand_sizes, deck_count: int, first: int) -> tuple[tuple[int, int], ...]:
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


def next_with_cards(hand_sizes, start: int) -> int | None:
    """``start`` if they hold cards, else the next player clockwise who does (T14)."""
    n = len(hand_sizes)
    for step in range(n):
        player = (start + step) % n
        if hand_sizes[player]:
            return player
    return None


def resolve_round(number: int, starter: int, totems, table, hand_sizes, deck_count: int,
                  no_winner_streak: int) -> tuple[RoundResult, int]:
    """Resolve a completed round: ``(result, the new count of rounds without a winner)``.

    ``table`` holds each player's cards this round (empty for those who sat out);
    ``hand_sizes`` and ``deck_count`` are the counts before the refill.
    """
    n = len(table)
    in_round = [p for p in range(n) if table[p]]
    arrangements = tuple(best_arrangement(totems[p], table[p]) if table[p] else None for p in range(n))
    war_groupings: list[Arrangement | None] = [None] * n
    habitats: list[str | None] = [None] * n
    warring: tuple[int, ...] = ()
    last_player = len(in_round) == 1
    taker: int | None
    if last_player:
        taker = in_round[0]  # T14: the last player with cards takes them
    else:
        points = {p: arrangement.points for p in in_round if (arrangement := arrangements[p])}
        top = max(points.values())
        tied = [p for p in in_round if points.get(p) == top]
        taker = tied[0] if len(tied) == 1 else None
        if taker is None:  # T10: only the tied players fight
            warring = tuple(tied)
            groupings = {p: war_grouping(totems[p], table[p]) for p in tied}
            for p, grouping in groupings.items():
                war_groupings[p] = grouping
            top = max(grouping.points for grouping in groupings.values())
            still = [p for p in tied if groupings[p].points == top]
            if len(still) == 1:
                taker = still[0]
            else:  # T11, R3: compare the declared totem habitats
                declared = {p: groupings[p].totem_column.key for p in still}
                for p, habitat in declared.items():
                    habitats[p] = habitat
                taker = habitat_winner(declared)

    cards = tuple(c for p in range(n) for c in table[p])
    if taker is not None:
        destination, streak = TAKEN, 0
    elif no_winner_streak + 1 >= NO_WINNER_LIMIT:
        destination, streak = REMOVED, 0
    else:
        destination, streak = UNDER_DECK, no_winner_streak + 1
    if destination == UNDER_DECK:
        deck_count += len(cards)
    first = starter if taker is None else taker
    refill = refill_order(hand_sizes, deck_count, first)
    after = list(hand_sizes)
    for player, count in refill:
        after[player] += count
    result = RoundResult(
        number=number, starter=starter, placed=tuple(tuple(t) for t in table),
        arrangements=arrangements, warring=warring, war_groupings=tuple(war_groupings),
        habitats=tuple(habitats), taker=taker, last_player=last_player,
        destination=destination, cards=cards, refill=refill,
        next_starter=next_with_cards(after, first))
    return result, streak
