"""The phone page's view of a Totem Wars game (``companion/web/``): what the OLED's board
shows, as plain values, in the box's language.

Only what anyone may see (the public view, ``public.py``): the hands are never seen (T2),
the cards down are counted, never named, until the round is resolved (T4, T9).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from companion.game_phone import GamePhone, Tally
from companion.games.totem_wars.arrangement import Arrangement
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.round_screens import HABITAT_SHORT, outcome_line, refill_line
from companion.games.totem_wars.rounds import RoundResult
from companion.games.totem_wars.screens import TRIBE_SHORT, instruction, owed
from companion.games.totem_wars.words import animal_name
from companion.games.totem_wars.words import t as tt
from companion.phone_table import Cell, Grid, Row, Sheet, Text, number
from companion.ui.text import language, t


@lru_cache(maxsize=64)
def _tribe(tribe: str, lang: str) -> str:
    """A tribe's short name in ``lang``, looked up once per language."""
    return tt(TRIBE_SHORT[tribe], lang)


def table(game: TotemWars, view: object) -> dict[str, Any]:
    """Each player's row as the OLED's board: totem's tribe, the number of cards down (never
    their faces), the answer owed, the hand's size; points and taken cards as the status
    page; the round; the prompt the board shows when no note is due."""
    pending = tuple(getattr(view, "pending", ()) or ())
    over = game.phase == "over"
    rows = []
    for seat, name in enumerate(game.players):
        mover = seat == game.to_move
        totem = game.totems[seat]
        scanned = len(pending) if mover else 0
        rows.append({
            "name": name, "to_move": mover,
            "totem": _tribe(totem.tribe, language()) if totem is not None else None,
            "down": len(game.table[seat]), "scanned": scanned,
            "owed": max(owed(game, seat) - scanned, 0) if game.phase == "play" else 0,
            "hand_size": game.hand_sizes[seat] - scanned,
            "points": game.points(seat), "taken": len(game.taken[seat]),
        })
    table: dict[str, Any] = {"game": "totem_wars", "rows": rows,
                             "words": {"hand": tt("tw.status.hand"), "points": tt("tw.status.points"),
                                       "taken": tt("tw.status.taken")},
                             "round": tt("tw.board.round", n=len(game.rounds) + 1),
                             "deck": tt("tw.status.deck", n=game.deck_count)}
    if getattr(view, "kind", None) == "board":
        # The board's own prompt when the flow gives no note (screens.board_screen).
        if over:
            table["prompt"] = tt("tw.ok_score")
        elif pending:
            table["prompt"] = tt("tw.board.scanned", n=len(pending))
        else:
            table["prompt"] = tt("tw.board.scan")
        if not over and game.phase == "play":
            table["instruction"] = instruction(game)
    return table


def summary(state: TotemWars, players: list[dict[str, Any]]) -> None:
    """Add to a finished game's ``score --json`` players what the statistics count: the
    rounds whose cards each took (T9) and the wars among them (T10)."""
    for seat, player in enumerate(players):
        player["rounds_won"] = sum(1 for r in state.rounds if r.taker == seat)
        player["wars_won"] = sum(1 for r in state.rounds if r.taker == seat and r.warring)


def rows(table: dict[str, Any], lang: str) -> list[Any]:
    """The table as the club's tables page draws it, headings in ``lang``: the round and the
    deck, the instruction, and each player's totem, cards on the table (▮ down, never their
    faces, T4; ▯ just scanned; +N still owed), hand, points (T15) and cards taken; ▶ marks
    the player to move."""
    people = []
    for row in table["rows"]:
        down = "▮" * int(row["down"]) + "▯" * int(row["scanned"]) + (f" +{int(row['owed'])}" if row["owed"] else "")
        people.append([("▶ " if row.get("to_move") else "") + str(row["name"]), str(row.get("totem") or ""),
                       down, str(int(row["hand_size"])), str(row["points"]), str(int(row["taken"]))])
    lines = [" · ".join(str(table[key]) for key in ("round", "deck") if table.get(key))]
    if table.get("instruction"):
        lines.append(str(table["instruction"]))
    heads = [t("club.player", lang), tt("tw.club.totem", lang), tt("tw.club.down", lang),
             tt("tw.status.hand", lang), tt("tw.status.points", lang), tt("tw.status.taken", lang)]
    return [*lines, (heads, people)]


#: The views on which every round played is laid out: the status page, the end's pages.
ROUNDS_KINDS = frozenset({"status", "score"})


@lru_cache(maxsize=64)
def _tribe_cell(tribe: str, lang: str) -> Cell:
    """A tribe's name, its three-letter code where room is short."""
    return Cell(tt(f"tribe.{tribe}", lang), short=_tribe(tribe, lang))


def sheet(game: TotemWars, view: object) -> Sheet:
    """The table as the phone page lays it out, from the game's values: the result once
    over (T15); the round, the deck and what to do; each player's totem, cards down
    (▮ down, never their faces, T4; ▯ just scanned; +N still owed), hand, points and cards
    taken; on a round's result pages the round just played whole (each player's columns
    and points, the war, who takes the cards, T8-T13), whatever page the OLED shows; on the
    status and end pages and once over, every round played: points, war and cards taken."""
    lang = language()
    kind = getattr(view, "kind", None)
    blocks: list[Text | Grid] = []
    over = game.phase == "over"
    if over:
        outcome = game.outcome()
        winners = list(outcome.winners) if outcome else []
        blocks.append(Text(t("wins", name=game.players[winners[0]]) if len(winners) == 1 else t("shared"),
                           ("result",)))
    else:
        round_now = tt("tw.board.round", n=len(game.rounds) + 1)
        blocks.append(Text(f"{round_now} · {tt('tw.status.deck', n=game.deck_count)}"))
        if kind == "board" and game.phase == "play":
            blocks.append(Text(instruction(game)))
    pending = tuple(getattr(view, "pending", ()) or ())
    people = []
    for seat, name in enumerate(game.players):
        mover = seat == game.to_move and not over
        totem = game.totems[seat]
        scanned = len(pending) if mover else 0
        due = max(owed(game, seat) - scanned, 0) if game.phase == "play" else 0
        down = "▮" * len(game.table[seat]) + "▯" * scanned + (f" +{due}" if due else "")
        people.append(Row((Cell(name), _tribe_cell(totem.tribe, lang) if totem is not None else Cell(""),
                           Cell(down), number(game.hand_sizes[seat] - scanned), number(game.points(seat)),
                           number(len(game.taken[seat]))), ("mover",) if mover else ()))
    blocks.append(Grid((Cell(""), Cell(tt("tw.club.totem")), Cell(tt("tw.club.down")),
                        Cell(tt("tw.status.hand"), figure=True), Cell(tt("tw.status.points"), figure=True),
                        Cell(tt("tw.status.taken"), figure=True)), tuple(people)))
    if kind == "round" and game.rounds:
        blocks += _round(game, game.rounds[-1], lang)
    if game.rounds and (over or kind in ROUNDS_KINDS):
        blocks.append(_rounds(game))
    return Sheet(tuple(blocks))


def _round(game: TotemWars, result: RoundResult, lang: str) -> list[Text | Grid]:
    """The round just played, as its result pages say it: where the cards went, each
    player's points (and war points, T10), each player's columns (the totem first, ●) and
    the war's habitat groupings, the refill (T13). Its cards were laid face up (T9)."""
    title = tt("tw.round", n=result.number) + (tt("tw.round.war") if result.war else "")
    seats = [p for p in range(len(game.players)) if result.arrangements[p] is not None]
    war = tt("tw.round.war_points")
    rows = [Row((Cell(game.players[p]), number(result.points[p] or 0),
                 _maybe(result.war_points[p])),
                ("best",) if p == result.taker else ()) for p in seats]
    blocks: list[Text | Grid] = [Text(outcome_line(game, result), ("result",)),
                                 Grid((Cell(""), Cell(tt("tw.status.points"), figure=True), Cell(war, figure=True)),
                                      tuple(rows), title=title)]
    for p, arrangement in enumerate(result.arrangements):
        if arrangement is not None:
            blocks.append(_columns(arrangement, TRIBE_SHORT, "tribe",
                                   tt("tw.round.points", name=game.players[p], n=arrangement.points), lang))
    for p in result.warring:
        grouping = result.war_groupings[p]
        if grouping is not None:
            blocks.append(_columns(grouping, HABITAT_SHORT, "habitat",
                                   tt("tw.round.war_of", name=game.players[p], points=grouping.points), lang))
    blocks.append(Text(refill_line(game, result)))
    if result.next_starter is not None:
        blocks.append(Text(tt("tw.phone.starts", name=game.players[result.next_starter], n=result.number + 1)))
    return blocks


def _maybe(points: int | None) -> Cell:
    """A figure, or an empty cell where there is none (a player out of the war)."""
    return number(points) if points is not None else Cell("")


def _columns(arrangement: Arrangement, short: dict[str, str], prefix: str, title: str, lang: str) -> Grid:
    """A player's columns (T7, T8): each column's tribe (or habitat, in a war), its cards
    bottom first (the totem marked ●) and its points."""
    rows = []
    for column in arrangement.columns:
        label = Cell(tt(f"{prefix}.{column.key}", lang), short=tt(short[column.key], lang)) \
            if column.key in short else Cell(str(column.key))
        words = [("● " if column.totem and i == 0 else "") + animal_name(c.animal, lang)
                 + (f" ({tt(TRIBE_SHORT[c.tribe], lang)})" if prefix == "tribe" and c.tribe != column.key
                    and c.tribe in TRIBE_SHORT else "")
                 for i, c in enumerate(column.cards)]
        rows.append(Row((label, Cell(", ".join(words)), number(column.points))))
    return Grid((Cell(""), Cell(""), Cell("", figure=True)), tuple(rows), title=title)


def _rounds(game: TotemWars) -> Grid:
    """Every round played: each player's points (the taker's marked), the war (T10) and
    who took how many cards (T9, T11, T12)."""
    rows = []
    for result in game.rounds:
        taken = (f"{game.players[result.taker]} {len(result.cards)}" if result.taker is not None
                 else f"— {len(result.cards)}")
        rows.append(Row((Cell(str(result.number)),
                         *(number(points, ("best",) if seat == result.taker else ()) if points is not None
                           else Cell("") for seat, points in enumerate(result.points)),
                         Cell("✓" if result.war else ""), Cell(taken))))
    heads = (Cell(""), *(Cell(name, figure=True) for name in game.players),
             Cell(tt("tw.round.war_points")), Cell(tt("tw.status.taken")))
    return Grid(heads, tuple(rows), title=tt("tw.phone.rounds"))


PHONE = GamePhone(table=table, summary=summary, rows=rows, sheet=sheet,
                  tallies=(Tally("rounds_won", "tw.phone.rounds_won", short="tw.phone.rounds"),
                           Tally("wars_won", "tw.phone.wars_won", short="tw.phone.wars")),
                  laid_out=ROUNDS_KINDS | {"round"})
