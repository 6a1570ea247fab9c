"""The rule book of Wakanda (``companion/table/rule_book.py``): every rule of
rules/wakanda.md by topic, the lessons' topics, and the ruling that goes beyond the
rulebook: a claim of an empty village (R1), changed by the Empty claim setting."""

from __future__ import annotations

from companion.table.rule_book import RuleBook, Ruling, Topic

RULE_BOOK = RuleBook(
    topics=(
        Topic("tutorial.topic.pieces", ("W1", "R8")),
        Topic("tutorial.topic.setup", ("W2", "W3", "W10")),
        Topic("tutorial.topic.turn", ("W4", "W5", "R3", "R2")),
        Topic("tutorial.topic.claim", ("R1", "W6")),
        Topic("tutorial.topic.scores", ("W7", "R4", "R5", "W8", "R7", "W9", "R6")),
    ),
    rulings=(
        Ruling("R1", "rulebook.R1.says", "rulebook.R1.box", "rulebook.R1.why",
               setting=("settings.wakanda.empty_claim", "settings.wakanda.when_stuck")),
    ),
)
