"""What the Totem Wars flows want on the screen, as plain values, and how they are drawn.

The flows say *what* to show; ``render`` draws it with ``companion/ui/totem_wars_screens.py``
and ``totem_wars_round_screens.py``. The generic views (menus, pickers, questions) are the
shared ones of ``views.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.totem_wars import Card
from companion.table import views
from companion.ui import totem_wars_screens as screens


@dataclass(frozen=True)
class TotemsView:
    """The totems being laid: who is done (never which card, T2) and who scans next."""

    done: int
    message: str | None = None
    refused: bool = False
    kind = "totems"


@dataclass(frozen=True)
class DealView:
    """The reminder once all totems are down: the dealer deals one more card each (T2, T3)."""

    kind = "deal"


@dataclass(frozen=True)
class PlacementView:
    """A round under way: the level, who places how many, the cards scanned so far."""

    pending: tuple[Card, ...] = ()
    message: str | None = None
    refused: bool = False
    kind = "board"


@dataclass(frozen=True)
class RoundView:
    """One page of the result of the round just played (points, war, takes, refill)."""

    page: int
    count: int
    kind = "round"


@dataclass(frozen=True)
class EndView:
    """One page of the end of a small game and of the big game (T15, T16)."""

    page: int
    count: int
    kind = "score"


def render(view, game, pages=None):
    """The picture of ``view``; ``pages`` are the pictures of a ``RoundView``/``EndView``."""
    if isinstance(view, TotemsView):
        return screens.totems_screen(game, view.done, message=view.message, refused=view.refused)
    if isinstance(view, DealView):
        return screens.deal_screen(game)
    if isinstance(view, PlacementView):
        return screens.board_screen(game, view.pending, message=view.message,
                                    refused=view.refused)
    if isinstance(view, (RoundView, EndView)):
        return pages[view.page]
    return views.render(view)

