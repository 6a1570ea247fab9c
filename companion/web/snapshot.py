"""What the phone page shows, as a plain value made from the session on its own thread.

``snapshot(session)`` reads the view on the OLED (``session.view``) and the game behind it
and returns a dict of lists, strings, numbers and booleans, ready for JSON: the same words
as the OLED in the same language (the note, what the last action did, the menu's lines),
the game's table as values (``table``) and as the page lays it out (``sheet``: the game's
``phone.py`` describes it, ``companion/phone_table.py``), both from the game's values; on
the pages a game lays out whole (a result, its score), those rather than the OLED's
wrapped lines. Only what anyone may see appears: the view's words come through the public
view (``companion/table/public_view.py``, the voice's filter too) and each game's table
is made of what its ``public.py`` lets be seen: never a hint, a hidden hand or the face of
a card not laid face up.

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

from PIL.Image import Image

from companion.engine import Refusal
from companion.game_phone import GamePhone
from companion.games import GAMES
from companion.table.choice import Choice
from companion.table.public_view import seen
from companion.table.setting_offers import form
from companion.ui.canvas import frame_words
from companion.ui.text import language, refusal_text, speaking, t

#: The page's own words: catalogue keys (``web.*``) by the name the page's script uses.
PAGE_WORDS = {"waiting": "web.waiting", "offline": "web.offline", "score": "score.provisional",
              "pair": "web.pair", "ask": "web.ask", "code": "web.code_label", "pair_button": "web.pair_button",
              "wrong": "web.wrong", "name": "web.name", "add": "web.add", "bad_name": "web.bad_name",
              "past": "web.past", "players": "web.players", "record": "web.record",
              "backup": "web.backup", "frames": "web.frames", "bgstats": "web.bgstats", "bgstats_qr": "web.bgstats_qr",
              "settings": "settings.title",
              "bad_setting": "web.bad_setting", "busy": "web.busy", "board": "web.board",
              "back": "web.back", "forward": "web.forward"}


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


def _note(note: object) -> str | None:
    """A note as the OLED shows it in words: a refusal with its rule."""
    if isinstance(note, Refusal):
        return refusal_text(note)
    return note if isinstance(note, str) and note else None


def snapshot(session: Any, frame: Image | None = None) -> dict[str, Any]:
    """The phone page's value of what ``session`` shows now (see the module docstring), in
    the session's language; ``frame``, the picture on the OLED (default: the session's),
    gives the words of the pages whose view carries none and whose game lays out no table
    of them (a lesson's page)."""
    with speaking(session.language):  # a watcher runs outside the session's own calls
        return _snapshot(session, frame)


def _snapshot(session: Any, frame: Image | None) -> dict[str, Any]:
    view = session.view
    words = page_words()
    shot: dict[str, Any] = {
        "lang": words.pop("lang"), "words": words, "screen": session.screen,
        "kind": getattr(view, "kind", "screen"), "title": None, "lines": [],
        "selected": None, "note": None, "done": None, "refused": False, "table": None, "sheet": None,
        "settings": _labelled(form(session.settings)),  # the form a paired phone changes them with
    }
    game = session.game
    public = seen(session)  # None: none of the view's words may be seen
    if public is not None:
        shot.update(_view_words(public))
    phone = _phone(session.game_name) if game is not None else None
    if phone is not None:
        table = shot["table"] = phone.table(game, view)
        prompt = table.pop("prompt", None)
        shot["note"] = shot["note"] or prompt
        if phone.sheet is not None:
            shot["sheet"] = phone.sheet(game, view).to_json()
    laid_out = phone is not None and phone.sheet is not None and shot["kind"] in phone.laid_out
    if public is not None and shot["title"] is None and not shot["lines"] and shot["note"] is None \
            and not laid_out:
        shot["lines"] = frame_words(frame if frame is not None else session.frame())
    return shot


def _label(lines: list[str]) -> str:
    """A setting's name from the Settings page's lines of its values (``Sound: on``,
    ``Sound: off``): what they share up to their last colon."""
    shared = lines[0] if lines else ""
    for line in lines[1:]:
        while not line.startswith(shared):
            shared = shared[:-1]
    cut = max(shared.rfind(":"), shared.rfind("："))
    return (shared[:cut] if cut > 0 else shared).strip()


def _labelled(settings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The settings form with each setting's name, the label of its control."""
    return [{**s, "label": _label([str(line) for _, line in s["choices"]])} for s in settings]


def _view_words(view: Any) -> dict[str, Any]:
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


def _phone(game_name: str | None) -> GamePhone | None:
    """What the phone page shows of a game's own views (its table game's ``phone``); None
    for none: the menu, a game without one."""
    if game_name is None or game_name not in GAMES:
        return None
    return GAMES[game_name].table.phone
