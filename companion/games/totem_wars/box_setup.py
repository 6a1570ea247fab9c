"""Setting up Totem Wars with the box in seats (``box_seat.py``): the steps of
``setup_flow.py``, with "The box" offered for the seats and how strong it plays.

With names to offer, "The box" is the last name offered for each seat (as in Wakanda); the
box may take several seats, but never all of them. Without names, the number of players
offers solo games too: one person (seat 1) against the box in one to three seats. A step
then asks its level: the search's levels in plain words, the default first chosen.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.games.totem_wars.box_seat import box_names
from companion.games.totem_wars.levels import PLAYER_LEVELS
from companion.games.totem_wars.search import DEFAULT_LEVEL
from companion.games.totem_wars.setup_flow import TotemWarsSetupFlow
from companion.games.totem_wars.words import WORDS, t
from companion.table.choice import Choice
from companion.table.flow import Reply, ToStart, default_name


class _TheBox:
    """The value of "The box" in the lists of the set-up (no player's name can equal it)."""

    def __repr__(self) -> str:
        return "BOX"


#: The box as the choice of a seat's player.
BOX = _TheBox()
#: The number of players' value of a solo game: one person against the box in the others.
SOLO = "solo"


def level_label(level: str) -> str:
    """A search level in plain words (a level the words do not know: its name)."""
    key = f"tw.level.{level}"
    return t(key) if WORDS.has(key) else level.capitalize()


class BoxSetupFlow(TotemWarsSetupFlow):
    """The Totem Wars set-up with "The box" offered for the seats, then its level."""

    def __init__(self, names: tuple[str, ...] = (), data_dir: str | os.PathLike[str] | None = None) -> None:
        self.box_seats: set[int] = set()
        self.level = DEFAULT_LEVEL
        super().__init__(names, data_dir)

    @property
    def steps(self) -> tuple[str, ...]:
        """The steps, the box's level right after the step that seats it."""
        steps = list(super().steps)
        if self.box_seats:
            seated = "count" if not self.offered else f"name{max(self.box_seats)}"
            steps.insert(steps.index(seated) + 1, "level")
        return tuple(steps)

    def _names(self) -> tuple[str, ...]:
        names = list(super()._names())
        for seat, name in zip(sorted(self.box_seats), box_names(len(self.box_seats)), strict=True):
            names[seat] = name
        return tuple(names)

    def _choice(self) -> Choice:
        step = self.step
        if step == "level":
            return Choice(t("tw.setup.box_level"), tuple(level_label(lv) for lv in PLAYER_LEVELS),
                          PLAYER_LEVELS).select(self.level)
        choice = super()._choice()
        if step == "count" and not self.offered:
            solo = tuple((SOLO, n) for n in (2, 3, 4))
            choice = Choice(choice.title, (*choice.labels, *(t("tw.setup.solo", n=n - 1) for _, n in solo)),
                            (*choice.values, *solo))
            return choice.select((SOLO, self.count) if self.box_seats else self.count)
        if not step.startswith("name"):
            return choice
        seat = int(step[4:])
        if not (set(range(self.count)) - self.box_seats - {seat}):
            return choice  # one seat at least is a person's
        choice = Choice(choice.title, (*choice.labels, t("tw.setup.the_box")), (*choice.values, BOX))
        return choice.select(BOX) if seat in self.box_seats else choice

    def _take(self, value: Any) -> Reply:
        step = self.step
        if step == "count":
            solo = isinstance(value, tuple)
            value = value[1] if solo else value
            if solo or not self.offered:  # without names, the count alone seats the box
                self.box_seats = set(range(1, value)) if solo else set()
            else:
                self.box_seats = {s for s in self.box_seats if s < value}
            if not set(range(value)) - self.box_seats:
                self.box_seats = set()
        elif step == "level":
            self.level = value
        elif step.startswith("name"):
            seat = int(step[4:])
            self.box_seats = {s for s in self.box_seats if s < seat}
            if value is BOX:
                self.box_seats.add(seat)
                value = default_name(seat)  # the box's name is given at the end (_names)
        return super()._take(value)

    def _finish(self, path: Path | None) -> Reply:
        reply = super()._finish(path)
        if isinstance(reply.then, ToStart) and self.box_seats:
            box = tuple((seat, self.level) for seat in sorted(self.box_seats))
            return replace(reply, then=ToStart(replace(reply.then.settings, box=box)))
        return reply
