"""The box's settings, changed on its settings page: the players' names offered at set-up,
the language, sound on or off, move hints on or off, the voice, its speed and volume, the phone
page on or off, and each game's own settings (a Wakanda variant, a house rule). They are kept in
``DATA/settings.json``, written atomically like the
tag registry::

    {"version": 1, "names": ["Ana", "Ben"], "language": "bg", "sound": false, "hints": false,
     "voice_speed": 140, "voice_volume": 150,
     "games": {"wakanda": {"variant": "hidden", "empty_claim": "never"}}}

Every key is optional: a name list, language, voice, its speed and volume or phone page
(``web``) the file does not hold comes from the configuration (``players``, ``language``,
``[voice] mode``, ``speed``, ``volume``, ``[web] port``),
sound and hints are on, and a game's setting is its first value. A file that cannot be read,
is not a regular file, is too big or is not such an object is damaged: the defaults are used,
the box says so in one line, and the next change rewrites it. Games are never affected: they
are in the journal and ``games/``.

>>> store = SettingsStore(None, names=("Ana", "Ben"))
>>> store.names, store.sound, store.hints
(('Ana', 'Ben'), True, True)
>>> store.remember(("Cleo", "Ana")); store.names
('Cleo', 'Ana', 'Ben')
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.config import SPEED_RANGE, VOICE_MODES, VOLUME_RANGE
from companion.errors import UserError
from companion.files import read_bytes, write_atomically
from companion.records import JsonError, parse_json

#: The settings' file inside the data folder.
SETTINGS_FILE = "settings.json"
VERSION = 1
#: A settings file is a few hundred bytes; anything much bigger is not one.
MAX_BYTES = 64 * 1024
#: Names kept for the set-ups, most recent first.
MAX_NAMES = 12
#: The phone page's port when the settings page turns it on and the configuration names none.
DEFAULT_WEB_PORT = 8080
#: The longest name the screens show whole (the configuration's limit too).
NAME_CHARS = 16
#: The voice's speeds (espeak-ng's words a minute) and volumes (its amplitude, 100 its
#: normal loudness) the Settings page and the phone page offer, in the order they turn.
VOICE_SPEEDS = (120, 140, 160, 180, 210, 250)
VOICE_VOLUMES = (25, 50, 75, 100, 150, 200)


@dataclass(frozen=True)
class GameOption:
    """One setting a game offers on the settings page (``TableGame.settings``); text fields
    are keys of the word catalogue."""

    key: str                  # its name in the settings file and in the set-up's options
    label: str                # the settings page's line, with ``{value}``: "Variant: {value}"
    about: str                # the line under the list while it is chosen: its game and rule
    values: tuple[str, ...]   # the values it takes, the default first
    words: tuple[str, ...]    # the names of the values, one key each


@dataclass(frozen=True)
class Settings:
    """What the players set on the box; ``None``: not set, the configuration's default."""

    names: tuple[str, ...] | None = None
    language: str | None = None
    sound: bool = True
    games: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    hints: bool = True
    voice: str | None = None  # off, prompts or everything (companion/voice)
    web: bool | None = None  # the phone page; None: as the configuration says
    voice_speed: int | None = None  # espeak-ng's words a minute; None: the configuration's
    voice_volume: int | None = None  # espeak-ng's amplitude; None: the configuration's

    def __post_init__(self) -> None:
        # Frozen all the way down: a change is a new value, saved as a whole.
        object.__setattr__(self, "games", MappingProxyType(
            {game: MappingProxyType(dict(values)) for game, values in self.games.items()}))


def is_name(name: object) -> bool:
    """Whether ``name`` can be a player's name: 1-16 printable characters, not all spaces."""
    return (isinstance(name, str) and 0 < len(name) <= NAME_CHARS and name.isprintable()
            and bool(name.strip()))


def read_settings(path: Path, games: Sequence[str], languages: Sequence[str]) -> Settings:
    """The settings kept in ``path``; ``Settings()`` when there is no file. ``UserError`` (one
    line naming the file) for a file that is damaged; ``games`` and ``languages`` are the
    known ones."""
    data = read_bytes(path, "the settings", MAX_BYTES, missing_ok=True)
    if data is None:
        return Settings()
    try:
        # Strict: a number of thousands of digits or a deep nest is damage, not a traceback.
        doc = parse_json(data.decode("utf-8"))
    except (UnicodeDecodeError, JsonError):
        raise UserError(f"{path}: the settings are damaged (not JSON text)") from None
    try:
        return _settings_of(doc, games, languages)
    except ValueError as exc:
        raise UserError(f"{path}: the settings are damaged ({exc})") from None


def _settings_of(doc: object, games: Sequence[str], languages: Sequence[str]) -> Settings:
    """The settings a parsed file holds; ``ValueError`` naming what is wrong."""
    if not isinstance(doc, dict) or doc.get("version") != VERSION:
        raise ValueError(f"expected an object with \"version\": {VERSION}")
    unknown = set(doc) - {"version", "names", "language", "sound", "hints", "games", "voice", "web",
                          "voice_speed", "voice_volume"}
    if unknown:
        raise ValueError(f"unknown key {sorted(unknown)[0]!r}")
    names = doc.get("names")
    if names is not None and (not isinstance(names, list) or len(names) > MAX_NAMES
                              or not all(is_name(n) for n in names)):
        raise ValueError(f"names: a list of up to {MAX_NAMES} names of 1-{NAME_CHARS} characters")
    language = doc.get("language")
    if language is not None and language not in languages:
        raise ValueError(f"language: one of {', '.join(languages)}")
    sound = doc.get("sound", True)
    if not isinstance(sound, bool):
        raise ValueError("sound: true or false")
    hints = doc.get("hints", True)
    if not isinstance(hints, bool):
        raise ValueError("hints: true or false")
    voice = doc.get("voice")
    if voice is not None and voice not in VOICE_MODES:
        raise ValueError(f"voice: one of {', '.join(VOICE_MODES)}")
    web = doc.get("web")
    if web is not None and not isinstance(web, bool):
        raise ValueError("web: true or false")
    speed, volume = doc.get("voice_speed"), doc.get("voice_volume")
    for key, number, allowed in (("voice_speed", speed, SPEED_RANGE), ("voice_volume", volume, VOLUME_RANGE)):
        if number is not None and (type(number) is not int or number not in allowed):
            raise ValueError(f"{key}: a whole number from {allowed.start} to {allowed.stop - 1}")
    chosen = doc.get("games", {})
    # Each game's own values are checked against what it offers when it is used: reading
    # every game's description here would slow the box's start.
    if not isinstance(chosen, dict) or not all(
            game in games and isinstance(values, dict) and all(
                isinstance(k, str) and isinstance(v, str) and len(k) + len(v) < 64
                for k, v in values.items())
            for game, values in chosen.items()):
        raise ValueError(f"games: an object of game ({', '.join(games)}) -> its settings")
    names = tuple(dict.fromkeys(names)) if names is not None else None  # each name once
    return Settings(names, language, sound, chosen, hints, voice, web, speed, volume)


def write_settings(path: Path, settings: Settings) -> None:
    """Write ``settings`` to ``path`` atomically, only the keys that were set; ``UserError``
    (one line) when the data folder cannot be written."""
    doc: dict[str, object] = {"version": VERSION}
    if settings.names is not None:
        doc["names"] = list(settings.names)
    if settings.language is not None:
        doc["language"] = settings.language
    if not settings.sound:
        doc["sound"] = False
    if not settings.hints:
        doc["hints"] = False
    if settings.voice is not None:
        doc["voice"] = settings.voice
    if settings.web is not None:
        doc["web"] = settings.web
    if settings.voice_speed is not None:
        doc["voice_speed"] = settings.voice_speed
    if settings.voice_volume is not None:
        doc["voice_volume"] = settings.voice_volume
    if settings.games:
        doc["games"] = {game: dict(values) for game, values in settings.games.items()}
    try:
        write_atomically(path, json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    except OSError as exc:
        raise UserError(f"cannot save the settings {path}: {exc.strerror}") from None


class SettingsStore:
    """The settings of one box: those of its file (``path``; None keeps them in memory only:
    demos, tests) over the configuration's ``names``, ``language``, ``voice`` and the voice's
    ``voice_speed`` and ``voice_volume``.

    A change takes effect at once, even when it cannot be saved (a read-only data folder):
    ``change`` and ``remember`` then raise ``UserError`` after changing the settings in
    memory, and the box says they are not kept.
    """

    def __init__(self, path: Path | None, *, names: Sequence[str] = (), language: str = "en",
                 settings: Settings | None = None, voice: str = "off", web_port: int = 0,
                 web_bind: str = "0.0.0.0", voice_speed: int = 160, voice_volume: int = 100) -> None:
        self.path = path
        self.default_web_port = web_port
        self.web_bind = web_bind  # the address the page is served on (the configuration's)
        self.default_names = tuple(names)
        self.default_language = language
        self.default_voice = voice
        self.default_voice_speed, self.default_voice_volume = voice_speed, voice_volume
        self.settings = settings or Settings()

    @classmethod
    def load(cls, data_dir: str | os.PathLike[str], *, names: Sequence[str] = (), language: str = "en",
             games: Sequence[str] = (), languages: Sequence[str] = ("en",), voice: str = "off",
             web_port: int = 0, web_bind: str = "0.0.0.0", voice_speed: int = 160,
             voice_volume: int = 100) -> tuple[SettingsStore, str | None]:
        """The store of ``DATA/settings.json`` and the problem (one line) when the file is
        damaged: then the defaults are used."""
        path = Path(data_dir) / SETTINGS_FILE
        try:
            settings, problem = read_settings(path, games, languages), None
        except UserError as exc:
            settings, problem = None, str(exc)
        return cls(path, names=names, language=language, settings=settings, voice=voice,
                   web_port=web_port, web_bind=web_bind, voice_speed=voice_speed,
                   voice_volume=voice_volume), problem

    @property
    def names(self) -> tuple[str, ...]:
        """The names offered at set-up, most recent first."""
        names = self.settings.names
        return names if names is not None else self.default_names

    @property
    def language(self) -> str:
        """The language of the screens."""
        return self.settings.language or self.default_language

    @property
    def sound(self) -> bool:
        """Whether the buzzer sounds (the LEDs flash either way)."""
        return self.settings.sound

    @property
    def hints(self) -> bool:
        """Whether games started from now get move hints (the hint button's coach); with
        hints off it gives the rules' pages alone."""
        return self.settings.hints

    @property
    def voice(self) -> str:
        """What the box says aloud: off, prompts or everything (``VOICE_MODES``)."""
        return self.settings.voice or self.default_voice

    @property
    def voice_speed(self) -> int:
        """The voice's speed, espeak-ng's words a minute: the settings', else the
        configuration's (``[voice] speed``)."""
        speed = self.settings.voice_speed
        return speed if speed is not None else self.default_voice_speed

    @property
    def voice_volume(self) -> int:
        """The voice's volume, espeak-ng's amplitude (100: its normal loudness): the
        settings', else the configuration's (``[voice] volume``)."""
        volume = self.settings.voice_volume
        return volume if volume is not None else self.default_voice_volume

    @property
    def web(self) -> bool:
        """Whether the box serves the phone page: the settings page's choice, else the
        configuration's (a port given: on)."""
        return self.settings.web if self.settings.web is not None else self.default_web_port > 0

    @property
    def web_port(self) -> int:
        """The phone page's port: the configuration's, else ``DEFAULT_WEB_PORT``."""
        return self.default_web_port or DEFAULT_WEB_PORT

    def options(self, game: str, offered: Sequence[GameOption]) -> dict[str, str]:
        """The value of each of ``game``'s settings (``offered``: its descriptions); a value
        the game does not offer (a file edited by hand) counts as not set."""
        chosen = self.settings.games.get(game, {})
        return {option.key: chosen[option.key] if chosen.get(option.key) in option.values
                else option.values[0] for option in offered}

    def change(self, **changes: Any) -> None:
        """Change ``Settings`` fields (``language="bg"``, ``sound=False`` …) and save."""
        self._keep(replace(self.settings, **changes))

    def choose(self, game: str, key: str, value: str) -> None:
        """Set one of ``game``'s own settings and save."""
        games = {name: dict(values) for name, values in self.settings.games.items()}
        games.setdefault(game, {})[key] = value
        self._keep(replace(self.settings, games=games))

    def remember(self, players: Sequence[str]) -> None:
        """Put the names of a game that starts first in the list (the names of a seat
        nobody named, ``Player 1``…, are left out by the caller); saves when it changed."""
        # Only names the settings file can hold again (the configuration's are looser).
        known = (n for n in [*players, *self.names] if is_name(n))
        names = tuple(dict.fromkeys(known))[:MAX_NAMES]
        if names != self.names:
            self.change(names=names)

    def forget(self, name: str) -> None:
        """Take ``name`` off the list and save."""
        self.change(names=tuple(n for n in self.names if n != name))

    def _keep(self, settings: Settings) -> None:
        self.settings = settings
        if self.path is not None:
            write_settings(self.path, settings)
