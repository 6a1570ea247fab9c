"""A game's rule book: every rule of the game by topic, and the rulings that go beyond its
rulebook, in the box's words (``rules_flow.py`` browses it).

Each game gives its book in ``companion/games/<game>/rule_book.py`` as data: the topics in
order, each with its rules in order (the ids of ``rule.<id>.title`` / ``rule.<id>.text``
in the game's catalogue, the why-pages' own), and the rulings. A ruling's page says, after
the rule's own text, what the rulebook says (its words, quoted from the rulebook in that
language), what the box does, why, and the setting that changes it where there is one.
The why-pages show a rule's pages the same way and turn on through the book (``turned``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.games import GAMES
from companion.games.definition import GameDefinition
from companion.table.views import WhyView
from companion.ui.screens import paginate
from companion.ui.text import t


@dataclass(frozen=True)
class Ruling:
    """What the box decides where the rulebook is silent, unclear or leaves a loop open:
    ``rule`` its id; ``rulebook``, ``box`` and ``why`` message keys of the game's catalogue
    (the rulebook's words, what the box does, why); ``setting`` the settings line that
    changes it, as ``(line key, value key)`` for the line as it reads by default, or None."""

    rule: str
    rulebook: str
    box: str
    why: str
    setting: tuple[str, str] | None = None


@dataclass(frozen=True)
class Topic:
    """One topic of the book: ``title`` a message key of the game's catalogue, ``rules``
    the ids of its rules, in order."""

    title: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class RuleBook:
    """A game's whole rule book: its topics in order and its rulings."""

    topics: tuple[Topic, ...]
    rulings: tuple[Ruling, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        """Every rule of the book, topic after topic."""
        return tuple(rule for topic in self.topics for rule in topic.rules)

    def ruling(self, rule: str) -> Ruling | None:
        """The box's ruling on ``rule``, None when the box plays it as the rulebook says."""
        return next((ruling for ruling in self.rulings if ruling.rule == rule), None)

    def topic_of(self, rule: str) -> int:
        """The number (from 0) of the topic holding ``rule``; ``ValueError`` for a rule of
        no topic."""
        for number, topic in enumerate(self.topics):
            if rule in topic.rules:
                return number
        raise ValueError(f"rule {rule} is in no topic of the book")


def rule_parts(entry: GameDefinition[Any], rule: str) -> tuple[str, ...]:
    """The words of ``rule``'s pages, part by part: the rule in the box's words, then, for
    a ruling, the rulebook's words, what the box does, why, and where it is changed."""
    text = entry.text(f"rule.{rule}.text")
    ruling = entry.rule_book.ruling(rule)
    if ruling is None:
        return (text,)
    parts = [text, t("rules.rulebook", words=entry.text(ruling.rulebook)),
             t("rules.box_does", what=entry.text(ruling.box)), t("rules.why", why=entry.text(ruling.why))]
    if ruling.setting is not None:
        line, value = ruling.setting
        parts.append(t("rules.setting", line=entry.text(line, value=entry.text(value))))
    return tuple(parts)


def rule_pages(entry: GameDefinition[Any], rule: str) -> tuple[tuple[str, ...], ...]:
    """``rule_parts`` cut into the pages of the why-pages' screen, each part from the top
    of a page."""
    return tuple(page for part in rule_parts(entry, rule) for page in paginate(part))


def rule_view(entry: GameDefinition[Any], rule: str, *, last: bool = False,
              then: str | None = None) -> WhyView:
    """The pages of ``rule`` of ``entry``'s book, on its first page (``last``: its last)."""
    pages = rule_pages(entry, rule)
    return WhyView(rule, entry.text(f"rule.{rule}.title"), pages, len(pages) - 1 if last else 0,
                   then=then, game=entry.name)


def turned(view: WhyView, step: int) -> WhyView:
    """``view`` turned one page by ``step`` (±1): past its last page the next rule of its
    game's book, before its first the rule before (on its last page); at the book's ends,
    and for pages of no book, it stays."""
    page = view.page + step
    if 0 <= page < len(view.pages):
        return replace(view, page=page)
    if view.game is None:
        return view
    entry = GAMES[view.game]
    rules = entry.rule_book.rules
    if view.rule not in rules:
        return view
    at = rules.index(view.rule) + step
    if not 0 <= at < len(rules):
        return view
    return rule_view(entry, rules[at], last=step < 0, then=view.then)
