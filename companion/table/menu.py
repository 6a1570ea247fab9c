"""The start menu: resume the unfinished game (offered first) and each game kept for later
(the last played first), set up a new one, learn a game with its lessons, change the
settings, or read the rules (last: one press of ▲ from the top). A new game while one is
unfinished asks first, saying the unfinished one stays on the menu."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from companion.events import Press
from companion.table.choice import Choice, step_of
from companion.table.flow import Flow, FlowEvent, Reply, ToResume, ToRules, ToSettings, ToSetup, ToTutorial
from companion.table.views import ConfirmView, MenuView, render
from companion.ui.text import t

TITLE = "Totem Companion"  # the product's name, the same in every language
#: Kept games listed before New; the others behind one line (a box may keep hundreds).
KEPT_SHOWN = 3
MORE = "more_kept"


class MenuFlow(Flow):
    """The menu: ``titles`` are the games that can be set up (and learnt: "Learn Wakanda"),
    as ``(name, title)`` pairs; ``resume`` is the label of the unfinished game, or None when
    there is none, and ``players`` says whose game it is under the list while its line is
    chosen. ``kept`` are the games kept for later after it, as ``(label, players, file)``
    (kept_games.py). ``aside`` is the title of the unfinished game a new game would put
    aside: choosing a new game then asks first."""

    kind = "menu"

    def __init__(self, titles: Sequence[tuple[str, str]], resume: str | None = None,
                 note: str | None = None, *, players: str | None = None,
                 kept: Sequence[tuple[str, str, str]] = (), aside: str | None = None) -> None:
        super().__init__()
        self.titles, self.resume, self.kept = tuple(titles), resume, tuple(kept)
        self.kept_players: dict[str, str] = {file: whose for _, whose, file in kept}
        self.choice = self._choice(all_kept=False)
        self.note = note
        self.players = players
        self.aside = aside
        self.asking: str | None = None  # the game a new set-up is asked for, until answered

    def _choice(self, *, all_kept: bool) -> Choice:
        """The menu's lines: the unfinished game, the latest games kept (all of them, or the
        last ``KEPT_SHOWN`` and a line for the others: New stays near the top), new games,
        lessons, settings and rules."""
        labels: list[str] = []
        values: list[Any] = []
        if self.resume:
            labels.append(self.resume)
            values.append("resume")
        shown = self.kept if all_kept or len(self.kept) <= KEPT_SHOWN + 1 else self.kept[:KEPT_SHOWN]
        for label, _, file in shown:
            labels.append(label)
            values.append(ToResume(file))
        if len(shown) < len(self.kept):
            labels.append(t("menu.more_kept", n=len(self.kept) - len(shown)))
            values.append(MORE)
        for name, title in self.titles:
            labels.append(t("menu.new", title=title))
            values.append(name)
        for name, title in self.titles:
            labels.append(t("menu.learn", title=title))
            values.append(ToTutorial(name))
        labels.append(t("menu.settings"))
        values.append("settings")
        labels.append(t("menu.rules"))
        values.append(ToRules())
        return Choice(TITLE, tuple(labels), tuple(values))

    def view(self) -> MenuView | ConfirmView:
        """What the screen shows now."""
        if self.asking is not None and self.aside is not None:
            return ConfirmView(t("kept.new_question"), t("kept.new_detail", title=self.aside))
        value = self.choice.value
        if isinstance(value, ToResume) and value.kept is not None:
            players: str | None = self.kept_players[value.kept]
        else:
            players = self.players if value == "resume" else None
        return MenuView(self.choice, footer=self.note or players)

    def frame(self) -> Image.Image:
        """The picture of ``view()``."""
        return render(self.view())

    def handle(self, event: FlowEvent) -> Reply:
        """Up/down move, OK chooses; a scan here only says what to do. While a new game is
        asked for, OK sets it up and any other button keeps the menu."""
        self.clear()
        if self.asking is not None:
            name, self.asking = self.asking, None
            return Reply(then=ToSetup(name)) if event == Press("ok") else Reply()
        if not isinstance(event, Press):
            return self.tell(t("menu.choose_first"))
        if step_of(event.button):
            self.choice = self.choice.moved(step_of(event.button))
            return Reply()
        if event.button != "ok":
            return Reply()
        value = self.choice.value
        if value == MORE:  # every kept game, the first not shown before chosen
            self.choice = self._choice(all_kept=True).select(ToResume(self.kept[KEPT_SHOWN][2]))
            return Reply()
        if value == "resume":
            return Reply(then=ToResume())
        if value == "settings":
            return Reply(then=ToSettings())
        if isinstance(value, (ToTutorial, ToResume, ToRules)):
            return Reply(then=value)
        if self.aside is not None:
            self.asking = value  # the unfinished game would go aside: ask first
            return Reply()
        return Reply(then=ToSetup(value))
