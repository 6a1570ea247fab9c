"""The voice as a watcher of the app loop: after each frame shown, what is new on it is
handed to the speaker, which says it on its own thread (``hardware/speaker.py``).

- Each new prompt, confirmation, refusal and result is said once: a redraw of the same
  view says nothing; a refusal repeated (the same wrong piece scanned again) is said again.
- ``prompts`` says those; ``everything`` says every screen too (menus, set-ups, the
  settings, the rule pages, the status page); ``off`` says nothing.
- Holding UP asks "Where are we?" (docs/screens.md says why UP): in a game, whose turn, the
  score so far, what is left and the last action (the game's ``GameVoice.where``);
  elsewhere, the screen's words. Holding it again says it again.

Whatever is said is what anyone may see (``companion/table/public_view.py``): the voice
is heard around the table and beyond it, like the phone page.

The speaker's ``say(text, voice, finish=, cuts=, speed=, volume=)`` must return at once: the
box never waits for the voice. What it says is queued by its policy (``hardware/speaker.py``):
a line that says what happened (a confirmation, a refusal, a result: ``finish``) is said to
its end unless a newer one makes it stale (``cuts``: an undo, "Where are we?"), a prompt or
a screen is cut by the next line, and of a burst at most the last is said. The speed and
volume are the settings' (Settings, the phone page, else the configuration). Nothing here
touches hardware.
"""

from __future__ import annotations

from typing import Protocol

from companion.events import Event, Hold
from companion.signals import Signal
from companion.table.public_view import public_text, seen
from companion.table.session import Output, Session
from companion.ui.text import speaking
from companion.voice.lines import FINISHED, IN_PLAY, REFUSAL, Line, for_the_ear, joined, lines_of, voice_of

#: The button held to ask "Where are we?".
WHERE = Hold("up")


class Speaking(Protocol):
    """What the narrator needs of a speaker (``hardware/speaker.py``'s ``Speaker``)."""

    def say(self, text: str, voice: str, *, finish: bool = False, cuts: bool = False,
            speed: int | None = None, volume: int | None = None) -> None:
        """Say ``text``; returns at once (the module says how lines are queued)."""

    def stop(self) -> None:
        """Silence at once."""

    def close(self) -> None:
        """The speaker ends."""


def spoken(session: Session) -> tuple[Line, ...]:
    """Everything the session's screen says now, for the ear (``lines_of``), in the
    session's language (the watcher runs outside the session's own calls): the view as
    anyone may see it (``public_view.seen``, the phone page's filter too), nothing when
    none of its words may be."""
    table = session.table_game
    game = session.game
    voice = table.voice if table is not None and game is not None else None
    names = tuple(getattr(game, "players", ()) or session.settings.names)
    with speaking(session.language):
        view = seen(session)
        if view is None:
            return ()
        # A game's own lines (its status page) are made from the game, not the view: each
        # is put in its public form too.
        return tuple(Line(public_text(session, line.text), line.kind)
                     for line in lines_of(session.flow, view, voice, names))


class Narrator:
    """Says what is new on each frame shown through ``speaker``, as much as the session's
    voice setting asks, at the settings' speed and volume."""

    def __init__(self, speaker: Speaking) -> None:
        self.speaker = speaker
        self.last: tuple[Line, ...] = ()
        self.said = ""
        self.speaking = False

    def seen(self, session: Session, out: Output | None = None) -> None:
        """A frame was shown (``out``: the output of its event, None for the first)."""
        mode = session.settings.voice
        if mode == "off":
            if self.speaking:
                self.speaker.stop()  # turned off mid-sentence: silence at once
            self.last, self.said, self.speaking = (), "", False
            return
        lines = tuple(line for line in spoken(session) if mode == "everything" or line.kind in IN_PLAY)
        again = out is not None and out.signal is Signal.REFUSED
        new = [line for line in lines if line not in self.last or (again and line.kind == REFUSAL)]
        self.last = lines
        if new:
            # An undo makes what was being said of the move taken back stale.
            self._say(session, joined(line.text for line in new),
                      finish=any(line.kind in FINISHED for line in new),
                      cuts=bool(getattr(session.flow, "undo_note", False)))

    def heard(self, session: Session, event: Event) -> bool:
        """An event is about to be handled: holding UP asks where the game stands, and is
        taken (True): the screen stays as it is. With the voice off, nothing is taken."""
        if event != WHERE or session.settings.voice == "off":
            return False
        table, game = session.table_game, session.game
        if table is not None and table.voice is not None and game is not None:
            with speaking(session.language):
                where = public_text(session, table.voice.where(session.flow))
                text = for_the_ear(where, getattr(game, "players", ()))
        else:
            text = joined(line.text for line in spoken(session))
        # Asked for: said at once and to its end.
        self._say(session, text or self.said, finish=True, cuts=True)
        return True

    def _say(self, session: Session, text: str, *, finish: bool, cuts: bool) -> None:
        self.said, self.speaking = text, True
        settings = session.settings
        self.speaker.say(text, voice_of(session.language), finish=finish, cuts=cuts,
                         speed=settings.voice_speed, volume=settings.voice_volume)

    def close(self) -> None:
        """The box stops: the speaker with it."""
        self.speaker.close()
