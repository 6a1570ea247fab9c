"""The end of a game: the score pages, turned with up/down (▼ on the last goes on, as OK).

OK keeps the finished record and goes back to the menu; Back offers to take back the last
action (a claim pressed by mistake must not end a game for good).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from companion.events import Press
from companion.table.choice import step_of
from companion.table.flow import BackToPlay, Flow, FlowEvent, Reply, ToFinish
from companion.table.views import ConfirmView
from companion.ui.screens import note_band
from companion.ui.text import t


class ScorePagesFlow(Flow):
    """The score pages of a finished ``game``: up/down turn them, OK calls ``finish()``,
    Back (then OK) takes back the last action. ``describe(game, player, move)`` words that
    action for the question; a game's score flow gives ``page_view`` and ``frame``."""

    kind = "score"

    def __init__(self, game: Any, pages: Sequence[object], describe: Callable[[Any, int | None, Any], str]) -> None:
        super().__init__()
        self.game = game
        self.pages = pages
        self.describe = describe
        self.page = 0
        self.confirming = False

    def view(self) -> Any:
        """What the screen shows now."""
        if self.why.view is not None:
            return self.why.view
        if self.confirming:
            player, move = self.game.history[-1]
            return ConfirmView(t("undo.question"), self.describe(self.game, player, move))
        return self.page_view()

    def page_view(self) -> Any:
        """The page shown when no question is asked."""
        raise NotImplementedError

    def frame(self) -> Image.Image:
        """The picture of ``view()``; a note (the finished game could not be kept, OK tries
        again) over the page's bottom, lit when refused: a score page has no room of its own
        for one, and a box that cannot keep a game must say so."""
        image = self.page_frame()
        if self.note and not self.confirming and self.why.view is None:
            image = image.copy()
            note_band(image, self.note, self.refused)
        return image

    def page_frame(self) -> Image.Image:
        """The picture of ``view()`` without the note."""
        raise NotImplementedError

    def finish(self) -> Reply:
        """OK on a page: keep the record and go back to the menu."""
        return Reply(then=ToFinish())

    def handle(self, event: FlowEvent) -> Reply:
        """Up/down turn the pages, OK finishes, Back (then OK) takes back the last action;
        HINT explains the page's rule (why_flow.py)."""
        if self.why.take(self, event, self.note):
            return Reply()
        self.clear()
        if not isinstance(event, Press):
            return Reply()
        if self.confirming:
            self.confirming = False
            return Reply(then=BackToPlay()) if event.button == "ok" else Reply()
        step = step_of(event.button)
        if step and self.page + step >= len(self.pages):
            return self.finish()  # ▼ on the last page goes on, as OK does and as after a round
        if step:
            self.page = (self.page + step) % len(self.pages)  # ▲ on the first: the last page
            return Reply()
        if event.button == "ok":
            return self.finish()
        if event.button in ("back", "undo") and self.game.history:
            self.confirming = True
        return Reply()
