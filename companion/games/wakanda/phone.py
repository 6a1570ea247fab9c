"""The phone page's view of a Wakanda game (``companion/web/``): what the OLED's board shows,
as plain values, in the box's language.

Only what anyone may see (the public view, ``public.py``): every hand, the mover's too, is
a count unless the game is played with open hands (R2); tiles face down stay face down
(W10).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from companion.game_phone import GamePhone, Tally
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.public import hands_open
from companion.games.wakanda.score_screens import result_reason
from companion.games.wakanda.scoring import ScoreBreakdown
from companion.games.wakanda.screens import ROW, _playable, turn_number
from companion.games.wakanda.words import piece_name as _piece_name
from companion.games.wakanda.words import t as wt
from companion.games.wakanda.words import tile_label as _tile_label
from companion.phone_table import Cell, Grid, Row, Sheet, Stack, Stacks, Text, number
from companion.ui.text import language, t


@lru_cache(maxsize=512)
def _word(kind: str, key: str, lang: str) -> str:
    """A piece's or a tile's name in ``lang``, looked up once per language (the catalogues
    never change while the box runs): a snapshot costs the session little."""
    return _piece_name(key, lang) if kind == "piece" else _tile_label(key, lang)


def table(game: Wakanda, view: object) -> dict[str, Any]:
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
        villages.append({"village": v, "tile": tile_label(tile) if tile is not None else _tile_label(None, lang),
                         "state": state,
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


def summary(state: Wakanda, players: list[dict[str, Any]]) -> None:
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


#: The views on which the score is laid out in full: the status page, the score pages.
SCORE_KINDS = frozenset({"status", "score"})


@lru_cache(maxsize=256)
def _named(kind: str, key: str, lang: str) -> Cell:
    """A piece's or a village's name, its three-letter code where room is short (made once
    per language: a cell never changes)."""
    return Cell(_word("piece", key, lang), short=_word("tile", key, lang))


def sheet(game: Wakanda, view: object) -> Sheet:
    """The table as the phone page lays it out, from the game's values: the result once
    over (R6, W9); the row of villages as a board (each tile's name, its pole bottom to
    top, the owner's headdress; face-down tiles stay face down, W10); each player's hand
    (a count unless the hands are open, R2) and points; and, on the status and score pages
    and once over, the score village by village with the sun penalty (W7, W8) and the
    total, whatever page the OLED shows."""
    lang = language()
    pending = getattr(view, "pending", None)
    lit = getattr(view, "lit", None)
    playable = {lit} if lit is not None else _playable(game, pending)
    open_count = sum(1 for v in range(1, ROW + 1) if game.is_open(v))
    over = game.phase == "over"
    blocks: list[Text | Grid | Stacks] = []
    if over:
        outcome = game.outcome()
        winners = list(outcome.winners) if outcome else []
        blocks.append(Text(wt("wins", name=game.players[winners[0]]) if len(winners) == 1 else wt("shared"),
                           ("result",)))
        blocks.append(Text(result_reason(game)))
    else:  # the phase, the turn and the bag (W4), as the board's header and status page say them
        bag = wt("status.bag", n=sum(game.bag.values()))
        blocks.append(Text(f"{wt(f'phase.{game.phase}')} · {wt('status.turn', n=turn_number(game))} · {bag}"))
    stacks = []
    tiles, poles, owners = game.villages, game.poles, game.owners
    for v in range(1, ROW + 1):
        tile = tiles[v - 1]
        if tile is None:
            foot = Cell(f"{v} ?", marks=("hidden",))
        else:
            named = _named("piece", tile, lang)
            state = ("dim",) if v > open_count else ("lit",) if v in playable and not over else ()
            foot = Cell(f"{v} {named.text}", short=f"{v} {named.short}", marks=state)
        items = [_named("piece", p, lang) for p in poles[v - 1]]
        owner = owners[v - 1]
        if owner is not None:
            items.append(Cell(game.players[owner], marks=(f"seat{owner}",)))
        stacks.append(Stack(foot, tuple(items)))
    blocks.append(Stacks(tuple(stacks)))
    shown = hands_open(game)
    people = []
    scores = [game.score(seat) for seat in range(len(game.players))]
    for seat, name in enumerate(game.players):
        hand = game.hands[seat]
        held = (", ".join(f"{_word('piece', p, lang)} ×{n}" for p, n in hand.items() if n) if shown
                else str(sum(hand.values())))
        people.append(Row((Cell(name, marks=(f"seat{seat}",)), Cell(held, figure=not shown),
                           number(scores[seat].total)),
                          ("mover",) if seat == game.to_move and not over else ()))
    blocks.append(Grid((Cell(""), Cell(wt("status.hand"), figure=not shown), Cell(wt("status.points"), figure=True)),
                       tuple(people)))
    if over or getattr(view, "kind", None) in SCORE_KINDS:
        blocks.append(_score(game, scores, lang))
    return Sheet(tuple(blocks))


def _score(game: Wakanda, scores: list[ScoreBreakdown], lang: str) -> Grid:
    """Each player's points village by village (W7), the sun penalty (W8) and the total: a
    column a player, a row a village scored by anyone."""
    outcome = game.outcome() if game.phase == "over" else None
    winners = set(outcome.winners) if outcome else set()
    villages = [v for v in dict.fromkeys(v for s in scores for v in s.villages)]
    rows = [Row((_named("piece", village, lang), *(number(s.villages.get(village, 0)) for s in scores)))
            for village in villages]
    rows.append(Row((Cell(wt("score.sun_penalty")), *(number(s.sun_penalty) for s in scores))))
    rows.append(Row((Cell(wt("score.total")),
                     *(number(s.total, ("best",) if s.player in winners else ()) for s in scores)), ("total",)))
    heads = (Cell(""), *(Cell(name, figure=True, marks=(f"seat{seat}",)) for seat, name in enumerate(game.players)))
    return Grid(heads, tuple(rows), title=t("score.provisional") if game.phase != "over" else wt("status.points"))


PHONE = GamePhone(table=table, summary=summary, rows=rows, sheet=sheet,
                  tallies=(Tally("favourites", "phone.favourite", most=True),), laid_out=SCORE_KINDS)
