"""The end of a Wakanda game: the score pages (W7-W9, R6), turned with up/down.

A game played with hints on (``Wakanda.hints``) has, after them, a review page for each
player at the table (the box's own seat is not reviewed): where they lost the most points
(``review.py``). The review is made on a thread of its own from the moment the pages open,
so the box never waits for it; its page says "Reviewing…" with its progress until it is
done (the app redraws a screen of work under way). Leaving the pages stops it.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from companion.games.wakanda.box_player import BoxPlayer
from companion.games.wakanda.flow import describe
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.moves import Move
from companion.games.wakanda.review import ReviewJob
from companion.games.wakanda.score_screens import review_page, score_pages
from companion.games.wakanda.views import ScoreView, render
from companion.table.flow import FlowEvent, Reply
from companion.table.score_flow import ScorePagesFlow


@dataclass(frozen=True)
class ReviewView:
    """The review page of ``player``: page ``page`` (from 0) of ``count``; ``done`` when the
    review is made."""

    player: int
    page: int
    count: int
    done: bool
    kind = "score"


def reviewed(game: Wakanda) -> tuple[int, ...]:
    """The seats whose play the score pages review: with hints on, the people at the table
    (not a seat the box plays); none with hints off."""
    return tuple(p for p in (0, 1) if p not in game.box) if game.hints else ()


def _undo_text(game: Wakanda, player: int | None, move: Move) -> str:
    """What Back (then OK) on the score takes back: the last move, or over the box's last
    move, the person's move before it (``box_player.py``)."""
    if game.box:
        return BoxPlayer(game.box).undo_text(game, describe)
    return describe(game, player, move)


class ScoreFlow(ScorePagesFlow):
    """The final score of a Wakanda ``game``, page by page, then its review."""

    of_game = "wakanda"  # its why-pages are Wakanda's rules
    game: Wakanda

    def __init__(self, game: Wakanda) -> None:
        self.reviewed = reviewed(game)
        self.job = ReviewJob(game) if self.reviewed else None
        self._drawn_done = False
        pages = score_pages(game, more=len(self.reviewed))
        self.images = pages  # the score's pages (``self.pages`` ends with the review's)
        # The review's pages are drawn when shown (the review may still be under way).
        super().__init__(game, pages + [None] * len(self.reviewed), _undo_text)

    def page_view(self) -> ScoreView | ReviewView:
        """The page shown when no question is asked."""
        first = len(self.pages) - len(self.reviewed)
        if self.page < first:
            return ScoreView(self.page)
        assert self.job is not None
        return ReviewView(self.reviewed[self.page - first], self.page, len(self.pages), self.job.done)

    def working(self) -> bool:
        """Whether the review page shown was drawn while the review was being made."""
        return isinstance(self.view(), ReviewView) and not self._drawn_done

    def page_frame(self) -> Image.Image:
        """The picture of ``view()`` without the note."""
        view = self.view()
        if isinstance(view, ReviewView):
            job = self.job
            assert job is not None
            # Read before drawing: work that ends while the page is drawn is drawn again.
            self._drawn_done = job.done
            return review_page(self.game, view.player, view.page + 1, view.count, job.result,
                               progress=job.progress, failed=job.failed)
        return render(view, self.game, self.images)

    def handle(self, event: FlowEvent) -> Reply:
        """As the score pages do; leaving them (finished, or back to play) stops the
        review."""
        reply = super().handle(event)
        if reply.then is not None and self.job is not None:
            self.job.cancel()
        return reply
