"""The hint button in play: one button, two kinds of help, one press a step.

A play flow's coach (``PlayFlow.coach``: each game's own) gives **tips** for the player to
move, best first: a suggested move and why ("claim village 2: locks 8 points for you"), or,
when no choice is due (a draw, a tile to turn up: chance), what to do now. The why-pages
(``why_flow.py``) give the **rule**. The order follows what the screen says:

- a note that cites a rule (a refusal, "… — W4") is explained first: the rule, then the tips;
- anywhere else the tips come first, then the rule;
- with no tips (the box's Hints setting was off when the game started, or the game has no
  coach) HINT gives the rule alone, as on the set-up and score pages.

HINT goes on to the next tip (the next best move), and after the last one to what comes
next; ▲▼ step between the tips (and turn the rule's pages); OK, BACK or UNDO give the
screen back exactly as it was, and so does HINT at the end. The footer of every page says
in words what the next HINT gives. Any other event (a scan, a village button) closes the
help and is handled as usual, so nothing a player does is lost.

The tips are asked of the coach once per opening of the help: stepping through them never
searches again (and a coach keeps its answer for a position besides).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace

from companion.contract import Flow
from companion.engine import Refusal
from companion.events import Press
from companion.table.choice import step_of
from companion.table.rule_pages import turned
from companion.table.views import WhyView
from companion.table.why_flow import CLOSING, WhyPages, cited_rule, why_view
from companion.ui.text import t

#: The stages of the help: the coach's tips and the rule's why-pages.
TIPS, RULE = "tips", "rule"


@dataclass(frozen=True)
class Tip:
    """One piece of advice: the suggested ``move`` (None: no choice is due, ``words`` say
    what to do now) and ``words``, one line of plain words in the box's language."""

    move: Hashable | None
    words: str


@dataclass(frozen=True)
class HintView:
    """A tip on screen: tip ``number`` of ``count`` (from 1) and the ``footer`` saying what
    the next HINT gives. Each game draws it (Wakanda: on its board, the move's village
    lit)."""

    tip: Tip
    number: int
    count: int
    footer: str
    kind = "hint"


class HintPages:
    """The help a play flow opens over itself with HINT: the tips of ``coach`` (called when
    HINT is first pressed) and the flow's why-pages ``why``. ``view`` is the tip shown, None
    when none is; the rule's pages are ``why.view``."""

    def __init__(self, why: WhyPages, coach: Callable[[], tuple[Tip, ...]]):
        self.why = why
        self.coach = coach
        self.view: HintView | None = None
        self._tips: tuple[Tip, ...] = ()
        self._index = 0
        self._rule: WhyView | None = None
        self._stages: list[str] = []  # the stages still to come after the one shown

    @property
    def shown(self) -> bool:
        """Whether a tip or a rule page is on screen."""
        return self.view is not None or self.why.view is not None

    def take(self, flow: Flow, event: object, note: str | Refusal | None) -> bool:
        """Whether ``event`` was used by the help (see the module docstring); ``note`` is
        the note on screen before the event. An event not used closes the help: the flow
        handles it as usual."""
        if not self.shown:
            return event == Press("hint") and self._open(flow, note)
        button = event.button if isinstance(event, Press) else None
        if button is not None and step_of(button):
            self._step(step_of(button))
            return True
        if button == "hint":
            if self.view is not None and self._index + 1 < len(self._tips):
                self._show_tip(self._index + 1)
                return True
            self.view = self.why.view = None
            self._next()
            return True
        self.close()
        return button in CLOSING

    def close(self) -> None:
        """Close the help (a new note must be seen)."""
        self.view = None
        self.why.close()
        self._stages = []

    # --- the stages ----------------------------------------------------------------------

    def _open(self, flow: Flow, note: str | Refusal | None) -> bool:
        """HINT with nothing open: the first stage, in the order the screen asks for;
        whether there was anything to show."""
        self._rule = why_view(flow, note)
        cited = cited_rule(note)
        explain_first = self._rule is not None and cited == self._rule.rule
        self._tips = self.coach()
        order = (RULE, TIPS) if explain_first or not self._tips else (TIPS, RULE)
        self._stages = [stage for stage in order
                        if (stage == TIPS and self._tips) or (stage == RULE and self._rule)]
        if not self._stages:
            return False
        self._next()
        return True

    def _next(self) -> None:
        """Show the next stage; after the last one the screen is given back."""
        if not self._stages:
            return
        stage = self._stages.pop(0)
        if stage == TIPS:
            self._show_tip(0)
        elif self._rule is not None:
            self.why.view = replace(self._rule, then=self._then())

    def _then(self) -> str | None:
        """What HINT gives after the stage shown, in words; None: the screen back."""
        if not self._stages:
            return None
        if self._stages[0] == RULE:
            return t("hint.then.rule")
        return t("hint.then.move" if self._tips[0].move is not None else "hint.then.advice")

    def _show_tip(self, index: int) -> None:
        self._index = index
        count = len(self._tips)
        then = t("hint.then.next") if index + 1 < count else self._then()
        if count > 1:
            footer = t("hint.footer", n=index + 1, of=count, then=then or t("rules.footer_one"))
        else:
            footer = t("hint.footer_one", then=then) if then else t("rules.footer_one")
        self.view = HintView(self._tips[index], index + 1, count, footer)

    def _step(self, step: int) -> None:
        """▲▼: the better or the next tip, or the rule's page before or after."""
        if self.view is not None:
            self._show_tip(min(max(self._index + step, 0), len(self._tips) - 1))
            return
        view = self.why.view
        if view is not None:
            self.why.view = turned(view, step)  # on through the rule book
