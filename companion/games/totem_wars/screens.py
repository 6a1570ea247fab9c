"""Totem Wars screens during play: the totems being laid, the deal reminder, the round board,
the habitat a war asks of a two-habitat totem (R2).

The board answers the three questions of a player at the table at a glance: whose turn
(the lit name), how many cards (the big instruction line: start with 1–5, at least the
level, an answer of exactly n, all in) and where everybody stands (one row a player: cards
down this round as filled cards, cards just scanned as open ones, an answer still owed,
cards in hand). Round results and the end are in ``totem_wars_round_screens.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from PIL import Image

from companion.engine import Refusal
from companion.games.totem_wars.arrangement import war_grouping
from companion.games.totem_wars.deck import TRIBES, Card
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.words import animal_name, cards, t
from companion.ui.canvas import (
    MEDIUM,
    SMALL,
    WIDTH,
    draw_text,
    fill_box,
    fit,
    named,
    new_canvas,
    outline_box,
    short_names,
    text_band,
    text_width,
    wrap,
)
from companion.ui.screens import TITLE_HEIGHT, footer_line, note_band, title_band

Note = str | Refusal

#: The text keys of the short tribe labels for narrow columns (``ABO``, ``AFR`` …).
TRIBE_SHORT = {tribe: f"tribe.{tribe}.short" for tribe in TRIBES}

_ART = {
    "check": ("......#", ".....##", "#...##.", "##.##..", ".###...", "..#...."),
    "hand": ("..####", "..#..#", "####.#", "#..#.#", "#..###", "#..#..", "####.."),
}
HEADER_HEIGHT = 10
ROW_PITCH = 8
CARD_W, CARD_H, CARD_PITCH = 4, 6, 5


@cache
def mark(name: str) -> Image.Image:
    """A small bitmap: ``check`` (done) or ``hand`` (cards in hand)."""
    rows = _ART[name]
    image = Image.new("1", (len(rows[0]), len(rows)), 0)
    image.putdata([1 if ch == "#" else 0 for row in rows for ch in row])
    return image


def _pill(image: Image.Image, name: str, others: Sequence[str], room: int) -> None:
    """The lit name tab at the top left, in ``room`` pixels: the name whole when it fits,
    else shortened and still told apart from the ``others`` ("S2", never "Spieler…")."""
    text = named("{name}", name, room - 4, MEDIUM, others)
    end = 3 + text_width(text, MEDIUM)
    fill_box(image, (0, 0, end, HEADER_HEIGHT - 1))
    draw_text(image, 2, 0, text, MEDIUM, 0)


# --- totems -------------------------------------------------------------------------------

def totems_screen(game: TotemWars, done: int, *, message: Note | None = None,
                  refused: bool = False, then: str | None = None) -> Image.Image:
    """Each player scans their totem in turn from the dealer's left (T2): who is done (a
    check, never the card), who scans now (lit), who is still to come; ``then``, what to
    do now, on the bottom line under a refusal."""
    image = new_canvas()
    n = len(game.players)
    order = [(game.dealer + 1 + i) % n for i in range(n)]
    if done:
        title_band(image, t("tw.totems.title"), f"{done}/{n}")
    else:  # before the first totem, the deal that comes first (T2); the prompt cites it
        title_band(image, t("tw.totems.deal"))
    band_top = note_band(image, message or t("tw.totems.scan"), refused, then=then if message else None)
    pitch = min(11, (band_top - TITLE_HEIGHT - 1) // n)
    font = MEDIUM if pitch > MEDIUM.height else SMALL  # a two-line note: smaller rows
    for i, player in enumerate(order):
        y = TITLE_HEIGHT + 1 + i * pitch
        # Up to the state's column: whole, or shortened and told apart ("G2", never "Giocator…").
        name = named("{name}", game.players[player], 57, font, game.players)
        if i == done:
            fill_box(image, (0, y, WIDTH - 1, y + pitch - 2))
            draw_text(image, 3, y, name, font, 0)
            draw_text(image, 62, y, t("tw.totems.now"), font, 0)
        else:
            draw_text(image, 3, y, name, font)
            if i < done:
                image.paste(1, (64, y + (pitch - 8) // 2), mark("check"))
                draw_text(image, 74, y, t("tw.totems.down"), font)
            else:
                draw_text(image, 62, y, "…", font)
    return image


def deal_screen(game: TotemWars) -> Image.Image:
    """All totems are down: the dealer deals one more card each (T2); who starts (T3)."""
    image = new_canvas()
    title_band(image, t("tw.deal.title"))
    dealer = named(t("tw.deal.dealer", name="{name}"), game.players[game.dealer], WIDTH - 6, MEDIUM, game.players)
    draw_text(image, 3, 13, dealer, MEDIUM)
    draw_text(image, 3, 24, t("tw.deal.more"), MEDIUM)
    small, band = deal_lines(game)
    for i, line in enumerate(wrap(small, WIDTH - 6, SMALL)):
        draw_text(image, 3, 34 + i * (SMALL.height + 1), line, SMALL)
    text_band(image, [band], MEDIUM, inverted=True)
    return image


def deal_lines(game: TotemWars) -> tuple[str, str]:
    """The deal reminder's last words: from whom to deal (two small lines at most), and who
    starts; a name too long is shortened, never the rule or the OK."""
    seat = (game.dealer + 1) % len(game.players)
    first = game.players[seat]
    return (named(t("tw.deal.from"), first, WIDTH - 6, SMALL, game.players, lines=2),
            named(t("tw.deal.starts"), first, WIDTH - 4, MEDIUM, game.players))


# --- the round board ----------------------------------------------------------------------

def placement(game: TotemWars) -> tuple[str, dict[str, Any]]:
    """What the player to move may place (T4–T6, T14), as a text key's last part and its
    fields: ``last``, ``start``, ``answer``, ``all_in``, ``place`` or ``raise``."""
    player = game.to_move
    assert player is not None  # a placement is asked of the player to move (T4–T6)
    counts = game.legal_counts()
    hand = game.hand_sizes[player]
    if len(counts) == 1 and sum(1 for h, t in zip(game.hand_sizes, game.table) if h or t) == 1:
        return "last", {"n": hand}
    if game.level == 0:
        return "start", {"n": hand}
    if game.table[player]:
        return "answer", {"cards": cards(counts[0])}
    if hand < game.level:
        return "all_in", {"cards": cards(hand), "n": hand}
    if hand == game.level:
        return "place", {"cards": cards(hand)}
    return "raise", {"level": game.level, "n": game.level, "next": game.level + 1}


def instruction(game: TotemWars) -> str:
    """What the player to move does now, in a few words (T4–T6, T14)."""
    key, fields = placement(game)
    return t(f"tw.board.{key}", None, **fields)


def owed(game: TotemWars, player: int) -> int:
    """Cards ``player`` still owes as an answer this round (T6); 0 when none."""
    down = len(game.table[player])
    if not down or down >= game.level:
        return 0
    return min(game.level - down, game.hand_sizes[player])


#: Characters of a player's name in a row of the board.
ROW_NAME_CHARS = 6


def _row(image: Image.Image, y: int, game: TotemWars, player: int, name: str, pending: int) -> None:
    """One player: the turn mark, the name (``name``, short), the totem's tribe, cards down
    and scanned, an owed answer, the hand."""
    mover = player == game.to_move
    if mover:
        draw_text(image, 0, y, "▶", SMALL)
    draw_text(image, 6, y, name, SMALL)
    totem = game.totems[player]
    if totem is not None:
        draw_text(image, 38, y, t(TRIBE_SHORT[totem.tribe]), SMALL)
    x = 57
    for _ in game.table[player]:
        fill_box(image, (x, y, x + CARD_W - 1, y + CARD_H - 1))
        x += CARD_PITCH
    for _ in range(pending if mover else 0):
        outline_box(image, (x, y, x + CARD_W - 1, y + CARD_H - 1))
        x += CARD_PITCH
    answer = owed(game, player) - (pending if mover else 0)
    if answer > 0:
        draw_text(image, max(x + 1, 88), y, f"+{answer}", SMALL)
    hand = game.hand_sizes[player] - (pending if mover else 0)
    image.paste(1, (WIDTH - 14, y), mark("hand"))
    draw_text(image, WIDTH - 6, y, str(hand), SMALL)


def board_screen(game: TotemWars, pending: Iterable[Card] = (), *, message: Note | None = None, refused: bool = False,
                 done: str | None = None, then: str | None = None) -> Image.Image:
    """The round under way (see the module docstring); ``pending`` are the cards scanned
    for the placement not yet confirmed, ``message`` a note (lit when ``refused``), ``done``
    what the last action did, above it, ``then`` what to do now, under it (while cards are
    scanned: how many, and OK). The rows are in seat order, as on the result pages; ▶
    marks the player to move."""
    image = new_canvas()
    if game.phase == "over":
        title_band(image, t("tw.game_over"))
        note_band(image, message or t("tw.ok_score"), refused)
        return image
    pending = tuple(pending)
    n = len(game.players)
    if pending:
        scanned = t("tw.board.scanned", n=len(pending))
        message, then = (message, then or scanned) if message else (scanned, None)
    band_top = note_band(image, message or t("tw.board.scan"), refused, done=done,
                         then=then if message else None)
    info = t("tw.board.round", n=len(game.rounds) + 1)
    draw_text(image, WIDTH - text_width(info, SMALL) - 1, 2, info, SMALL)
    mover = game.to_move
    assert mover is not None  # not over: someone places next (T4–T6)
    _pill(image, game.players[mover], game.players, WIDTH - text_width(info, SMALL) - 4)
    rows_top = HEADER_HEIGHT + 1
    if band_top - rows_top >= n * ROW_PITCH + MEDIUM.height + 1:
        text = fit(instruction(game), WIDTH - 4, MEDIUM)
        draw_text(image, 2, rows_top, text, MEDIUM)
        rows_top += MEDIUM.height + 1
    pitch = min(ROW_PITCH + 1, (band_top - rows_top) // n)
    names = short_names(game.players, ROW_NAME_CHARS)
    for player in range(n):
        _row(image, rows_top + player * pitch, game, player, names[player], len(pending))
    return image


# --- the war's declaration ----------------------------------------------------------------

def declare_screen(game: TotemWars, selected: int = 0, *, message: Note | None = None,
                   refused: bool = False) -> Image.Image:
    """A war waits for the habitat of a two-habitat totem (R2): its owner, the totem, each
    habitat it may fight in with the war points it gives (the best for the owner first,
    ``selected`` lit), and the other players of the war with their habitats and points;
    under a refusal, the habitats, the refusal and what to do now (the footer)."""
    image = new_canvas()
    due = game.declaration_due
    assert due is not None  # the question of a war's declaration (R2)
    player = due.player
    totem, cards_down = game.totems[player], game.table[player]
    assert totem is not None  # a war's players have their totems down (T2, T10)
    # The name whole in the title's small font before it is shortened (title_band).
    title_band(image, named(t("tw.declare.title"), game.players[player], WIDTH - 20, SMALL, game.players), "R2")
    # Under a refusal its reason and the prompt take the ask's and the others' lines.
    refusal = bool(message) and refused
    if not refusal:
        draw_text(image, 2, TITLE_HEIGHT + 2,
                  fit(t("tw.declare.ask", animal=animal_name(totem.animal)), WIDTH - 4, SMALL), SMALL)
    for row, habitat in enumerate(due.habitats):
        y = TITLE_HEIGHT + (2 if refusal else 11) + row * 11
        lit = row == selected
        if lit:
            fill_box(image, (0, y - 1, WIDTH - 1, y + MEDIUM.height - 1))
        ink = 0 if lit else 1
        name = t(f"habitat.{habitat}")
        draw_text(image, 4, y, name[:1].upper() + name[1:], MEDIUM, ink)
        points = t("tw.declare.points", n=war_grouping(totem, cards_down, habitat).points)
        draw_text(image, WIDTH - 3 - text_width(points, MEDIUM), y, points, MEDIUM, ink)
    footer = t("tw.declare.footer")
    if not refusal:
        draw_text(image, 2, TITLE_HEIGHT + 35, _others_line(game, player, due.war), SMALL)
    note_band(image, message or footer, refused, then=footer if refusal else None)
    return image


def _others_line(game: TotemWars, player: int, war: Sequence[tuple[int, str | None]]) -> str:
    """The other players of the war, their habitats and war points, on one small line:
    habitats shortened ("WAT") when the words do not fit, then left out, then the
    players closer together, without the "vs", their names shortened last (R2)."""
    def line(habitats: str, between: str, chars: int | None, label: bool = True) -> str:
        names = short_names(game.players, chars) if chars else game.players
        others = []
        for p, habitat in war:
            if p != player:  # still to declare: "?" and the most war points the totem can give
                word = ("" if habitats == "none" else "? " if not habitat
                        else t(f"habitat.{habitat}{'.short' if habitats == 'short' else ''}") + " ")
                totem = game.totems[p]
                assert totem is not None  # a war's players have their totems down (T2, T10)
                others.append(f"{names[p]} {word}{war_grouping(totem, game.table[p], habitat).points}")
        return t("tw.declare.others", others=between.join(others)) if label else between.join(others)

    for habitats, between, chars, label in (("whole", " · ", None, True), ("short", " · ", None, True),
                                            ("none", " · ", None, True), ("none", ", ", None, True),
                                            ("none", ", ", None, False), ("none", ", ", 4, False)):
        text = line(habitats, between, chars, label)
        if text_width(text, SMALL) <= WIDTH - 4:
            return text
    return fit(text, WIDTH - 4, SMALL)


def status_screen(game: TotemWars) -> Image.Image:
    """What the board has no room for, labelled: each player's points so far (totem plus
    taken cards of its tribe, T15), cards in hand and taken (T9); the deck (T13)."""
    image = new_canvas()
    title_band(image, t("tw.status.title"), t("tw.board.round", n=len(game.rounds) + 1))
    columns = (62, 92, 124)  # points, hand, taken: right edges
    y = TITLE_HEIGHT + 2
    for right, label in zip(columns, (t("tw.status.points"), t("tw.status.hand"), t("tw.status.taken"))):
        draw_text(image, right - text_width(label, SMALL), y, label, SMALL)
    names = short_names(game.players, 9)
    for player in range(len(game.players)):
        y += SMALL.height + 2
        mover = player == game.to_move
        if mover:
            fill_box(image, (0, y - 1, WIDTH - 1, y + SMALL.height))
        ink = 0 if mover else 1
        draw_text(image, 2, y, names[player], SMALL, ink)
        figures = (game.points(player), game.hand_sizes[player], len(game.taken[player]))
        for right, figure in zip(columns, figures):
            draw_text(image, right - text_width(str(figure), SMALL), y, str(figure), SMALL, ink)
    level = t("tw.status.level", level=game.level) if game.level else ""
    footer_line(image, t("tw.status.deck", n=game.deck_count) + level)
    return image
