"""The phone page's view of a Wakanda game (``companion/web/``): what the OLED's board shows,
as plain values, in the box's language.

Only what anyone may see (the public view, ``public.py``): every hand, the mover's too, is
a count unless the game is played with open hands (R2); tiles face down stay face down
(W10).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from companion.games.wakanda.public import hands_open
from companion.games.wakanda.screens import ROW, _playable
from companion.games.wakanda.words import piece_name as _piece_name
from companion.games.wakanda.words import t as wt
from companion.games.wakanda.words import tile_label as _tile_label
from companion.ui.text import language, t
from companion.web.game_phone import GamePhone


@lru_cache(maxsize=512)
def _word(kind: str, key: str, lang: str) -> str:
    """A piece's or a tile's name in ``lang``, looked up once per language (the catalogues
    never change while the box runs): a snapshot costs the session little."""
    return _piece_name(key, lang) if kind == "piece" else _tile_label(key, lang)


def table(game, view) -> dict[str, Any]:
    """The row of six villages (tile, state, pole bottom to top, owner), whose turn, the
    phase, each hand as a count (per piece only with open hands, R2), and
    each player's running points per village (W-scoring, as the status page)."""
    lang = language()

    def piece_name(piece: str) -> str:
        return _word("piece", piece, lang)

    def tile_label(tile: str) -> str:
        return _word("tile", tile, lang)

    pending = getattr(view, "pending", None)
    lit = getattr(view, "lit", None)
    playable = {lit} if lit is not None else _playable(game, pending)
    open_count = sum(1 for v in range(1, ROW + 1) if game.is_open(v))
    villages = []
    tiles, poles, owners = game.villages, game.poles, game.owners  # each a tuple made per call
    for v in range(1, ROW + 1):
        tile = tiles[v - 1]
        if tile is None:
            state = "hidden"
        elif v > open_count:
            state = "turned"
        else:
            state = "playable" if v in playable else "open"
        villages.append({"village": v, "tile": tile_label(tile), "state": state,
                         "pieces": [piece_name(p) for p in poles[v - 1]],
                         "owner": owners[v - 1]})
    mover = game.to_move
    players = []
    hands = game.hands
    shown = hands_open(game)
    for seat, name in enumerate(game.players):
        hand = hands[seat]
        score = game.score(seat)
        players.append({
            "name": name, "to_move": seat == mover,
            "hand": [[piece_name(p), n] for p, n in hand.items() if n] if shown else None,
            "hand_size": sum(hand.values()),
            "points": score.total,
            "villages": [[tile_label(tile), points] for tile, points in score.villages.items()],
        })
    over = game.phase == "over"
    outcome = game.outcome() if over else None
    winners = list(outcome.winners) if outcome else []
    if over:
        result = (wt("wins", name=game.players[winners[0]]) if len(winners) == 1 else wt("shared"))
    else:
        result = None
    return {"game": "wakanda", "phase": wt(f"phase.{game.phase}"), "villages": villages,
            "words": {"hand": wt("status.hand"), "points": wt("status.points")},
            "players": players, "result": result, "pending": piece_name(pending) if pending else None}


def summary(state, players: list[dict[str, Any]]) -> None:
    """Add to a finished game's ``score --json`` players what the statistics count: the
    villages each scored (W7), named in the box's language, as ``favourites``."""
    for player in players:
        player["favourites"] = [piece_name_now(v) for v, points in player.get("villages", {}).items() if points > 0]


def piece_name_now(village: str) -> str:
    """A village's name in the box's language now."""
    return _word("piece", village, language())


def rows(table: dict[str, Any], lang: str) -> list[Any]:
    """The table as the club's tables page draws it, headings in ``lang``: the phase (and
    the result), the row of villages (tile, pole bottom to top, owner) and each player's
    hand and points (per village scored, W-scoring); ▶ marks the player to move."""
    players = table["players"]
    names = [str(p["name"]) for p in players]
    villages = table["villages"]
    heads = [wt("done.turned_up", lang, n=int(v["village"]), village=str(v["tile"])) for v in villages]
    poles = [" / ".join(str(piece) for piece in v["pieces"]) for v in villages]
    owners = [names[v["owner"]] if isinstance(v["owner"], int) and 0 <= v["owner"] < len(names) else ""
              for v in villages]
    people = []
    for p in players:
        hand = (", ".join(f"{piece} ×{n}" for piece, n in p["hand"]) if p.get("hand")
                else str(int(p["hand_size"])))
        scored = " · ".join(f"{tile} {points}" for tile, points in p.get("villages") or () if points)
        people.append([("▶ " if p.get("to_move") else "") + str(p["name"]), hand,
                       f"{p['points']}" + (f" ({scored})" if scored else "")])
    lines = [str(table[key]) for key in ("phase", "result") if table.get(key)]
    return [*lines, (heads, [poles, owners]),
            ([t("club.player", lang), wt("status.hand", lang), wt("status.points", lang)], people)]


PHONE = GamePhone(table=table, summary=summary, rows=rows)
