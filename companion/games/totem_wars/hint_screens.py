"""The Totem Wars coach's screens (``hand_hint.py``): the hand being shown, and a tip.

The hand screen counts the cards scanned (open boxes for those still to come, as the board
draws cards) and names the last one, so the player can check the scan; it says what the
buttons do and that the hand is forgotten after the hint. A tip names what to lay — the
cards grouped by tribe under their tribe's label, as the round's pages show columns (T7) —
then why, and on the lit bottom line what the next HINT gives.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image

from companion.games.totem_wars.deck import Card
from companion.games.totem_wars.screens import CARD_H, CARD_PITCH, CARD_W, TRIBE_SHORT
from companion.games.totem_wars.words import animal_in_text, card_label, t
from companion.table.flow import Note
from companion.ui.canvas import (
    HEIGHT,
    SMALL,
    WIDTH,
    draw_centered,
    draw_text,
    fill_box,
    fit,
    new_canvas,
    outline_box,
    wrap,
)
from companion.ui.screens import TITLE_HEIGHT, note_band, title_band

#: Rows of small text between the title band and the lit bottom line.
ROWS = 5
ROW_PITCH = SMALL.height + 1
FOOTER_TOP = HEIGHT - SMALL.height - 2
#: Where the cards of a tribe start on a tip's row, right of the tribe's label.
CARDS_X = 20


@dataclass(frozen=True)
class TipPicture:
    """What a tip's screen shows: the ``title`` (what to do, in short), the cards by tribe
    (``rows``: a tribe and its cards, none for a habitat or all the cards), the reason
    (``why``) and the ``footer``."""

    title: str
    rows: tuple[tuple[str, tuple[Card, ...]], ...]
    why: str
    footer: str


def _footer(image: Image.Image, text: str) -> None:
    """The lit bottom line: what the next press gives."""
    fill_box(image, (0, FOOTER_TOP, WIDTH - 1, HEIGHT - 1))
    draw_centered(image, FOOTER_TOP + 1, fit(text, WIDTH - 2, SMALL), SMALL, 0)


def hand_screen(name: str, count: int, size: int, last: Card | None, message: Note | None = None,
                refused: bool = False) -> Image.Image:
    """``name`` shows their hand of ``size`` cards, ``count`` scanned (``last`` the card
    scanned last); ``message`` a note at the bottom, lit when ``refused``."""
    image = new_canvas()
    title_band(image, t("tw.hand.title", name=name), f"{count}/{size}")
    if message:  # what was wrong comes first: the lines below make room for it
        bottom = note_band(image, message, refused)
    else:
        _footer(image, t("tw.hand.footer"))
        bottom = FOOTER_TOP
    # Rows top down, each block whole or not at all (a refusal needs the room below).
    blocks: list[list[str | None]] = [
        [t("tw.hand.scan" if count < size else "tw.hand.ready")], [None], [t("tw.hand.pick")],
        list(wrap(t("tw.hand.forgotten"), WIDTH - 4, SMALL, max_lines=2))]
    y = TITLE_HEIGHT + 1
    for block in blocks:
        if y + len(block) * ROW_PITCH - 1 > bottom:
            break
        for line in block:
            if line is None:
                _slots(image, y, count, size, last)
            else:
                draw_text(image, 2, y, fit(line, WIDTH - 4, SMALL), SMALL)
            y += ROW_PITCH
    return image


def _slots(image: Image.Image, y: int, count: int, size: int, last: Card | None) -> None:
    """The hand as boxes, the scanned ones filled, then the card scanned last."""
    x = 2
    for i in range(size):
        box = (x, y, x + CARD_W - 1, y + CARD_H - 1)
        (fill_box if i < count else outline_box)(image, box)
        x += CARD_PITCH
    if last is not None:
        draw_text(image, x + 3, y, fit(card_label(last), WIDTH - x - 5, SMALL), SMALL)


def tip_screen(picture: TipPicture) -> Image.Image:
    """A tip: its title, the cards to lay by tribe, why, and the lit footer; the reason
    takes the rows the cards leave (its end cut only when it needs more)."""
    image = new_canvas()
    title_band(image, picture.title)
    y = TITLE_HEIGHT + 1
    for tribe, cards in picture.rows:
        label = t(TRIBE_SHORT[tribe])
        fill_box(image, (0, y - 1, 16, y + SMALL.height - 1))
        draw_text(image, 1, y, label, SMALL, 0)
        words = " ".join(animal_word(card) for card in cards)
        draw_text(image, CARDS_X, y, fit(words, WIDTH - CARDS_X - 1, SMALL), SMALL)
        y += ROW_PITCH
    for line in wrap(picture.why, WIDTH - 4, SMALL, max_lines=ROWS - len(picture.rows)):
        draw_text(image, 2, y, line, SMALL)
        y += ROW_PITCH
    _footer(image, picture.footer)
    return image


def animal_word(card: Card) -> str:
    """A card's animal as one word in a row of its tribe: ``snake``, ``polar-bear``."""
    return animal_in_text(card.animal).replace(" ", "-")


def by_tribe(cards: Iterable[Card]) -> tuple[tuple[str, tuple[Card, ...]], ...]:
    """``cards`` grouped by tribe, the tribes in the order of the cards' first appearance."""
    tribes: dict[str, list[Card]] = {}
    for card in cards:
        tribes.setdefault(card.tribe, []).append(card)
    return tuple((tribe, tuple(group)) for tribe, group in tribes.items())
