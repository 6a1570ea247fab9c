"""Best arrangements: columns by tribe (T7, T8, R1) and war groupings by habitat (T10, R2).

The device shows players how to lay their cards, so both searches return the columns, not
only the points. Both are exact: they try every assignment of cards to the columns the
rules allow (a handful of cards, at most four choices each) and keep the best.

>>> from companion.games.totem_wars.deck import default_deck
>>> d = default_deck().card
>>> best = best_arrangement(d("indians/eagle"),
...                         [d("indians/snake"), d("africans/snake"), d("aborigines/snake")])
>>> best.points, str(best)
(7, 'indians: indians/eagle* indians/snake aborigines/snake africans/snake')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

from companion.games.totem_wars.deck import HABITATS, TRIBES, Card


def column_points(size: int, totem: bool) -> int:
    """Points of a column of ``size`` cards (T8); ``size`` counts the totem in its column.

    >>> column_points(3, totem=True), column_points(1, totem=True), column_points(2, False), column_points(1, False)
    (5, 0, 2, 0)
    """
    if totem:
        return 1 + 2 * (size - 1) if size >= 2 else 0
    return size if size >= 2 else 0


@dataclass(frozen=True)
class Column:
    """One column, bottom card first; ``key`` is its tribe (or habitat in a war)."""

    key: str
    cards: tuple[Card, ...]
    totem: bool = False

    @property
    def points(self) -> int:
        """The column's points (T8)."""
        return column_points(len(self.cards), self.totem)

    def __str__(self) -> str:
        names = [c.name + ("*" if self.totem and i == 0 else "") for i, c in enumerate(self.cards)]
        return f"{self.key}: {' '.join(names)}"


@dataclass(frozen=True)
class Arrangement:
    """A player's columns, the totem column first (its ``key`` is the declared habitat in a war)."""

    columns: tuple[Column, ...]

    @property
    def points(self) -> int:
        """Total points of all columns (T8)."""
        return sum(c.points for c in self.columns)

    @property
    def totem_column(self) -> Column:
        """The column that starts with the totem."""
        return self.columns[0]

    def __str__(self) -> str:
        return " | ".join(str(c) for c in self.columns)


def best_arrangement(totem: Card, cards: Iterable[Card]) -> Arrangement:
    """The arrangement by tribe with the most points (T7, T8, R1).

    A card goes into its own tribe's column, or into column X when a tribe-X card with the
    same animal lies in column X (the totem counts for its column). Only cards that share an
    animal have a choice, so the search runs over those groups' legal placements. Results
    are cached by the set of cards: asking again during a round costs a dictionary look-up.
    """
    return _best_by_tribe(totem, frozenset(cards))


def war_grouping(totem: Card, cards: Iterable[Card], habitat: str | None = None) -> Arrangement:
    """The grouping by habitat with the most war points (T10), the totem first in its column;
    each card goes into the column of one of its habitats.

    ``habitat`` is the totem's habitat in the war, one of its own (R2: its owner declares it
    when the totem has two). Without it, the totem's habitat that gives the most points, the
    first listed when both give the same: the choice records kept before owners declared.
    """
    cards = frozenset(cards)
    if habitat is not None:
        return _grouping_in(totem, cards, habitat)
    # Strictly more points to change: the first habitat listed wins a tie.
    return max((_grouping_in(totem, cards, h) for h in totem.habitats),
               key=lambda grouping: grouping.points)


def _build(totem: Card, totem_key: str, cards: list[Card], keys: Sequence[str], order: tuple[str, ...]) -> Arrangement:
    """Columns from an assignment ``keys`` (card i → column key), in a stable layout."""
    members: dict[str, list[Card]] = {}
    for card, key in zip(cards, keys):
        members.setdefault(key, []).append(card)

    def lay(key: str) -> tuple[Card, ...]:
        # Cards of the column's own tribe first, so a guest lies above the card it matches.
        return tuple(sorted(members.get(key, []), key=lambda c: (c.tribe != key, c)))

    columns = [Column(totem_key, (totem,) + lay(totem_key), totem=True)]
    columns += [Column(k, lay(k)) for k in order if k != totem_key and k in members]
    return Arrangement(tuple(columns))


def _score(totem_key: str, keys: Iterable[str]) -> int:
    counts = {totem_key: 1}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    points = column_points(counts.pop(totem_key), True)
    return points + sum(n for n in counts.values() if n >= 2)  # T8: c points when c ≥ 2


# The caches' sizes: a search asks the same few hands again and again (hits hardly drop
# from 8,192 entries to 1,024), and each entry is about 1 KB the box keeps for its life.
@lru_cache(maxsize=1024)
def _best_by_tribe(totem: Card, cards: frozenset[Card]) -> Arrangement:
    order = sorted(cards)
    groups: dict[str, list[int]] = {}  # cards sharing an animal: the only ones with a choice
    for i, card in enumerate(order):
        groups.setdefault(card.animal, []).append(i)
    choices = [_group_choices(order, members, totem) for members in groups.values()]
    keys = [card.tribe for card in order]
    best_keys, best_points = tuple(keys), -1
    for combo in product(*choices):
        for assignment in combo:
            for i, key in assignment:
                keys[i] = key
        points = _score(totem.tribe, keys)
        if points > best_points:
            best_keys, best_points = tuple(keys), points
    return _build(totem, totem.tribe, order, best_keys, TRIBES)


def _group_choices(order: list[Card], members: list[int], totem: Card) -> list[tuple[tuple[int, str], ...]]:
    """Every legal placement of cards sharing one animal (T7), as ``((card index, column), …)``.

    Some cards stay in their own tribe's column ("home"); each other card joins the column of
    a home card's tribe, or the totem column when the totem has the same animal. Home-first
    order keeps the plainest layout on equal points.
    """
    animal = order[members[0]].animal
    totem_home = {totem.tribe} if totem.animal == animal else set()
    result = []
    for size in range(len(members), -1, -1):
        for home in combinations(members, size):
            hosts = {order[i].tribe for i in home} | totem_home
            away = [i for i in members if i not in home]
            options = [[t for t in TRIBES if t in hosts and t != order[i].tribe] for i in away]
            for columns in product(*options):
                result.append(tuple((i, order[i].tribe) for i in home) + tuple(zip(away, columns)))
    return result


@lru_cache(maxsize=512)
def _grouping_in(totem: Card, cards: frozenset[Card], habitat: str) -> Arrangement:
    """The best grouping by habitat with the totem in the ``habitat`` column (T10)."""
    order = sorted(cards)
    best_keys: tuple[str, ...] = ()
    best_points = -1
    options = [sorted(c.habitats, key=lambda h: h != habitat) for c in order]
    for keys in product(*options):
        points = _score(habitat, keys)
        if points > best_points:
            best_keys, best_points = keys, points
    return _build(totem, habitat, order, best_keys, HABITATS)
