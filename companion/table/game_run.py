"""One game as the table runs it, from its start to its end: the game, its journal, its play
flow and its score pages. The session (a game of the menu) and the lesson runner (the
lesson's own game, in its own folder) both run their games with it, so that a game starts,
is resumed, is scored, taken back, kept or left the same way wherever it is played.

What a caller does around it differs, and stays the caller's: the session remembers the
names and goes back to the menu; the lesson keeps its steps in step with the game.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.contract import Flow, Note, PlayFlow, Reply
from companion.games.definition import GameDefinition
from companion.table.journal import Journal, archive_unfinished
from companion.table.table_game import TableGame
from companion.table.tag_tracker import TagTracker


class GameRun:
    """The game of ``definition`` played with its journal in ``folder``; ``tracker`` is the
    session's tag tracker (reset when a game comes in). ``play`` is the play flow (None
    before the game starts and once it is kept or left), ``flow`` the game's flow on screen:
    the play flow, or the score pages once the game is over. ``leave_words`` gives the
    question and detail of holding Back in the game when they are not the menu's (a lesson
    comes back through its own line), made when asked, in the language then spoken."""

    def __init__(self, definition: GameDefinition[Any], folder: Path, tracker: TagTracker, *,
                 leave_words: Callable[[], tuple[str, str]] | None = None) -> None:
        self.definition = definition
        self.folder = folder
        self.tracker = tracker
        self.leave_words = leave_words
        self.play: PlayFlow | None = None
        self._flow: Flow | None = None

    @property
    def flow(self) -> Flow:
        """The game's flow on screen: the play flow, or the score pages once it is over."""
        if self._flow is None:
            raise RuntimeError("no game is in play")
        return self._flow

    @property
    def table(self) -> TableGame[Any]:
        """The game as the table plays it."""
        return self.definition.table

    @property
    def game(self) -> Any:
        """The game in play (or whose score is shown); None before it starts and once it is
        kept or left."""
        return self.play.game if self.play is not None else None

    def _play(self) -> PlayFlow:
        if self.play is None:
            raise RuntimeError("no game is in play")
        return self.play

    def start(self, settings: Any, *, hints: bool = False) -> tuple[Any, Note | None]:
        """A finished set-up's ``settings`` start a game, in a new journal: ``(game, the note
        said at its start)``. An unfinished game still waiting in the folder is kept aside,
        never overwritten; ``UserError`` when the folder cannot be written."""
        game, note = self.table.new_game(settings, hints=hints)
        archive_unfinished(self.folder)
        journal = Journal.start(self.folder, self.definition.record.header_line(game))
        self.enter(game, journal)
        return game, note

    def enter(self, game: Any, journal: Journal) -> Flow:
        """``game`` comes in with its ``journal`` (just started, or resumed): its play flow,
        or its score pages when it is over; the flow now on screen."""
        self.tracker.reset()
        self.play = self.table.play(game, journal, self.tracker)
        self.play.leave_words = self.leave_words
        self._flow = self.table.score(game, self.folder) if game.phase == "over" else self.play
        return self._flow

    def score(self) -> Flow:
        """The game is over: its score pages, now on screen."""
        self._flow = self.table.score(self._play().game, self.folder)
        return self._flow

    def back_to_play(self) -> Reply:
        """From the score pages back to the game, its last action taken back. When the
        journal fails, nothing is taken back: the pages stay, saying why."""
        play = self._play()
        undone = play.undo()
        if play.game.phase == "over":
            self.flow.tell(play.note, True)
        else:
            self._flow = play
        return undone

    def finish(self) -> None:
        """Keep the finished record among the finished games; ``UserError`` (the game still
        in play) when the folder fails."""
        self._play().journal.finish()
        self.play = self._flow = None

    def leave(self) -> None:
        """Leave the game for later: its journal stays where it is, to be resumed."""
        if self.play is not None:
            self.play.journal.close()
        self.play = self._flow = None
