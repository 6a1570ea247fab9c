"""What the Wakanda flows want on the screen, as plain values, and how they are drawn.

The board and the score pages are Wakanda's own, and so is the picture of a hint (the shared
``HintView`` of ``companion/table/hint_pages.py``, drawn on the board); menus, pickers and
questions are the shared views of ``companion/table/views.py``, drawn there — a picker of
piece types with the pieces' icons.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.screens import board_screen, hint_screen, picker_screen, status_screen
from companion.table import views
from companion.table.flow import Note
from companion.table.hint_pages import HintView
from companion.table.views import PickerView


@dataclass(frozen=True)
class BoardView:
    """The game board: whose turn, the row of poles, the hand, and a one-line note."""

    pending: str | None = None
    message: Note | None = None
    refused: bool = False
    done: str | None = None  # what the last action did, above the next prompt
    lit: int | None = None   # the one village to light (the box's move); None: every playable
    then: str | None = None  # what to do now, under a refusal or an undo's note
    kind = "board"


@dataclass(frozen=True)
class StatusView:
    """The figures the board has no room for: headdresses left, hands, the bag, the score."""

    kind = "status"


@dataclass(frozen=True)
class ScoreView:
    """One page of the final score."""

    page: int
    kind = "score"


#: The views drawn here rather than by the shared views.
WakandaView = BoardView | HintView | StatusView | ScoreView


def _picker(view: PickerView) -> Image.Image:
    """A picker (piece types with their icons); with a note, the list with a footer."""
    if view.note:
        return views.render(view)
    return picker_screen(view.choice.title, view.choice.labels, view.choice.selected)


def render(view: WakandaView | views.SharedView, game: Wakanda | None = None,
           score_pages: Sequence[Image.Image] | None = None) -> Image.Image:
    """The picture of ``view`` (``game`` for the board, ``score_pages`` for the score)."""
    if isinstance(view, BoardView):
        assert game is not None, view  # a board is drawn with its game
        return board_screen(game, pending=view.pending, message=view.message, refused=view.refused,
                            done=view.done, lit=view.lit, then=view.then)
    if isinstance(view, HintView):
        assert game is not None, view
        return hint_screen(game, view.tip.move, view.tip.words, view.footer)
    if isinstance(view, StatusView):
        assert game is not None, view
        return status_screen(game)
    if isinstance(view, ScoreView):
        assert score_pages is not None, view
        return score_pages[view.page]
    if isinstance(view, PickerView):
        return _picker(view)
    return views.render(view)
