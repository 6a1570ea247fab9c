"""What the phone page shows, as a plain value made from the session on its own thread.

``snapshot(session)`` reads the view on the OLED (``session.view``) and the game behind it
and returns a dict of lists, strings, numbers and booleans, ready for JSON: the same words
as the OLED in the same language (the note, what the last action did, the menu's lines),
and the table drawn from the same values (Wakanda's villages and poles, Totem Wars' rows).
Only what the OLED shows may appear: never a Totem Wars hand or the faces of the cards
down (T2, T9: face down until the round is resolved), never the other Wakanda player's
hand unless the game is played with open hands.

>>> import tempfile
>>> from companion.table.registry import TagRegistry
>>> from companion.table.session import Session
>>> shot = snapshot(Session(tempfile.mkdtemp(), TagRegistry("tags.json")))
>>> shot["kind"], shot["lang"], shot["title"]
('menu', 'en', 'Totem Companion')
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

from companion.engine import Refusal
from companion.table.choice import Choice
from companion.ui.canvas import frame_words
from companion.ui.text import language, refusal_text, t

#: The page's own words: catalogue keys (``web.*``) by the name the page's script uses.
PAGE_WORDS = {"waiting": "web.waiting", "offline": "web.offline", "score": "score.provisional",
              "pair": "web.pair", "ask": "web.ask", "code": "web.code_label", "pair_button": "web.pair_button",
              "wrong": "web.wrong", "name": "web.name", "add": "web.add", "bad_name": "web.bad_name",
              "past": "web.past", "players": "web.players", "games": "web.games", "wins": "web.wins",
              "average": "web.average", "best": "web.best", "favourite": "web.favourite",
              "rounds_won": "web.rounds_won", "wars_won": "web.wars_won", "record": "web.record"}


def page_words() -> dict[str, str]:
    """The page's own labels in the box's language now (the one place this module asks
    for a language, so that the box's language becoming a session's value changes one line)."""
    return dict(_page_words(language()))


@lru_cache(maxsize=16)
def _page_words(lang: str) -> tuple[tuple[str, str], ...]:
    """The page's labels and the games' titles in ``lang``, looked up once."""
    from companion.games import GAMES
    words = {name: t(key, lang) for name, key in PAGE_WORDS.items()} | {"lang": lang}
    words |= {f"game.{name}": entry.shown_title(lang) for name, entry in GAMES.items()}
    return tuple(words.items())


def _note(note) -> str | None:
    """A note as the OLED shows it in words: a refusal with its rule."""
    if isinstance(note, Refusal):
        return refusal_text(note)
    return note if isinstance(note, str) and note else None


#: Views that may name a Totem Wars player's cards: the hint's hand screen and tips, and the
#: lists of cards picked without a reader (T2: the hands are secret, the cards down too).
SECRET_KINDS = frozenset({"hint", "hand", "menu", "picker"})


def snapshot(session, frame=None) -> dict[str, Any]:
    """The phone page's value of what ``session`` shows now (see the module docstring);
    ``frame``, the picture on the OLED (default: the session's), gives the words of the
    pages whose view carries none (a round's result, the score pages, a lesson)."""
    view = session.view
    words = page_words()
    shot: dict[str, Any] = {
        "lang": words.pop("lang"), "words": words, "screen": session.screen,
        "kind": getattr(view, "kind", "screen"), "title": None, "lines": [],
        "selected": None, "note": None, "done": None, "refused": False, "table": None,
    }
    game = session.game
    secret = (session.game_name == "totem-wars" and game is not None and game.phase != "over"
              and shot["kind"] in SECRET_KINDS)
    if not secret:
        shot.update(_view_words(view))
    if game is not None:
        table = shot["table"] = _table(session.game_name, game, view)
        prompt = table.pop("prompt", None) if table is not None else None
        shot["note"] = shot["note"] or prompt
    if not secret and shot["title"] is None and not shot["lines"] and shot["note"] is None:
        shot["lines"] = frame_words(frame if frame is not None else session.frame())
    return shot


def _view_words(view) -> dict[str, Any]:
    """The words of a view: a list's title, lines and the one chosen; the note, what was done,
    a question; for any other view, its words and notes field by field."""
    choice = getattr(view, "choice", None)
    if isinstance(choice, Choice):
        note = getattr(view, "footer", None) or getattr(view, "note", None)
        return {"title": choice.title, "lines": list(choice.labels), "selected": choice.selected,
                "note": _note(note)}
    kind = getattr(view, "kind", None)
    if kind == "confirm":
        return {"title": view.question, "lines": [view.detail]}
    if kind == "why":
        return {"title": f"{view.rule} {view.title}", "lines": list(view.pages[view.page])}
    if kind == "hint":
        return {"note": view.tip.words, "done": view.footer}
    if kind == "speller":
        return {"title": view.name + "_", "lines": [view.wheel[view.selected]],
                "note": _note(view.note), "refused": view.refused}
    found: dict[str, Any] = {"refused": bool(getattr(view, "refused", False))}
    if dataclasses.is_dataclass(view):
        note = getattr(view, "message", None)
        found["note"] = _note(note)
        done = getattr(view, "done", None)
        found["done"] = done if isinstance(done, str) else None
    return found


def _table(game_name: str | None, game, view) -> dict[str, Any] | None:
    """The table of the game on screen, as far as the OLED shows it."""
    if game_name == "wakanda":
        return _wakanda(game, view)
    if game_name == "totem-wars":
        return _totem_wars(game, view)
    return None


@lru_cache(maxsize=512)
def _word(domain: str, kind: str, key: str, lang: str) -> str:
    """A piece's, a tile's or a tribe's name in ``lang``: looked up once per language (the
    catalogues never change while the box runs), so a snapshot costs the session little."""
    if domain == "wakanda":
        from companion.games.wakanda.words import piece_name, tile_label
        return piece_name(key, lang) if kind == "piece" else tile_label(key, lang)
    from companion.games.totem_wars.screens import TRIBE_SHORT
    from companion.games.totem_wars.words import t as tt
    return tt(TRIBE_SHORT[key], lang)


def _wakanda(game, view) -> dict[str, Any]:
    """The row of six villages (tile, state, pole bottom to top, owner), whose turn, the
    phase, the mover's hand, the other's as a count (per piece only with open hands), and
    each player's running points per village (W-scoring, as the status page)."""
    from companion.games.wakanda.screens import ROW, _playable
    from companion.games.wakanda.words import t as wt

    lang = language()

    def piece_name(piece: str) -> str:
        return _word("wakanda", "piece", piece, lang)

    def tile_label(tile: str) -> str:
        return _word("wakanda", "tile", tile, lang)

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
    for seat, name in enumerate(game.players):
        hand = hands[seat]
        shown = seat == mover or game.open_hands
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


def _totem_wars(game, view) -> dict[str, Any]:
    """Each player's row as the OLED's board: totem's tribe, the number of cards down (never
    their faces), the answer owed, the hand's size; points and taken cards as the status
    page; the round; the prompt the board shows when no note is due."""
    from companion.games.totem_wars.screens import instruction, owed
    from companion.games.totem_wars.words import t as tt

    pending = tuple(getattr(view, "pending", ()) or ())
    over = game.phase == "over"
    rows = []
    for seat, name in enumerate(game.players):
        mover = seat == game.to_move
        totem = game.totems[seat]
        scanned = len(pending) if mover else 0
        rows.append({
            "name": name, "to_move": mover,
            "totem": _word("totem-wars", "tribe", totem.tribe, language()) if totem is not None else None,
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
