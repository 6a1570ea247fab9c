"""What each setting offers and how a change of it applies, wherever it comes from: OK on
a line of the Settings page (``settings_flow.py``) or a paired phone's change, which the
page carries into the session as a ``PhoneSetting`` event (issue 33: the table owns its
settings, the page only carries a change).

The settings offered: the language, sound and hints on or off, the voice (off, prompts,
everything), its speed and volume, and each game's own settings (``TableGame.settings``).
The names, the phone page itself and the paired phones are changed on the box only; the
box's strength is chosen at each set-up, not kept as a setting.

>>> from companion.table.settings import SettingsStore
>>> store = SettingsStore(None)
>>> setting = setting_of({"key": "sound", "value": "off"}); setting
PhoneSetting(key='sound', value='off', game=None)
>>> apply(store, setting.game, setting.key, setting.value); store.sound
False
>>> setting_of({"key": "sound", "value": "loud"}) is None
True
>>> turned(store, None, VOICE_SPEED), turned(store, None, VOICE)
('180', 'prompts')
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.config import SPEED_RANGE, VOICE_MODES, VOLUME_RANGE
from companion.events import PhoneSetting
from companion.games import GAMES
from companion.table.settings import VOICE_SPEEDS, VOICE_VOLUMES, GameOption, SettingsStore
from companion.ui.text import languages, t

LANGUAGE, SOUND, HINTS, VOICE, VOICE_SPEED, VOICE_VOLUME = (
    "language", "sound", "hints", "voice", "voice_speed", "voice_volume")
#: The values of a setting that is on or off.
SWITCH = ("on", "off")
#: The settings that are a number, and the numbers they may take (the configuration's).
NUMBERS = {VOICE_SPEED: SPEED_RANGE, VOICE_VOLUME: VOLUME_RANGE}


@dataclass(frozen=True)
class Offered:
    """One setting: the game whose own it is (None: the box's), its key, the values offered
    in the order OK turns them."""

    game: str | None
    key: str
    values: tuple[str, ...]


def _option(game: str, key: str) -> GameOption | None:
    entry = GAMES.get(game)
    return next((o for o in entry.table.settings if o.key == key), None) if entry is not None else None


def offered() -> tuple[Offered, ...]:
    """Every setting a phone may change, in the Settings page's order."""
    found = [Offered(None, LANGUAGE, tuple(languages())), Offered(None, SOUND, SWITCH),
             Offered(None, HINTS, SWITCH)]
    found += [Offered(name, option.key, option.values)
              for name, entry in GAMES.items() for option in entry.table.settings]
    found += [Offered(None, VOICE, VOICE_MODES), Offered(None, VOICE_SPEED, tuple(map(str, VOICE_SPEEDS))),
              Offered(None, VOICE_VOLUME, tuple(map(str, VOICE_VOLUMES)))]
    return tuple(found)


def _takes(setting: Offered, value: str) -> bool:
    """Whether ``setting`` may be set to ``value``: one of its values, or for a number any
    the configuration accepts (the configuration's own may be one not offered)."""
    allowed = NUMBERS.get(setting.key) if setting.game is None else None
    if allowed is not None:
        return value.isascii() and value.isdigit() and len(value) < 4 and int(value) in allowed
    return value in setting.values


def setting_of(doc: dict[str, object]) -> PhoneSetting | None:
    """The setting a phone's request (``{"key", "value", "game"?}``) asks for; None unless
    the box offers that key and takes that value."""
    asked = (doc.get("game"), doc.get("key"))
    value = doc.get("value")
    for setting in offered():
        if asked == (setting.game, setting.key) and isinstance(value, str) and _takes(setting, value):
            return PhoneSetting(setting.key, value, setting.game)
    return None


def apply(store: SettingsStore, game: str | None, key: str, value: str) -> None:
    """Set ``key`` (of ``game``'s own settings when one is named) to ``value`` in ``store``
    and save; ``UserError`` when it cannot be saved (the change holds all the same).
    ``ValueError`` for a setting or value the box does not offer (``setting_of`` checks a
    phone's first)."""
    if setting_of({"key": key, "value": value, "game": game}) is None:
        raise ValueError(f"not a setting the box offers: {game or 'box'} {key}={value}")
    if game is not None:
        store.choose(game, key, value)
    elif key in (LANGUAGE, VOICE):
        store.change(**{key: value})
    elif key in NUMBERS:
        store.change(**{key: int(value)})
    else:
        store.change(**{key: value == SWITCH[0]})


def current(store: SettingsStore, game: str | None, key: str) -> str:
    """The value ``key`` (of ``game``'s own settings when one is named) has now."""
    if game is not None:
        option = _option(game, key)
        if option is None:
            raise ValueError(f"{game} has no setting {key!r}")
        return store.options(game, (option,))[key]
    if key in (LANGUAGE, VOICE):
        return store.language if key == LANGUAGE else store.voice
    if key in NUMBERS:
        return str(store.voice_speed if key == VOICE_SPEED else store.voice_volume)
    return SWITCH[0] if getattr(store, key) else SWITCH[1]


def choices(store: SettingsStore, setting: Offered) -> tuple[str, ...]:
    """The values of ``setting`` to choose from: those offered, and a number set in the
    configuration that is not one of them, in its place."""
    now = current(store, setting.game, setting.key)
    if setting.key not in NUMBERS or setting.game is not None or now in setting.values:
        return setting.values
    return tuple(sorted((*setting.values, now), key=int))


def turned(store: SettingsStore, game: str | None, key: str) -> str:
    """The value OK on the Settings page turns ``key`` to: the next of its values, round
    to the first."""
    setting = next(s for s in offered() if (s.game, s.key) == (game, key))
    values = choices(store, setting)
    return values[(values.index(current(store, game, key)) + 1) % len(values)]


def setting_line(game: str | None, key: str, value: str) -> str:
    """The Settings page's line of ``key`` set to ``value`` (a setting of ``game``'s own
    when one is named), in the language spoken: ``Language: Français``, ``Sound: off``,
    ``Variant: hidden``, ``Voice speed: 160``. The page and a phone's change say it alike."""
    if game is not None:
        entry, option = GAMES[game], _option(game, key)
        if option is None:
            raise ValueError(f"{game} has no setting {key!r}")
        return entry.text(option.label, value=entry.text(option.words[option.values.index(value)]))
    if key == LANGUAGE:
        return t("settings.language", name=t("language.name", value))
    if key in NUMBERS:
        return t(f"settings.{key}", n=value)
    return t(f"settings.{key}_{value}")


def form(store: SettingsStore) -> list[dict[str, object]]:
    """The settings as the phone page shows them, in the language spoken: each setting's
    key, game, value now and its choices as ``[value, the Settings page's line]`` pairs."""
    return [{"game": setting.game, "key": setting.key, "value": current(store, setting.game, setting.key),
             "choices": [[value, setting_line(setting.game, setting.key, value)]
                         for value in choices(store, setting)]}
            for setting in offered()]
