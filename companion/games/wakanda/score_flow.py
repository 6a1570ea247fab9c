"""The end of a Wakanda game: the score pages (W7-W9, R6), turned with up/down."""

from __future__ import annotations

from companion.games.wakanda.flow import describe
from companion.games.wakanda.score_screens import score_pages
from companion.games.wakanda.views import ScoreView, render
from companion.table.score_flow import ScorePagesFlow


class ScoreFlow(ScorePagesFlow):
    """The final score of a Wakanda ``game``, page by page."""

    def __init__(self, game):
        super().__init__(game, score_pages(game), describe)

    def page_view(self):
        """The page shown when no question is asked."""
        return ScoreView(self.page)

    def frame(self):
        """The picture of ``view()``."""
        return render(self.view(), self.game, self.pages)
