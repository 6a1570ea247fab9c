"""The end of a small game of Totem Wars: its score pages and the big game (T15, T16).

Pages: the winner and everybody's points, each player's totem and taken cards of its
tribe, then the big game's running totals to 42 with this game counted. Up/down turn the
pages. OK counts the game in the big game (saved in the data folder, never twice) and
keeps the record; Back offers to take back the last placement (a card scanned by mistake
must not end a game for good).
"""

from __future__ import annotations

import os

from PIL import Image

from companion.errors import UserError
from companion.games.totem_wars.big_game_store import count_game, load_big_game, with_game
from companion.games.totem_wars.box_seat import BoxSeats
from companion.games.totem_wars.flow import describe
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.match import Match
from companion.games.totem_wars.moves import Move
from companion.games.totem_wars.round_screens import end_pages
from companion.games.totem_wars.views import EndView, render
from companion.table.flow import Reply, ToFinish
from companion.table.score_flow import ScorePagesFlow


def big_game_preview(data_dir: str | os.PathLike[str], game: TotemWars) -> Match | None:
    """The big game's match with ``game`` counted, not saved; ``None`` if it cannot be read."""
    try:
        return with_game(load_big_game(data_dir), game).match
    except UserError:
        return None


def _undo_text(game: TotemWars, player: int | None, move: Move) -> str:
    """What Back on the end pages takes back: the last move, or over the box's decisions
    the person's move before them (``box_seat.py``)."""
    if game.box:
        return BoxSeats(game.box).undo_text(game, describe)
    return describe(game, player, move)


class TotemWarsScoreFlow(ScorePagesFlow):
    """The final score of ``game``, page by page; ``data_dir`` keeps the big game."""

    of_game = "totem-wars"  # its why-pages are Totem Wars' rules
    game: TotemWars
    pages: list[Image.Image]

    def __init__(self, game: TotemWars, data_dir: str | os.PathLike[str]) -> None:
        self.data_dir = data_dir
        self.match = big_game_preview(data_dir, game)
        super().__init__(game, end_pages(game, self.match), _undo_text)

    def page_view(self) -> EndView:
        """The page shown when no question is asked."""
        return EndView(self.page, len(self.pages))

    def page_frame(self) -> Image.Image:
        """The picture of ``view()`` without the note."""
        return render(self.view(), self.game, self.pages)

    def finish(self) -> Reply:
        """Count the game in the big game (never twice), then keep the record."""
        try:
            count_game(self.data_dir, self.game)
        except UserError as exc:
            # The record stays unfinished and safe; the totals wait for a fix.
            return self.tell(str(exc), True)
        return Reply(then=ToFinish())
