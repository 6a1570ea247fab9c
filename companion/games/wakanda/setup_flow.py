"""Setting up a Wakanda game at the table (rules/wakanda.md W2, W3, W10).

Steps: the players' names (when the box knows some: the settings page's names, or the
configuration's; otherwise "Player 1" and "Player 2", in the screens' language), the variant
(open, or hidden: tiles 4-6 face down; the settings page chooses which is offered first),
the village tiles in row order (scan each tile, or pick it with up/down and OK), and who
starts (or draw lots). The empty-claim house rule (R1) comes from the settings page.
Back always goes one step back: the last tile, then the previous step, then the menu.

The box can play a seat (``box_player.py``): "The box" is the last name offered for each
seat; without names to offer, the variant step offers each variant against the box too (the
box then wears the crests). Either way a step follows that asks how strong it plays: the
search's levels in plain words, its default level first chosen.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from PIL import Image

from companion.contract import Item
from companion.games.wakanda.items import Headdress, Piece, Tile
from companion.games.wakanda.levels import LEVELS
from companion.games.wakanda.rules import HEADDRESSES, OPEN_AT_START, ROW, VILLAGES
from companion.games.wakanda.search import DEFAULT_LEVEL
from companion.games.wakanda.views import render
from companion.games.wakanda.words import piece_name, t
from companion.signals import Signal
from companion.table.choice import Choice
from companion.table.flow import ChoiceStepsFlow, Reply, Scan, ToMenu, ToStart, default_name
from companion.table.views import MenuView, PickerView, WhyView


class _TheBox:
    """The value of "The box" in the lists of the set-up (no player's name can equal it)."""

    def __repr__(self) -> str:
        return "BOX"


#: The box as the choice of a seat's player.
BOX = _TheBox()


@dataclass(frozen=True)
class Settings:
    """A set-up ready to play: the row (None for face-down tiles), who starts, the names,
    the variant (W10), the empty-claim house rule (R1) and the seats the box plays, with
    their levels (``(seat, level)`` pairs)."""

    villages: tuple[str | None, ...]
    first: int
    players: tuple[str, str]
    variant: str
    by_lot: bool = False
    empty_claim: str = "when_stuck"
    box: tuple[tuple[int, str], ...] = ()


class SetupFlow(ChoiceStepsFlow):
    """The set-up steps; ``names`` is the short list of player names the box knows,
    ``variant`` the one offered first and ``empty_claim`` the R1 house rule of the game."""

    of_game = "wakanda"  # its why-pages are Wakanda's rules

    kind = "setup"

    def __init__(self, names: tuple[str, ...] = (), rng: random.Random | None = None, *,
                 variant: str = "open", empty_claim: str = "when_stuck") -> None:
        super().__init__()
        self.offered = tuple(names)
        self.rng = rng or random.Random()
        self.step = 0
        self.players = [default_name(0), default_name(1)]
        self.box_seat: int | None = None  # the seat the box plays, if any
        self.level = DEFAULT_LEVEL
        self.variant = variant
        self.empty_claim = empty_claim
        self.tiles: list[str] = []
        self.choice = self._choice()

    @property
    def steps(self) -> tuple[str, ...]:
        """The steps of this set-up, in order: the level follows the step that chose the box."""
        level = ("level",) if self.box_seat is not None else ()
        if self.offered:
            return ("name0", "name1", *level, "variant", "tiles", "first")
        return ("variant", *level, "tiles", "first")

    @property
    def current(self) -> str:
        """The step being asked: ``name0``, ``name1``, ``level``, ``variant``, ``tiles`` or
        ``first``."""
        return self.steps[self.step]

    def _tiles_wanted(self) -> int:
        return OPEN_AT_START if self.variant == "hidden" else ROW

    def _choice(self) -> Choice:
        step = self.current
        if step in ("name0", "name1"):
            seat = int(step[-1])
            taken = self.players[0] if seat == 1 else None
            names = tuple(n for n in self.offered if n != taken) + (default_name(seat),)
            box = self.box_seat != 1 - seat  # one seat for the box: the other is a person's
            choice = Choice(t("setup.who", headdress=t(f"headdress.{HEADDRESSES[seat]}")),
                            names + ((t("setup.the_box"),) if box else ()),
                            names + ((BOX,) if box else ()))
            # Coming back to this step shows the name chosen before; else the next free name.
            if self.box_seat == seat:
                return choice.select(BOX)
            return choice.select(self.players[seat]) if self.players[seat] in self.offered else choice
        if step == "level":
            return Choice(t("setup.box_level"), tuple(t(f"level.{level}") for level in LEVELS),
                          LEVELS).select(self.level)
        if step == "variant":
            variants = Choice(t("setup.variant"), (t("setup.open"), t("setup.hidden")), ("open", "hidden"))
            if self.offered:  # the name steps seat the box
                return variants.select(self.variant)
            variants = Choice(variants.title,
                              (*variants.labels, t("setup.open_box"), t("setup.hidden_box")),
                              (*variants.values, ("open", BOX), ("hidden", BOX)))
            return variants.select((self.variant, BOX) if self.box_seat is not None else self.variant)
        if step == "tiles":
            left = tuple(v for v in VILLAGES if v not in self.tiles)
            # Short enough to leave room for the picker's "1/8" counter.
            return Choice(t("setup.scan_tile", n=len(self.tiles) + 1, of=self._tiles_wanted()),
                          tuple(piece_name(v) for v in left), left)
        return Choice(t("setup.who_starts"), (*self.players, t("setup.lots")), (0, 1, "lots"))

    def view(self) -> MenuView | PickerView | WhyView:
        """What the screen shows now: the why-pages over the step when they are open."""
        if self.why.view is not None:
            return self.why.view
        if self.current == "tiles":
            # Before the first tile, how to lay the row: 4-6 turned (W2) or face down (W10).
            first = None if self.tiles else t(f"setup.tiles.{self.variant}_footer")
            return PickerView(self.choice, note=self.note or first)
        return MenuView(self.choice, footer=self.note or t("nav.footer"))

    def frame(self) -> Image.Image:
        """The picture of ``view()``."""
        return render(self.view())

    def _scan(self, scan: Scan) -> Reply:
        if not isinstance(scan.item, Tile):
            if self.current == "tiles":
                return self.tell(self._not_a_tile(scan.item), True)
            return self.tell(t("setup.first"))
        if self.current == "variant":
            # Scanning the first tile says the variant on screen is the one wanted.
            self._take(self.choice.value)
        if self.current != "tiles":
            return self.tell(t("setup.tiles_next"))
        village = scan.item.village
        if village in self.tiles:
            return self.tell(t("setup.tile_twice", village=piece_name(village),
                               n=self.tiles.index(village) + 1), True)
        return self._take(village)

    def _not_a_tile(self, item: Item) -> str:
        """A piece or headdress scanned for a tile: what it is, and which tile is wanted."""
        if isinstance(item, Piece):
            label = piece_name(item.kind)
        elif isinstance(item, Headdress):
            label = t(f"headdress.{item.kind}")
        else:
            return t("setup.not_tile")
        return t("setup.not_tile.footer", item=label, n=len(self.tiles) + 1)

    def _take(self, value: Any) -> Reply:
        step = self.current
        if step in ("name0", "name1"):
            self._seat(int(step[-1]), value)
        elif step == "level":
            self.level = value
        elif step == "variant":
            if not self.offered:
                self._seat(1, BOX if isinstance(value, tuple) else default_name(1))
            self.variant = value[0] if isinstance(value, tuple) else value
            self.tiles = self.tiles[: self._tiles_wanted()]
        elif step == "tiles":
            self.tiles.append(value)
            if len(self.tiles) < self._tiles_wanted():
                self.choice = self._choice()
                return Reply(Signal.ACCEPTED)
        else:
            by_lot = value == "lots"
            first = self.rng.randrange(2) if by_lot else value
            row = tuple(self.tiles) + (None,) * (ROW - len(self.tiles))
            box = ((self.box_seat, self.level),) if self.box_seat is not None else ()
            return Reply(Signal.ACCEPTED, ToStart(Settings(
                row, first, (self.players[0], self.players[1]), self.variant, by_lot,
                self.empty_claim, box)))
        self.step += 1
        self.choice = self._choice()
        return Reply(Signal.ACCEPTED)

    def _seat(self, seat: int, player: str | _TheBox) -> None:
        """Seat ``player`` (a name, or ``BOX``) at ``seat``; the box leaves the seat it
        played before, which is a person's again."""
        if self.box_seat is not None and (player is BOX or self.box_seat == seat):
            self.players[self.box_seat] = default_name(self.box_seat)
            self.box_seat = None
        if isinstance(player, _TheBox):  # BOX, its one value
            self.box_seat = seat
            player = t("box.name")
        self.players[seat] = player

    def _back(self) -> Reply:
        if self.current == "tiles" and self.tiles:
            self.tiles.pop()
        elif self.step == 0:
            return Reply(then=ToMenu())
        else:
            self.step -= 1
            if self.current == "tiles" and self.tiles:
                self.tiles.pop()
        self.choice = self._choice()
        return Reply()
