"""An undo at a table where the box plays a seat, whatever the game: the box's reply is never
left alone on the table, so an undo over it goes back to the person's move it answered."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

Move = TypeVar("Move")
#: Whether ``(player, move)`` of a game's history is a decision of that kind of seat.
Decides = Callable[[int | None, Move], bool]


def undo_count(history: Sequence[tuple[int | None, Move]], box_decided: Decides[Move],
               person_decided: Decides[Move]) -> int:
    """How many moves an undo takes back: one, unless the last is a decision of the box;
    then back to the last decision of a person, that one included (or to the start).

    >>> box = lambda player, move: player == 1
    >>> person = lambda player, move: player == 0
    >>> undo_count([(0, "a"), (1, "b")], box, person), undo_count([(1, "b")], box, person)
    (2, 1)
    >>> undo_count([(0, "a"), (1, "b"), (0, "c")], box, person), undo_count([], box, person)
    (1, 0)
    """
    if not history:
        return 0
    if not box_decided(*history[-1]):
        return 1
    for count, (player, move) in enumerate(reversed(history), start=1):
        if person_decided(player, move):
            return count
    return len(history)
