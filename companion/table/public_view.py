"""The public view: what anyone away from the box may see of its screen — the phone page,
its event stream and the voice all take the screen's words from here, never from the view
itself. The OLED alone shows the mover's own information (its players sit at it).

One filter for every channel: a view whose words are all hidden information (the coach's
tips, in any game; a game's hand screens and pickers of hidden choices) gives None; any
other view is given back with each of its texts in its public form, which only its game
knows (``GamePublic``, ``companion/games/<game>/public.py``, reached through the game's
``TableGame.public``): a piece drawn into a hidden hand, a card face down. Shared code names
no game.

>>> from companion.table.views import ConfirmView
>>> hush = GamePublic(hides=lambda flow, view: False,
...                   note=lambda flow, note: note.replace("teepee", "a piece"))
>>> class Flow:
...     game = object()
>>> public_view(Flow(), ConfirmView("Take back?", "Ana drew teepee"), hush).detail
'Ana drew a piece'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.engine import Refusal
from companion.table.choice import Choice

#: Kinds of views no one away from the box may see, in any game: the coach's tips.
SECRET_KINDS = frozenset({"hint"})


@dataclass(frozen=True)
class GamePublic:
    """A game's part of the public view, both given the flow on screen (its ``game``):

    - ``hides(flow, view)``: whether none of the view's words may be seen (a hand shown
      for a hint, a picker of the mover's hidden choices);
    - ``note(flow, note)``: the public form of one text or refusal the screen shows, the
      same value when it names nothing hidden.
    """

    hides: Callable[[Any, Any], bool]
    note: Callable[[Any, Any], Any]


def public_view(flow: Any, view: Any, public: GamePublic | None) -> Any:
    """``view`` as anyone may see it (see the module docstring): None when none of its
    words may be seen, else the view with each text in its public form. ``public``: the
    game's part (None outside a game, or for a game without one)."""
    if getattr(view, "kind", None) in SECRET_KINDS:
        return None
    if public is None or getattr(flow, "game", None) is None:
        return view
    if public.hides(flow, view):
        return None
    return _with_public_texts(view, lambda note: public.note(flow, note))


def _with_public_texts(view: Any, note: Callable[[Any], Any]) -> Any:
    """``view`` with ``note`` applied to each of its texts: its strings, refusals and the
    title and lines of its list."""
    if not dataclasses.is_dataclass(view) or isinstance(view, type):
        return view
    changes: dict[str, Any] = {}
    for field in dataclasses.fields(view):
        value = getattr(view, field.name)
        if isinstance(value, str | Refusal):
            public = note(value)
        elif isinstance(value, Choice):
            public = dataclasses.replace(value, title=note(value.title),
                                         labels=tuple(note(label) for label in value.labels))
        else:
            continue
        if public != value:
            changes[field.name] = public
    return dataclasses.replace(view, **changes) if changes else view


def _public_of(session: Any) -> GamePublic | None:
    table = session.table_game
    return table.public if table is not None and session.game is not None else None


def seen(session: Any) -> Any:
    """The view on ``session``'s screen as anyone may see it (``public_view``): what the
    phone page, its event stream and the voice show and say of it."""
    return public_view(session.flow, session.view, _public_of(session))


def public_text(session: Any, text: str) -> str:
    """``text``, words of the game on ``session``'s screen (the voice's "Where are we?"),
    in its public form."""
    public = _public_of(session)
    return str(public.note(session.flow, text)) if public is not None else text
