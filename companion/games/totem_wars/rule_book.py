"""The rule book of Totem Wars (``companion/table/rule_book.py``): every rule of
rules/totem-wars.md by topic, and the rulings that go beyond the rulebook: the habitat of a
two-habitat totem in a war (R2), the cards of a round nobody wins once the deck is empty
(R4), and the big game's dealer and ties at 42 (T16; the set-up asks who deals, offering
the next seat first, since the rulebook leaves it to the table)."""

from __future__ import annotations

from companion.table.rule_book import RuleBook, Ruling, Topic

RULE_BOOK = RuleBook(
    topics=(
        Topic("rulebook.topic.deal", ("T1", "T1a", "T2", "T3")),
        Topic("tutorial.topic.round", ("T4", "T5", "T6", "T14", "T7", "T8", "R1")),
        Topic("tutorial.topic.result", ("T9", "T10", "R2", "T11", "R3", "T12", "R4", "T13")),
        Topic("rulebook.topic.end", ("T15", "T16")),
    ),
    rulings=(
        Ruling("R2", "rulebook.R2.says", "rulebook.R2.box", "rulebook.R2.why"),
        Ruling("R4", "rulebook.R4.says", "rulebook.R4.box", "rulebook.R4.why"),
        Ruling("T16", "rulebook.T16.says", "rulebook.T16.box", "rulebook.T16.why"),
    ),
)
