"""Wakanda screens: the board at a glance.

The board is the row of six villages, each a column: the pole as a stack of piece icons
(bottom → top) standing on its tile label, the owner's headdress on top once claimed. The
header says whose turn it is, the phase and the hands; lit tile labels are the villages
the player to move can play on now. The score pages are in ``score_screens.py``.

The table session calls these functions; their signatures are its contract.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image

from companion.engine import Refusal
from companion.games.wakanda import icons as art
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.moves import Build, Claim, Pass
from companion.games.wakanda.words import piece_name, t, tile_label
from companion.ui import screens
from companion.ui.canvas import (
    HEIGHT,
    MEDIUM,
    SMALL,
    WIDTH,
    dotted_box,
    draw_centered,
    draw_text,
    fill_box,
    fit,
    hatch_box,
    named,
    new_canvas,
    outline_box,
    short_name,
    text_band,
    text_width,
    wrap,
)
from companion.ui.screens import note_band

ROW = 6
HEADER_HEIGHT = 10
POLE_TOP = HEADER_HEIGHT + 1
COLUMN_PITCH = 21
COLUMN_WIDTH = 20
LEFT = 1
LABEL_HEIGHT = 8
PIECE_PITCH = art.PIECE_HEIGHT + 1
CAP_HEIGHT = art.HEADDRESS_HEIGHT + 2
GHOST_HEIGHT = art.PIECE_HEIGHT + 2


def column_left(village: int) -> int:
    """The x of the left edge of village ``village``'s column (1 to 6)."""
    return LEFT + (village - 1) * COLUMN_PITCH


def board_screen(game: Wakanda, *, cursor: int | None = None, pending: str | None = None,
                 message: str | Refusal | None = None, refused: bool = False,
                 done: str | None = None, lit: int | None = None, then: str | None = None) -> Image.Image:
    """The board of a Wakanda game (see the module docstring).

    ``cursor`` (1..6) frames the village being chosen with the buttons; ``pending`` is the
    piece (or headdress, ``wings``/``crests``) about to be placed: only the villages it may
    go to are lit, and it is shown on top of the cursor's pole. ``message`` is a one- or
    two-line band at the bottom, lit as a warning when ``refused`` (then as long as the
    refusal needs); ``done``, what the last action did, goes above it. ``lit``: the one
    village to light instead (the box's move, on its turn). ``then``: what to do now, on the
    bottom line under the message.
    """
    image = new_canvas()
    band_top = note_band(image, message, refused, medium_first=True, done=done, then=then)
    _board(image, game, band_top, cursor, pending, {lit} if lit is not None else _playable(game, pending))
    return image


#: Lines of a hint's words on the board (the footer line comes under them).
HINT_LINES = 3


def hint_screen(game: Wakanda, move: object, words: str, footer: str) -> Image.Image:
    """The board with a hint for the player to move: the suggested ``move``'s village alone
    lit and framed, its piece (a claim: the player's headdress) waiting in a dotted frame on
    top of the pole and framed in the hand; in the band ``words`` (the move and why, or what
    to do when ``move`` is None: a draw or a tile is due, nothing is lit) and, on a lit line
    under them, ``footer``: what the next press of HINT gives."""
    image = new_canvas()
    lines = wrap(words, WIDTH - 4, SMALL, max_lines=HINT_LINES)
    band_top = text_band(image, [*lines, ""], SMALL)
    footer_top = HEIGHT - SMALL.height - 2
    fill_box(image, (0, footer_top, WIDTH - 1, HEIGHT - 1))
    draw_centered(image, footer_top + 1, fit(footer, WIDTH - 2, SMALL), SMALL, 0)
    village = move.village if isinstance(move, Build | Claim) else None
    if isinstance(move, Build):
        ghost: str | None = move.piece
    elif isinstance(move, Claim):
        assert game.to_move is not None, game.phase  # a claim is hinted to the player to move
        ghost = art.HEADDRESSES[game.to_move]
    else:
        ghost = None
    _board(image, game, band_top, village, ghost, {village} if village else set())
    return image


def _board(image: Image.Image, game: Wakanda, band_top: int, cursor: int | None, pending: str | None,
           playable: set[int]) -> None:
    """The header and the row of villages above the band at ``band_top``; the labels of
    ``playable`` lit, ``cursor`` framed with ``pending`` waiting on its pole."""
    label_top = band_top - LABEL_HEIGHT - (1 if band_top < HEIGHT else 0)
    poles, owners, villages = game.poles, game.owners, game.villages
    open_count = sum(1 for v in range(1, ROW + 1) if game.is_open(v))
    for v in range(1, ROW + 1):
        if villages[v - 1] is None:
            state = "hidden"
        elif v > open_count:
            state = "turned"
        else:
            state = "playable" if v in playable else "open"
        column = _column(tile_label(villages[v - 1]), state, poles[v - 1], owners[v - 1],
                         pending if cursor == v else None, cursor == v, label_top)
        # Pasted through itself as a mask: it only adds lit pixels, so the cursor frame in
        # the gap between two columns survives its neighbour.
        image.paste(1, (column_left(v) - 1, 0), column)
    _header(image, game, pending)


@lru_cache(maxsize=512)
def _column(label: str, state: str, pieces: tuple[str, ...], owner: int | None,
            ghost: str | None, framed: bool, label_top: int) -> Image.Image:
    """One village's column, with a pixel of gap each side: pole, tile label, cursor frame.
    Columns repeat from frame to frame, so each look is drawn once."""
    column = Image.new("1", (COLUMN_WIDTH + 2, label_top + LABEL_HEIGHT + 1), 0)
    column.paste(_label(label, state), (1, label_top))
    _pole(column, 1, label_top - 1, pieces, owner, ghost)
    if framed:
        outline_box(column, (0, POLE_TOP, COLUMN_WIDTH + 1, label_top + LABEL_HEIGHT))
    return column


def _playable(game: Wakanda, pending: str | None) -> set[int]:
    """Villages the player to move can act on now (with ``pending`` when given)."""
    if game.phase != "action":
        return set()
    claiming = pending in art.HEADDRESSES
    villages = set()
    for move in game.legal_moves():
        if isinstance(move, Build) and not claiming and pending in (None, move.piece):
            villages.add(move.village)
        elif isinstance(move, Claim) and (pending is None or claiming):
            villages.add(move.village)
    return villages


@lru_cache(maxsize=64)
def _label(text: str, state: str) -> Image.Image:
    """A tile label, COLUMN_WIDTH × LABEL_HEIGHT: ``open`` (a ground line under the pole),
    ``playable`` (lit), ``turned`` (dotted frame: not available yet) or ``hidden``
    (face down)."""
    label = Image.new("1", (COLUMN_WIDTH, LABEL_HEIGHT), 0)
    right = COLUMN_WIDTH - 1
    x = (COLUMN_WIDTH - text_width(text, SMALL)) // 2 + 1
    if state == "hidden":
        hatch_box(label, (0, 0, right, LABEL_HEIGHT - 1))
        fill_box(label, (6, 1, right - 6, LABEL_HEIGHT - 2), 0)
        draw_text(label, x, 1, text, SMALL)
    elif state == "playable":
        fill_box(label, (0, 0, right, LABEL_HEIGHT - 1))
        draw_text(label, x, 1, text, SMALL, 0)
    elif state == "turned":
        dotted_box(label, (0, 0, right, LABEL_HEIGHT - 1))
        draw_text(label, x, 1, text, SMALL)
    else:
        fill_box(label, (0, 0, right, 0))
        draw_text(label, x, 1, text, SMALL)
    return label


def _pole(image: Image.Image, x: int, bottom: int, pieces: tuple[str, ...],
          owner: int | None, ghost: str | None) -> None:
    """Stack the pole's icons up from row ``bottom`` (exclusive), one blank row between
    them; too tall a pole shows its top pieces over a "+n" count of the ones below."""
    # Nothing above the pole's top (the header's tab and hand stay whole, however tall the
    # band under the board): room goes to the piece waiting first, then the cap, then pieces.
    room = bottom - POLE_TOP
    if ghost and room < GHOST_HEIGHT + 1:
        ghost = None
    if ghost:
        room -= GHOST_HEIGHT + 1
    if owner is not None and room >= CAP_HEIGHT + 1:
        room -= CAP_HEIGHT + 1
    elif owner is not None:
        owner = None
    fits = room // PIECE_PITCH
    if fits < 1:
        pieces = ()  # not even the count fits: the pole shows its cap and the piece waiting
    below = len(pieces) - (fits - 1) if len(pieces) > fits else 0
    icon_x = x + (COLUMN_WIDTH - art.ICON_WIDTH) // 2
    y = bottom
    if below:
        y -= PIECE_PITCH
        count = f"+{below}"
        draw_text(image, x + (COLUMN_WIDTH - text_width(count, SMALL)) // 2 + 1, y, count,
                  SMALL)
    for piece in pieces[below:]:
        y -= PIECE_PITCH
        art.paste_icon(image, icon_x, y, piece)
    if owner is not None:
        # A lit cap with the owner's mark: claimed poles stand out across the table.
        y -= CAP_HEIGHT + 1
        fill_box(image, (icon_x - 1, y, icon_x + art.ICON_WIDTH, y + CAP_HEIGHT - 1))
        image.paste(0, (icon_x, y + 1), art.headdress(owner))
    if ghost:
        # The piece about to be placed, in a dotted frame: not on the pole yet.
        y -= GHOST_HEIGHT + 1
        dotted_box(image, (icon_x - 2, y, icon_x + art.ICON_WIDTH + 1, y + GHOST_HEIGHT - 1))
        art.paste_icon(image, icon_x, y + 1, ghost)


def _hand_items(hand: Mapping[str, int]) -> list[tuple[str, int]]:
    """(piece, count) for each piece type held, best first."""
    return [(piece, hand[piece]) for piece in art.PIECE_TYPES if hand.get(piece)]


ITEM_WIDTH = art.ICON_WIDTH + 1 + SMALL.width + 2
GAP = 4


def _draw_hand(image: Image.Image, x: int, items: list[tuple[str, int]],
               pending: str | None) -> int:
    """Icon and count per piece type from ``x``, the pending one framed; return the end."""
    for piece, count in items:
        if piece == pending:
            dotted_box(image, (x - 2, 0, x + ITEM_WIDTH - 2, HEADER_HEIGHT - 1))
        art.paste_icon(image, x, 2, piece)
        draw_text(image, x + art.ICON_WIDTH + 1, 2, str(count), SMALL)
        x += ITEM_WIDTH
    return x


def _header(image: Image.Image, game: Wakanda, pending: str | None) -> None:
    """Whose turn (lit, with their headdress mark), the phase, and the hands: the mover's
    per piece type, the other player's as a count (per type too when hands are open)."""
    if game.phase == "over":
        _over_header(image, game)
        return
    player = game.to_move
    assert player is not None, game.phase  # None only once the game is over
    other = 1 - player
    names = game.players
    pill_end = _pill(image, player, short_name(names[player], names[other], PILL_CHARS))
    mine = _hand_items(game.hands[player])
    theirs = _hand_items(game.hands[other]) if game.open_hands else []
    size = sum(game.hands[other].values())
    other_name = short_name(names[other], names[player], OTHER_CHARS, ellipsis=False)
    # Make room step by step: the other hand as a count only, then no phase word.
    for shown, phase in ((theirs, t(f"phase.{game.phase}")), ([], t(f"phase.{game.phase}")),
                         ([], "")):
        count = "" if shown else str(size)
        right = ((len(mine) + len(shown)) * ITEM_WIDTH + GAP + text_width(other_name, SMALL)
                 + 1 + HAND.width + 1 + text_width(count, SMALL))
        left = pill_end + 3 + (text_width(phase, SMALL) + GAP if phase else 0)
        if left + right <= WIDTH:
            break
    overflow = left + right - WIDTH
    if overflow > 0:  # five or six piece types in hand: show the best ones
        cut = min(-(-overflow // ITEM_WIDTH), len(mine))
        mine, right = mine[: len(mine) - cut], right - cut * ITEM_WIDTH
    draw_text(image, pill_end + 3, 2, phase, SMALL)
    x = _draw_hand(image, WIDTH - right, mine, pending) + GAP
    x = draw_text(image, x, 2, other_name, SMALL)
    # The other player's hand (its size, or its pieces when open), a column clear of the name.
    image.paste(1, (x + 1, 2), HAND)
    x = draw_text(image, x + 1 + HAND.width + 1, 2, count, SMALL)
    _draw_hand(image, x + 1, shown, None)


def _hand() -> Image.Image:
    """The mark of a hand of pieces, as Totem Wars' board marks a hand of cards."""
    rows = ("..###", "..#.#", "###.#", "#.#.#", "#.###", "#.#..", "###..")
    image = Image.new("1", (len(rows[0]), len(rows)), 0)
    image.putdata([1 if ch == "#" else 0 for row in rows for ch in row])
    return image


HAND = _hand()


PILL_CHARS = 7  # the name in the lit tab of the player to move
OTHER_CHARS = 4  # the other player's name before their hand size


def _pill(image: Image.Image, player: int | None, text: str) -> int:
    """The lit name tab at the top left, with the player's headdress mark; return its end."""
    mark = art.ICON_WIDTH + 2 if player is not None else 0
    end = 2 + mark + text_width(text, MEDIUM) + 1
    fill_box(image, (0, 0, end, HEADER_HEIGHT - 1))
    if player is not None:
        image.paste(0, (2, 2), art.headdress(player))
    draw_text(image, 2 + mark, 0, text, MEDIUM, 0)
    return end


def _over_header(image: Image.Image, game: Wakanda) -> None:
    """At the end: the winner (or a shared win) and the two totals."""
    outcome = game.outcome()
    winners: tuple[int, ...] = outcome.winners if outcome else ()
    if len(winners) == 1:
        winner = winners[0]
        name = game.players[winner]
        if text_width(t("wins", name=name), MEDIUM) > 70:
            name = short_name(name, game.players[(winner + 1) % 2], PILL_CHARS)
        end = _pill(image, winner, fit(t("wins", name=name), 70, MEDIUM))
    else:
        end = _pill(image, None, t("shared"))
    totals = f"{game.score(0).total}:{game.score(1).total}"
    x = WIDTH - text_width(totals, MEDIUM) - 1
    if x > end + 2:
        draw_text(image, x, 0, totals, MEDIUM)


def _piece_of(option: str) -> str | None:
    """The piece type an option stands for: its key (``eagle``) or its name (``Eagle``)."""
    for piece in art.PIECE_TYPES:
        if option in (piece, piece_name(piece)):
            return piece
    return None


def picker_screen(title: str, options: Sequence[str], selected: int) -> Image.Image:
    """The shared picker, where piece types (given as keys, ``eagle``, or names, ``Eagle``)
    show with their icon and their name in the screens' language."""
    pieces = [_piece_of(option) for option in options]
    labels = [piece_name(piece) if piece else option for piece, option in zip(pieces, options)]
    marks = [art.icon(piece) if piece else None for piece in pieces]
    return screens.picker_screen(title, labels, selected, marks if any(pieces) else ())


def turn_number(game: Wakanda) -> int:
    """The turn being played, counting from 1: a turn is a draw and an action (W4)."""
    return 1 + sum(1 for _, move in game.history if isinstance(move, Build | Claim | Pass))


def status_screen(game: Wakanda) -> Image.Image:
    """What the board has no room for, labelled: each player's points so far (W7, W8),
    pieces in hand and headdresses left (W6); the pieces left in the bag (W4)."""
    image = new_canvas()
    screens.title_band(image, t("status.title"), t("status.turn", n=turn_number(game)))
    columns = (54, 84, 110)  # points, hand, headdresses: right edges
    y = screens.TITLE_HEIGHT + 2
    for right, label in zip(columns, (t("status.points"), t("status.hand"), "")):
        draw_text(image, right - text_width(label, SMALL), y, label, SMALL)
    image.paste(1, (columns[2] - art.ICON_WIDTH, y + 1), art.icon("wings"))
    for player, name in enumerate(game.players):
        y += SMALL.height + 3
        if player == game.to_move:
            fill_box(image, (0, y - 1, WIDTH - 1, y + SMALL.height))
        ink = 0 if player == game.to_move else 1
        # Up to the points: whole, or shortened and told apart ("G1", never "Giocator…").
        draw_text(image, 2, y, named("{name}", name, 40, SMALL, game.players), SMALL, ink)
        figures = (game.score(player).total, sum(game.hands[player].values()), game.headdresses[player])
        for right, figure in zip(columns, figures):
            draw_text(image, right - text_width(str(figure), SMALL), y, str(figure), SMALL, ink)
    bag = sum(game.bag.values())
    screens.footer_line(image, t("status.bag", n=bag))
    return image
