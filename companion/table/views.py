"""What a flow wants on the screen, as a plain value, and how it is drawn.

Flows say *what* to show (a ``BoardView``, a ``MenuView`` …); ``render`` turns that into the
128×64 picture with the screens of ``companion/ui``. Tests read the views; the display gets
the pictures.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.table.choice import Choice
from companion.ui import wakanda_screens as screens


@dataclass(frozen=True)
class BoardView:
    """The game board: whose turn, the row of poles, the hand, and a one-line note."""

    pending: str | None = None
    message: str | None = None
    refused: bool = False
    kind = "board"


@dataclass(frozen=True)
class MenuView:
    """A titled list to choose from, with an optional footer line."""

    choice: Choice
    footer: str | None = None
    kind = "menu"


@dataclass(frozen=True)
class PickerView:
    """One value to pick with up/down (a piece type, a tile, a name)."""

    choice: Choice
    note: str | None = None
    kind = "picker"


@dataclass(frozen=True)
class ConfirmView:
    """A yes/no question: OK does it, Back keeps things as they are."""

    question: str
    detail: str
    kind = "confirm"


@dataclass(frozen=True)
class ScoreView:
    """One page of the final score."""

    page: int
    kind = "score"


View = BoardView | MenuView | PickerView | ConfirmView | ScoreView


def render(view: View, game=None, score_pages=None):
    """The picture of ``view`` (``game`` for the board, ``score_pages`` for the score)."""
    if isinstance(view, BoardView):
        return screens.board_screen(game, pending=view.pending,
                                    message=view.message, refused=view.refused)
    if isinstance(view, MenuView):
        return screens.menu_screen(view.choice.title, list(view.choice.labels),
                                   view.choice.selected, footer=view.footer)
    if isinstance(view, PickerView):
        if view.note:
            # A picker has no room for a note: the list with a footer says both.
            return screens.menu_screen(view.choice.title, list(view.choice.labels),
                                       view.choice.selected, footer=view.note)
        return screens.picker_screen(view.choice.title, list(view.choice.labels),
                                     view.choice.selected)
    if isinstance(view, ConfirmView):
        return screens.confirm_screen(view.question, view.detail)
    if isinstance(view, ScoreView):
        return score_pages[view.page]
    raise TypeError(f"not a view: {view!r}")
