"""What a flow wants on the screen, as a plain value, and how the shared ones are drawn.

Flows say *what* to show (a ``MenuView``, a ``ConfirmView`` …); ``render`` turns the shared
views into the 128×64 picture with the screens of ``companion/ui``; each game draws its own
views (its board, its score pages) in ``companion/games/<game>/views.py``. Tests read the
views; the display gets the pictures.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from companion.engine import Refusal
from companion.table.choice import Choice
from companion.ui import screens
from companion.ui.text import refusal_text, t


@dataclass(frozen=True)
class MenuView:
    """A titled list to choose from, with an optional footer line."""

    choice: Choice
    footer: str | Refusal | None = None
    kind = "menu"


@dataclass(frozen=True)
class PickerView:
    """One value to pick with up/down (a piece type, a tile, a name)."""

    choice: Choice
    note: str | Refusal | None = None
    kind = "picker"


@dataclass(frozen=True)
class ConfirmView:
    """A yes/no question: OK does it, Back keeps things as they are."""

    question: str
    detail: str
    kind = "confirm"


@dataclass(frozen=True)
class WhyView:
    """The why-pages: the text of ``rule`` (its ``title`` in the band) cut into ``pages`` of
    lines, page ``page`` shown; ▲▼ turn them, OK, BACK or HINT go back — or, when ``then``
    says what HINT gives next ("HINT: a move", hint_pages.py), HINT goes on to it. ``game``
    (a record name) is the game whose rule book they turn on through (rules_flow.py)."""

    rule: str
    title: str
    pages: tuple[tuple[str, ...], ...]
    page: int = 0
    then: str | None = None
    game: str | None = None
    kind = "why"


SharedView = MenuView | PickerView | ConfirmView | WhyView


def _words(note: str | Refusal | None) -> str | None:
    """A note as the words a footer shows (a refusal with its rule)."""
    return note if note is None or isinstance(note, str) else refusal_text(note)


def render(view: SharedView, icons: tuple[Image.Image | None, ...] = ()) -> Image.Image:
    """The picture of a shared view; ``icons`` go beside a picker's options (one per option,
    None for none)."""
    if isinstance(view, MenuView):
        return screens.menu_screen(view.choice.title, list(view.choice.labels),
                                   view.choice.selected, footer=_words(view.footer))
    if isinstance(view, PickerView):
        if view.note:
            # A picker has no room for a note: the list with a footer says both.
            return screens.menu_screen(view.choice.title, list(view.choice.labels),
                                       view.choice.selected, footer=_words(view.note))
        return screens.picker_screen(view.choice.title, list(view.choice.labels),
                                     view.choice.selected, icons)
    if isinstance(view, ConfirmView):
        return screens.confirm_screen(view.question, view.detail)
    if isinstance(view, WhyView):
        count = len(view.pages)
        if view.then is None:
            footer = t("rules.footer" if count > 1 else "rules.footer_one")
        else:
            footer = t("rules.footer_then" if count > 1 else "hint.footer_one", then=view.then)
        return screens.pages_screen(f"{view.rule} {view.title}", view.pages[view.page],
                                    view.page + 1, count, footer)
    raise TypeError(f"not a view: {view!r}")
