"""The start menu: resume the unfinished game (offered first), set up a new one, learn a
game with its lessons, or change the settings (last)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from companion.events import Press
from companion.table.choice import Choice, step_of
from companion.table.flow import Flow, FlowEvent, Reply, ToResume, ToSettings, ToSetup, ToTutorial
from companion.table.views import MenuView, render
from companion.ui.text import t

TITLE = "Totem Companion"  # the product's name, the same in every language


class MenuFlow(Flow):
    """The menu: ``titles`` are the games that can be set up (and learnt: "Learn Wakanda"),
    as ``(name, title)`` pairs; ``resume`` is the label of the unfinished game, or None when
    there is none, and ``players`` says whose game it is under the list while its line is
    chosen."""

    kind = "menu"

    def __init__(self, titles: Sequence[tuple[str, str]], resume: str | None = None, note: str | None = None, *,
                 players: str | None = None) -> None:
        super().__init__()
        labels: list[str] = []
        values: list[str | ToTutorial] = []
        if resume:
            labels.append(resume)
            values.append("resume")
        for name, title in titles:
            labels.append(t("menu.new", title=title))
            values.append(name)
        for name, title in titles:
            labels.append(t("menu.learn", title=title))
            values.append(ToTutorial(name))
        labels.append(t("menu.settings"))
        values.append("settings")
        self.choice = Choice(TITLE, tuple(labels), tuple(values))
        self.note = note
        self.players = players

    def view(self) -> MenuView:
        """What the screen shows now."""
        players = self.players if self.choice.value == "resume" else None
        return MenuView(self.choice, footer=self.note or players)

    def frame(self) -> Image.Image:
        """The picture of ``view()``."""
        return render(self.view())

    def handle(self, event: FlowEvent) -> Reply:
        """Up/down move, OK chooses; a scan here only says what to do."""
        self.clear()
        if not isinstance(event, Press):
            return self.tell(t("menu.choose_first"))
        if step_of(event.button):
            self.choice = self.choice.moved(step_of(event.button))
            return Reply()
        if event.button != "ok":
            return Reply()
        if self.choice.value == "resume":
            return Reply(then=ToResume())
        if self.choice.value == "settings":
            return Reply(then=ToSettings())
        if isinstance(self.choice.value, ToTutorial):
            return Reply(then=self.choice.value)
        return Reply(then=ToSetup(self.choice.value))
