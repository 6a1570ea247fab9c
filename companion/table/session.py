"""The table session: input events in, the picture and a feedback signal out.

One thread calls ``handle`` for each event (the app loop, the demo, tests); nothing here
touches hardware. The session resolves tags through the registry, drops repeated reads,
explains unknown tags and tags of the other game, and passes the rest to the flow on
screen: the start menu, the set-up, the game, the score pages. What differs between the
games is in ``table_games``.

>>> import tempfile
>>> from companion.events import Press
>>> from companion.table.registry import TagRegistry
>>> s = Session(tempfile.mkdtemp(), TagRegistry("tags.json"))
>>> s.screen, s.handle(Press("ok")).signal, s.screen
('menu', None, 'setup')
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from companion.errors import UserError
from companion.events import ReaderState, Tag, TagGone
from companion.games import game_of_record
from companion.table.flow import REFUSED, Flow, Reply, Scan
from companion.table.items import game_of_item
from companion.table.journal import Journal, archive_unfinished
from companion.table.menu import MenuFlow
from companion.table.registry import normalise_uid
from companion.table.table_games import TABLE_GAMES, TableGame
from companion.table.tag_tracker import TagTracker
from companion.ui.canvas import MEDIUM, WIDTH
from companion.ui.text import t
from companion.ui.wakanda_screens import short_name

#: Characters of a menu line in the medium font (menu_screen keeps 14 pixels for its marks).
MENU_LINE_CHARS = (WIDTH - 14) // MEDIUM.width


@dataclass(frozen=True)
class Output:
    """What one event produced: the frame to show and the signal to play (or None)."""

    frame: Image.Image
    signal: str | None = None


def resume_label(game) -> str:
    """The menu line offering an unfinished game: ``Resume Ana v Ben``; long names are cut
    (``Resume P1 v P2``) so that the line fits the menu and still says whose game it is;
    three or four players are named by the first and a count (``Resume Ana +2``)."""
    names = game.players
    if len(names) > 2:
        more = len(names) - 1
        room = MENU_LINE_CHARS - len(t("menu.resume_more", name="", more=more))
        return t("menu.resume_more", name=names[0][:room], more=more)
    a, b = names
    label = t("menu.resume", a=a, b=b)
    if len(label) <= MENU_LINE_CHARS:
        return label
    room = (MENU_LINE_CHARS - len(t("menu.resume", a="", b=""))) // 2
    return t("menu.resume", a=short_name(a, b, room), b=short_name(b, a, room))


class Session:
    """The box's state between events.

    ``data_dir`` holds the journal and the finished games, ``registry`` resolves tags
    (``resolve(token) -> item | None``), ``players`` are the names offered at set-up,
    ``rng`` draws lots for the start player. ``game`` (``wakanda`` or ``totem-wars``) goes
    straight to that game's set-up, unless an unfinished game waits to be resumed.
    """

    def __init__(self, data_dir, registry, *, players: tuple[str, ...] = (),
                 rng: random.Random | None = None, game: str | None = None):
        self.data_dir = Path(data_dir)
        self.registry = registry
        self.players = tuple(players)
        self.rng = rng or random.Random()
        self.tracker = TagTracker()
        self.table_game: TableGame | None = None  # the game set up or played; None at the menu
        self.play: Flow | None = None
        self.flow = self._menu()
        if game is not None and "resume" not in self.flow.choice.values:
            self._goto(Reply(goto="setup", payload=game))
        self._frame = self.flow.frame()

    # --- what tests and the app read ------------------------------------------------------

    @property
    def view(self):
        """The current view (``BoardView``, ``MenuView`` …), a plain value."""
        return self.flow.view()

    @property
    def screen(self) -> str:
        """The kind of screen shown: menu, setup (its lists), board, picker, confirm, score."""
        view = self.flow.view()
        return "setup" if self.flow.kind == "setup" else view.kind

    @property
    def message(self) -> str | None:
        """The one-line note on the screen, if any."""
        return self.flow.note

    @property
    def game(self):
        """The game being played (or whose score is shown); None at the menu and set-up."""
        return self.play.game if self.play is not None else None

    def frame(self) -> Image.Image:
        """The current picture."""
        return self._frame

    # --- events ---------------------------------------------------------------------------

    def handle(self, event) -> Output:
        """Take one input event; return the new frame and the feedback signal."""
        reply = self._dispatch(event)
        if reply is None:
            return Output(self._frame, None)  # nothing happened: the same frame
        signal = self._follow(reply)
        self._frame = self.flow.frame()
        return Output(self._frame, signal)

    def _dispatch(self, event) -> Reply | None:
        if isinstance(event, TagGone):
            self.tracker.leave(event.uid, event.reader)
            return None
        if isinstance(event, ReaderState):
            self.flow.clear()
            if event.connected:
                return self.flow.tell(t("session.reader_on"))
            self.tracker.reader_lost(event.reader)
            return self.flow.tell(t("session.reader_off"), True)
        if isinstance(event, Tag):
            if not self.tracker.arrive(event.uid, event.reader):
                return None  # a repeated read of a tag still on the reader
            item = self.registry.resolve(event.uid)
            self.flow.clear()
            if item is None:
                return self.flow.tell(t("session.unknown_tag"), True)
            if self.table_game is not None and game_of_item(item) != self.table_game.name:
                return self.flow.tell(t(self.table_game.wrong_item), True)
            uid = normalise_uid(event.uid)  # None for an item name: pieces not told apart
            event = Scan(item, uid, event.reader)
        return self.flow.handle(event)

    def _follow(self, reply: Reply) -> str | None:
        """Switch flows as the reply asks; returns the signal to play."""
        try:
            return self._goto(reply)
        except UserError as exc:
            # The data folder failed us (full, read-only): say so, lose nothing.
            self.flow.tell(str(exc), True)
            return REFUSED

    def _goto(self, reply: Reply) -> str | None:
        goto = reply.goto
        if goto is None:
            return reply.signal
        if goto == "setup":
            self.table_game = TABLE_GAMES[reply.payload]
            self.flow = self.table_game.setup(self)
        elif goto == "start":
            self._start(reply.payload)
        elif goto == "resume":
            self._resume()
        elif goto == "score":
            self.flow = self.table_game.score(self.play.game, self.data_dir)
        elif goto == "play":  # the score pages take the last action back
            signal = self.play.undo().signal
            if self.play.game.phase == "over":
                # Not taken back (the journal failed): the pages stay, with the reason.
                self.flow.tell(self.play.note, True)
            else:
                self.flow = self.play
            return signal
        elif goto == "finish":
            self.play.journal.finish()
            self.play = self.table_game = None
            self.flow = self._menu(note=t("session.finished"))
        elif goto == "menu":
            if self.play is not None:
                self.play.journal.close()
            self.play = self.table_game = None
            self.flow = self._menu()
        return reply.signal

    def _menu(self, note: str | None = None) -> MenuFlow:
        """The start menu, offering the unfinished game when there is one."""
        titles = tuple((game.name, game.title) for game in TABLE_GAMES.values())
        try:
            found = self._unfinished()
        except UserError:
            return MenuFlow(titles, note=note or t("session.unreadable"))
        if found is None:
            return MenuFlow(titles, note=note)
        journal, _, game = found
        journal.close()
        return MenuFlow(titles, resume_label(game), note)

    def _unfinished(self):
        """``(journal, table game, game)`` of the unfinished game, or None; ``UserError``
        (the journal closed again) when its record cannot be read."""
        found = Journal.resume(self.data_dir)
        if found is None:
            return None
        journal, text = found
        try:
            table_game = TABLE_GAMES[game_of_record(text)]
            game, _ = table_game.engine.read_record(text)
        except UserError:
            journal.close()
            raise
        return journal, table_game, game

    def _start(self, settings) -> None:
        game, note = self.table_game.new_game(settings)
        # An unfinished game still waiting is kept aside, never overwritten.
        archive_unfinished(self.data_dir)
        journal = Journal.start(self.data_dir, self.table_game.engine.header_line(game))
        self._enter(game, journal)
        if note:
            self.play.tell(note)

    def _resume(self) -> None:
        try:
            found = self._unfinished()
        except UserError as exc:
            self.flow = self._menu(note=t("session.cannot_resume", reason=exc))
            return
        if found is None:
            self.flow = self._menu(note=t("session.nothing_to_resume"))
            return
        journal, self.table_game, game = found
        self._enter(game, journal)
        if self.flow is self.play:
            self.play.tell(t(self.table_game.resumed))

    def _enter(self, game, journal: Journal) -> None:
        self.tracker.reset()
        self.play = self.table_game.play(game, journal, self.tracker)
        over = game.phase == "over"
        self.flow = self.table_game.score(game, self.data_dir) if over else self.play
