"""The phone page's view of a Totem Wars game (``companion/web/``): what the OLED's board
shows, as plain values, in the box's language.

Only what anyone may see (the public view, ``public.py``): the hands are never seen (T2),
the cards down are counted, never named, until the round is resolved (T4, T9).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from companion.games.totem_wars.screens import TRIBE_SHORT, instruction, owed
from companion.games.totem_wars.words import t as tt
from companion.ui.text import language, t
from companion.web.game_phone import GamePhone


@lru_cache(maxsize=64)
def _tribe(tribe: str, lang: str) -> str:
    """A tribe's short name in ``lang``, looked up once per language."""
    return tt(TRIBE_SHORT[tribe], lang)


def table(game, view) -> dict[str, Any]:
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


def summary(state, players: list[dict[str, Any]]) -> None:
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


PHONE = GamePhone(table=table, summary=summary, rows=rows)
