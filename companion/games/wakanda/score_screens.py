"""Wakanda score pages: who won and why, then each player's points village by village.

Page 1 names the winner (or a shared win, R6), both totals and the reason: the higher
total, the tie-break by the third headdress (W9) or the early end (R6). Then one page per
player: points per owned village (W7), the sun penalty (W8) and the total. Before the end
the same pages show the score so far.

A game played with hints on has a review page per player after them (``review.py``): the
turns where they lost the most points, each with the move played and the better one (a
piece's icon and its village, a claim as the player's headdress and the village), and the
points it would have gained; "Reviewing…" while the review is being made.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from companion.engine import Termination
from companion.games.wakanda import icons as art
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.moves import Build, Claim, Move
from companion.games.wakanda.review import Review
from companion.games.wakanda.rules import PIECE_VILLAGE_POINTS
from companion.games.wakanda.scoring import ScoreBreakdown
from companion.games.wakanda.words import piece_name, t
from companion.ui.canvas import (
    HEIGHT,
    LARGE,
    MEDIUM,
    SMALL,
    WIDTH,
    draw_centered,
    draw_text,
    fill_box,
    fit,
    named,
    new_canvas,
    short_names,
    text_width,
    wrap,
)
from companion.ui.screens import FOOTER_TOP, TITLE_HEIGHT, footer_line, page_mark, result_band, title_band

#: Points per counted item of each village (W7), for the "count×points" column.
FORMULA_POINTS = {**PIECE_VILLAGE_POINTS, "variety": 2, "height": 2, "sun": 1}


def score_pages(game: Wakanda, more: int = 0) -> list[Image.Image]:
    """The final (or provisional) score as pages: the result, then one page per player;
    ``more`` pages follow them (the review), counted in the page numbers."""
    scores = [game.score(0), game.score(1)]
    count = 1 + len(scores) + more
    pages = [_result_page(game, scores, count)]
    pages += [_player_page(game, score, 2 + i, count) for i, score in enumerate(scores)]
    return pages


def result_reason(game: Wakanda, lines: int | None = None) -> str:
    """Why the finished game ended as it did, in players' words with the rule (W9, R6):
    from the engine's ``Outcome`` (its termination and winners) and the totals. Given
    ``lines``, a long name is shortened so that the reason wraps into that many lines of
    the small font, never its words."""
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    early = outcome.termination is Termination.BOTH_PASSED
    if game.score(0).total != game.score(1).total:
        return t("why.early") if early else t("why.higher")
    if outcome.winner is None:
        return t("why.shared")
    template = t("why.only_third" if early else "why.tie_third", name="{name}")
    name = game.players[outcome.winner]
    if lines is None:
        return template.format(name=name)
    return named(template, name, WIDTH - 4, SMALL, game.players, lines=lines)


def _result_page(game: Wakanda, scores: Sequence[ScoreBreakdown], count: int) -> Image.Image:
    image = new_canvas()
    totals = (scores[0].total, scores[1].total)
    result_band(image, game, 1, count)
    why = result_reason(game, lines=3) if game.outcome() is not None else ""
    lines = wrap(why, WIDTH - 4, SMALL, max_lines=3)
    # A reason of three lines (a tie, a long name) whole: the players' rows closer together.
    top, pitch, why_top = (16, 12, 41) if len(lines) == 3 else (18, 13, 47)
    for player in (0, 1):
        y = top + player * pitch
        image.paste(1, (3, y + 3), art.headdress(player))
        draw_text(image, 15, y + 1, fit(game.players[player], 78, MEDIUM), MEDIUM)
        total = str(totals[player])
        draw_text(image, WIDTH - 3 - text_width(total, LARGE), y - 1, total, LARGE)
    for i, line in enumerate(lines):
        draw_text(image, 2, why_top + i * 8, line, SMALL)
    return image


def _player_page(game: Wakanda, score: ScoreBreakdown, number: int, count: int) -> Image.Image:
    image = new_canvas()
    player = score.player
    title_band(image, game.players[player], page_mark(number, count, then_ok=True),
               mark=art.headdress(player))
    counts = _counts(game, player)
    rows: list[tuple[str | None, str, str, str]] = [
        (village, piece_name(village), _formula(village, counts), str(points))
        for village, points in score.villages.items()]
    if not rows:
        rows = [(None, t("score.no_village"), "", "0")]
    rows.append((None, t("score.sun_penalty"), "", _signed(score.sun_penalty)))
    y = TITLE_HEIGHT + 2
    for village, name, formula, points in rows:
        if village in art.PIECE_TYPES:
            art.paste_icon(image, 2, y + 1, village)
        # 12 letters for a village's name: the longest of the eight languages ("Разнообразие").
        draw_text(image, 14, y, fit(name, 12 * SMALL.width if formula else 90, SMALL), SMALL)
        draw_text(image, 77, y, formula, SMALL)
        draw_text(image, WIDTH - 3 - text_width(points, SMALL), y, points, SMALL)
        y += 8
    fill_box(image, (0, HEIGHT - 13, WIDTH - 1, HEIGHT - 13))
    draw_text(image, 2, HEIGHT - 11, t("score.total"), MEDIUM)
    total = str(score.total)
    draw_text(image, WIDTH - 3 - text_width(total, LARGE), HEIGHT - 12, total, LARGE)
    return image


def _counts(game: Wakanda, player: int) -> dict[str, int]:
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


# --- the review (review.py) -------------------------------------------------------------------

#: The left edges of the review's columns: the turn (right-aligned to the next), the move
#: played, the better move; the points are right-aligned at the edge.
REVIEW_COLUMNS = (2, 26, 66)
REVIEW_PITCH = MEDIUM.height + 1
#: The most characters of a name in a review page's title.
REVIEW_NAME_CHARS = 6


def review_page(game: Wakanda, player: int, number: int, count: int, review: Review | None, *,
                progress: tuple[int, int] = (0, 0), failed: bool = False) -> Image.Image:
    """Where ``player`` lost the most (``review``): a row a turn, biggest loss first — the
    turn, the move played, the better one and the points it would have gained. Before the
    review is made, how far it is (``progress``: moves judged, of how many); ``failed``: it
    could not be made."""
    image = new_canvas()
    # A short name (told apart from the other's), so that "review" is never cut off.
    name = short_names(game.players, REVIEW_NAME_CHARS)[player]
    title_band(image, t("review.title", name=name), page_mark(number, count, then_ok=True),
               mark=art.headdress(player))
    if review is None:
        lines = [t("review.failed")] if failed else [t("review.busy"),
                                                    t("review.progress", done=progress[0], n=progress[1])]
        _centred(image, lines)
        footer_line(image, None if failed else t("review.busy_footer"))
        return image
    losses = review.losses[player]
    if not losses:
        _centred(image, [t("review.none"), t("review.judged", n=review.decisions[player])])
        return image
    y = TITLE_HEIGHT + 1
    for x, key in zip(REVIEW_COLUMNS, ("review.turn", "review.played", "review.better")):
        draw_text(image, x, y, t(key), SMALL)
    head = t("review.points")
    draw_text(image, WIDTH - 2 - text_width(head, SMALL), y, head, SMALL)
    y += SMALL.height + 2
    for loss in losses:
        turn = str(loss.turn)
        draw_text(image, REVIEW_COLUMNS[1] - 6 - text_width(turn, MEDIUM), y, turn, MEDIUM)
        _move_cell(image, REVIEW_COLUMNS[1], y, loss.played, player)
        _move_cell(image, REVIEW_COLUMNS[2], y, loss.better, player)
        points = f"+{round(loss.points)}"
        draw_text(image, WIDTH - 2 - text_width(points, MEDIUM), y, points, MEDIUM)
        y += REVIEW_PITCH
    footer_line(image, t("review.footer"))
    return image


def _move_cell(image: Image.Image, x: int, y: int, move: Move, player: int) -> None:
    """A move in a review row: a build as its piece's icon and the village, a claim as the
    player's headdress and the village, else the pass in words."""
    if isinstance(move, Build | Claim):
        name = move.piece if isinstance(move, Build) else art.HEADDRESSES[player]
        art.paste_icon(image, x, y + 2, name)
        draw_text(image, x + art.ICON_WIDTH + 2, y, str(move.village), MEDIUM)
    else:
        draw_text(image, x, y + 2, t("review.pass"), SMALL)


def _centred(image: Image.Image, lines: list[str]) -> None:
    """A line in the medium font and the small lines under it, centred on the page."""
    gap = 3
    height = MEDIUM.height + (len(lines) - 1) * (SMALL.height + gap)
    y = TITLE_HEIGHT + (FOOTER_TOP - TITLE_HEIGHT - height) // 2
    draw_centered(image, y, lines[0], MEDIUM)
    y += MEDIUM.height + gap
    for line in lines[1:]:
        draw_centered(image, y, line, SMALL)
        y += SMALL.height + gap
