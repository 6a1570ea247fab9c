"""What the Totem Wars flows want on the screen, as plain values, and how they are drawn.

The flows say *what* to show; ``render`` draws it with ``screens.py`` and
``round_screens.py``. The generic views (menus, pickers, questions) are the shared ones of
``companion/table/views.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from companion.games.totem_wars import Card, ChooseTotems, TotemWars, screens
from companion.games.totem_wars.round_screens import round_page
from companion.table import views
from companion.table.flow import Note


@dataclass(frozen=True)
class TotemsView:
    """The totems being laid: who is done (never which card, T2) and who scans next."""

    done: int
    message: Note | None = None
    refused: bool = False
    then: str | None = None  # what to do now, under a refusal or an undo's note
    kind = "totems"


@dataclass(frozen=True)
class DealView:
    """The reminder once all totems are down: the dealer deals one more card each (T2, T3)."""

    kind = "deal"


@dataclass(frozen=True)
class PlacementView:
    """A round under way: the level, who places how many, the cards scanned so far."""

    pending: tuple[Card, ...] = ()
    message: Note | None = None
    refused: bool = False
    done: str | None = None  # what the last action did, above the next prompt
    then: str | None = None  # what to do now, under a refusal or an undo's note
    kind = "board"


@dataclass(frozen=True)
class StatusView:
    """The figures the board has no room for: points so far, hands, cards taken, the deck."""

    kind = "status"


@dataclass(frozen=True)
class DeclareView:
    """A war asks the owner of a two-habitat totem for its habitat (R2): ``selected`` is
    the habitat lit, the best for them first."""

    selected: int = 0
    message: Note | None = None
    refused: bool = False
    kind = "declare"


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


#: The views of a Totem Wars game's own screens.
View = TotemsView | DealView | PlacementView | StatusView | DeclareView | RoundView | EndView


def render(view: View | views.SharedView, game: TotemWars, pages: Sequence[Image.Image] = ()) -> Image.Image:
    """The picture of ``view``; ``pages`` are the pictures of a ``RoundView``/``EndView``."""
    if isinstance(view, TotemsView):
        return screens.totems_screen(game, view.done, message=view.message, refused=view.refused,
                                     then=view.then)
    if isinstance(view, DealView):
        return screens.deal_screen(game)
    if isinstance(view, PlacementView):
        return screens.board_screen(game, view.pending, message=view.message,
                                    refused=view.refused, done=view.done, then=view.then)
    if isinstance(view, StatusView):
        return screens.status_screen(game)
    if isinstance(view, DeclareView):
        return screens.declare_screen(game, view.selected, message=view.message,
                                      refused=view.refused)
    if isinstance(view, (RoundView, EndView)):
        return pages[view.page]
    return views.render(view)


def after_action(game: TotemWars) -> str | None:
    """The page a game shows right after its last action: ``"deal"`` (the reminder) after
    the totems, ``"round"`` (the result) after a placement that ended a round; else None."""
    if not game.history:
        return None
    move = game.history[-1][1]
    if isinstance(move, ChooseTotems):
        return "deal"
    if game.rounds and not any(game.table):
        return "round"
    return None


def frame_after(game: TotemWars, note: Note | None = None) -> Image.Image:
    """What the box shows right after the game's last action, the board (or the question of
    a war's declaration, R2) with ``note`` when no page is due: a pure function of the game
    (replay, and a resumed game)."""
    showing = after_action(game)
    if showing == "deal":
        return screens.deal_screen(game)
    if showing == "round":
        return round_page(game, game.rounds[-1], 0)
    if game.declaration_due is not None:
        return screens.declare_screen(game, message=note)
    if game.phase == "totems":
        return screens.totems_screen(game, 0, message=note)
    return screens.board_screen(game, (), message=note)
