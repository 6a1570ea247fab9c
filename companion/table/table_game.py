"""What the table needs of a game: one ``TableGame`` value per game package
(``companion/games/<game>/table_game.py``), reached through the registry
(``companion.games.GAMES[name].table``). The session, the demo, replay and enroll take a
game's parts from it and name no game themselves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from companion.table.flow import Flow
from companion.table.items import EnrollmentStep
from companion.table.journal import Journal
from companion.table.lesson import Lesson
from companion.table.play_flow import PlayFlow
from companion.table.registry import TagRegistry
from companion.table.settings import GameOption
from companion.table.tag_tracker import TagTracker
from companion.voice.lines import GameVoice


@dataclass(frozen=True)
class DemoOptions:
    """What the ``demo`` command passes a game's demo: the seed, the file to write the
    record to, the display, the configured names, the data folder and the pause between
    turns."""

    seed: int
    record: str | None = None
    display: Any = None
    players: tuple[str, ...] = ()
    data_dir: Path | None = None
    delay: float = 0.0


class NewGame(Protocol):
    """A game's ``new_game``: the game a finished set-up starts, from the set-up's
    ``settings`` value, and the note said at its start (or None). ``hints`` is the box's
    Hints setting: a game whose record can say so keeps it there (a resumed game keeps its
    hints, and the after-game review knows the players were coached)."""

    def __call__(self, settings: Any, *, hints: bool = False) -> tuple[Any, str | None]: ...


@dataclass(frozen=True)
class TableGame:
    """One game as the table plays it. Text fields are keys of the word catalogue."""

    item_noun: str       # "A Wakanda piece": said when one of its tags turns up in another game
    game_name: str       # the game's name inside a sentence ("this game is Wakanda")
    resumed: Callable[[Any], str]  # said when an unfinished game comes back: where it resumes
    #: (names offered, rng, data folder, the values of ``settings`` by key) -> the set-up flow
    setup: Callable[[tuple[str, ...], random.Random, Path, Mapping[str, str]], Flow]
    new_game: NewGame                                               # settings -> (game, note)
    play: Callable[[Any, Journal, TagTracker], PlayFlow]            # the play flow of a game
    score: Callable[[Any, Path], Flow]                              # (game, data folder) -> pages
    describe: Callable[[Any, int | None, Any], str]                 # what a move did, one line
    result: Callable[[Any], str]                                    # who won, by how much, why
    frames: Callable[[str, Any], Iterator[tuple[Image.Image, str]]]  # replay: frames(record, data_dir)
    demo: Callable[[DemoOptions], int]                              # bots play a whole game
    enrollment_steps: Callable[[str | None], list[EnrollmentStep]]  # deck file (or None) -> steps
    #: ``enroll --transcribe NAME``: (data folder, name, tag registry) -> the walk through a
    #: physical deck, for a game whose deck is data; None for the others.
    transcription: Callable[[Path, str, TagRegistry], Any] | None = None
    #: The game's own settings on the box's settings page (a variant, a house rule); the
    #: set-up gets their values.
    settings: tuple[GameOption, ...] = ()
    #: ``demo --input``: what the game's last move did, a line each (a round's result after
    #: the placement that ended it); None: the one line of ``describe``.
    narrate: Callable[[Any], list[str]] | None = None
    #: The learn-by-doing lessons of the game (``lessons.py`` of its package), played by the
    #: lesson runner (``tutorial_flow.py``) from the menu's "Learn" and ``tutorial``.
    lessons: Lesson | None = None
    #: What the box's voice says of the game's own views, what it keeps unsaid (hidden
    #: information), and "Where are we?" (``voice.py`` of its package); None: the shared
    #: views' words only.
    voice: GameVoice | None = None
