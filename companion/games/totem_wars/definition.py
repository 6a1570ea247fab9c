"""Totem Wars as the registry lists it: ``GAME``, its one ``GameDefinition``.

Only its words come with it: its records, report and tags (the engine with them), its table
game (flows, screens, lessons, demo) and its search are imported when first asked for, so
that the menu is drawn without them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from companion.games.definition import GameDefinition, RecordCodec, Report, TagItems
from companion.games.totem_wars.words import WORDS

if TYPE_CHECKING:  # the types only: each comes with the part that gives it
    from collections.abc import Sequence

    from companion.contract import EnrollmentStep, Flow
    from companion.games.totem_wars.game import TotemWars
    from companion.search import Search
    from companion.table.rule_book import RuleBook
    from companion.table.table_game import TableGame


def enrollment_steps(deck_file: str | None) -> Sequence[EnrollmentStep]:
    """The 52 cards of the default deck, or of ``deck_file``, in the deck's order."""
    from companion.games.totem_wars import items
    from companion.games.totem_wars.deck import default_deck, load_deck

    deck = load_deck(deck_file) if deck_file else default_deck()
    return items.enrollment_steps([card.name for card in deck])


def record() -> RecordCodec[TotemWars]:
    """Totem Wars' records (``record.py``)."""
    from companion.games.totem_wars.record import event_line, header_line, read_record
    return RecordCodec(read_record=read_record, header_line=header_line, event_line=event_line)


def report() -> Report[TotemWars]:
    """What ``score`` and ``moves`` print of Totem Wars (``report.py``)."""
    from companion.games.totem_wars.report import format_moves, format_score, moves_json, result_line, score_json
    return Report(score_json=score_json, format_score=format_score, moves_json=moves_json,
                  format_moves=format_moves, result_line=result_line, points="points")


def tag_items() -> TagItems:
    """Totem Wars' cards, which carry the tags (``items.py``)."""
    from companion.games.totem_wars import items
    return TagItems(parse=items.parse, enrollment_steps=enrollment_steps)


def check_data(folder: Path) -> None:
    """Read the data folder's decks (``decks/*.toml``, T1a) and the big game's totals (T16)
    as the game does; ``UserError`` naming the first it would refuse."""
    from companion.games.totem_wars.big_game_store import load_big_game
    from companion.games.totem_wars.deck import DECKS_FOLDER, load_deck

    decks = folder / DECKS_FOLDER
    for path in sorted(decks.glob("*.toml")) if decks.is_dir() else ():
        load_deck(path)
    load_big_game(folder)


def rule_of(flow: Flow) -> str | None:
    """The rule behind what a Totem Wars flow asks now (``rule_pages.rule_of``)."""
    from companion.games.totem_wars.rule_pages import rule_of as rule_of_flow  # with the flows
    return rule_of_flow(flow)


def table() -> TableGame[TotemWars]:
    """Totem Wars as the table plays it (``table_game.py``)."""
    from companion.games.totem_wars.table_game import TABLE_GAME
    return TABLE_GAME


def rule_book() -> RuleBook:
    """Totem Wars's rules by topic and its rulings (``rule_book.py``)."""
    from companion.games.totem_wars.rule_book import RULE_BOOK
    return RULE_BOOK


def search() -> Search:
    """Totem Wars' bots and hints (``search.py``)."""
    from companion.games.totem_wars.search import SEARCH
    return SEARCH


GAME: GameDefinition[TotemWars] = GameDefinition(
    name="totem-wars",
    title="Totem Wars",
    package="companion.games.totem_wars",
    words=WORDS,
    load_record=record,
    load_report=report,
    load_items=tag_items,
    rule_of=rule_of,
    load_table=table,
    load_rule_book=rule_book,
    load_search=search,
    check_data=check_data,
)
