"""Wakanda's part of the public view (``companion/table/public_view.py``): what the phone
page, its event stream and the voice may show of a game.

A hand is hidden unless the game is played with open hands (R2, the ``open_hands``
setting): then the page counts a hand's pieces and never names them, a draw is "Ana drew a
piece" (W4), and the list a village button opens of the pieces the mover could build, like
any list of pieces, stays on the OLED. With open hands everything the OLED shows is public.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

from companion.contract import Note
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.moves import Draw
from companion.games.wakanda.rules import PIECES
from companion.games.wakanda.words import in_text, t
from companion.table.public_view import GamePublic
from companion.table.views import PickerView
from companion.ui.text import language


class OnWakanda(Protocol):
    """A flow on screen during a game of Wakanda (its play, set-up or score)."""

    @property
    def game(self) -> Wakanda:
        """The game the flow shows."""
        ...


def hands_open(game: Wakanda) -> bool:
    """Whether anyone may see what each hand holds: only with open hands (R2)."""
    return game.open_hands


def hides(flow: OnWakanda, view: object) -> bool:
    """Whether none of ``view``'s words may be seen: a list of pieces to pick (to build or
    draw with the buttons) while the hands are hidden."""
    return isinstance(view, PickerView) and not hands_open(flow.game)


@lru_cache(maxsize=64)
def _draw_words(name: str, lang: str) -> tuple[tuple[str, str], ...]:
    """What the screen says of ``name``'s draw of each piece (the band's line in full and
    short, an undo's "put it back in the bag"), each with its public form, in ``lang``."""
    drew = t("voice.drew", lang, name=name)
    pairs = []
    for piece in PIECES:
        said = in_text(piece, lang)
        pairs += [(t("play.drew", lang, name=name, piece=said), drew),
                  (t("done.drew", lang, piece=said), drew),
                  (t("undo.to_bag", lang, piece=said), t("undo.done", lang, what=drew))]
    # The longest first: no text is cut by a shorter one inside it.
    return tuple(sorted(pairs, key=lambda pair: -len(pair[0])))


def note(flow: OnWakanda, text: Note) -> Note:
    """``text`` in its public form: a piece drawn into a hidden hand, or put back in the
    bag by an undo, is "a piece" of the player to move (the drawer: the turn stays theirs
    until they build or claim, W4)."""
    game = flow.game
    if hands_open(game) or not isinstance(text, str):
        return text
    drawer = game.history[-1][0] if game.history and isinstance(game.history[-1][1], Draw) else game.to_move
    if drawer is None:  # a tile turned up, the game over: no draw on screen
        return text
    for secret, public in _draw_words(game.name(drawer), language()):
        if secret in text:
            text = text.replace(secret, public)
    return text


PUBLIC = GamePublic(hides=hides, note=note)
