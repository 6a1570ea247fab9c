"""What a game is to the rest of the box: one ``GameDefinition`` value per game package
(``companion/games/<game>/definition.py``: ``GAME``), listed by the registry
(``companion/games/__init__.py``). The command line, the session, the tutorial, the search
and the why-pages take a game's parts from it and name no game.

It lives beside the registry, not in ``companion/table/``: the record commands (``score``,
``moves``, ``hint``) take it without the table. It names only what a game gives — the game
contract (``companion/contract.py``) and the value types of a table game, a lesson, a rule
book and a search —, never the table's flows, so that the registry and the table can both
import it and no import goes round in a circle. A game's heavy parts — its flows, screens,
lessons and bots — come through ``load_table`` and ``load_search``, imported the first time
a game is set up, played or asked for a hint: the menu is drawn before any of them is
needed. Its records, report and tag items come through ``load_record``, ``load_report`` and
``load_items``, imported the first time a record is read or written, a score shown or a tag
read: the menu needs only a definition's name and words, so a game's engine is not imported
to draw it (a Pi Zero 2 W takes most of a second over both engines).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:  # the types only: each is imported with the part of a game that gives it
    from companion.contract import EnrollmentStep, Flow, Item
    from companion.search import Search
    from companion.table.lesson import Lesson
    from companion.table.rule_book import RuleBook
    from companion.table.table_game import TableGame
    from companion.words import Catalogue

#: The game state a definition is about (``Wakanda``, ``TotemWars``).
G = TypeVar("G")

#: A record line (the header, an event) as the JSON object it is written as.
Line = dict[str, Any]


@dataclass(frozen=True)
class RecordCodec(Generic[G]):
    """The game's records (rules/*.md, "Game record format").

    ``read_record(text, data_dir)`` replays a record: ``(game, warnings)``, ``RecordError``
    at its first bad line (``data_dir``: the data folder, where a record may name a deck);
    ``header_line(game)`` is its first line, ``event_line(player, move)`` one line a move."""

    read_record: Callable[[str, Path | None], tuple[G, list[str]]]
    header_line: Callable[[G], Line]
    event_line: Callable[[int | None, Any], Line]


@dataclass(frozen=True)
class Report(Generic[G]):
    """What ``score`` and ``moves`` print of a game, and its result in one line.

    ``review_json``/``format_review`` (``score --review``): where each player lost the
    most points; None for a game with no review. ``points``: the key of each player's
    points in ``score_json``'s ``players`` (the club ranks and shows them)."""

    score_json: Callable[[G], Line]
    format_score: Callable[[G], str]
    moves_json: Callable[[G], Line]
    format_moves: Callable[[G], str]
    result_line: Callable[[G], str]
    review_json: Callable[[G], Line] | None = None
    format_review: Callable[[G], str] | None = None
    points: str = "total"


@dataclass(frozen=True)
class TagItems:
    """The things of the game that carry a tag.

    ``parse(name)`` is the typed item of an item name (tags.json, input scripts), None for
    a name the game does not know; ``enrollment_steps(deck_file)`` the tags ``enroll``
    walks through (``deck_file``: a deck of the game's, for a game whose deck is data;
    ``UsageError`` for a game that has none)."""

    parse: Callable[[str], Item | None]
    enrollment_steps: Callable[[str | None], Sequence[EnrollmentStep]]


@dataclass(frozen=True)
class GameDefinition(Generic[G]):
    """One game, whole: what every part of the box takes of it.

    ``name`` is its record name (``--game``, record headers, item names' game), ``title``
    its English title (the command line's), ``package`` its package (its folder, for the
    layout's checks). ``words`` is its gettext catalogue (``<package>/locale``), which goes
    on into the shared words. ``load_record``, ``load_report`` and ``load_items`` give its
    ``record``, ``report`` and ``items``, imported when first asked for. ``rule_of(flow)``
    is the rule behind what a flow of this game asks now (the why-pages, when no refusal on
    screen cites one); None for a flow of another game or kind. ``load_table`` gives the
    game as the table plays it, imported when first asked for (``table``);
    ``load_rule_book`` its rules by topic and its rulings (``rule_book``: the Rules pages,
    the why-pages); ``load_search`` its bots and hints (``search``), None for a game without
    them. ``check_data(folder)`` reads the game's own files of a data folder (decks, totals)
    as the game reads them, ``UserError`` for one it would refuse (``restore`` checks a
    backup with it); None for a game that keeps none.
    """

    name: str
    title: str
    package: str
    words: Catalogue
    load_record: Callable[[], RecordCodec[G]]
    load_report: Callable[[], Report[G]]
    load_items: Callable[[], TagItems]
    rule_of: Callable[[Flow], str | None]
    load_table: Callable[[], TableGame[G]]
    load_rule_book: Callable[[], RuleBook]
    load_search: Callable[[], Search] | None = None
    check_data: Callable[[Path], None] | None = None

    @property
    def domain(self) -> str:
        """The gettext domain of the game's words (``wakanda``, ``totem_wars``)."""
        return self.words.domain

    def text(self, key: str, lang: str | None = None, **fields: Any) -> str:
        """A message of the game's (or the shared) words in ``lang`` (default: the box's)."""
        return self.words.t(key, lang, **fields)

    def shown_title(self, lang: str | None = None) -> str:
        """The game's title as the menu shows it, in ``lang`` (default: the box's)."""
        return self.text(f"game.{self.domain}", lang)

    @cached_property
    def record(self) -> RecordCodec[G]:
        """The game's records (imported the first time they are asked for)."""
        return self.load_record()

    @cached_property
    def report(self) -> Report[G]:
        """What ``score`` and ``moves`` print of the game (imported when first asked for)."""
        return self.load_report()

    @cached_property
    def items(self) -> TagItems:
        """The things of the game that carry a tag (imported when first asked for)."""
        return self.load_items()

    @cached_property
    def table(self) -> TableGame[G]:
        """The game as the table plays it: set-up, play and score flows, lessons, demo,
        replay (imported the first time it is asked for)."""
        return self.load_table()

    @cached_property
    def rule_book(self) -> RuleBook:
        """Every rule of the game by topic, and the rulings that go beyond its rulebook
        (imported the first time it is asked for)."""
        return self.load_rule_book()

    @property
    def lessons(self) -> Lesson | None:
        """The game's learn-by-doing lessons (with its table game); None when it has none."""
        return self.table.lessons

    @cached_property
    def search(self) -> Search | None:
        """The game's bots and hints (levels, ``suggest``, ``duel``); None when it has none."""
        return self.load_search() if self.load_search is not None else None
