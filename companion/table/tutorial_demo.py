"""``tutorial --demo``: the box plays the learner's part of a game's lesson through the whole
stack (input events → session → lesson runner → the game's flows → screens → display), as
``demo`` does for a game, and prints the lesson's transcript: one line a step,
``step N [RULE]: <what the box asked> -> <what was done>``, then
``lesson complete: N steps``.

The learner is the game's own (``Lesson.learner``): it reads each page, does what each
step asks and now and then what a newcomer does instead; the same seed gives the same
lesson.
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from companion.errors import UserError
from companion.games import game_entry
from companion.table.app_loop import AppLoop
from companion.table.demo_player import DemoError
from companion.table.lesson import Learner
from companion.table.registry import TAGS_FILE, TagRegistry
from companion.table.session import Session
from companion.table.table_game import Display
from companion.table.tutorial_flow import TutorialFlow
from companion.ui.text import t

#: Events enough for any lesson with its whole game; more means the lesson is stuck.
MAX_ACTIONS = 5000


def run_lesson_demo(game: str, seed: int, display: Display, *, data_dir: str | os.PathLike[str] | None = None,
                    players: Sequence[str] = (),
                    out: Callable[[str], None] = print) -> int:
    """Play ``game``'s lesson for ``seed`` on ``display`` (the learner named ``players`` if
    given, else the lesson's own names), printing its transcript with ``out``; the number of
    steps done. The lesson's progress and game are kept in ``data_dir`` when given (a
    temporary folder otherwise)."""
    lesson = game_entry(game).lessons
    if lesson is None:
        raise UserError(f"{game}: no lessons yet")
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="totem-tutorial-") as scratch:
        folder = Path(data_dir) if data_dir is not None else Path(scratch)
        registry = TagRegistry(Path(scratch) / TAGS_FILE, lesson.demo_tags())  # made up, never saved
        session = Session(folder, registry, players=tuple(players), rng=rng, tutorial=game)
        loop = AppLoop(session, display)
        try:
            loop.show(session.frame())
            learner = lesson.learner(loop, lesson.demo_tags(), rng)
            return _play(session, learner, out)
        except DemoError as exc:
            raise UserError(f"seed {seed}: {exc}") from None
        finally:
            loop.close()


def _play(session: Session, learner: Learner, out: Callable[[str], None]) -> int:
    """Let ``learner`` act until the lesson is over and the box is back at the menu."""
    tutorial = session.flow
    if not isinstance(tutorial, TutorialFlow):
        raise DemoError("the lesson did not start")
    printed = 0
    said = False
    for _ in range(MAX_ACTIONS):
        if session.flow is not tutorial:
            if not said:
                raise DemoError("the lesson ended before its last step")
            return tutorial.position.done
        learner.advance()
        for line in tutorial.log[printed:]:
            out(line)
        printed = len(tutorial.log)
        if tutorial.complete and not said:
            out(t("transcript.complete", n=tutorial.position.done))
            said = True
    raise DemoError(f"the lesson did not end after {MAX_ACTIONS} actions")
