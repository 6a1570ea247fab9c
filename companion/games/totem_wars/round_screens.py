"""Totem Wars result screens: the pages of a round's result, and the end of the game.

A round's pages: the summary (each player's points, the war points and the totem habitats
compared, who takes the cards or where they go, T9–T12, R3, R4); one page per player with
the best arrangement to lay out (R1: which cards go in which column, the totem first and
marked ●); one page per warring player with the habitat grouping, in the habitat its owner
declared (T10, R2); the refill and who starts next (T13). The end: the winner (T15), the
taken cards of each totem's tribe, and the big game's running totals to 42 and who won it,
alone or shared (T16).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from companion.games.totem_wars.arrangement import Arrangement
from companion.games.totem_wars.deck import HABITATS, Card
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.match import Match
from companion.games.totem_wars.rounds import REMOVED, RoundResult
from companion.games.totem_wars.screens import TRIBE_SHORT
from companion.games.totem_wars.words import animal_in_text, cards, t
from companion.ui.canvas import (
    HEIGHT,
    LARGE,
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
from companion.ui.screens import TITLE_HEIGHT, page_mark, result_band, title_band, title_with_name

#: The big game's target (T16).
TARGET = 42
#: The text keys of the short habitat labels for narrow columns (``WAT``, ``LND``, ``AIR``).
HABITAT_SHORT = {habitat: f"habitat.{habitat}.short" for habitat in HABITATS}


def outcome_line(game: TotemWars, result: RoundResult, lang: str | None = None) -> str:
    """Where the round's cards went, in one line with the rule (T9, T11, T12, T14, R3, R4),
    in ``lang`` (default: the box's language)."""
    count = cards(len(result.cards), lang)
    if result.taker is not None:
        return t("tw.round.takes", lang, name=game.players[result.taker], cards=count, rule=result.rule)
    if result.destination == REMOVED:
        return t("tw.round.removed", lang, cards=count, rule=result.rule)
    return t("tw.round.under", lang, cards=count, rule=result.rule)


def _summary(game: TotemWars, result: RoundResult, number: int, count: int) -> Image.Image:
    image = new_canvas()
    title_band(image, t("tw.round", n=result.number) + (t("tw.round.war") if result.war else ""),
               page_mark(number, count))
    band_top = text_band(image, wrap(outcome_line(game, result), WIDTH - 4, SMALL, 3), SMALL,
                         inverted=True)
    players = [p for p in range(len(game.players)) if result.arrangements[p] is not None]
    pitch = min(11, (band_top - TITLE_HEIGHT - 1) // max(len(players), 1))
    for i, p in enumerate(players):
        y = TITLE_HEIGHT + 1 + i * pitch
        lit = p == result.taker
        if lit:
            fill_box(image, (0, y, WIDTH - 1, y + pitch - 2))
        ink = 0 if lit else 1
        draw_text(image, 3, y, short_names(game.players, 7)[p], MEDIUM, ink)
        points = str(result.points[p])
        draw_text(image, 52 - text_width(points, MEDIUM), y, points, MEDIUM, ink)
        if result.war_points[p] is not None:
            x = draw_text(image, 58, y + 2, t("tw.round.war_points"), SMALL, ink)
            war = str(result.war_points[p])
            draw_text(image, x + 3, y, war, MEDIUM, ink)
        if result.habitats[p]:
            habitat = t(f"habitat.{result.habitats[p]}")
            draw_text(image, WIDTH - 3 - text_width(habitat, SMALL), y + 2, habitat, SMALL, ink)
    return image


def _card_text(card: Card, key: str, totem: bool) -> str:
    """A card in a column: its animal, with its tribe when it is a guest (T7). A two-word
    animal keeps a hyphen (``polar-bear``): cards are told apart by the spaces. An animal of
    another deck than the default one shows as its file writes it."""
    animal = animal_in_text(card.animal).replace(" ", "-")
    if totem:
        return "● " + animal
    if card.tribe != key and key in TRIBE_SHORT:
        return f"{animal}/{t(TRIBE_SHORT[card.tribe])}"
    return animal


def _columns(image: Image.Image, top: int, arrangement: Arrangement, short: dict[str, str],
             guest_tribes: bool, bottom: int = HEIGHT) -> None:
    """One column a row, above ``bottom``: its label, its cards bottom first (wrapped), its
    points."""
    y = top
    for column in arrangement.columns:
        if y > bottom - SMALL.height:
            break
        label = t(short[column.key])
        fill_box(image, (0, y - 1, 16, y + SMALL.height - 1))
        draw_text(image, 1, y, label, SMALL, 0)
        words = [_card_text(c, column.key if guest_tribes else "", column.totem and i == 0)
                 for i, c in enumerate(column.cards)]
        points = str(column.points)
        room = WIDTH - 20 - text_width(points, SMALL) - 4
        lines = wrap(" ".join(words), room, SMALL) or [""]
        for j, line in enumerate(lines):
            if y > bottom - SMALL.height:
                break
            draw_text(image, 20, y, line, SMALL)
            if j == 0:
                draw_text(image, WIDTH - 1 - text_width(points, SMALL), y, points, SMALL)
            y += SMALL.height + 1
        y += 1


def _arrangement(game: TotemWars, result: RoundResult, player: int, number: int, count: int) -> Image.Image:
    image = new_canvas()
    arrangement = result.arrangements[player]
    assert arrangement is not None  # a page for each player in the round (R1)
    mark = page_mark(number, count)
    title_band(image, title_with_name(t("tw.round.points", name="{name}", n=arrangement.points),
                                      game.players[player], game.players, mark), mark)
    _columns(image, TITLE_HEIGHT + 2, arrangement, TRIBE_SHORT, guest_tribes=True)
    return image


def _war(game: TotemWars, result: RoundResult, player: int, number: int, count: int) -> Image.Image:
    image = new_canvas()
    grouping = result.war_groupings[player]
    assert grouping is not None  # a page for each player of the war (T10)
    mark = page_mark(number, count)
    title_band(image, title_with_name(t("tw.round.war_of", name="{name}", points=grouping.points),
                                      game.players[player], game.players, mark), mark)
    bottom = HEIGHT
    if result.declared[player]:
        habitat = t(f"habitat.{result.declared[player]}")
        bottom = text_band(image, [t("tw.round.declared", habitat=habitat)], SMALL)
    elif result.habitats[player]:
        habitat = t(f"habitat.{result.habitats[player]}")
        bottom = text_band(image, [t("tw.round.totem", habitat=habitat)], SMALL)
    _columns(image, TITLE_HEIGHT + 2, grouping, HABITAT_SHORT, guest_tribes=False, bottom=bottom)
    return image


def refill_line(game: TotemWars, result: RoundResult, lang: str | None = None,
                names: Sequence[str] | None = None) -> str:
    """The refill reminder (T13): ``Deal 2 to Ben, 1 to Cleo``, in ``lang`` (default: the
    box's language), with ``names`` for the players' (default: theirs, whole)."""
    if not result.refill:
        return t("tw.round.no_refill", lang)
    names = names or game.players
    parts = [t("tw.round.refill_to", lang, n=c, name=names[p]) for p, c in result.refill]
    return t("tw.round.refill", lang, parts=", ".join(parts))


def _next(game: TotemWars, result: RoundResult, number: int, count: int) -> Image.Image:
    image = new_canvas()
    over = result.next_starter is None
    title_band(image, t("tw.game_over") if over else t("tw.round", n=result.number + 1),
               page_mark(number, count))
    if over:
        bottom = t("tw.ok_score")
    else:
        assert result.next_starter is not None  # not over: someone starts the next round (T3)
        bottom = named(t("tw.round.starts"), game.players[result.next_starter], WIDTH - 4, LARGE, game.players)
    band_top = text_band(image, [fit(bottom, WIDTH - 4, LARGE)], LARGE, inverted=True)
    text = refill_line(game, result) + ("" if not result.refill else " (T13)")
    font = MEDIUM
    lines = wrap(text, WIDTH - 4, font)
    if len(lines) > 2:  # four players: the whole reminder in smaller print
        font = SMALL
        lines = wrap(text, WIDTH - 4, font)
    if len(lines) > 3:  # long names: shortened, told apart, never the words
        text = refill_line(game, result, names=short_names(game.players, 6)) + " (T13)"
        lines = wrap(text, WIDTH - 4, font, max_lines=3)
    y = TITLE_HEIGHT + 2
    for line in lines:
        draw_text(image, 2, y, line, font)
        y += font.height + 1
    if not over and y + SMALL.height < band_top:
        draw_text(image, 2, y + 1, t("tw.round.deck_left", n=game.deck_count), SMALL)
    return image


def round_page_count(game: TotemWars, result: RoundResult) -> int:
    """How many pages ``result`` has: summary, one per player in the round, one per warring
    player, the refill."""
    return 2 + sum(a is not None for a in result.arrangements) + len(result.warring)


def round_page(game: TotemWars, result: RoundResult, page: int) -> Image.Image:
    """Page ``page`` (from 0) of ``result`` (a ``RoundResult`` of ``game``)."""
    players = [p for p in range(len(game.players)) if result.arrangements[p] is not None]
    count = round_page_count(game, result)
    if page == 0:
        return _summary(game, result, 1, count)
    if page <= len(players):
        return _arrangement(game, result, players[page - 1], page + 1, count)
    if page < count - 1:
        return _war(game, result, result.warring[page - 1 - len(players)], page + 1, count)
    return _next(game, result, count, count)


# --- the end -------------------------------------------------------------------------------

def _result(game: TotemWars, number: int, count: int) -> Image.Image:
    image = new_canvas()
    result_band(image, game, number, count)
    outcome = game.outcome()
    winners = outcome.winners if outcome else ()
    n = len(game.players)
    pitch = min(12, (HEIGHT - 17) // n)
    order = sorted(range(n), key=lambda p: -game.points(p))
    for i, p in enumerate(order):
        y = 17 + i * pitch
        if p in winners:
            draw_text(image, 1, y + 1, "▶", SMALL)
        draw_text(image, 8, y, short_names(game.players, 12)[p], MEDIUM)
        points = str(game.points(p))
        draw_text(image, WIDTH - 3 - text_width(points, MEDIUM), y, points, MEDIUM)
    return image


def _taken(game: TotemWars, number: int, count: int) -> Image.Image:
    image = new_canvas()
    title_band(image, t("tw.end.taken"), page_mark(number, count, then_ok=True))
    n = len(game.players)
    pitch = min(12, (HEIGHT - TITLE_HEIGHT - 9) // n)
    for p in range(n):
        y = TITLE_HEIGHT + 2 + p * pitch
        totem = game.totems[p]
        draw_text(image, 2, y, short_names(game.players, 6)[p], MEDIUM)
        if totem is None:
            continue
        own = game.taken_by_tribe(p)[totem.tribe]
        draw_text(image, 42, y + 2, t(TRIBE_SHORT[totem.tribe]), SMALL)
        sums = f"1+{own}"
        draw_text(image, 62, y, sums, MEDIUM)
        total = str(game.points(p))
        draw_text(image, WIDTH - 3 - text_width(total, MEDIUM), y, total, MEDIUM)
    draw_text(image, 2, HEIGHT - SMALL.height - 1, t("tw.end.taken_rule"), SMALL)
    return image


def big_game_footer(match: Match) -> str:
    """Who won the big game — one player, or several sharing it —, or who deals next (T16),
    in one line that keeps its rule."""
    winners = [match.players[p] for p in match.winners]
    if not winners:
        return named(t("tw.big.next"), match.players[match.dealer], WIDTH - 4, SMALL)
    if len(winners) == 1:
        return named(t("tw.big.wins"), winners[0], WIDTH - 4, SMALL)  # the title says which game
    return named(t("tw.big.share"), " & ".join(winners), WIDTH - 4, SMALL)


def _this_game(image: Image.Image, game: TotemWars, elsewhere: bool) -> None:
    """Without the big game's totals: this game's own points toward them (T16), one player
    a row (two when four play), and why the totals are not shown — kept on the box that
    played the game (``elsewhere``), or the data folder's file cannot be read."""
    reason = t("tw.big.elsewhere") if elsewhere else t("tw.big.damaged", file="big_game.json")
    band_top = text_band(image, wrap(reason, WIDTH - 4, SMALL, max_lines=2), SMALL)
    y = TITLE_HEIGHT + 2
    for line in wrap(t("tw.big.this_game"), WIDTH - 4, SMALL, max_lines=2):
        draw_text(image, 2, y, line, SMALL)
        y += SMALL.height + 1
    n = len(game.players)
    columns = 1 if (band_top - y) // n > SMALL.height else 2  # four players: two a row
    rows = (n + columns - 1) // columns
    pitch = min(12, (band_top - y) // rows)
    font = MEDIUM if pitch > MEDIUM.height else SMALL
    width = WIDTH // columns
    if columns == 2:
        fill_box(image, (width - 1, y, width - 1, band_top - 2))
    for p, name in enumerate(short_names(game.players, 6 if columns == 2 else 12)):
        left, top = (p % columns) * width, y + (p // columns) * pitch
        draw_text(image, left + 2, top, name, font)
        points = str(game.points(p))
        draw_text(image, left + width - 4 - text_width(points, font), top, points, font)


def _big(game: TotemWars, match: Match | None, number: int, count: int, elsewhere: bool) -> Image.Image:
    image = new_canvas()
    title_band(image, t("tw.big.title", target=TARGET), page_mark(number, count, then_ok=True))
    if match is None:
        _this_game(image, game, elsewhere)
        return image
    totals = match.totals
    n = len(match.players)
    band_top = text_band(image, [big_game_footer(match)], SMALL, inverted=match.over)
    pitch = min(11, (band_top - TITLE_HEIGHT - 2) // n)
    for p in range(n):
        y = TITLE_HEIGHT + 2 + p * pitch
        draw_text(image, 2, y, short_names(match.players, 6)[p], SMALL)
        bar = (36, y, 104, y + SMALL.height - 2)
        outline_box(image, bar)
        filled = min(totals[p], TARGET) * (bar[2] - bar[0]) // TARGET
        if filled:
            fill_box(image, (bar[0], bar[1], bar[0] + filled, bar[3]))
        total = str(totals[p])
        draw_text(image, WIDTH - 1 - text_width(total, SMALL), y, total, SMALL)
    return image


def end_pages(game: TotemWars, match: Match | None, elsewhere: bool = False) -> list[Image.Image]:
    """The end of a small game: the winner, totem + own-tribe points, and the big game's
    totals with this game counted (``match``). ``None``: this game's own points instead,
    saying that the data folder's totals cannot be read, or with ``elsewhere`` that they
    are kept on the box that played the game (a replay of a record)."""
    return [_result(game, 1, 3), _taken(game, 2, 3), _big(game, match, 3, 3, elsewhere)]

