"""The start menu: resume the unfinished game (offered first), or set up a new one."""

from __future__ import annotations

from companion.events import Press
from companion.table.choice import Choice, step_of
from companion.table.flow import Flow, Reply, ToResume, ToSetup
from companion.table.views import MenuView, render
from companion.ui.text import t

TITLE = "Totem Companion"  # the product's name, the same in every language


class MenuFlow(Flow):
    """The menu: ``titles`` are the games that can be set up, as ``(name, title)`` pairs;
    ``resume`` is the label of the unfinished game, or None when there is none."""

    kind = "menu"

    def __init__(self, titles, resume: str | None = None, note: str | None = None):
        super().__init__()
        labels, values = [], []
        if resume:
            labels.append(resume)
            values.append("resume")
        for name, title in titles:
            labels.append(t("menu.new", title=title))
            values.append(name)
        self.choice = Choice(TITLE, tuple(labels), tuple(values))
        self.note = note

    def view(self):
        """What the screen shows now."""
        return MenuView(self.choice, footer=self.note)

    def frame(self):
        """The picture of ``view()``."""
        return render(self.view())

    def handle(self, event) -> Reply:
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
        return Reply(then=ToSetup(self.choice.value))
