"""Wakanda as the registry lists it: ``GAME``, its one ``GameDefinition``.

Only its words come with it: its records, report and tags (the engine with them), its table
game (flows, screens, lessons, demo) and its search are imported when first asked for, so
that the menu is drawn without them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.games.definition import GameDefinition, RecordCodec, Report, TagItems
from companion.games.wakanda.words import WORDS

if TYPE_CHECKING:  # the types only: each comes with the part that gives it
    from companion.contract import EnrollmentStep, Flow
    from companion.games.wakanda.game import Wakanda
    from companion.search import Search
    from companion.table.rule_book import RuleBook
    from companion.table.table_game import TableGame


def enrollment_steps(deck_file: str | None) -> Sequence[EnrollmentStep]:
    """The pieces, tiles and headdresses to enroll (W1); Wakanda has no deck files."""
    from companion.errors import UsageError
    from companion.games.wakanda import items

    if deck_file:
        raise UsageError("--deck is for --game totem-wars")
    return items.enrollment_steps()


def record() -> RecordCodec[Wakanda]:
    """Wakanda's records (``record.py``)."""
    from companion.games.wakanda.record import event_line, header_line, read_record
    return RecordCodec(read_record=read_record, header_line=header_line, event_line=event_line)


def report() -> Report[Wakanda]:
    """What ``score`` and ``moves`` print of Wakanda (``report.py``)."""
    from companion.games.wakanda.report import (
        format_moves,
        format_review,
        format_score,
        moves_json,
        result_line,
        review_json,
        score_json,
    )
    return Report(score_json=score_json, format_score=format_score, moves_json=moves_json,
                  format_moves=format_moves, result_line=result_line, review_json=review_json,
                  format_review=format_review)


def tag_items() -> TagItems:
    """Wakanda's pieces, tiles and headdresses that carry a tag (``items.py``)."""
    from companion.games.wakanda import items
    return TagItems(parse=items.parse, enrollment_steps=enrollment_steps)


def rule_of(flow: Flow) -> str | None:
    """The rule behind what a Wakanda flow asks now (``rule_pages.rule_of``)."""
    from companion.games.wakanda.rule_pages import rule_of as rule_of_flow  # with the flows
    return rule_of_flow(flow)


def table() -> TableGame[Wakanda]:
    """Wakanda as the table plays it (``table_game.py``)."""
    from companion.games.wakanda.table_game import TABLE_GAME
    return TABLE_GAME


def rule_book() -> RuleBook:
    """Wakanda's rules by topic and its rulings (``rule_book.py``)."""
    from companion.games.wakanda.rule_book import RULE_BOOK
    return RULE_BOOK


def search() -> Search:
    """Wakanda's bots and hints (``search.py``)."""
    from companion.games.wakanda.search import SEARCH
    return SEARCH


GAME: GameDefinition[Wakanda] = GameDefinition(
    name="wakanda",
    title="Wakanda",
    package="companion.games.wakanda",
    words=WORDS,
    load_record=record,
    load_report=report,
    load_items=tag_items,
    rule_of=rule_of,
    load_table=table,
    load_rule_book=rule_book,
    load_search=search,
)
