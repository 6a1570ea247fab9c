"""What the play flows of every game share: the engine, the journal and the tag tracker; the
two questions (take the last action back? leave the game?); and journal-first changes.

Journal first: a move is pushed on the engine and its record line appended (fsynced) before
the frame that confirms it is drawn; when the line cannot be written the move is taken back,
so the screen never shows what the journal does not hold. An undo is the same in reverse.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

from companion.engine import IllegalMove, Refusal
from companion.errors import UserError
from companion.events import Press
from companion.signals import Signal
from companion.table.flow import Flow, FlowEvent, Note, Reply, ToMenu
from companion.table.hint_pages import HintPages, HintView, Tip
from companion.table.journal import Journal
from companion.table.tag_tracker import TagTracker
from companion.table.views import ConfirmView, WhyView
from companion.ui.text import t


class Question(Enum):
    """The yes/no questions a play flow asks before acting."""

    UNDO = "undo"    # take the last action back?
    LEAVE = "leave"  # leave the game (it is kept in the journal)?


class PlayFlow(Flow):
    """Base of the games' play flows. A subclass gives ``describe(game, player, move)`` (what
    a move did, one line), ``event_line(player, move)`` (its record line), ``undo()`` and
    ``handle`` (``describe`` and ``event_line`` as static methods); it asks a question by
    setting ``confirming`` and lets ``answer`` take the reply. A game with a coach gives
    ``coach()``, the hint button's tips (hint_pages.py)."""

    kind = "play"
    describe: Callable[[Any, int | None, Any], str]
    event_line: Callable[[int | None, Any], dict[str, Any]]

    def __init__(self, game: Any, journal: Journal, tracker: TagTracker) -> None:
        super().__init__()
        self.game = game
        self.journal = journal
        self.tracker = tracker
        self.confirming: Question | None = None
        self.done: str | None = None  # what the last action did, until the next event
        self.undo_note = False  # the note says what to undo on the table, until the next event
        self._shown_undo = False
        # note, refused, done: before this event
        self._shown: tuple[Note | None, bool, str | None] = (None, False, None)
        self.hint = HintPages(self.why, self.coach)  # the hint button: tips and why-pages
        #: The leave question and what it says of coming back, when they are not a game's
        #: ("resume it from the menu"): a lesson comes back through its own menu line.
        #: Made when shown, in the language then spoken.
        self.leave_words: Callable[[], tuple[str, str]] | None = None

    def clear(self) -> None:
        """Drop the note and the confirmation of the previous event."""
        self._shown = (self.note, self.refused, self.done)  # the why-pages explain them
        self._shown_undo = self.undo_note
        super().clear()
        self.done = None
        self.undo_note = False

    def prompt_under_note(self) -> bool:
        """Whether the note shown keeps what to do now under it: a refusal, or what to undo
        on the table; not a lesson's ask, which stands where the prompt would."""
        return bool(self.note) and (self.refused or self.undo_note)

    # --- the questions --------------------------------------------------------------------

    def undo_text(self) -> str:
        """What an undo would take back: the last move, described."""
        player, move = self.game.history[-1]
        return self.describe(self.game, player, move)

    def coach(self) -> tuple[Tip, ...]:
        """The hint button's tips for the player to move, best first (hint_pages.py): moves
        with their reasons, or what to do when no choice is due. No tips here, as for a game
        played with hints off: HINT gives the rule alone."""
        return ()

    def question_view(self) -> HintView | ConfirmView | WhyView | None:
        """The hint's tip, the why-pages or the question asked, as a view; None when none
        is up."""
        if self.hint.view is not None:
            return self.hint.view
        if self.why.view is not None:
            return self.why.view
        if self.confirming is Question.UNDO:
            return ConfirmView(t("undo.question"), self.undo_text())
        if self.confirming is Question.LEAVE:
            question, detail = (self.leave_words() if self.leave_words is not None
                                else (t("leave.question"), t("leave.detail")))
            return ConfirmView(question, detail)
        return None

    def answer(self, event: FlowEvent) -> Reply | None:
        """Take ``event`` as the answer to the question asked: OK does it, Back drops it;
        None when no question is asked, or when the event (a scan, another button) drops
        the question and must be handled as usual — no scan is lost. HINT comes first: it
        opens the tips and the why-pages (hint_pages.py), which give the screen back as it
        was."""
        if self.hint.take(self, event, self._shown[0]):
            self.note, self.refused, self.done = self._shown
            self.undo_note = self._shown_undo
            return Reply()
        if self.confirming is None:
            return None
        question, self.confirming = self.confirming, None
        if event == Press("ok"):
            return Reply(then=ToMenu()) if question is Question.LEAVE else self.undo()
        if event == Press("back"):
            return Reply()
        return None

    def undo(self) -> Reply:
        """Take back the last action (journal first)."""
        raise NotImplementedError

    def tell(self, note: Note | None, refused: bool = False) -> Reply:
        """Show ``note`` on the next frame (see ``Flow.tell``); the hint closes, so it is seen."""
        self.hint.close()
        return super().tell(note, refused)

    # --- changing the game ----------------------------------------------------------------

    def refuse(self, refusal: Refusal) -> Reply:
        """Show ``refusal`` (with its rule) and give the refused signal; nothing changes."""
        return self.tell(refusal, True)

    def keep(self, move: Any) -> Reply | None:
        """Journal first: push ``move`` on the engine and append its record line (fsynced).

        None when the move is played and kept; else the refusal shown: the rule it breaks,
        or that it could not be saved (then the engine is as it was).
        """
        game = self.game
        try:
            game.push(move)
        except IllegalMove as exc:
            return self.refuse(exc.refusal)
        player = game.history[-1][0]
        try:
            self.journal.append(self.event_line(player, move))
        except UserError:
            game.pop()
            return self.tell(t("save.not_played"), True)
        self.done = self.confirmation(player, move)  # confirmed where the players look
        return None

    def confirmation(self, player: int | None, move: Any) -> str:
        """The line that confirms an accepted ``move`` on the board (``describe`` by default;
        a game may give a shorter form that fits the band)."""
        return self.describe(self.game, player, move)

    def take_back(self) -> str:
        """Journal first: pop the last move and append ``{"undo": true}``; what was taken back.

        ``UserError`` (the move put back) when there is nothing to take back or the journal
        cannot be written; the tags placed by the move are forgotten. The board then says
        what to undo on the table (``undo_hint``), or else what was taken back.
        """
        game = self.game
        if not game.history:
            raise UserError(t("undo.nothing"))
        text = self.undo_text()
        player, move = game.history[-1]
        game.pop()
        try:
            self.journal.append({"undo": True})
        except UserError:
            game.push(move)
            raise UserError(t("save.not_taken_back")) from None
        self.tracker.forget_from(len(game.history))
        done = t("undo.done", what=text)
        hint = self.undo_hint(player, move)
        if hint is None:
            self.done = done
        else:  # the question just named the action: now say what to do on the table
            self.note, self.undo_note = hint, True
        return done

    def undo_hint(self, player: int | None, move: Any) -> str | None:
        """What the players do on the table to take ``move`` back ("Taken back: put the
        eagle back in the bag"); None when nothing moves there."""
        return None

    def signal_after(self, before: int | None) -> Signal:
        """The signal of an accepted move: your turn when the turn passed, else accepted."""
        return Signal.YOUR_TURN if self.game.to_move != before else Signal.ACCEPTED
