"""The lesson runner: a game's lessons (``companion/games/<game>/lessons.py``, reached through
the registry) played over the game's own flows.

The runner wraps the game's real set-up, play and score flows, so every action of a lesson
is a real action of a real game — checked by the rules engine, written to the journal, run
by the same ``GameRun`` as a game of the menu — and lays its own pages and prompts over
them:

- each step waits for its situation, then begins: its page is shown the first time
  (a page or two, ▲▼ or OK to read on), and its ask takes the place of the board's prompt;
- an action the rules refuse is a lesson: the page says why (the lesson's words for it, or
  the rule's own page), then the step asks again;
- an accepted move that is not what the step asks is taken back at once (the band says
  what to take back on the table), with a page saying what the step asks;
- Back goes one step back: the game's own "take back?" question for the step's move (the
  band then says what to take back on the table), or the page of the step before; holding
  OK skips to the next topic; holding Back leaves the lesson (it is kept);
- progress is kept in ``DATA/tutorial.json`` (``tutorial_store.py``) after every change and
  the lesson's game in a journal of its own, so a lesson cut off by a power cut resumes at
  its step; the lesson ends with the real game's end and score, then a last page.

``log`` collects one line a step, ``step N [RULE]: <what the box asked> -> <what was
done>``, for ``tutorial --demo`` and bug reports.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from PIL import Image

from companion.engine import Refusal
from companion.errors import UserError
from companion.events import Hold, Press, ReaderState
from companion.games import GAMES
from companion.signals import Signal
from companion.table.choice import step_of
from companion.table.flow import (
    BackToPlay,
    Flow,
    FlowEvent,
    Note,
    Reply,
    ToFinish,
    ToMenu,
    ToScore,
    ToStart,
)
from companion.table.game_run import GameRun
from companion.table.journal import Journal, archive_unfinished
from companion.table.lesson import Situation, Step
from companion.table.lesson_pages import LessonView, lesson_page, render_lesson
from companion.table.play_flow import PlayFlow
from companion.table.tag_tracker import TagTracker
from companion.table.tutorial_store import Progress, Record, TutorialStore, lesson_folder
from companion.table.why_flow import why_view
from companion.ui.screens import fits_line, paginate
from companion.ui.text import refusal_text, t


class TutorialFlow(Flow):
    """The lesson of the game ``name`` of the registry, in the data folder ``data_dir``,
    resumed from its progress when there is some. ``tracker`` is the session's tag tracker,
    ``names`` the names the set-up offers, ``rng`` the set-up's lots. ``UserError`` when the
    game has no lessons."""

    kind = "tutorial"

    def _t(self, key: str, **fields: Any) -> str:
        """A message of the lesson's game (its words go on into the shared ones)."""
        return GAMES[self.name].text(key, **fields)

    def __init__(self, name: str, data_dir: str | os.PathLike[str], tracker: TagTracker, *,
                 names: tuple[str, ...] = (), rng: random.Random | None = None) -> None:
        super().__init__()
        self.name = name
        self.table = GAMES[name].table
        lesson = GAMES[name].lessons
        if lesson is None:
            raise UserError(self._t("tutorial.none", game=GAMES[name].shown_title()))
        self.lesson = lesson
        self.steps = lesson.steps
        self.data_dir = Path(data_dir)
        self.folder = lesson_folder(self.data_dir, name)
        self.store = TutorialStore(self.data_dir)
        self.tracker = tracker
        self.names = tuple(names)
        self.rng = rng or random.Random()
        # The lesson's own game; holding Back says it comes back through Learn.
        self.run = GameRun(GAMES[name], self.folder, tracker, leave_words=self._leave_words)
        self.inner: Flow = self._setup()
        # The order the steps are played in: the lesson's, but a coaching note whose
        # situation comes first is played first (a run of optional steps in any order).
        self.order = list(range(len(self.steps)))
        self.index = 0                  # the current step's place in ``order``
        self.start: int | None = None   # moves in the game when it began; None: not begun
        self.records: list[Record] = []
        self.taught: list[str] = []     # the steps whose page was shown
        self.page: LessonView | None = None
        self.asked = ""                 # the current step's ask when it began
        self.wrongs: list[str] = []     # what went wrong at the current step
        self.log: list[str] = []        # one line a step, for the transcript
        self.complete = False           # every step is behind
        self.finished = False           # the game is kept: the last page
        self._saved: Progress | None = None
        self._resume()

    # --- the state ------------------------------------------------------------------------

    @property
    def play(self) -> PlayFlow | None:
        """The play flow of the lesson's game; None until it is set up and once it is kept."""
        return self.run.play

    @property
    def game(self) -> Any:
        """The lesson's game; None until it is set up and once it is kept."""
        return self.run.game

    @property
    def step(self) -> Step | None:
        """The current step; None when every step is behind."""
        return self.steps[self.order[self.index]] if self.index < len(self.steps) else None

    @property
    def done_steps(self) -> int:
        """How many steps were done (not skipped, nor passed as not needed)."""
        return sum(1 for record in self.records if record.status == "done")

    @property
    def number(self) -> int:
        """The current step's number, as players count: the steps a game passed as not
        needed (a tile to turn up in the open variant) are not counted."""
        return 1 + sum(1 for record in self.records if record.status != "passed")

    def _moves(self) -> int:
        game = self.game
        return len(game.history) if game is not None else 0

    def situation(self) -> Situation:
        """The table as the steps see it."""
        return Situation(self.inner, self.game)

    def _step_of(self, key: str) -> Step:
        return next(step for step in self.steps if step.key == key)

    @property  # a class attribute of the other flows; here it is the wrapped flow's
    def follows_slots(self) -> bool:  # type: ignore[override]
        """Whether the game's flow on screen follows the reader hub's village slots (then it
        is also given the tags lifted off them, and the hub's state)."""
        return self.inner.follows_slots

    # --- the picture ----------------------------------------------------------------------

    def view(self) -> Any:
        """What the screen shows now: the lesson's page, else the game's flow."""
        return self.page if self.page is not None else self.inner.view()

    def frame(self) -> Image.Image:
        """The picture of ``view()``."""
        return render_lesson(self.page) if self.page is not None else self.inner.frame()

    def tell(self, note: Note | None, refused: bool = False) -> Reply:
        """A note of the session (a reader unplugged, an unknown tag) goes on the game's
        screen, which must then be seen."""
        self.page = None
        reply = self.inner.tell(note, refused)
        self._mirror()
        return reply

    def clear(self) -> None:
        """Drop the note of the previous event."""
        self.inner.clear()
        self._mirror()

    def _done(self) -> str | None:
        """What the game's last action did, said under the board (the play's confirmation);
        None on a flow that confirms nothing (the set-up, the score pages)."""
        return self.inner.done if isinstance(self.inner, PlayFlow) else None

    def _mirror(self) -> None:
        # The session reads the note of the flow on screen (``Session.message``).
        self.note, self.refused = self.inner.note, self.inner.refused

    # --- events ---------------------------------------------------------------------------

    def handle(self, event: FlowEvent) -> Reply:
        """Take one event: the lesson's page and buttons first, then the game's flow."""
        self.clear()
        if self.finished:
            return self._last_page(event)
        reply = self._lesson_event(event)
        if reply is None:
            reply = self._through(event)
        if isinstance(reply.then, ToMenu):
            # Left (hold Back, or Back before the first step): the progress stays as it was
            # kept at the last event, for Learn to take up at its step.
            return reply
        self._settle()
        return reply

    def _last_page(self, event: FlowEvent) -> Reply:
        """The lesson is over and its game kept: ▲▼ and OK read the last page, then OK (or
        Back) goes to the menu."""
        page = self.page
        if page is not None and isinstance(event, Press) and step_of(event.button):
            self.page = replace(page, page=min(max(page.page + step_of(event.button), 0),
                                               len(page.pages) - 1))
            return Reply()
        if page is not None and event == Press("ok") and not page.last:
            self.page = replace(page, page=page.page + 1)
            return Reply()
        return Reply(then=ToMenu()) if event in (Press("ok"), Press("back")) else Reply()

    def _lesson_event(self, event: FlowEvent) -> Reply | None:
        """The events the lesson takes itself; None for those the game's flow takes."""
        step = self.step
        reading = step is not None and step.kind == "read" and self.start is not None
        if event == Hold("ok"):
            return self._skip()
        page = self.page
        if page is not None:
            if isinstance(event, Press) and step_of(event.button):
                self.page = replace(page, page=min(max(page.page + step_of(event.button), 0),
                                                   len(page.pages) - 1))
                return Reply()
            if event == Press("ok"):
                if not page.last:
                    self.page = replace(page, page=page.page + 1)
                    return Reply()
                self.page = None
                return self._read() if reading else Reply()
            if event == Press("back"):
                self.page = None
                return self._step_back()
            if not isinstance(event, ReaderState):
                self.page = None  # anything else is for the game: the page gives way
            return None
        if reading and event == Press("ok"):
            return self._read()
        if reading and event == Press("back"):
            return self._step_back()
        return None

    def _through(self, event: FlowEvent) -> Reply:
        """Hand ``event`` to the game's flow; check what it did against the step."""
        before = self._moves()
        reply = self._follow(self.inner.handle(event))
        game = self.game
        step = self.step
        if step is None or self.start is None:
            return reply
        note = self.inner.note
        if reply.signal is Signal.REFUSED and isinstance(note, Refusal) and note.rule:
            self._refused(note)
        elif game is not None and len(game.history) == before + 1 and step.wants is not None:
            player, move = game.history[-1]
            if step.wants(self.situation(), move):
                self._leave(step, "done", self._did(step, player, move))
            else:
                self._not_now(step, player, move)
                return Reply(Signal.REFUSED)
        return reply

    def _follow(self, reply: Reply) -> Reply:
        """Where the game's flow sends the lesson: the game starts, ends, is kept; leaving
        goes back to the menu with the lesson kept."""
        then = reply.then
        if isinstance(then, ToStart):
            return self._start(then.settings, reply.signal)
        if isinstance(then, ToScore) and self.play is not None:
            self.inner = self.run.score()
        elif isinstance(then, BackToPlay) and self.play is not None:
            undone = self.run.back_to_play()
            self.inner = self.run.flow  # the pages stay when the journal failed
            return undone
        elif isinstance(then, ToFinish) and self.play is not None:
            return self._finish()
        elif isinstance(then, ToMenu):
            self.run.leave()
            return reply
        elif then is not None:
            return reply
        return Reply(reply.signal)

    def _start(self, settings: Any, signal: Signal | None) -> Reply:
        """The set-up is done: the lesson's game starts, in its own journal (a lesson's game
        left behind without progress is kept aside)."""
        try:
            _, note = self.run.start(settings)
        except UserError as exc:
            return self.inner.tell(str(exc), True)
        self.inner = self.run.flow
        if note:
            self.inner.tell(note)
        return Reply(signal)

    def _leave_words(self) -> tuple[str, str]:
        """The question of holding Back in the lesson's game, and where the lesson comes
        back: its own line of the menu (``Learn Wakanda``), at its step."""
        entry = t("menu.learn", title=GAMES[self.name].shown_title())
        return t("tutorial.leave.question"), t("tutorial.leave.detail", entry=entry)

    def _finish(self) -> Reply:
        """OK on the score: the lesson's game is kept, the lesson forgotten, a last page."""
        try:
            self.run.finish()
        except UserError as exc:
            return self.inner.tell(str(exc), True)
        self.finished = True
        try:
            self.store.save(self.name, None)
        except UserError:
            pass  # the lesson is over either way: its game is kept
        title = self._t(self.table.game_name)
        self.page = lesson_page(self._t("tutorial.complete.title"), self._t("tutorial.complete", game=title),
                                "tutorial.footer.menu")
        return Reply(Signal.ACCEPTED)

    # --- the steps ------------------------------------------------------------------------

    def _settle(self) -> None:
        """After every event: follow the game to the step it is at, keep the progress, put
        the step's ask where the players look. Once the game is kept, only the last page
        is left."""
        if self.finished:
            self._mirror()
            return
        self._sync()
        self._save()
        self._overlay()
        self._mirror()

    def _sync(self) -> None:
        """Go back to the step an undo returned to; pass, begin and end steps as the table
        allows, until a step waits for the players."""
        for _ in range(2 * len(self.steps) + 2):
            self._rewind()
            step = self.step
            self.complete = step is None
            if step is None:
                return
            situation = self.situation()
            if self.start is None:
                if not step.when(situation):
                    if step.optional and self._bring_forward(situation):
                        continue
                    if self._gone(step, situation) or (step.optional and self._next_due(situation)):
                        self._leave(step, "passed")
                        continue
                    return
                self._begin(step, situation)
            if step.kind == "setup" and step.passed is not None and step.passed(self.situation()):
                self._leave(step, "done", step.did(self.situation()) if step.did else self._t("tutorial.did.ok"))
                continue
            return

    def _gone(self, step: Step, situation: Situation) -> bool:
        """Whether a step still waiting can no longer begin: the table got past it (players
        who went on without the lesson), or the game is over."""
        game = self.game
        over = game is not None and game.phase == "over"
        return over or (step.passed is not None and step.passed(situation))

    def _next_due(self, situation: Situation) -> bool:
        """Whether the first step after a run of optional ones can begin."""
        for number in self.order[self.index + 1:]:
            if not self.steps[number].optional:
                return self.steps[number].when(situation)
        return False

    def _bring_forward(self, situation: Situation) -> bool:
        """In a run of optional steps, the first whose situation has come goes first;
        whether there was one."""
        for place in range(self.index + 1, len(self.order)):
            step = self.steps[self.order[place]]
            if not step.optional:
                return False
            if step.when(situation):
                self.order[self.index], self.order[place] = self.order[place], self.order[self.index]
                return True
        return False

    def _begin(self, step: Step, situation: Situation, again: bool = False) -> None:
        """The step begins: its page the first time (a page to read, or ``again``: every
        time), its ask from now on."""
        self.start = self._moves()
        self.asked = step.ask(situation)
        self.wrongs = []
        if again or step.kind == "read" or step.key not in self.taught:
            self._show(step, situation)

    def _show(self, step: Step, situation: Situation) -> None:
        """Open the step's page (when it has one)."""
        if step.page is None:
            return
        picture = step.picture(situation) if step.picture is not None else None
        self.page = lesson_page(f"{step.rule} {self._t(step.title)}", step.page(situation), picture=picture)
        if step.key not in self.taught:
            self.taught.append(step.key)

    def _leave(self, step: Step, status: str, did: str | None = None) -> None:
        """The current step is behind: ``done`` (with what was done), ``passed`` (its
        situation never came) or ``skipped``."""
        if status != "passed":
            done = "; ".join([*self.wrongs, did or self._t("tutorial.did.skipped")])
            asked = self.asked or self._t(step.title)  # a step skipped before it began: its title
            self.log.append(self._t("transcript.step", n=self.number, rule=step.rule, asked=asked, done=done))
        self.records.append(Record(step.key, status, self._moves()))
        self.index += 1
        self.start = None
        self.asked = ""
        self.wrongs = []

    def _did(self, step: Step, player: int | None, move: Any) -> str:
        """What a move step's move did, in words: the step's own words, else the game's."""
        if step.did is not None:
            return step.did(self.situation())
        return self.table.describe(self.game, player, move)

    def _valid(self, record: Record) -> bool:
        """Whether a step left behind still is: the moves it saw are still played, and a
        set-up step's part of the set-up is still done."""
        if record.at > self._moves():
            return False
        step = self._step_of(record.key)
        if record.status != "done" or step.kind != "setup" or step.passed is None:
            return True
        return step.passed(self.situation())

    def _rewind(self) -> None:
        """After an undo (or a set-up step taken back): back to the step it undid."""
        if self.start is not None and self.start > self._moves():
            self.start = None  # the step's own beginning was taken back: it begins again
        going = False
        while self.records and not self._valid(self.records[-1]):
            if not going:
                # What the game says was taken back (on the table, or in the band).
                told = self.inner.note if isinstance(self.inner.note, str) else None
                self._log_back(told or self._done())
            going = True
            self.records.pop()
            self.index = len(self.records)  # each step left behind has its record, in order
            self.start = None
            self.asked = ""
            self.wrongs = []
            self.page = None

    def _log_back(self, what: str | None) -> None:
        """The transcript's line for a step left by going back (when it had begun)."""
        step = self.step
        if step is not None and self.asked:
            back = self._t("tutorial.did.back", what=what or self._t("tutorial.did.ok"))
            self.log.append(self._t("transcript.step", n=self.number, rule=step.rule, asked=self.asked,
                                    done="; ".join([*self.wrongs, back])))

    def _read(self) -> Reply:
        """OK on a step that asks to read (or to do something away from the box)."""
        step = self.step
        assert step is not None
        self._leave(step, "done", self._t("tutorial.did.ok"))
        return Reply(Signal.ACCEPTED)

    def _skip(self) -> Reply:
        """Holding OK: every step left in this topic is skipped."""
        step = self.step
        if step is None:
            return Reply()
        self.page = None
        topic = step.topic
        self._leave(step, "skipped")
        while self.step is not None and self.step.topic == topic:
            # Counted once, in the skipped step: the rest of its topic is passed over.
            self.records.append(Record(self.step.key, "passed", self._moves()))
            self.index += 1
        if self.step is not None:
            self._say_skipped(self._t(self.step.topic))
        return Reply(Signal.ACCEPTED)

    def _say_skipped(self, topic: str) -> None:
        """Where a skip led, said where the players look: on a board, as what the last action
        did, with the game's own prompt (what to do now) under it; elsewhere as the note."""
        inner = self.inner
        prompt = getattr(inner, "prompt", None)
        if isinstance(inner, PlayFlow) and callable(prompt) and isinstance(prompt(short=True), str):
            for said in (self._t("tutorial.skipped", topic=topic), self._t("tutorial.skipped.short", topic=topic)):
                if fits_line(said):
                    inner.done = said
                    return
        inner.tell(self._t("tutorial.skipped", topic=topic))

    def _step_back(self) -> Reply:
        """Back: one step back. A move since the step before is the game's own to take back
        (its question, then what to take back on the table); a page to read comes back; a
        set-up step is the set-up's own Back. Before the first step: leave the lesson."""
        previous = next((r for r in reversed(self.records) if r.status == "done"), None)
        step = self._step_of(previous.key) if previous is not None else None
        if previous is None or step is None or step.kind != "read" or self._moves() > previous.at:
            # The game's own Back: "Take back?" (the rewind follows the undo), or the
            # set-up's step before (its first step: the menu, the lesson kept).
            return self._follow(self.inner.handle(Press("back")))
        self._log_back(self._t(step.title))
        while self.records[-1] is not previous:
            self.records.pop()
        self.records.pop()
        self.index = len(self.records)
        self._begin(step, self.situation(), again=True)
        return Reply()

    def _refused(self, refusal: Refusal) -> None:
        """An action the rules refused: the rule in words, then the step asks again."""
        self.wrongs.append(self._t("tutorial.did.wrong", what=refusal_text(refusal)))
        words = self.lesson.explain(self.situation(), refusal)
        title = f"{refusal.rule} {self._t('tutorial.wrong.title')}"
        if words is not None:
            self.page = lesson_page(title, f"{refusal_text(refusal)}\n{words}", "tutorial.footer.again")
            return
        why = why_view(self.inner, refusal)
        pages = tuple(paginate(refusal_text(refusal))) + (why.pages if why is not None else ())
        self.page = LessonView(title, pages, "tutorial.footer.again")

    def _not_now(self, step: Step, player: int | None, move: Any) -> None:
        """A legal move, but not the one the step asks for: taken back, and said so."""
        assert self.play is not None
        what = self.table.describe(self.play.game, player, move)
        self.play.undo()
        table = self.play.note if isinstance(self.play.note, str) else self.play.done
        self.wrongs.append(self._t("tutorial.did.not_now", what=what))
        text = self._t("tutorial.not_now", ask=self.asked)
        self.page = lesson_page(f"{step.rule} {self._t('tutorial.not_now.title')}",
                                f"{text}\n{table}" if table else text, "tutorial.footer.again")

    # --- what is kept and shown -----------------------------------------------------------

    def _progress(self) -> Progress:
        step = self.step
        return Progress(tuple(self.records), step.key if step is not None else None,
                        self.start, tuple(self.taught))

    def _save(self) -> None:
        """Keep the progress when it changed; a failed write is said, the lesson goes on."""
        if self.finished:
            return
        progress = self._progress()
        if progress == self._saved:
            return
        try:
            self.store.save(self.name, progress)
        except UserError:
            self.inner.tell(self._t("tutorial.not_saved"), True)
            return
        self._saved = progress

    def _overlay(self) -> None:
        """The step's ask in the board's band, where the game's own prompt would be."""
        step = self.step
        inner = self.inner
        if (self.page is not None or step is None or self.start is None or inner.note is not None
                or not self.lesson.asks_on(inner)):
            return
        ask = step.ask(self.situation())
        if self._done() and not fits_line(ask):
            return  # under the confirmation of the last action there is one line left
        inner.note = ask

    def _resume(self) -> None:
        """Take the lesson up where its progress says, or begin it."""
        try:
            progress = self.store.load(self.name)
        except UserError:
            progress, damaged = None, True
        else:
            damaged = False
        if progress is not None:
            keys = [r.key for r in progress.records] + ([progress.step] if progress.step else [])
            if not set(keys) <= {step.key for step in self.steps} or len(set(keys)) != len(keys):
                progress = None  # the lesson changed since (an update): it begins again
        found = None
        if progress is not None:
            try:
                found = Journal.resume(self.folder)
                if found is not None:
                    game, _ = GAMES[self.name].record.read_record(found[1], None)
                    self.inner = self.run.enter(game, found[0])
            except UserError:
                if found is not None:
                    found[0].close()
                progress, damaged = None, True
        if progress is None:
            try:
                archive_unfinished(self.folder)
            except UserError:
                pass  # the new game will say it cannot start, in its own words
            self._sync()
        else:
            self._restore(progress)
        if damaged:
            self.inner.tell(self._t("tutorial.damaged"), True)
        self._save()
        self._overlay()
        self._mirror()

    def _restore(self, progress: Progress) -> None:
        """Back at the step of ``progress``: a move the step asked for that reached the
        journal just before the power went counts; its page is shown again."""
        self.records = list(progress.records)
        self.taught = list(progress.taught)
        # The order played so far: the steps left behind, the current one, then the rest.
        numbers = {step.key: number for number, step in enumerate(self.steps)}
        played = [numbers[key] for key in (*(r.key for r in progress.records), progress.step) if key]
        self.order = played + [n for n in range(len(self.steps)) if n not in played]
        self.index = len(self.records)
        begun = progress.start if progress.start is not None and progress.start <= self._moves() else None
        self.start = begun
        step, game = self.step, self.game
        if step is not None and begun is not None and game is not None and step.wants is not None:
            for player, move in game.history[begun:]:
                if step.wants(self.situation(), move):
                    self._leave(step, "done", self._did(step, player, move))
                    break
        self._sync()
        step = self.step
        resumed = self._t("tutorial.resumed", n=self.number)
        if step is None or self.start is None:
            self.inner.tell(resumed)
            return
        # The step again, as it was a while ago: its page (or what it asks), under the news.
        situation = self.situation()
        text = step.page(situation) if step.page is not None else step.ask(situation)
        picture = step.picture(situation) if step.picture is not None else None
        self.page = lesson_page(f"{step.rule} {self._t(step.title)}",
                                f"{self._t('tutorial.resumed_at', n=self.number)}\n{text}", picture=picture)

    def _setup(self) -> Flow:
        """The game's own set-up, with the options the lesson is played with."""
        options = {option.key: self.lesson.options.get(option.key, option.values[0])
                   for option in self.table.settings}
        return self.table.setup(self.names, self.rng, self.data_dir, options)
