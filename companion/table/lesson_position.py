"""Where a lesson stands, as one value: the steps left behind and how each ended, the order
the steps are played in, where the current step began and the pages explained so far.

The lesson runner (``tutorial_flow.py``) holds one ``Position`` and replaces it at every
change with the value a method here returns; the tutorial store (``tutorial_store.py``)
writes it as it is and reads it back, so a lesson cut off resumes where it stood.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace

#: How a step before the current one ended: done, passed as not needed (its situation never
#: came), or skipped by the players.
STATUSES = ("done", "passed", "skipped")


@dataclass(frozen=True)
class Record:
    """A step the lesson has left behind: its key, how it ended (``STATUSES``) and the
    number of moves in the game when it ended (0 before the game is set up)."""

    key: str
    status: str
    at: int


@dataclass(frozen=True)
class Position:
    """Where a lesson stands: ``order`` the keys of its steps in the order they are played
    (those left behind, the current one, then the rest), ``records`` the steps left behind,
    ``start`` the moves in the game when the current step began (None: not begun) and
    ``taught`` the steps whose page was shown. ``ValueError`` when the records are not the
    first steps of the order."""

    order: tuple[str, ...]
    records: tuple[Record, ...] = ()
    start: int | None = None
    taught: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if tuple(r.key for r in self.records) != self.order[:len(self.records)]:
            raise ValueError("the steps left behind are not the first of the order")

    @property
    def index(self) -> int:
        """The current step's place in ``order`` (each step left behind has its record).

        >>> Position(("a", "b"), (Record("a", "done", 0),)).index
        1
        """
        return len(self.records)

    @property
    def step(self) -> str | None:
        """The current step's key; None when every step is behind.

        >>> Position(("a", "b"), (Record("a", "done", 0),)).step
        'b'
        >>> Position(("a",), (Record("a", "done", 0),)).step is None
        True
        """
        return self.order[self.index] if self.index < len(self.order) else None

    @property
    def done(self) -> int:
        """How many steps were done (not skipped, nor passed as not needed)."""
        return sum(1 for record in self.records if record.status == "done")

    @property
    def number(self) -> int:
        """The current step's number, as players count: the steps passed as not needed are
        not counted.

        >>> Position(("a", "b", "c"), (Record("a", "passed", 0), Record("b", "skipped", 0))).number
        2
        """
        return 1 + sum(1 for record in self.records if record.status != "passed")

    def begun(self, moves: int, shown: bool) -> Position:
        """The current step begun with ``moves`` in the game; ``shown``: its page was shown.

        >>> Position(("a", "b")).begun(3, True)
        Position(order=('a', 'b'), records=(), start=3, taught=('a',))
        """
        taught = self.taught
        if shown and self.step is not None and self.step not in taught:
            taught += (self.step,)
        return replace(self, start=moves, taught=taught)

    def left(self, status: str, moves: int) -> Position:
        """The current step left behind (``status``, with ``moves`` in the game); the next
        one not begun.

        >>> Position(("a", "b"), start=0).left("done", 2)
        Position(order=('a', 'b'), records=(Record(key='a', status='done', at=2),), start=None, taught=())
        """
        assert self.step is not None, "no step is left to leave"
        return replace(self, records=(*self.records, Record(self.step, status, moves)), start=None)

    def skipped(self, moves: int, topic: Collection[str]) -> Position:
        """The current step skipped, and the steps after it in ``topic`` (their keys) passed.

        >>> [r.status for r in Position(("a", "b", "c")).skipped(0, {"a", "b"}).records]
        ['skipped', 'passed']
        """
        position = self.left("skipped", moves)
        while position.step is not None and position.step in topic:
            position = position.left("passed", moves)
        return position

    @property
    def last_done(self) -> Record | None:
        """The last step done (not skipped nor passed); None before any."""
        return next((r for r in reversed(self.records) if r.status == "done"), None)

    def stepped_back(self) -> Position:
        """Back to the last step done, not begun: it and the steps left after it are to
        come again (a lesson with none done stays as it is).

        >>> Position(("a", "b", "c"), (Record("a", "done", 0), Record("b", "passed", 0))).stepped_back().step
        'a'
        """
        last = self.last_done
        if last is None:
            return self
        return replace(self, records=self.records[:self.records.index(last)], start=None)

    def brought_forward(self, key: str) -> Position:
        """The step ``key`` (one still to come) in the current step's place, and the current
        step in its place.

        >>> Position(("a", "b", "c")).brought_forward("c").order
        ('c', 'b', 'a')
        """
        order = list(self.order)
        here, there = self.index, order.index(key)
        order[here], order[there] = order[there], order[here]
        return replace(self, order=tuple(order))

    def fitted(self, moves: int) -> Position:
        """The position in a game of ``moves``: a step whose beginning is no longer played
        (taken back, or lost in a power cut) begins again.

        >>> Position(("a",), start=4).fitted(3).start is None
        True
        """
        if self.start is not None and self.start > moves:
            return replace(self, start=None)
        return self

    def rewound(self, moves: int, valid: Callable[[Record], bool]) -> Position:
        """Back to the step an undo returned to: the steps left behind that no longer are
        (``valid`` says which still are) come again, not begun.

        >>> moved = Position(("a", "b", "c"), (Record("a", "done", 0), Record("b", "done", 2)), 2)
        >>> moved.rewound(1, lambda record: record.at <= 1).step
        'b'
        """
        position = self.fitted(moves)
        records = position.records
        while records and not valid(records[-1]):
            records = records[:-1]
        if records == position.records:
            return position
        return replace(position, records=records, start=None)

    def within(self, steps: tuple[str, ...]) -> Position | None:
        """This position in the lesson of ``steps`` (their keys), as it is now: the steps
        still to come that it does not know (a lesson kept before an update that added
        some, or by a version that kept no order) come in the lesson's order after those
        played; None when it no longer fits (a step played is no longer one, or twice).

        >>> Position(("b", "c")).within(("a", "b", "c")).order
        ('b', 'a', 'c')
        >>> Position(("x", "b")).within(("a", "b", "c")) is None
        True
        """
        played = self.order[:self.index + 1]
        if not set(played) <= set(steps) or len(set(self.order)) != len(self.order):
            return None
        if sorted(self.order) == sorted(steps):
            return self
        return replace(self, order=played + tuple(key for key in steps if key not in played))
