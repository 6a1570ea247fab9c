"""Wakanda score pages: who won and why, then each player's points village by village.

Page 1 names the winner (or a shared win, R6), both totals and the reason: the higher
total, the tie-break by the third headdress (W9) or the early end (R6). Then one page per
player: points per owned village (W7), the sun penalty (W8) and the total. Before the end
the same pages show the score so far.
"""

from __future__ import annotations

from PIL import Image

from companion.engine import Termination
from companion.games.wakanda import icons as art
from companion.games.wakanda.rules import PIECE_VILLAGE_POINTS
from companion.ui.canvas import (
    HEIGHT,
    LARGE,
    MEDIUM,
    SMALL,
    WIDTH,
    draw_text,
    fill_box,
    fit,
    new_canvas,
    text_width,
    wrap,
)
from companion.ui.screens import TITLE_HEIGHT, result_band, title_band
from companion.ui.text import piece_name, t

#: Points per counted item of each village (W7), for the "count×points" column.
FORMULA_POINTS = {**PIECE_VILLAGE_POINTS, "variety": 2, "height": 2, "sun": 1}


def score_pages(game) -> list[Image.Image]:
    """The final (or provisional) score as pages: the result, then one page per player."""
    scores = [game.score(0), game.score(1)]
    count = 1 + len(scores)
    pages = [_result_page(game, scores, count)]
    pages += [_player_page(game, score, 2 + i, count) for i, score in enumerate(scores)]
    return pages


def result_reason(game) -> str:
    """Why the finished game ended as it did, in players' words with the rule (W9, R6):
    from the engine's ``Outcome`` (its termination and winners) and the totals."""
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    early = outcome.termination is Termination.BOTH_PASSED
    if game.score(0).total != game.score(1).total:
        return t("why.early") if early else t("why.higher")
    if outcome.winner is None:
        return t("why.shared")
    name = game.players[outcome.winner]
    return t("why.only_third", name=name) if early else t("why.tie_third", name=name)


def _result_page(game, scores, count: int) -> Image.Image:
    image = new_canvas()
    totals = (scores[0].total, scores[1].total)
    result_band(image, game, 1, count)
    why = result_reason(game) if game.outcome() is not None else ""
    for player in (0, 1):
        y = 18 + player * 13
        image.paste(1, (3, y + 3), art.headdress(player))
        draw_text(image, 15, y + 1, fit(game.players[player], 78, MEDIUM), MEDIUM)
        total = str(totals[player])
        draw_text(image, WIDTH - 3 - text_width(total, LARGE), y - 1, total, LARGE)
    for i, line in enumerate(wrap(why, WIDTH - 4, SMALL, max_lines=2)):
        draw_text(image, 2, 47 + i * 8, line, SMALL)
    return image


def _player_page(game, score, number: int, count: int) -> Image.Image:
    image = new_canvas()
    player = score.player
    title_band(image, game.players[player], t("page", n=number, of=count),
               mark=art.headdress(player))
    counts = _counts(game, player)
    rows = [(village, piece_name(village), _formula(village, counts), str(points))
            for village, points in score.villages.items()]
    if not rows:
        rows = [(None, t("score.no_village"), "", "0")]
    rows.append((None, t("score.sun_penalty"), "", _signed(score.sun_penalty)))
    y = TITLE_HEIGHT + 2
    for village, name, formula, points in rows:
        if village in art.PIECE_TYPES:
            art.paste_icon(image, 2, y + 1, village)
        draw_text(image, 14, y, fit(name, 9 * SMALL.width if formula else 90, SMALL), SMALL)
        draw_text(image, 66, y, formula, SMALL)
        draw_text(image, WIDTH - 3 - text_width(points, SMALL), y, points, SMALL)
        y += 8
    fill_box(image, (0, HEIGHT - 13, WIDTH - 1, HEIGHT - 13))
    draw_text(image, 2, HEIGHT - 11, t("score.total"), MEDIUM)
    total = str(score.total)
    draw_text(image, WIDTH - 3 - text_width(total, LARGE), HEIGHT - 12, total, LARGE)
    return image


def _counts(game, player: int) -> dict[str, int]:
    """What the player's villages score over (W7, R4, R5): pieces per type on all their
    poles, the number of types and the tallest pole."""
    poles = [pole for pole, owner in zip(game.poles, game.owners) if owner == player]
    counts = {piece: sum(pole.count(piece) for pole in poles) for piece in art.PIECE_TYPES}
    counts["variety"] = sum(1 for piece in art.PIECE_TYPES if counts[piece])
    counts["height"] = max((len(pole) for pole in poles), default=0)
    return counts


def _formula(village: str, counts: dict[str, int]) -> str:
    """How a village's points come about, as "count×points" (W7)."""
    return f"{counts[village]}×{FORMULA_POINTS[village]}"


def _signed(points: int) -> str:
    """A penalty as players write it: −2, or 0."""
    return f"−{-points}" if points < 0 else str(points)
