"""The rules at hand: the menu's Rules entry browses every rule of a game by topic.

Rules → the game (when there are several) → its topics → a topic's rules (``W4 A turn``,
number first) → the rule's pages, in the box's words; a ruling that goes beyond the
rulebook says so on its pages: what the rulebook says, what the box does, why, and the
setting that changes it (``rule_book.py``). ▲▼ choose and turn the pages; ▼ past a rule's
last page goes on to the next rule of the book, ▲ before its first to the one before, so
the whole book reads through; OK opens, Back goes up a level and, from the top, back to the
menu. The why-pages of the hint button turn on through the book the same way (``turned``).
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from companion.events import Press
from companion.games import GAMES
from companion.games.definition import GameDefinition
from companion.table.choice import Choice, step_of
from companion.table.flow import Flow, Reply, ToMenu
from companion.table.rule_book import RuleBook
from companion.table.rule_pages import rule_view, turned
from companion.table.views import MenuView, WhyView, render
from companion.ui.text import t


class RulesFlow(Flow):
    """The rule books of the games of the registry, from the menu: ``game`` (a record name)
    opens that game's topics; without it, the games are offered first (or the only one
    opened)."""

    kind = "rules"

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.single = game is not None or len(GAMES) == 1
        self.entry: GameDefinition[Any] | None = None
        self.topic: int | None = None
        self.pages: WhyView | None = None
        self.choice = self._games()
        if self.single:
            self._open_game(game or next(iter(GAMES)))

    # --- the levels ------------------------------------------------------------------------

    @staticmethod
    def _games() -> Choice:
        names = tuple(GAMES)
        return Choice(t("menu.rules"), tuple(GAMES[name].shown_title() for name in names), names)

    def _book(self) -> tuple[GameDefinition[Any], RuleBook]:
        if self.entry is None:
            raise RuntimeError("no game is open")
        return self.entry, self.entry.rule_book

    def _open_game(self, name: str, selected: int = 0) -> None:
        self.entry, self.topic = GAMES[name], None
        entry, book = self._book()
        self.choice = Choice(entry.shown_title(),
                             tuple(entry.text(topic.title) for topic in book.topics),
                             tuple(range(len(book.topics)))).select(selected)

    def _open_topic(self, number: int, rule: str | None = None) -> None:
        entry, book = self._book()
        self.topic = number
        topic = book.topics[number]
        labels = tuple(f"{rule} {entry.text(f'rule.{rule}.title')}" for rule in topic.rules)
        self.choice = Choice(entry.text(topic.title), labels, topic.rules)
        if rule is not None:
            self.choice = self.choice.select(rule)

    # --- the picture -----------------------------------------------------------------------

    def view(self) -> MenuView | WhyView:
        """What the screen shows now: a rule's pages, or the list of a level."""
        if self.pages is not None:
            return self.pages
        return MenuView(self.choice, footer=self.note)

    def frame(self) -> Image.Image:
        """The picture of ``view()``."""
        return render(self.view())

    # --- events ----------------------------------------------------------------------------

    def handle(self, event: object) -> Reply:
        """▲▼ choose (or turn the pages), OK opens, Back goes up a level; the rest waits."""
        self.clear()
        if not isinstance(event, Press):
            return Reply()
        step = step_of(event.button)
        if self.pages is not None:
            return self._paging(self.pages, event.button, step)
        if step:
            self.choice = self.choice.moved(step)
        elif event.button == "ok":
            self._open(self.choice.value)
        elif event.button in ("back", "undo"):
            return self._up()
        return Reply()

    def _paging(self, pages: WhyView, button: str, step: int) -> Reply:
        if step:
            self.pages = turned(pages, step)
            entry, book = self._book()
            if self.pages.rule != pages.rule:  # turned on to another rule: its topic's list
                self._open_topic(book.topic_of(self.pages.rule), self.pages.rule)
        elif button in ("ok", "back", "undo", "hint"):
            self.pages = None  # back to the topic's list, at the rule read
        return Reply()

    def _open(self, value: object) -> None:
        if self.entry is None:
            self._open_game(str(value))
        elif self.topic is None:
            self._open_topic(int(str(value)))
        else:
            entry, book = self._book()
            self.pages = rule_view(entry, str(value))

    def _up(self) -> Reply:
        if self.topic is not None:
            self._open_game(self._book()[0].name, self.topic)
            return Reply()
        if self.entry is not None and not self.single:
            name = self.entry.name
            self.entry = None
            self.choice = self._games().select(name)
            return Reply()
        return Reply(then=ToMenu())
