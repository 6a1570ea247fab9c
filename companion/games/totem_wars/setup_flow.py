"""Setting up a Totem Wars game at the table (rules/totem-wars.md T1, T2, T16).

Steps: how many players (2 to 4), their names in seat order, clockwise (from the names of
the configuration, or "Player 1" … in the screens' language), the dealer, and the deck (the
default deck or a deck file of the data folder's ``decks/``, e.g. one transcribed from a
physical deck). When the
big game of these players is under way, the dealer it is due to (T16) is offered first.
Back always goes one step back, and from the first step to the menu.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from companion.errors import UserError
from companion.games.totem_wars import Deck, default_deck, load_deck
from companion.games.totem_wars.big_game_store import load_big_game, next_dealer
from companion.games.totem_wars.deck import DECKS_FOLDER
from companion.games.totem_wars.words import refusal, t
from companion.signals import Signal
from companion.table.choice import Choice
from companion.table.flow import ChoiceStepsFlow, Reply, Scan, ToMenu, ToStart, default_name
from companion.table.views import MenuView, WhyView, render

#: The settings' name of the bundled deck (the set-up shows it in the screens' language).
DEFAULT_DECK = "Default deck"


@dataclass(frozen=True)
class TotemWarsSettings:
    """A set-up ready to play: names in seat order, the dealer's seat, the deck, and the
    seats the box plays with their levels (``(seat, level)`` pairs, box_setup.py)."""

    players: tuple[str, ...]
    dealer: int
    deck: Deck
    deck_name: str = DEFAULT_DECK
    box: tuple[tuple[int, str], ...] = ()


def deck_files(data_dir: str | os.PathLike[str]) -> list[Path]:
    """The deck files (``*.toml``) in the data folder's ``decks/``, by name."""
    folder = Path(data_dir) / DECKS_FOLDER
    try:
        return sorted(p for p in folder.iterdir() if p.suffix == ".toml" and p.is_file())
    except OSError:
        return []


class TotemWarsSetupFlow(ChoiceStepsFlow):
    """The set-up steps; ``names`` is the short list of names of the configuration."""

    of_game = "totem-wars"  # its why-pages are Totem Wars' rules

    kind = "setup"

    def __init__(self, names: tuple[str, ...] = (), data_dir: str | os.PathLike[str] | None = None) -> None:
        super().__init__()
        self.offered = tuple(names)
        self.data_dir = data_dir
        self.decks = deck_files(data_dir) if data_dir is not None else []
        self.count = 2
        self.players: list[str] = []
        self.dealer = 0
        self.due: int | None = None  # the dealer the stored big game is due to (T16)
        self.step = "count"
        self.choice = self._choice()

    @property
    def steps(self) -> tuple[str, ...]:
        """The steps for the current number of players."""
        names = tuple(f"name{i}" for i in range(self.count)) if self.offered else ()
        return ("count", *names, "dealer") + (("deck",) if self.decks else ())

    def _names(self) -> tuple[str, ...]:
        return tuple(self.players[i] if i < len(self.players) else default_name(i)
                     for i in range(self.count))

    def _choice(self) -> Choice:
        step = self.step
        if step == "count":
            return Choice(t("tw.setup.players"), tuple(t("tw.setup.count", n=n) for n in (2, 3, 4)),
                          (2, 3, 4)).select(self.count)
        if step.startswith("name"):
            seat = int(step[4:])
            taken = set(self.players[:seat])
            names = tuple(n for n in self.offered if n not in taken) + (default_name(seat),)
            choice = Choice(t("tw.setup.seat", n=seat + 1), names, names)
            return choice.select(self.players[seat]) if seat < len(self.players) else choice
        if step == "dealer":
            names = self._names()
            choice = Choice(t("tw.setup.dealer"), names, tuple(range(self.count)))
            self.due = self._due_dealer(names)
            return choice.select(self.due if self.due is not None else self.dealer)
        labels = (t("tw.setup.default_deck"), *(p.stem for p in self.decks))
        return Choice(t("tw.setup.deck"), labels, (None, *self.decks))

    def _due_dealer(self, names: Sequence[str]) -> int | None:
        """The dealer the stored big game of these players is due to (T16), if any."""
        if self.data_dir is None:
            return None
        try:
            return next_dealer(load_big_game(self.data_dir), names)
        except UserError:
            return None

    def view(self) -> WhyView | MenuView:
        """What the screen shows now: the why-pages over the step when they are open."""
        if self.why.view is not None:
            return self.why.view
        return MenuView(self.choice, footer=self.note or self._hint())

    def _hint(self) -> str:
        # Choosing another dealer than the one due starts a new big game (T16): say so
        # before it happens, not after the game.
        if self.step == "dealer" and self.due is not None:
            return t("tw.setup.big_on" if self.choice.value == self.due else "tw.setup.big_new")
        return t("nav.footer")

    def frame(self) -> Image.Image:
        """The picture of ``view()``."""
        return render(self.view())

    def _scan(self, scan: Scan) -> Reply:
        return self.tell(t("setup.first"))

    def _take(self, value: Any) -> Reply:
        step = self.step
        if step == "count":
            self.count = value
            self.players = self.players[:value]
        elif step.startswith("name"):
            seat = int(step[4:])
            self.players = self.players[:seat] + [value]
        elif step == "dealer":
            self.dealer = value
        if step == "deck" or (step == "dealer" and not self.decks):
            return self._finish(value if step == "deck" else None)
        steps = self.steps
        self.step = steps[steps.index(step) + 1]
        self.choice = self._choice()
        return Reply(Signal.ACCEPTED)

    def _finish(self, path: Path | None) -> Reply:
        try:
            deck = default_deck() if path is None else load_deck(path)
        except UserError:
            # The loader's full reason is too long for the screen: one short line names the
            # deck; `enroll --deck FILE` prints the reason (docs/decks.md).
            deck_name = t("tw.setup.default_deck") if path is None else path.stem  # the list's label
            return self.tell(refusal("bad_deck", {"deck": deck_name}, "T1a"), True)
        name = DEFAULT_DECK if path is None else Path(path).stem
        return Reply(Signal.ACCEPTED, ToStart(TotemWarsSettings(self._names(), self.dealer, deck, name)))

    def _back(self) -> Reply:
        steps = self.steps
        index = steps.index(self.step)
        if index == 0:
            return Reply(then=ToMenu())
        self.step = steps[index - 1]
        self.choice = self._choice()
        return Reply()
