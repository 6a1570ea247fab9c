"""The table session: input events in, the picture and a feedback signal out.

One thread calls ``handle`` for each event (the app loop, the demo, tests); nothing here
touches hardware. The session resolves tags through the registry into typed items, drops
repeated reads, explains unknown tags and tags of another game, and passes the rest to the
flow on screen: the start menu, the set-up, the game, the score pages. What differs between
the games is each game's ``TableGame`` (``companion/games/<game>/table_game.py``), found
through the registry.

>>> import tempfile
>>> from companion.events import Press
>>> from companion.table.registry import TagRegistry
>>> s = Session(tempfile.mkdtemp(), TagRegistry("tags.json"))
>>> s.screen, s.handle(Press("ok")).signal, s.screen
('menu', None, 'setup')
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from companion.errors import UserError
from companion.events import ReaderState, Tag, TagGone
from companion.files import FolderError
from companion.games import GAMES, game_of_record
from companion.signals import Signal
from companion.table.flow import (
    BackToPlay,
    Flow,
    Lift,
    Reply,
    Scan,
    ToFinish,
    ToMenu,
    ToResume,
    ToScore,
    ToSettings,
    ToSetup,
    ToStart,
    ToTutorial,
    Transition,
    default_name,
    slot_of,
)
from companion.table.items import parse_item
from companion.table.journal import Journal, SetAside, archive_unfinished
from companion.table.menu import MenuFlow
from companion.table.play_flow import PlayFlow
from companion.table.registry import normalise_uid
from companion.table.settings import SettingsStore
from companion.table.settings_flow import SettingsFlow
from companion.table.table_game import TableGame
from companion.table.tag_tracker import TagTracker
from companion.table.tutorial_flow import TutorialFlow
from companion.ui.screens import resume_label, resume_players
from companion.ui.text import language, refusal_text, set_language, t

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Output:
    """What one event produced: the frame to show and the signal to play (or None)."""

    frame: Image.Image
    signal: Signal | None = None


class Session:
    """The box's state between events.

    ``data_dir`` holds the journal and the finished games, ``registry`` resolves tags
    (``resolve(token) -> item name | None``), ``rng`` draws lots for the start player.
    ``settings`` are the box's settings (``SettingsStore.load``: the settings page, names
    offered at set-up, language, sound); without them the session keeps its settings in
    memory, offering ``players`` at set-up (demos, tests). ``settings_problem`` (one line:
    the settings file was damaged) is said on the menu. ``game`` (a record name of the
    registry) goes straight to that game's set-up, unless an unfinished game waits to be
    resumed; ``tutorial`` (a record name too) goes straight to that game's lesson.

    An unfinished game whose journal is damaged is resumed without its damaged end, or set
    aside when nothing of it can be read; the menu says so in a few words and
    ``journal_problem`` in one line for the log (where the whole file was kept).
    """

    def __init__(self, data_dir, registry, *, players: tuple[str, ...] = (),
                 rng: random.Random | None = None, game: str | None = None,
                 settings: SettingsStore | None = None, settings_problem: str | None = None,
                 tutorial: str | None = None):
        self.data_dir = Path(data_dir)
        self.registry = registry
        self.settings = settings or SettingsStore(None, names=players, language=language())
        if self.settings.language != language():
            set_language(self.settings.language)
        self.rng = rng or random.Random()
        self.tracker = TagTracker()
        self.game_name: str | None = None  # the game set up or played; None at the menu
        self.play: PlayFlow | None = None
        self.journal_problem: str | None = None  # the last damage found in the journal
        menu = self._menu(note=t("session.settings_damaged") if settings_problem else None)
        self.flow: Flow = menu
        if game is not None and "resume" not in menu.choice.values:
            self._goto(ToSetup(game))
        if tutorial is not None:
            self._goto(ToTutorial(tutorial))
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
        """The note on the screen, if any, in words (a refusal with its rule)."""
        note = self.flow.note
        return note if note is None or isinstance(note, str) else refusal_text(note)

    @property
    def game(self):
        """The game being played (or whose score is shown), a lesson's too; None at the
        menu and set-up."""
        if isinstance(self.flow, TutorialFlow):
            return self.flow.game
        return self.play.game if self.play is not None else None

    @property
    def sound(self) -> bool:
        """Whether the buzzer sounds (the settings page's sound on or off)."""
        return self.settings.sound

    @property
    def table_game(self) -> TableGame | None:
        """The game set up or played, as the table plays it; None at the menu."""
        return GAMES[self.game_name].table if self.game_name is not None else None

    def frame(self) -> Image.Image:
        """The current picture."""
        return self._frame

    @property
    def working(self) -> bool:
        """Whether the picture shows work under way (``Flow.working``): ``redraw`` then
        gives its progress, up to the work done."""
        return self.flow.working()

    def redraw(self) -> Image.Image:
        """The current picture drawn again, for a screen of work under way."""
        self._frame = self.flow.frame()
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
            return self._lift(event)
        if isinstance(event, ReaderState):
            if not event.connected:
                self.tracker.reader_lost(event.reader)
            if self.flow.follows_slots:
                self.flow.handle(event)  # whether the hub and its slots can see the board
            self.flow.clear()
            if event.connected:
                return self.flow.tell(t("session.reader_on"))
            return self.flow.tell(t("session.reader_off"), True)
        if isinstance(event, Tag):
            if not self.tracker.arrive(event.uid, event.reader):
                return None  # a repeated read of a tag still on the reader
            name = self.registry.resolve(event.uid)
            item = parse_item(name) if name is not None else None
            self.flow.clear()
            if item is None and normalise_uid(event.uid) is None:
                # Not a UID: a name typed in the simulator or a script that names nothing.
                return self.flow.tell(t("session.no_such_item", name=event.uid), True)
            if item is None:
                return self.flow.tell(t("session.unknown_tag"), True)
            if self.game_name is not None and item.game != self.game_name:
                return self.flow.tell(self._wrong_game(item.game), True)
            uid = normalise_uid(event.uid)  # None for an item name: pieces not told apart
            if uid is not None:
                self.tracker.identify(uid, item)
            event = Scan(item, uid, event.reader)
        return self.flow.handle(event)

    def _lift(self, gone: TagGone) -> Reply | None:
        """A tag left a reader: for a flow that follows the hub's village slots, a ``Lift``
        when the tag is an item of the game in play; otherwise nothing to show (the pad
        only forgets it, so that its next read is a new scan)."""
        if not self.flow.follows_slots or slot_of(gone.reader) is None:
            return None
        name = self.registry.resolve(gone.uid)
        item = parse_item(name) if name is not None else None
        if item is None or item.game != self.game_name:
            return None
        return self.flow.handle(Lift(item, normalise_uid(gone.uid), gone.reader))

    def _wrong_game(self, other: str) -> str:
        """What a tag of the ``other`` game is doing here: ``A Totem Wars card: this game is
        Wakanda``."""
        here, there = self._table(), GAMES[other].table
        return t("wrong_game", item=GAMES[other].text(there.item_noun),
                 game=GAMES[str(self.game_name)].text(here.game_name))

    def _follow(self, reply: Reply) -> Signal | None:
        """Switch flows as the reply asks; returns the signal to play."""
        if reply.then is None:
            return reply.signal
        try:
            return self._goto(reply.then) or reply.signal
        except FolderError as exc:
            # The data folder failed us (full, read-only): say so in the screen's words, its
            # full reason in the log; lose nothing. A finished game stays in the journal: OK
            # on its last page tries to keep it again.
            _log.warning("%s", exc)
            key = "session.not_kept" if isinstance(reply.then, ToFinish) else "session.not_started" \
                if isinstance(reply.then, ToStart) else "session.data_failed"
            self.flow.tell(t(key, reason=t(f"data.{exc.kind}")), True)
            return Signal.REFUSED
        except UserError as exc:
            self.flow.tell(str(exc), True)
            return Signal.REFUSED

    def _goto(self, then: Transition) -> Signal | None:
        """Go where a reply sends the session; the signal, when the step decides one."""
        match then:
            case ToSetup(game):
                self.game_name = game
                table = self._table()
                options = self.settings.options(game, table.settings)
                self.flow = table.setup(self.settings.names, self.rng, self.data_dir, options)
            case ToSettings():
                games = [(entry.name, entry.table) for entry in GAMES.values()]
                self.flow = SettingsFlow(self.settings, [
                    (name, option) for name, table in games for option in table.settings])
            case ToStart(settings):
                self._start(settings)
            case ToResume():
                self._resume()
            case ToScore():
                self.flow = self._table().score(self._play().game, self.data_dir)
            case BackToPlay():  # the score pages take the last action back
                play = self._play()
                signal = play.undo().signal
                if play.game.phase == "over":
                    # Not taken back (the journal failed): the pages stay, with the reason.
                    self.flow.tell(play.note, True)
                else:
                    self.flow = play
                return signal
            case ToFinish():
                self._play().journal.finish()
                self.play = self.game_name = None
                self.flow = self._menu(note=t("session.finished"))
            case ToTutorial(game):
                # The lesson plays its own game in its own journal: a game kept for later
                # stays where it is.
                self.flow = TutorialFlow(game, self.data_dir, self.tracker,
                                         names=self.settings.names, rng=self.rng)
                self.game_name = game
            case ToMenu():
                if self.play is not None:
                    self.play.journal.close()
                self.play = self.game_name = None
                self.flow = self._menu()
        return None

    def _table(self) -> TableGame:
        table = self.table_game
        if table is None:
            raise RuntimeError("no game is set up")
        return table

    def _play(self) -> PlayFlow:
        if self.play is None:
            raise RuntimeError("no game is in play")
        return self.play

    def _menu(self, note: str | None = None) -> MenuFlow:
        """The start menu, offering the unfinished game when there is one."""
        titles = tuple((entry.name, entry.shown_title()) for entry in GAMES.values())
        try:
            found = self._unfinished()
        except SetAside:
            return MenuFlow(titles, note=t("session.set_aside"))
        except UserError:
            return MenuFlow(titles, note=note or t("session.unreadable"))
        if found is None:
            return MenuFlow(titles, note=note)
        journal, name, game = found
        if journal.dropped is not None:
            note = t("session.dropped", line=journal.dropped.line)
        journal.close()
        return MenuFlow(titles, resume_label(GAMES[name].shown_title()), note,
                        players=resume_players(game.players))

    def _unfinished(self):
        """``(journal, game name, game)`` of the unfinished game, or None. A damaged end
        left out, or a game set aside (``SetAside``), is told in ``journal_problem``;
        ``UserError`` when the data folder cannot be read or written."""
        try:
            found = Journal.resume(self.data_dir, _read_record)
        except SetAside as exc:
            self.journal_problem = str(exc)
            raise
        if found is None:
            return None
        journal, (name, game) = found
        if journal.dropped is not None:
            self.journal_problem = str(journal.dropped)
        return journal, name, game

    def _start(self, settings) -> None:
        game, note = self._table().new_game(settings, hints=self.settings.hints)
        # An unfinished game still waiting is kept aside, never overwritten.
        archive_unfinished(self.data_dir)
        journal = Journal.start(self.data_dir, GAMES[str(self.game_name)].engine.header_line(game))
        self._enter(game, journal)
        # The names of this game come first at the next set-up; a seat nobody named is not
        # a name to offer, nor a seat the box plays (a game's ``box``: seat → level).
        unnamed = {default_name(seat) for seat in range(len(game.players))}
        unnamed |= {game.players[seat] for seat in getattr(game, "box", {})}
        try:
            self.settings.remember([name for name in game.players if name not in unnamed])
        except UserError:
            note = note or t("settings.not_saved")
        if note:
            self._play().tell(note)

    def _resume(self) -> None:
        try:
            found = self._unfinished()
        except SetAside:
            self.flow = self._menu(note=t("session.set_aside"))
            return
        except UserError as exc:
            self.flow = self._menu(note=t("session.cannot_resume", reason=exc))
            return
        if found is None:
            self.flow = self._menu(note=t("session.nothing_to_resume"))
            return
        journal, self.game_name, game = found
        self._enter(game, journal)
        if self.flow is self.play:
            self._play().tell(self._table().resumed(game))

    def _enter(self, game, journal: Journal) -> None:
        self.tracker.reset()
        table = self._table()
        self.play = table.play(game, journal, self.tracker)
        over = game.phase == "over"
        self.flow = table.score(game, self.data_dir) if over else self.play


def _read_record(text: str):
    """``(game name, game)`` of a record's text; ``RecordError`` at its first bad line."""
    name = game_of_record(text)
    game, _ = GAMES[name].engine.read_record(text)
    return name, game
