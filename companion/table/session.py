"""The table session: input events in, the picture and a feedback signal out.

One thread calls ``handle`` for each event (the app loop, the demo, tests); nothing here
touches hardware. The session resolves tags through the registry into typed items, drops
repeated reads, explains unknown tags and tags of another game, and passes the rest to the
flow on screen: the start menu, the set-up, the game, the score pages. What differs between
the games is each game's ``GameDefinition`` (``companion/games/<game>/definition.py``), found
through the registry; a game is run, from its start to its end, by a ``GameRun``, as the
lessons run theirs.

>>> import tempfile
>>> from companion.events import Press
>>> from companion.table.registry import TagRegistry
>>> s = Session(tempfile.mkdtemp(), TagRegistry("tags.json"))
>>> s.screen, s.handle(Press("ok")).signal, s.screen
('menu', None, 'setup')
"""

from __future__ import annotations

import logging
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from PIL import Image

from companion.contract import Flow, PlayFlow
from companion.errors import UserError
from companion.events import Event, PhoneCode, PhoneName, PhoneSetting, ReaderState, Tag, TagGone
from companion.files import FolderError
from companion.games import GAMES, game_of_record
from companion.games.definition import GameDefinition
from companion.signals import Signal
from companion.table.flow import (
    BackToPlay,
    Lift,
    Reply,
    Scan,
    ToFinish,
    ToMenu,
    ToResume,
    ToRules,
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
from companion.table.journal import Journal, SetAside
from companion.table.kept_games import bring_back, kept_games
from companion.table.menu import MenuFlow
from companion.table.registry import TagRegistry
from companion.table.setting_offers import apply, setting_line
from companion.table.settings import MAX_NAMES, SettingsStore
from companion.table.tag_tracker import TagTracker, normalise_uid
from companion.ui.screens import resume_label, resume_players
from companion.ui.text import language, note_text, speaking, t
from companion.words import unreadable_note

if TYPE_CHECKING:  # the lessons, a game's run and Settings are imported when first asked for
    from companion.table.game_run import GameRun
    from companion.table.table_game import TableGame
    from companion.table.tutorial_flow import TutorialFlow

_Method = TypeVar("_Method", bound=Callable[..., Any])


#: The most names phones may have among those the set-ups offer (``MAX_NAMES`` in all).
PHONE_NAMES = 4


def _in_its_language(method: _Method) -> _Method:
    """``method`` of a session, its words made and drawn in the session's language."""
    @wraps(method)
    def spoken(self: Session, *args: Any, **kwargs: Any) -> Any:
        with speaking(self.language):
            return method(self, *args, **kwargs)
    return spoken  # type: ignore[return-value]


def _made_in_its_language(init: _Method) -> _Method:
    """A session's ``__init__``, its first flows made in the language of its ``settings``
    (without them, the language spoken where it is made: a command's, English)."""
    @wraps(init)
    def spoken(self: Session, *args: Any, settings: SettingsStore | None = None, **kwargs: Any) -> None:
        with speaking(settings.language if settings is not None else language()):
            init(self, *args, settings=settings, **kwargs)
    return spoken  # type: ignore[return-value]

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
    ``journal_problem`` in one line for the log (where the whole file was kept). The games
    a new game put aside are offered after it (kept_games.py), the last played first.
    """

    @_made_in_its_language
    def __init__(self, data_dir: str | os.PathLike[str], registry: TagRegistry, *, players: tuple[str, ...] = (),
                 rng: random.Random | None = None, game: str | None = None,
                 settings: SettingsStore | None = None, settings_problem: str | None = None,
                 tutorial: str | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.registry = registry
        self.settings = settings or SettingsStore(None, names=players, language=language())
        self.rng = rng or random.Random()
        self.tracker = TagTracker()
        self.game_name: str | None = None  # the game set up or played; None at the menu
        self.run: GameRun | None = None    # the game in play (or whose score is shown)
        self.journal_problem: str | None = None  # the last damage found in the journal
        self.phone_names: list[str] = []   # names phones added since the box started, oldest first
        words = [entry.words for entry in GAMES.values()]
        menu = self._menu(note=t("session.settings_damaged") if settings_problem else unreadable_note(catalogues=words))
        self.flow: Flow = menu
        self.lesson: TutorialFlow | None = None  # the lesson of Learn, once one is begun
        if game is not None and "resume" not in menu.choice.values:
            self._goto(ToSetup(game))
        if tutorial is not None:
            self._goto(ToTutorial(tutorial))
        self._frame = self.flow.frame()

    # --- what tests and the app read ------------------------------------------------------

    @property
    def language(self) -> str:
        """The box's language (the settings'): what the screens speak. A phone page or a
        voice shows a view's words in it (``companion.ui.text.note_text``, ``speaking``)."""
        return self.settings.language

    @property
    @_in_its_language
    def view(self) -> Any:
        """The current view (``BoardView``, ``MenuView`` …), a plain value."""
        return self.flow.view()

    @property
    @_in_its_language
    def screen(self) -> str:
        """The kind of screen shown: menu, setup (its lists), board, picker, confirm, score."""
        view = self.flow.view()
        return "setup" if self.flow.kind == "setup" else view.kind

    @property
    def message(self) -> str | None:
        """The note on the screen, if any, in words (a refusal with its rule)."""
        return note_text(self.flow.note, self.language)

    @property
    def game(self) -> Any:
        """The game being played (or whose score is shown), a lesson's too; None at the
        menu and set-up."""
        if self.lesson is not None and self.flow is self.lesson:
            return self.lesson.game
        return self.play.game if self.play is not None else None

    @property
    def play(self) -> PlayFlow | None:
        """The play flow of the game in play (or whose score is shown); None otherwise."""
        return self.run.play if self.run is not None else None

    @property
    def sound(self) -> bool:
        """Whether the buzzer sounds (the settings page's sound on or off)."""
        return self.settings.sound

    @property
    def definition(self) -> GameDefinition[Any] | None:
        """The game set up or played (a lesson's too); None at the menu."""
        return GAMES[self.game_name] if self.game_name is not None else None

    @property
    def table_game(self) -> TableGame[Any] | None:
        """The game set up or played, as the table plays it; None at the menu."""
        definition = self.definition
        return definition.table if definition is not None else None

    def frame(self) -> Image.Image:
        """The current picture."""
        return self._frame

    @property
    @_in_its_language
    def working(self) -> bool:
        """Whether the picture shows work under way (``Flow.working``): ``redraw`` then
        gives its progress, up to the work done."""
        return self.flow.working()

    @_in_its_language
    def redraw(self) -> Image.Image:
        """The current picture drawn again, for a screen of work under way."""
        self._frame = self.flow.frame()
        return self._frame

    # --- events ---------------------------------------------------------------------------

    def handle(self, event: Event) -> Output:
        """Take one input event; return the new frame and the feedback signal."""
        with speaking(self.language):
            reply = self._dispatch(event)
            if reply is None:
                return Output(self._frame, None)  # nothing happened: the same frame
            signal = self._follow(reply)
        # Drawn in the language now: the settings page may just have changed it.
        return Output(self.redraw(), signal)

    def _dispatch(self, event: Event) -> Reply | None:
        if isinstance(event, PhoneCode):
            return None  # the app loop's overlay shows a code, never the session's view
        if isinstance(event, PhoneName):
            return self._phone(event)
        if isinstance(event, PhoneSetting):
            return self._phone_setting(event)
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
            item = parse_item(name, self.game_name) if name is not None else None
            self.flow.clear()
            if item is None and normalise_uid(event.uid) is None:
                # Not a UID: a name typed in the simulator or a script that names nothing.
                return self.flow.tell(t("session.no_such_item", name=event.uid), True)
            if item is None:
                return self.flow.tell(t("session.unknown_tag"), True)
            if self.game_name is not None and item.game != self.game_name:
                return self.flow.tell(wrong_game(self.game_name, item.game), True)
            uid = normalise_uid(event.uid)  # None for an item name: pieces not told apart
            if uid is not None:
                self.tracker.identify(uid, item)
            return self.flow.handle(Scan(item, uid, event.reader))
        return self.flow.handle(event)

    def _phone(self, event: PhoneName) -> Reply:
        """A name a paired phone added to the names the set-ups offer, said on the screen
        shown. Phones' names take at most ``PHONE_NAMES`` places and only ever push out
        another phone's name: the names entered on the box (or played) are never lost."""
        self.flow.clear()
        names = self.settings.names
        ours = [n for n in self.phone_names if n in names]  # still offered, oldest first
        drop = None
        if event.name not in names and (len(ours) >= PHONE_NAMES or len(names) >= MAX_NAMES):
            if not ours:
                return self.flow.tell(t("web.names_full"), True)
            drop = ours[0]
        if event.name not in names or event.name in ours:  # a box's name stays the box's
            self.phone_names = [n for n in ours if n not in (drop, event.name)] + [event.name]
        try:
            self.settings.change(names=(event.name, *(n for n in names if n not in (drop, event.name))))
        except UserError:
            return self.flow.tell(t("settings.not_saved"), True)
        return self.flow.tell(t("settings.added", name=event.name))

    def _phone_setting(self, event: PhoneSetting) -> Reply:
        """A setting a paired phone changed (already checked against the offered values):
        applied and saved as on the Settings page, and said on the screen shown, in the
        language now (a new language at once)."""
        from companion.table.settings_flow import SettingsFlow

        before = self.language
        try:
            apply(self.settings, event.game, event.key, event.value)
            saved = True
        except UserError:
            saved = False  # it holds until the box is switched off, as on the Settings page
        with speaking(self.language):
            if isinstance(self.flow, SettingsFlow):
                self.flow.refresh()  # its lines show the values
            elif isinstance(self.flow, MenuFlow) and self.language != before:
                self.flow = self._menu()  # its lines were made in the old language
            self.flow.clear()
            if not saved:
                return self.flow.tell(t("settings.not_saved"), True)
            line = setting_line(event.game, event.key, event.value)
            return self.flow.tell(t("web.setting", setting=line))

    def _lift(self, gone: TagGone) -> Reply | None:
        """A tag left a reader: for a flow that follows the hub's village slots, a ``Lift``
        when the tag is an item of the game in play; otherwise nothing to show (the pad
        only forgets it, so that its next read is a new scan)."""
        if not self.flow.follows_slots or slot_of(gone.reader) is None:
            return None
        name = self.registry.resolve(gone.uid)
        item = parse_item(name, self.game_name) if name is not None else None
        if item is None or item.game != self.game_name:
            return None
        return self.flow.handle(Lift(item, normalise_uid(gone.uid), gone.reader))

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
                from companion.table.settings_flow import SettingsFlow  # like the lessons
                games = [(entry.name, entry.table) for entry in GAMES.values()]
                self.flow = SettingsFlow(self.settings, [
                    (name, option) for name, table in games for option in table.settings],
                    data_dir=self.data_dir)
            case ToStart(settings):
                self._start(settings)
            case ToResume(kept):
                self._resume(kept)
            case ToScore():
                self.flow = self._run().score()
            case BackToPlay():  # the score pages take the last action back
                run = self._run()
                signal = run.back_to_play().signal
                self.flow = run.flow  # the pages stay when the journal failed
                return signal
            case ToFinish():
                self._run().finish()
                self.run = None
                self.game_name = None
                self.flow = self._menu(note=t("session.finished"))
            case ToTutorial(game):
                # The lesson plays its own game in its own journal: a game kept for later
                # stays where it is.
                # Imported when first asked for: the menu is drawn without the lessons.
                from companion.table.tutorial_flow import TutorialFlow

                self.flow = self.lesson = TutorialFlow(game, self.data_dir, self.tracker,
                                                       names=self.settings.names, rng=self.rng)
                self.game_name = game
            case ToRules():
                from companion.table.rules_flow import RulesFlow  # like the lessons

                self.flow = RulesFlow()
            case ToMenu():
                if self.run is not None:
                    self.run.leave()
                self.run = None
                self.game_name = None
                self.flow = self._menu()
        return None

    def _table(self) -> TableGame[Any]:
        table = self.table_game
        if table is None:
            raise RuntimeError("no game is set up")
        return table

    def _play(self) -> PlayFlow:
        if self.play is None:
            raise RuntimeError("no game is in play")
        return self.play

    def _run(self) -> GameRun:
        if self.run is None:
            raise RuntimeError("no game is in play")
        return self.run

    def _definition(self) -> GameDefinition[Any]:
        definition = self.definition
        if definition is None:
            raise RuntimeError("no game is set up")
        return definition

    def _menu(self, note: str | None = None) -> MenuFlow:
        """The start menu, offering the unfinished game when there is one, then each game
        kept for later."""
        titles = tuple((entry.name, entry.shown_title()) for entry in GAMES.values())
        kept = kept_lines(self.data_dir)
        try:
            found = self._unfinished()
        except SetAside:
            return MenuFlow(titles, note=t("session.set_aside"), kept=kept)
        except UserError:
            return MenuFlow(titles, note=note or t("session.unreadable"), kept=kept)
        if found is None:
            return MenuFlow(titles, note=note, kept=kept)
        journal, name, game = found
        if journal.dropped is not None:
            note = t("session.dropped", line=journal.dropped.line)
        journal.close()
        title = GAMES[name].shown_title()
        return MenuFlow(titles, resume_label(title), note, players=resume_players(game.players),
                        kept=kept, aside=title)

    def _unfinished(self) -> tuple[Journal, str, Any] | None:
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

    def _start(self, settings: Any) -> None:
        from companion.table.game_run import GameRun  # with the first game
        run = GameRun(self._definition(), self.data_dir, self.tracker)
        game, note = run.start(settings, hints=self.settings.hints)
        self.run = run
        self.flow = run.flow
        # The names of this game come first at the next set-up; a seat nobody named is not
        # a name to offer, nor a seat the box plays.
        unnamed = {default_name(seat) for seat in range(len(game.players))}
        unnamed |= {game.players[seat] for seat in run.table.box_seats(game)}
        try:
            self.settings.remember([name for name in game.players if name not in unnamed])
        except UserError:
            note = note or t("settings.not_saved")
        if note:
            self._play().tell(note)

    def _resume(self, kept: str | None = None) -> None:
        """Resume the unfinished game, or first bring back the game ``kept`` for later (the
        unfinished one going aside in its place)."""
        try:
            if kept is not None:
                bring_back(self.data_dir, kept)
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

    def _enter(self, game: Any, journal: Journal) -> None:
        from companion.table.game_run import GameRun
        run = GameRun(self._definition(), self.data_dir, self.tracker)
        self.flow = run.enter(game, journal)
        self.run = run


def wrong_game(here: str, other: str) -> str:
    """What a tag of the ``other`` game is doing in the game ``here``: ``A Totem Wars card:
    this game is Wakanda``."""
    return t("wrong_game", item=GAMES[other].text(GAMES[other].table.item_noun),
             game=GAMES[here].text(GAMES[here].table.game_name))


def kept_lines(data_dir: Path) -> tuple[tuple[str, str, str], ...]:
    """The menu's lines of the games kept for later in ``data_dir``: ``(label, players,
    file)``."""
    return tuple((resume_label(GAMES[kept.game].shown_title()), resume_players(kept.players), kept.file)
                 for kept in kept_games(data_dir))


def _read_record(text: str) -> tuple[str, Any]:
    """``(game name, game)`` of a record's text; ``RecordError`` at its first bad line."""
    name = game_of_record(text)
    game, _ = GAMES[name].record.read_record(text, None)
    return name, game
