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
- where the lesson stands is one value, a ``Position`` (``lesson_position.py``), replaced at
  every change and kept as it is in ``DATA/tutorial.json`` (``tutorial_store.py``), and
  the lesson's game in a journal of its own, so a lesson cut off by a power cut resumes at
  its step; the lesson ends with the real game's end and score, then a last page.

``log`` collects one line a step, ``step N [RULE]: <what the box asked> -> <what was
done>``, for ``tutorial --demo`` and bug reports.
"""

from __future__ import annotations

import os
import random
from collections.abc import Collection
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from PIL import Image

from companion import contract
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
from companion.table.lesson_position import Position, Record
from companion.table.play_flow import PlayFlow
from companion.table.table_game import TableGame
from companion.table.tag_tracker import TagTracker
from companion.table.tutorial_store import TutorialStore, lesson_folder
from companion.table.why_flow import why_view
from companion.ui.screens import fits_line, paginate
from companion.ui.text import refusal_text, t


class TutorialFlow(Flow):
    """The lesson of the game ``name`` of the registry, in the data folder ``data_dir``,
    resumed from its progress when there is some. ``tracker`` is the session's tag tracker,
    ``names`` the names the set-up offers, ``rng`` the set-up's lots. ``UserError`` when the
    game has no lessons."""

    kind = "tutorial"

    def __init__(self, name: str, data_dir: str | os.PathLike[str], tracker: TagTracker, *,
                 names: tuple[str, ...] = (), rng: random.Random | None = None) -> None:
        super().__init__()
        self.name = name
        #: A message of the lesson's game (its words go on into the shared ones).
        self._t = GAMES[name].text
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
        self.run = GameRun(GAMES[name], self.folder, tracker, leave_words=partial(_leave_words, name))
        self.inner: contract.Flow = _setup(self)
        # Where the lesson stands. The steps are played in the lesson's order, but a coaching
        # note whose situation comes first is played first (a run of optional steps in any order).
        self.position = Position(tuple(step.key for step in self.steps))
        self.page: LessonView | None = None
        self.asked = ""                 # the current step's ask when it began
        self.wrongs: list[str] = []     # what went wrong at the current step
        self.log: list[str] = []        # one line a step, for the transcript
        self.complete = False           # every step is behind
        self.finished = False           # the game is kept: the last page
        self._resume()

    # --- the state ------------------------------------------------------------------------

    @property
    def play(self) -> contract.PlayFlow | None:
        """The play flow of the lesson's game; None until it is set up and once it is kept."""
        return self.run.play

    @property
    def game(self) -> Any:
        """The lesson's game; None until it is set up and once it is kept."""
        return self.run.game

    @property
    def step(self) -> Step | None:
        """The current step; None when every step is behind."""
        key = self.position.step
        return _step_of(self.steps, key) if key is not None else None

    @property
    def index(self) -> int:
        """The current step's place in the order the steps are played in."""
        return self.position.index

    @property
    def start(self) -> int | None:
        """The moves in the lesson's game when the current step began; None: not begun."""
        return self.position.start

    def situation(self) -> Situation:
        """The table as the steps see it."""
        return Situation(self.inner, self.game)

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

    def _mirror(self) -> None:
        # The session reads the note of the flow on screen (``Session.message``).
        self.note, self.refused = self.inner.note, self.inner.refused

    # --- events ---------------------------------------------------------------------------

    def handle(self, event: FlowEvent) -> Reply:
        """Take one event: the lesson's page and buttons first, then the game's flow."""
        self.clear()
        if self.finished:
            # The lesson is over and its game kept: the last page to read, then the menu.
            self.page, last = _last_page(self.page, event)
            return last
        reply = self._lesson_event(event) or self._through(event)
        if isinstance(reply.then, ToMenu):
            # Left (hold Back, or Back before the first step): the progress stays as it was
            # kept at the last event, for Learn to take up at its step.
            return reply
        self._settle()
        return reply

    def _lesson_event(self, event: FlowEvent) -> Reply | None:
        """The events the lesson takes itself; None for those the game's flow takes."""
        step = self.step
        reading = step is not None and step.kind == "read" and self.start is not None
        if event == Hold("ok"):
            return self._skip()
        page = self.page
        if page is not None:
            turned = _turned(page, event)
            if turned is not None:
                self.page = turned
                return Reply()
            if event == Press("ok"):
                self.page = None
                # OK on a step that asks to read (or to do something away from the box).
                if reading and step is not None:
                    return self._leave(step, "done", self._t("tutorial.did.ok"))
                return Reply()
            if event == Press("back"):
                self.page = None
                return self._step_back()
            if not isinstance(event, ReaderState):
                self.page = None  # anything else is for the game: the page gives way
            return None
        if reading and event == Press("ok") and step is not None:
            return self._leave(step, "done", self._t("tutorial.did.ok"))
        if reading and event == Press("back"):
            return self._step_back()
        return None

    def _through(self, event: FlowEvent) -> Reply:
        """Hand ``event`` to the game's flow; check what it did against the step."""
        before = _moves(self.game)
        reply = self._follow(self.inner.handle(event))
        game = self.game
        step = self.step
        if step is None or self.start is None:
            return reply
        note = self.inner.note
        if reply.signal is Signal.REFUSED and isinstance(note, Refusal) and note.rule:
            # An action the rules refused: the rule in words, then the step asks again.
            self.wrongs.append(self._t("tutorial.did.wrong", what=refusal_text(note)))
            self.page = _refusal_page(self, note)
        elif game is not None and len(game.history) == before + 1 and step.wants is not None:
            player, move = game.history[-1]
            if step.wants(self.situation(), move):
                self._leave(step, "done", _did(self.table, step, self.situation(), player, move))
            else:
                # Legal, but not what the step asks for: taken back, and said so.
                assert self.play is not None
                what = self.table.describe(self.play.game, player, move)
                self.play.undo()
                table = self.play.note if isinstance(self.play.note, str) else self.play.done
                self.wrongs.append(self._t("tutorial.did.not_now", what=what))
                text = self._t("tutorial.not_now", ask=self.asked)
                self.page = lesson_page(f"{step.rule} {self._t('tutorial.not_now.title')}",
                                        f"{text}\n{table}" if table else text, "tutorial.footer.again")
                return Reply(Signal.REFUSED)
        return reply

    def _follow(self, reply: Reply) -> Reply:
        """Where the game's flow sends the lesson: the game starts, ends, is kept; leaving
        goes back to the menu with the lesson kept."""
        then = reply.then
        if isinstance(then, ToStart):
            # The set-up is done: the lesson's game starts, in its own journal (a lesson's
            # game left behind without progress is kept aside).
            try:
                _, note = self.run.start(then.settings)
            except UserError as exc:
                return self.inner.tell(str(exc), True)
            self.inner = self.run.flow
            if note:
                self.inner.tell(note)
            return Reply(reply.signal)
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
        try:
            self.store.keep(self.name, self.position)  # when it changed
        except UserError:
            self.inner.tell(self._t("tutorial.not_saved"), True)  # said; the lesson goes on
        _overlay(self)
        self._mirror()

    def _sync(self) -> None:
        """Go back to the step an undo returned to; pass, begin and end steps as the table
        allows, until a step waits for the players."""
        for _ in range(2 * len(self.steps) + 2):
            rewound = self.position.rewound(_moves(self.game), partial(_valid, self.steps, self.situation()))
            if rewound.index < self.position.index:
                # Back to the step an undo (or a set-up step taken back) undid; what the game
                # says was taken back (on the table, or in the band) is the transcript's.
                told = self.inner.note if isinstance(self.inner.note, str) else None
                _log_back(self, told or _done(self.inner))
                self.asked, self.wrongs, self.page = "", [], None
            self.position = rewound
            step = self.step
            self.complete = step is None
            if step is None:
                return
            situation = self.situation()
            if self.start is None:
                if not step.when(situation):
                    forward = _brought_forward(self.steps, self.position, situation) if step.optional else None
                    if forward is not None:
                        self.position = self.position.brought_forward(forward)
                        continue
                    after = self.position.order[self.index + 1:]
                    if _gone(step, situation) or (step.optional and _next_due(self.steps, after, situation)):
                        self._leave(step, "passed")
                        continue
                    return
                self._begin(step, situation)
            if step.kind == "setup" and step.passed is not None and step.passed(self.situation()):
                self._leave(step, "done", step.did(self.situation()) if step.did else self._t("tutorial.did.ok"))
                continue
            return

    def _begin(self, step: Step, situation: Situation, again: bool = False) -> None:
        """The step begins: its page the first time (a page to read, or ``again``: every
        time), its ask from now on."""
        self.asked = step.ask(situation)
        self.wrongs = []
        shown = (again or step.kind == "read" or step.key not in self.position.taught) and step.page is not None
        self.position = self.position.begun(_moves(self.game), shown)
        if shown and step.page is not None:
            # The step's page (when it has one).
            picture = step.picture(situation) if step.picture is not None else None
            self.page = lesson_page(f"{step.rule} {self._t(step.title)}", step.page(situation), picture=picture)

    def _leave(self, step: Step, status: str, did: str | None = None, topic: Collection[str] = ()) -> Reply:
        """The current step is behind: ``done`` (with what was done), ``passed`` (its
        situation never came) or ``skipped`` (the steps after it in its ``topic``, their
        keys, passed over with it); the reply of an OK that left it."""
        if status != "passed":
            done = "; ".join([*self.wrongs, did or self._t("tutorial.did.skipped")])
            asked = self.asked or self._t(step.title)  # a step skipped before it began: its title
            n = self.position.number
            self.log.append(self._t("transcript.step", n=n, rule=step.rule, asked=asked, done=done))
        moves = _moves(self.game)
        self.position = (self.position.skipped(moves, topic) if status == "skipped"
                         else self.position.left(status, moves))
        self.asked = ""
        self.wrongs = []
        return Reply(Signal.ACCEPTED)

    def _skip(self) -> Reply:
        """Holding OK: every step left in this topic is skipped."""
        step = self.step
        if step is None:
            return Reply()
        self.page = None
        # Counted once, in the skipped step: the rest of its topic is passed over.
        self._leave(step, "skipped", topic={other.key for other in self.steps if other.topic == step.topic})
        if self.step is not None:
            topic = self._t(self.step.topic)
            _say_skipped(self.inner, self._t("tutorial.skipped", topic=topic),
                         self._t("tutorial.skipped.short", topic=topic))
        return Reply(Signal.ACCEPTED)

    def _step_back(self) -> Reply:
        """Back: one step back. A move since the step before is the game's own to take back
        (its question, then what to take back on the table); a page to read comes back; a
        set-up step is the set-up's own Back. Before the first step: leave the lesson."""
        previous = self.position.last_done
        step = _step_of(self.steps, previous.key) if previous is not None else None
        if previous is None or step is None or step.kind != "read" or _moves(self.game) > previous.at:
            # The game's own Back: "Take back?" (the rewind follows the undo), or the
            # set-up's step before (its first step: the menu, the lesson kept).
            return self._follow(self.inner.handle(Press("back")))
        _log_back(self, self._t(step.title))
        self.position = self.position.stepped_back()
        self._begin(step, self.situation(), again=True)
        return Reply()

    # --- what is kept and shown -----------------------------------------------------------

    def _resume(self) -> None:
        """Take the lesson up where its kept position says, or begin it. A move the step
        asked for that reached the journal just before the power went counts; the step's
        page is shown again."""
        position, damaged = self.store.resumed(self.name, self.position.order)
        found = None
        if position is not None:
            try:
                found = Journal.resume(self.folder)
                if found is not None:
                    game, _ = GAMES[self.name].record.read_record(found[1], None)
                    self.inner = self.run.enter(game, found[0])
            except UserError:
                if found is not None:
                    found[0].close()
                position, damaged = None, True
        if position is None:
            try:
                archive_unfinished(self.folder)
            except UserError:
                pass  # the new game will say it cannot start, in its own words
            self._sync()
        else:
            self.position = position.fitted(_moves(self.game))
            step, game, begun = self.step, self.game, self.start
            if step is not None and begun is not None and game is not None and step.wants is not None:
                for player, move in game.history[begun:]:
                    if step.wants(self.situation(), move):
                        self._leave(step, "done", _did(self.table, step, self.situation(), player, move))
                        break
            self._sync()
            _say_resumed(self)
        if damaged:
            self.inner.tell(self._t("tutorial.damaged"), True)
        self._settle()


# --- the lesson's plain parts -------------------------------------------------------------

def _say_resumed(flow: TutorialFlow) -> None:
    """The lesson of ``flow`` resumed: its step again, as it was a while ago (its page, or
    what it asks, under the news); the news alone when the step waits for its situation."""
    step = flow.step
    resumed = flow._t("tutorial.resumed", n=flow.position.number)
    if step is None or flow.start is None:
        flow.inner.tell(resumed)
        return
    situation = flow.situation()
    text = step.page(situation) if step.page is not None else step.ask(situation)
    picture = step.picture(situation) if step.picture is not None else None
    flow.page = lesson_page(f"{step.rule} {flow._t(step.title)}",
                            f"{flow._t('tutorial.resumed_at', n=flow.position.number)}\n{text}", picture=picture)


def _overlay(flow: TutorialFlow) -> None:
    """The step's ask in the board's band, where the game's own prompt would be."""
    step = flow.step
    inner = flow.inner
    if (flow.page is not None or step is None or flow.start is None or inner.note is not None
            or not flow.lesson.asks_on(inner)):
        return
    ask = step.ask(flow.situation())
    if _done(inner) and not fits_line(ask):
        return  # under the confirmation of the last action there is one line left
    inner.note = ask


def _last_page(page: LessonView | None, event: FlowEvent) -> tuple[LessonView | None, Reply]:
    """The lesson's last ``page`` after ``event``, and the reply: ▲▼ and OK read it, then OK
    (or Back) goes to the menu."""
    turned = _turned(page, event) if page is not None else None
    if turned is not None:
        return turned, Reply()
    return page, (Reply(then=ToMenu()) if event in (Press("ok"), Press("back")) else Reply())


def _moves(game: Any) -> int:
    """The moves played in the lesson's ``game`` (0 before it is set up)."""
    return len(game.history) if game is not None else 0


def _step_of(steps: tuple[Step, ...], key: str) -> Step:
    """The step called ``key``."""
    return next(step for step in steps if step.key == key)


def _done(inner: contract.Flow) -> str | None:
    """What the game's last action did, said under the board (the play's confirmation);
    None on a flow that confirms nothing (the set-up, the score pages)."""
    return inner.done if isinstance(inner, PlayFlow) else None


def _turned(page: LessonView, event: FlowEvent) -> LessonView | None:
    """``page`` turned by ▲▼, or by OK before its last page; None for any other event."""
    if isinstance(event, Press) and step_of(event.button):
        return replace(page, page=min(max(page.page + step_of(event.button), 0), len(page.pages) - 1))
    if event == Press("ok") and not page.last:
        return replace(page, page=page.page + 1)
    return None


def _refusal_page(flow: TutorialFlow, refusal: Refusal) -> LessonView:
    """The page of an action the rules refused: the lesson's words for it, else the rule's
    own why-pages."""
    words = flow.lesson.explain(flow.situation(), refusal)
    title = f"{refusal.rule} {flow._t('tutorial.wrong.title')}"
    if words is not None:
        return lesson_page(title, f"{refusal_text(refusal)}\n{words}", "tutorial.footer.again")
    why = why_view(flow.inner, refusal)
    pages = tuple(paginate(refusal_text(refusal))) + (why.pages if why is not None else ())
    return LessonView(title, pages, "tutorial.footer.again")


def _leave_words(name: str) -> tuple[str, str]:
    """The question of holding Back in the lesson's game of ``name``, and where the lesson
    comes back: its own line of the menu (``Learn Wakanda``), at its step."""
    entry = t("menu.learn", title=GAMES[name].shown_title())
    return t("tutorial.leave.question"), t("tutorial.leave.detail", entry=entry)


def _gone(step: Step, situation: Situation) -> bool:
    """Whether a step still waiting can no longer begin: the table got past it (players
    who went on without the lesson), or the game is over."""
    over = situation.game is not None and situation.game.phase == "over"
    return over or (step.passed is not None and step.passed(situation))


def _next_due(steps: tuple[Step, ...], after: tuple[str, ...], situation: Situation) -> bool:
    """Whether the first step of ``after`` (keys of ``steps``) past a run of optional ones
    can begin."""
    for key in after:
        step = _step_of(steps, key)
        if not step.optional:
            return step.when(situation)
    return False


def _brought_forward(steps: tuple[Step, ...], position: Position, situation: Situation) -> str | None:
    """In the run of optional steps after the current one of ``position``, the first whose
    situation has come (it goes first); None when there is none."""
    for key in position.order[position.index + 1:]:
        step = _step_of(steps, key)
        if not step.optional:
            return None
        if step.when(situation):
            return key
    return None


def _did(table: TableGame[Any], step: Step, situation: Situation, player: int | None, move: Any) -> str:
    """What a move step's move did, in words: the step's own words, else the game's."""
    if step.did is not None:
        return step.did(situation)
    return table.describe(situation.game, player, move)


def _valid(steps: tuple[Step, ...], situation: Situation, record: Record) -> bool:
    """Whether a step left behind still is: the moves it saw are still played, and a
    set-up step's part of the set-up is still done."""
    if record.at > _moves(situation.game):
        return False
    step = _step_of(steps, record.key)
    if record.status != "done" or step.kind != "setup" or step.passed is None:
        return True
    return step.passed(situation)


def _say_skipped(inner: contract.Flow, said: str, short: str) -> None:
    """Where a skip led, said where the players look: on a board, as what the last action
    did (``said``, else ``short`` when it does not fit), with the game's own prompt (what to
    do now) under it; elsewhere as the note."""
    prompt = getattr(inner, "prompt", None)
    if isinstance(inner, PlayFlow) and callable(prompt) and isinstance(prompt(short=True), str):
        for line in (said, short):
            if fits_line(line):
                inner.done = line
                return
    inner.tell(said)


def _setup(flow: TutorialFlow) -> contract.Flow:
    """The game's own set-up, with the options the lesson is played with."""
    options = {option.key: flow.lesson.options.get(option.key, option.values[0])
               for option in flow.table.settings}
    return flow.table.setup(flow.names, flow.rng, flow.data_dir, options)


def _log_back(flow: TutorialFlow, what: str | None) -> None:
    """The transcript's line for a step of ``flow`` left by going back (when it had begun),
    ``what`` being what was taken back."""
    step = flow.step
    if step is not None and flow.asked:
        back = flow._t("tutorial.did.back", what=what or flow._t("tutorial.did.ok"))
        flow.log.append(flow._t("transcript.step", n=flow.position.number, rule=step.rule, asked=flow.asked,
                                done="; ".join([*flow.wrongs, back])))
