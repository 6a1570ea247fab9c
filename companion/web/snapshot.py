"""What the phone page shows, as a plain value made from the session on its own thread.

``snapshot(session)`` reads the view on the OLED (``session.view``) and the game behind it
and returns a dict of lists, strings, numbers and booleans, ready for JSON: the same words
as the OLED in the same language (the note, what the last action did, the menu's lines),
and the table drawn from the same values (Wakanda's villages and poles, Totem Wars' rows).
Only what anyone may see appears: the view's words come through the public view
(``companion/table/public_view.py``, the voice's filter too): never a hint, a Totem Wars
hand or the face of a card not laid face up (T2, T4, T9), never a Wakanda hand's pieces or
a piece drawn unless the game is played with open hands (Wakanda's R2).

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
from companion.games import GAMES
from companion.table.choice import Choice
from companion.table.public_view import seen
from companion.table.setting_offers import form
from companion.ui.canvas import frame_words
from companion.ui.text import language, refusal_text, speaking, t
from companion.web.game_phone import GamePhone

#: The page's own words: catalogue keys (``web.*``) by the name the page's script uses.
PAGE_WORDS = {"waiting": "web.waiting", "offline": "web.offline", "score": "score.provisional",
              "pair": "web.pair", "ask": "web.ask", "code": "web.code_label", "pair_button": "web.pair_button",
              "wrong": "web.wrong", "name": "web.name", "add": "web.add", "bad_name": "web.bad_name",
              "past": "web.past", "players": "web.players", "games": "web.games", "wins": "web.wins",
              "average": "web.average", "best": "web.best", "favourite": "web.favourite",
              "rounds_won": "web.rounds_won", "wars_won": "web.wars_won", "record": "web.record",
              "backup": "web.backup", "frames": "web.frames", "bgstats": "web.bgstats", "bgstats_qr": "web.bgstats_qr",
              "settings": "settings.title",
              "bad_setting": "web.bad_setting", "busy": "web.busy"}


def page_words() -> dict[str, str]:
    """The page's own labels in the box's language now (the one place this module asks
    for a language, so that the box's language becoming a session's value changes one line)."""
    return dict(_page_words(language()))


@lru_cache(maxsize=16)
def _page_words(lang: str) -> tuple[tuple[str, str], ...]:
    """The page's labels and the games' titles in ``lang``, looked up once."""
    words = {name: t(key, lang) for name, key in PAGE_WORDS.items()} | {"lang": lang}
    words |= {f"game.{name}": entry.shown_title(lang) for name, entry in GAMES.items()}
    return tuple(words.items())


def _note(note) -> str | None:
    """A note as the OLED shows it in words: a refusal with its rule."""
    if isinstance(note, Refusal):
        return refusal_text(note)
    return note if isinstance(note, str) and note else None


def snapshot(session, frame=None) -> dict[str, Any]:
    """The phone page's value of what ``session`` shows now (see the module docstring), in
    the session's language; ``frame``, the picture on the OLED (default: the session's),
    gives the words of the pages whose view carries none (a round's result, the score pages,
    a lesson)."""
    with speaking(session.language):  # a watcher runs outside the session's own calls
        return _snapshot(session, frame)


def _snapshot(session, frame) -> dict[str, Any]:
    view = session.view
    words = page_words()
    shot: dict[str, Any] = {
        "lang": words.pop("lang"), "words": words, "screen": session.screen,
        "kind": getattr(view, "kind", "screen"), "title": None, "lines": [],
        "selected": None, "note": None, "done": None, "refused": False, "table": None,
        "settings": form(session.settings),  # the form a paired phone changes them with
    }
    game = session.game
    public = seen(session)  # None: none of the view's words may be seen
    if public is not None:
        shot.update(_view_words(public))
    if game is not None:
        table = shot["table"] = _table(session.game_name, game, view)
        prompt = table.pop("prompt", None) if table is not None else None
        shot["note"] = shot["note"] or prompt
    if public is not None and shot["title"] is None and not shot["lines"] and shot["note"] is None:
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
    """The table of the game on screen, as far as the OLED shows it: the game's own
    ``phone.table`` (``companion/games/<game>/phone.py``), found through the registry."""
    phone = _phone(game_name)
    return phone.table(game, view) if phone is not None else None


def _phone(game_name: str | None) -> GamePhone | None:
    """What the phone page shows of a game's own views (its table game's ``phone``); None
    for none: the menu, a game without one."""
    if game_name is None or game_name not in GAMES:
        return None
    return GAMES[game_name].table.phone
