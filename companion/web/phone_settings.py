"""The box's settings a paired phone may change: the language, sound and hints on or off, and
each game's own settings (``TableGame.settings``), with the values the Settings page offers.

The server checks what a phone sends against ``offered()`` (``setting_of``) and puts one
``PhoneSetting`` on the session's queue; the session applies it on its own thread
(``apply``) and the OLED says it with the Settings page's line (``settings_flow.setting_line``). The box's
strength is not here: it is chosen at each set-up, not kept as a setting.

>>> from companion.table.settings import SettingsStore
>>> setting = setting_of({"key": "sound", "value": "off"}); setting
PhoneSetting(key='sound', value='off', game=None)
>>> store = SettingsStore(None); apply(store, setting); store.sound
False
>>> setting_of({"key": "sound", "value": "loud"}) is None
True
"""

from __future__ import annotations

from typing import Any

from companion.events import PhoneSetting
from companion.games import GAMES
from companion.table.settings import SettingsStore
from companion.table.settings_flow import setting_line
from companion.ui.text import languages

LANGUAGE, SOUND, HINTS = "language", "sound", "hints"
#: The values of a setting that is on or off, as a phone sends them.
SWITCH = ("on", "off")


def offered() -> list[tuple[str | None, str, tuple[str, ...]]]:
    """``(game or None, key, values)`` of every setting a phone may change, in the Settings
    page's order."""
    found: list[tuple[str | None, str, tuple[str, ...]]] = [
        (None, LANGUAGE, tuple(languages())), (None, SOUND, SWITCH), (None, HINTS, SWITCH)]
    found += [(name, option.key, option.values)
              for name, entry in GAMES.items() for option in entry.table.settings]
    return found


def setting_of(doc: dict[str, Any]) -> PhoneSetting | None:
    """The setting a phone's request (``{"key", "value", "game"?}``) asks for; None unless
    the box offers exactly that key and value."""
    asked = (doc.get("game"), doc.get("key"))
    value = doc.get("value")
    for game, key, values in offered():
        if asked == (game, key) and isinstance(value, str) and value in values:
            return PhoneSetting(key, value, game)
    return None


def apply(store: SettingsStore, setting: PhoneSetting) -> None:
    """Change ``store`` as ``setting`` says and save; ``UserError`` when it cannot be saved
    (the change holds all the same, as on the Settings page)."""
    if setting.game is not None:
        store.choose(setting.game, setting.key, setting.value)
    elif setting.key == LANGUAGE:
        store.change(language=setting.value)
    else:
        store.change(**{setting.key: setting.value == "on"})


def current(store: SettingsStore, game: str | None, key: str) -> str:
    """The value ``key`` has now, as a phone sends it."""
    if game is not None:
        option = next(o for o in GAMES[game].table.settings if o.key == key)
        return store.options(game, (option,))[key]
    if key == LANGUAGE:
        return store.language
    return SWITCH[0] if getattr(store, key) else SWITCH[1]


def form(store: SettingsStore) -> list[dict[str, Any]]:
    """The page's settings form, in the language spoken: each setting's key, game, value now
    and its choices as ``[value, the Settings page's line]`` pairs."""
    return [{"game": game, "key": key, "value": current(store, game, key),
             "choices": [[value, setting_line(game, key, value)] for value in values]}
            for game, key, values in offered()]
