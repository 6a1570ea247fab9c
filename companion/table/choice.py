"""A list the up/down buttons move through and OK chooses from (menus and pickers).

>>> c = Choice("Who starts?", ("Ana", "Ben"), (0, 1))
>>> c.moved(1).value, c.moved(-1).value, c.moved(2).value
(1, 1, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Choice:
    """``labels`` shown, ``values`` they stand for, the ``selected`` index (wraps around)."""

    title: str
    labels: tuple[str, ...]
    values: tuple[Any, ...]
    selected: int = 0

    def __post_init__(self) -> None:
        if len(self.labels) != len(self.values) or not self.labels:
            raise ValueError("a choice needs as many labels as values, at least one")
        object.__setattr__(self, "selected", self.selected % len(self.labels))

    def moved(self, step: int) -> Choice:
        """The same choice with the selection moved ``step`` places (wrapping)."""
        return replace(self, selected=(self.selected + step) % len(self.labels))

    @property
    def value(self) -> Any:
        """The value of the selected entry."""
        return self.values[self.selected]

    def select(self, value: Any) -> Choice:
        """The same choice with ``value`` selected (unchanged when it is not offered)."""
        if value in self.values:
            return replace(self, selected=self.values.index(value))
        return self


def step_of(button: str) -> int:
    """How far ``button`` moves a list: -1 for up, +1 for down, 0 for any other."""
    return {"up": -1, "down": 1}.get(button, 0)
