"""A game's rule book: every rule of the game by topic, and the rulings that go beyond its
rulebook, in the box's words (``rules_flow.py`` browses it).

Each game gives its book in ``companion/games/<game>/rule_book.py`` as data: the topics in
order, each with its rules in order (the ids of ``rule.<id>.title`` / ``rule.<id>.text``
in the game's catalogue, the why-pages' own), and the rulings. A ruling's page says, after
the rule's own text, what the rulebook says (its words, quoted from the rulebook in that
language), what the box does, why, and the setting that changes it where there is one.
The why-pages show a rule's pages the same way and turn on through the book
(``rule_pages.py``).
"""

from __future__ import annotations

from dataclasses import dataclass


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
