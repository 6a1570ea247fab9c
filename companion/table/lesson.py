"""What a lesson is made of, for the games' lessons and the shared lesson runner
(``tutorial_flow.py``): a ``Lesson`` is an ordered tuple of ``Step`` values, each a small
frozen value naming the rule it teaches, its topic, what the box asks and how the runner
knows it was done.

A step is one of three kinds:

- a **move** step (``wants``): one real action of the game — a draw, a build, a placement —
  checked by the rules engine of the real game; ``wants`` says whether the accepted move is
  the one the step asks for;
- a **set-up** step (``passed``, no ``wants``): a step of the game's own set-up (the tiles,
  the dealer), done once the set-up has got past it;
- a **read** step (neither): its page is the step, and an action away from the box
  ("put the pieces in the bag") is confirmed with OK.

Every text is a function of the ``Situation`` — the real table as the box knows it — so a
lesson adapts to what was actually drawn, laid out or dealt. Texts come from the word
catalogue; pages are cut to the screen by the runner.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from PIL import Image

from companion.contract import Flow
from companion.engine import Refusal


@dataclass(frozen=True)
class Situation:
    """What a step looks at: the wrapped ``flow`` on screen (the set-up, the play, the score
    pages) and the lesson's ``game`` (None until it is set up)."""

    flow: Flow
    game: Any = None


Words = Callable[[Situation], str]


class Learner(Protocol):
    """The demo's learner (``tutorial --demo``): plays the newcomer's part of a lesson."""

    def advance(self) -> None:
        """Do the next thing a newcomer does at the box (a scan, a press)."""


def always(situation: Situation) -> bool:
    """The situation of a step that can begin at once."""
    return True


@dataclass(frozen=True)
class Step:
    """One step of a lesson (see the module docstring).

    ``key`` names it in the progress file; ``rule`` is the rule it teaches, cited in the
    transcript; ``topic`` (a catalogue key) groups the steps a skip jumps over; ``title``
    (a catalogue key) follows the rule on its page's title band. ``ask`` is what the box
    asks, short enough for two lines of the board's band; ``page`` the explanation shown
    when the step begins the first time (a page or two). The step waits until ``when``
    holds — unless the table gets past it first (``passed``: players went on without the
    lesson) or the game ends: then it is passed over. ``optional`` steps (coaching notes on
    situations a game may never reach) are also passed when the next step's situation comes
    first; a run of them is played in the
    order their situations come. ``did`` puts what was done into words for the transcript
    (by default: the game's words for the move, or OK).
    ``picture`` draws the real table where a picture says more than words: a 128×64 image
    whose top band and bottom line the runner fills (the page's title and footer); it comes
    before the page's text.
    """

    key: str
    rule: str
    topic: str
    title: str
    ask: Words
    page: Words | None = None
    when: Callable[[Situation], bool] = always
    wants: Callable[[Situation, Any], bool] | None = None
    passed: Callable[[Situation], bool] | None = None
    did: Words | None = None
    optional: bool = False
    picture: Callable[[Situation], Image.Image] | None = None

    @property
    def kind(self) -> str:
        """``"move"``, ``"setup"`` or ``"read"``."""
        if self.wants is not None:
            return "move"
        return "setup" if self.passed is not None else "read"


@dataclass(frozen=True)
class Lesson:
    """A game's lessons: the ``steps`` in order, and what the runner asks of the game.

    ``explain(situation, refusal)`` gives the lesson's words for an action the rules
    refused (None: the rule's own why-page); ``asks_on(flow)`` says whether the play flow's
    board waits for the next action, so that the step's ask can take the band's place;
    ``options`` are the set-up options the lesson is played with (the game's settings by
    key; the rulebook's defaults when a key is missing). ``learner(loop, tags, rng)`` makes
    the demo's learner (``tutorial --demo``), playing through the app loop with the tags
    ``demo_tags()`` (a made-up tag registry): its ``advance()`` does the next thing a
    newcomer does.
    """

    steps: tuple[Step, ...]
    explain: Callable[[Situation, Refusal], str | None]
    asks_on: Callable[[Flow], bool]
    #: (the app loop, the tags, the rng) -> the learner: its game's, typed by the game (the
    #: app loop is above the lesson, which a game's definition names).
    learner: Callable[..., Learner]
    demo_tags: Callable[[], dict[str, str]] = dict
    options: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        keys = [step.key for step in self.steps]
        if len(set(keys)) != len(keys):
            raise ValueError("every step of a lesson needs its own key")
