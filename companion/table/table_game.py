"""What the table needs of a game: one ``TableGame`` value per game package
(``companion/games/<game>/table_game.py``), reached through the game's definition
(``companion.games.GAMES[name].table``, imported when the game is first set up or played).
The session, the lessons, the demo and replay take a game's parts from it and name no game
themselves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from PIL import Image

from companion.contract import Flow, Note, PlayFlow, Tags
from companion.game_phone import GamePhone
from companion.table.journal import Journal
from companion.table.lesson import Lesson
from companion.table.public_view import GamePublic
from companion.table.settings import GameOption
from companion.table.tag_tracker import TagTracker
from companion.voice.lines import GameVoice

#: The game state a table game plays (``Wakanda``, ``TotemWars``).
G = TypeVar("G")
G_co = TypeVar("G_co", covariant=True)


class Display(Protocol):
    """What a demo shows its frames on (a display of ``hardware/``)."""

    def show(self, image: Image.Image) -> int:
        """Show ``image``; the bytes (or characters) sent, 0 if unchanged."""
        ...

    def close(self) -> None:
        """Release the device."""
        ...


@dataclass(frozen=True)
class DemoOptions:
    """What the ``demo`` command passes a game's demo: the seed, the file to write the
    record to, the display, the configured names, the data folder, the pause between
    turns and the seat the box plays (``--box``)."""

    seed: int
    record: str | None = None
    display: Display | None = None
    players: tuple[str, ...] = ()
    data_dir: Path | None = None
    delay: float = 0.0
    box: int | None = None  # a seat (from 0) the box plays, for a game whose box can


class NewGame(Protocol[G_co]):
    """A game's ``new_game``: the game a finished set-up starts, from the set-up's
    ``settings`` value (``ToStart.settings``: the game's own set-up value, which only the
    game reads), and the note said at its start (or None). ``hints`` is the box's Hints
    setting: a game whose record can say so keeps it there (a resumed game keeps its hints,
    and the after-game review knows the players were coached)."""

    def __call__(self, settings: Any, *, hints: bool = False) -> tuple[G_co, Note | None]: ...


class Frames(Protocol):
    """``replay``: the frames of a record (``data_dir``: where it may name a deck), each with
    a note of what its line did."""

    def __call__(self, text: str, data_dir: Path | None = None, /) -> Iterator[tuple[Image.Image, str]]: ...


class Transcription(Protocol):
    """``enroll --transcribe``: the walk through a physical deck into ``path``; each event
    answers with a step (what to say), until ``finished``."""

    path: Path

    @property
    def finished(self) -> bool: ...

    def handle(self, event: object) -> Any: ...

    def frame(self, note: str | None = None) -> Image.Image: ...


def no_box_seats(game: object) -> frozenset[int]:
    """The seats the box plays in a game that has no box player: none."""
    return frozenset()


@dataclass(frozen=True)
class TableGame(Generic[G]):
    """One game as the table plays it, in its state type ``G``. Text fields are keys of the
    word catalogue."""

    item_noun: str       # "A Wakanda piece": said when one of its tags turns up in another game
    game_name: str       # the game's name inside a sentence ("this game is Wakanda")
    resumed: Callable[[G], Note]  # said when an unfinished game comes back: where it resumes
    #: (names offered, rng, data folder, the values of ``settings`` by key) -> the set-up flow
    setup: Callable[[tuple[str, ...], random.Random, Path, Mapping[str, str]], Flow]
    new_game: NewGame[G]                                            # settings -> (game, note)
    play: Callable[[G, Journal, TagTracker], PlayFlow]              # the play flow of a game
    score: Callable[[G, Path], Flow]                                # (game, data folder) -> pages
    describe: Callable[[G, int | None, Any], str]                   # what a move did, one line
    frames: Frames                                                  # replay: frames(record, data_dir)
    demo: Callable[[DemoOptions], int]                              # bots play a whole game
    #: ``enroll --transcribe NAME``: (data folder, name, tag registry) -> the walk through a
    #: physical deck, for a game whose deck is data; None for the others.
    transcription: Callable[[Path, str, Tags], Transcription] | None = None
    #: The game's own settings on the box's settings page (a variant, a house rule); the
    #: set-up gets their values.
    settings: tuple[GameOption, ...] = ()
    #: ``demo --input``: what the game's last move did, a line each (a round's result after
    #: the placement that ended it); None: the one line of ``describe``.
    narrate: Callable[[G], list[str]] | None = None
    #: The learn-by-doing lessons of the game (``lessons.py`` of its package), played by the
    #: lesson runner (``tutorial_flow.py``) from the menu's "Learn" and ``tutorial``.
    lessons: Lesson | None = None
    #: The seats the box itself plays in a game (none are names to offer at the next set-up).
    box_seats: Callable[[G], Collection[int]] = no_box_seats
    #: What the box's voice says of the game's own views, what it keeps unsaid (hidden
    #: information), and "Where are we?" (``voice.py`` of its package); None: the shared
    #: views' words only.
    voice: GameVoice | None = None
    #: What the phone page shows of the game's own views and keeps from them (hidden
    #: information), and its figures in past games (``phone.py`` of its package); None:
    #: the shared views' words only.
    phone: GamePhone | None = None
    #: What anyone away from the box may see of the game's views (hidden information kept
    #: from the phone page, its event stream and the voice alike: ``public.py`` of its
    #: package, ``companion/table/public_view.py``); None: everything the OLED shows.
    public: GamePublic | None = None
