"""The box's configuration: one TOML file, validated, plus command-line overrides.

The file layout (documented key by key in ``hardware/config.example.toml``)::

    language = "en"
    players = ["Ana", "Ben"]

    [display]                 kind, i2c_port, i2c_address, rotation
    [reader]                  kind
    [buttons]                 kind, hold_seconds, debounce_ms
    [buttons.pins]            v1 … v6, up, down, ok, back, hint, undo  (BCM numbers)
    [feedback]                buzzer_pin
    [feedback.leds]           green, red
    [voice]                   mode, speed, volume, device
    [data]                    dir
    [web]                     port, bind  (the phone page: off while port is 0)
    [club]                    broker, box, user, password, tls, ca  (the club: off while broker is "")
    [backup]                  sticks  (the folders a USB stick is mounted under: companion/stick.py)

Every mistake is a ``UserError`` of one line naming the key and what is allowed; a bad
command-line option is a ``UsageError`` naming the option. The file is read as any small
file is (``companion.files``: a regular file of at most 1 MB), and whatever it holds — a
number of 5,000 digits, arrays nested thousands deep, a NUL byte in a path — is one such
line too, quoting at most a few dozen characters of it.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from companion.errors import UsageError, UserError
from companion.files import QUOTE_CHARS, SMALL_BYTES, plain_path, read_bytes, shown, shown_path
from companion.records import NAME_CHARS
from companion.ui.text import languages

if TYPE_CHECKING:  # the command line's parser is not needed to read a configuration
    import argparse

#: Button name -> BCM pin of the default wiring (hardware/README.md).
DEFAULT_PINS = MappingProxyType({
    "v1": 5, "v2": 6, "v3": 13, "v4": 19, "v5": 26, "v6": 20,
    "up": 17, "down": 27, "ok": 22, "back": 23,
})
#: Buttons a box may add to the defaults, with the pins the wiring table suggests.
OPTIONAL_PINS = MappingProxyType({"hint": 24, "undo": 25})
#: LED name -> what it shows; pins are suggested in the wiring table (green 12, red 16).
LED_NAMES = ("green", "red")

DISPLAY_KINDS = ("ssd1306", "sh1106", "terminal", "png:DIR", "text", "none", "auto")
READER_KINDS = ("rdm6300:PORT", "pn532:PORT", "hub:PORT", "keyboard", "none", "auto")
BUTTON_KINDS = ("gpio", "keyboard", "none", "auto")
#: What the voice says: nothing, the game's prompts, confirmations, refusals and results,
#: or every screen (menus, set-ups, settings, rule pages) as well (companion/voice).
VOICE_MODES = ("off", "prompts", "everything")
SPEED_RANGE = range(80, 451)   # espeak-ng's words per minute
VOLUME_RANGE = range(0, 201)   # espeak-ng's amplitude: 100 its normal loudness

PIN_RANGE = range(2, 28)        # BCM 2..27: the GPIOs on the 40-pin header
ADDRESS_RANGE = range(0x03, 0x78)  # 7-bit I2C addresses outside the reserved ones
PI_SERIAL_PORT = "/dev/serial0"
#: Where a USB stick is looked for, unless the file names others (``[backup] sticks``): where
#: the system mounts removable file systems (Raspberry Pi OS's desktop, udisks2).
STICK_ROOTS = ("/media", "/run/media")
STICK_FOLDERS = tuple(Path(root) for root in STICK_ROOTS)
#: The most stick folders a box looks under (each look lists them all, every few seconds).
MAX_STICK_FOLDERS = 8


def default_config_path() -> Path:
    """``$XDG_CONFIG_HOME/totem-companion/config.toml`` (``~/.config`` when unset)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "totem-companion" / "config.toml"


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/totem-companion`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "totem-companion"


# --- value checks, shared by the file and the command line ---------------------------

def check_display(value: str, key: str = "display.kind") -> str:
    """Return a valid display spec or raise ``UserError`` naming ``key``."""
    if value in ("ssd1306", "sh1106", "terminal", "text", "none", "auto"):
        return value
    if value.startswith("png:") and value[4:].strip():
        try:  # a folder the frames can be written to, or one line now
            plain_path(value[4:])
        except UserError as exc:
            raise UserError(f"{key}: {exc}") from None
        return value
    raise UserError(f"{key}: {shown(value)} is not a display (allowed: {' | '.join(DISPLAY_KINDS)})")


def check_reader(value: str, key: str = "reader.kind") -> str:
    """Return a valid reader spec or raise ``UserError`` naming ``key``."""
    if value in ("keyboard", "none", "auto"):
        return value
    kind, sep, port = value.partition(":")
    if sep and kind in ("rdm6300", "pn532", "hub") and port.strip():
        return value
    raise UserError(f"{key}: {shown(value)} is not a reader (allowed: {' | '.join(READER_KINDS)})")


def check_buttons(value: str, key: str = "buttons.kind") -> str:
    """Return a valid buttons spec or raise ``UserError`` naming ``key``."""
    if value in BUTTON_KINDS:
        return value
    raise UserError(f"{key}: {shown(value)} is not a kind of buttons "
                    f"(allowed: {' | '.join(BUTTON_KINDS)})")


def check_voice(value: str, key: str = "voice.mode") -> str:
    """Return a valid voice mode or raise ``UserError`` naming ``key``."""
    if value in VOICE_MODES:
        return value
    raise UserError(f"{key}: {shown(value)} is not a voice mode (allowed: {' | '.join(VOICE_MODES)})")


def user_path(value: str | os.PathLike[str], key: str) -> Path:
    """The path the user wrote for ``key`` (``~`` expanded); ``UserError`` naming ``key`` for
    one no file can have (a NUL byte, a lone surrogate) or a ``~user`` with no home."""
    try:
        return Path(plain_path(value)).expanduser()
    except UserError as exc:
        raise UserError(f"{key}: {exc}") from None
    except RuntimeError:  # expanduser: no such user, or no home folder at all
        raise UserError(f"{key}: {shown(os.fspath(value))}: no home folder for that ~") from None


def _check_pin(value: object, key: str) -> int:
    if type(value) is not int:
        raise UserError(f"{key}: expected a BCM pin number (2-27), got {_shown(value)}")
    if value not in PIN_RANGE:
        raise UserError(f"{key}: pin {_brief(value)} is out of range (BCM pins 2-27)")
    return value


def _shown(value: object) -> str:
    """A value from the file for a message: its type and a short, escaped form."""
    return f"{type(value).__name__} {_brief(value)}"


def _brief(value: object) -> str:
    """``value`` for a message, at most about ``QUOTE_CHARS`` characters, escaped."""
    if isinstance(value, str):
        return shown(value)
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # past 4,300 digits (hex has no limit), or nested deep
        text = f"0x{value:X}" if isinstance(value, int) else f"a {type(value).__name__} too large to show"
    return text if len(text) <= QUOTE_CHARS else text[:QUOTE_CHARS] + "…"


def _key(name: str) -> str:
    """A key of the file for a message: as written when that is a short printable name."""
    return name if name.isprintable() and 0 < len(name) <= QUOTE_CHARS else shown(name)


@dataclass(frozen=True)
class Config:
    """Everything a maker can set; ``Config()`` is the default set-up."""

    display: str = "auto"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    rotation: int = 0
    reader: str = "auto"
    buttons: str = "auto"
    pins: Mapping[str, int] = field(default_factory=lambda: DEFAULT_PINS)
    hold_seconds: float = 0.8
    debounce_ms: float = 30.0
    buzzer_pin: int | None = None
    led_pins: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    data_dir: Path = field(default_factory=default_data_dir)
    players: tuple[str, ...] = ()
    language: str = "en"
    voice: str = "off"
    voice_speed: int = 160
    voice_volume: int = 100
    voice_device: str = ""   # an ALSA device ("plughw:1,0"); empty: the system's default
    web_port: int = 0            # the phone page's port; 0: off (the settings page may turn it on)
    web_bind: str = "0.0.0.0"    # the address it listens on: every network of the box
    club_broker: str = ""        # the club's MQTT broker, "HOST:PORT"; empty: no club
    club_box: str = ""           # this box's name in the club (its topic and login)
    club_user: str = ""          # the broker login; empty: the box's name
    club_password: str = ""
    club_tls: bool = False       # TLS to the broker (its port is then usually 8883)
    club_ca: str = ""            # the CA file that signed the broker's certificate; empty: the system's
    stick_folders: tuple[Path, ...] = STICK_FOLDERS  # a stick mounted under one is offered a backup

    def __post_init__(self) -> None:
        # Freeze the containers so a shared Config cannot be changed behind anyone's back.
        object.__setattr__(self, "pins", MappingProxyType(dict(self.pins)))
        object.__setattr__(self, "led_pins", MappingProxyType(dict(self.led_pins)))
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "data_dir", user_path(self.data_dir, "data.dir"))
        object.__setattr__(self, "stick_folders", _stick_folders(self.stick_folders))
        _validate(self)

    def resolved(self, on_pi: bool) -> Config:
        """The same configuration with every ``auto`` replaced for this machine.

        On a Raspberry Pi: ``ssd1306``, ``gpio`` buttons, ``rdm6300:/dev/serial0``;
        elsewhere: ``terminal``, ``keyboard`` buttons, ``keyboard`` reader.
        """
        return dataclasses.replace(
            self,
            display=self.display if self.display != "auto" else ("ssd1306" if on_pi else "terminal"),
            reader=self.reader if self.reader != "auto" else
            (f"rdm6300:{PI_SERIAL_PORT}" if on_pi else "keyboard"),
            buttons=self.buttons if self.buttons != "auto" else ("gpio" if on_pi else "keyboard"),
        )


def _stick_folders(folders: object) -> tuple[Path, ...]:
    """``backup.sticks``: at most ``MAX_STICK_FOLDERS`` absolute folder paths (``~`` expanded;
    none: no stick is offered a backup)."""
    what = f"a list of at most {MAX_STICK_FOLDERS} folder paths such as [\"/media\", \"/run/media\"]"
    if not isinstance(folders, (list, tuple)) or len(folders) > MAX_STICK_FOLDERS:
        raise UserError(f"backup.sticks: expected {what}, got {_brief(folders)}")
    paths = []
    for folder in folders:
        if not isinstance(folder, (str, Path)) or not str(folder).strip():
            raise UserError(f"backup.sticks: expected {what}, got {_brief(folder)}")
        path = user_path(folder, "backup.sticks")
        if not path.is_absolute():
            raise UserError(f"backup.sticks: {shown(str(folder))} is not a folder from the root (/media)")
        paths.append(path)
    return tuple(paths)


def _validate(config: Config) -> None:
    """Semantic checks; messages name the TOML key of the field."""
    check_display(config.display)
    check_reader(config.reader)
    check_buttons(config.buttons)
    check_voice(config.voice)
    for key, number, allowed in (("voice.speed", config.voice_speed, SPEED_RANGE),
                                 ("voice.volume", config.voice_volume, VOLUME_RANGE)):
        if type(number) is not int or number not in allowed:
            raise UserError(f"{key}: expected a whole number from {allowed.start} to "
                            f"{allowed.stop - 1}, got {_brief(number)}")
    # Printable and short: the device is passed to espeak-ng and shown by doctor.
    if (type(config.voice_device) is not str or len(config.voice_device) > 64
            or not config.voice_device.isprintable()):
        raise UserError(f"voice.device: expected an audio device name such as \"plughw:1,0\", "
                        f"got {_brief(config.voice_device)}")
    if type(config.i2c_port) is not int or config.i2c_port < 0:
        raise UserError(f"display.i2c_port: expected a bus number (0, 1, …), got {_shown(config.i2c_port)}")
    if type(config.i2c_address) is not int or config.i2c_address not in ADDRESS_RANGE:
        raise UserError(f"display.i2c_address: expected an I2C address 0x03-0x77 (usually 0x3C or 0x3D), "
                        f"got {_brief(config.i2c_address)}")
    # The screens are landscape 128x64, so only the half turn fits the panel.
    if type(config.rotation) is not int or config.rotation not in (0, 2):
        raise UserError(f"display.rotation: expected 0 or 2 (2 turns the picture upside down), "
                        f"got {_brief(config.rotation)}")
    for key, value, low in (("buttons.hold_seconds", config.hold_seconds, 0.05),
                            ("buttons.debounce_ms", config.debounce_ms, 0.0)):
        if type(value) not in (int, float) or not low <= value <= 10_000:
            raise UserError(f"{key}: expected a number from {low:g} to 10000, got {_brief(value)}")
    owner: dict[int, str] = {}

    def claim(pin: object, key: str) -> None:
        pin = _check_pin(pin, key)
        if pin in owner:
            raise UserError(f"{key}: pin {pin} is already used by {owner[pin]}")
        owner[pin] = key

    for name, pin in config.pins.items():
        if name not in DEFAULT_PINS and name not in OPTIONAL_PINS:
            raise UserError(f"buttons.pins.{_key(name)}: unknown button "
                            f"(allowed: {', '.join([*DEFAULT_PINS, *OPTIONAL_PINS])})")
        claim(pin, f"buttons.pins.{name}")
    if config.buzzer_pin is not None:
        claim(config.buzzer_pin, "feedback.buzzer_pin")
    for name, pin in config.led_pins.items():
        if name not in LED_NAMES:
            raise UserError(f"feedback.leds.{_key(name)}: unknown LED (allowed: {', '.join(LED_NAMES)})")
        claim(pin, f"feedback.leds.{name}")
    for n, name in enumerate(config.players):
        # Printable only: a name is shown on screens and printed to terminals (escape codes).
        if type(name) is not str or not name.strip() or len(name) > NAME_CHARS or not name.isprintable():
            raise UserError(f"players: each name is text of 1-{NAME_CHARS} printable characters, "
                            f"got {_brief(name)}")
        if name in config.players[:n]:
            # Two seats of one name cannot be told apart on the set-up's list.
            raise UserError(f"players: {_brief(name)} is named twice; each player needs a name of their own")
    if type(config.web_port) is not int or not (config.web_port == 0 or 1024 <= config.web_port <= 65535):
        raise UserError(f"web.port: expected 0 (off) or a port from 1024 to 65535, got {_brief(config.web_port)}")
    if type(config.web_bind) is not str or not _is_ipv4(config.web_bind):
        raise UserError(f"web.bind: expected an IPv4 address such as 0.0.0.0 or 127.0.0.1, "
                        f"got {_brief(config.web_bind)}")
    _validate_club(config)
    if type(config.language) is not str or config.language not in languages():
        raise UserError(f"language: expected one of {', '.join(languages())}, got {_brief(config.language)}")


def _validate_club(config: Config) -> None:
    """The ``[club]`` keys: a broker ``HOST:PORT`` and a box name, or neither."""
    for key, value in (("club.broker", config.club_broker), ("club.box", config.club_box),
                       ("club.user", config.club_user), ("club.password", config.club_password),
                       ("club.ca", config.club_ca)):
        if type(value) is not str or len(value) > 256 or not value.isprintable():
            raise UserError(f"{key}: expected text of at most 256 printable characters, got {_brief(value)}")
    if type(config.club_tls) is not bool:
        raise UserError(f"club.tls: expected true or false, got {_brief(config.club_tls)}")
    if not config.club_broker:
        return
    from companion.club.names import check_box, check_broker  # no network; hashlib only for a club
    try:
        check_broker(config.club_broker)
        check_box(config.club_box)
    except UsageError as exc:
        raise UserError(f"club.{str(exc).removeprefix('--')}") from None


def _is_ipv4(text: str) -> bool:
    """Whether ``text`` is a dotted IPv4 address (the phone page listens on one)."""
    parts = text.split(".")
    return len(parts) == 4 and all(p.isdigit() and len(p) <= 3 and int(p) <= 255 for p in parts)


# --- the file ---------------------------------------------------------------------------

# TOML key -> (Config field, expected types, what to say when the type is wrong)
_NUMBER = (int, float)
_SCHEMA: dict[str, dict[str, tuple[str, tuple[type, ...], str]]] = {
    "": {"language": ("language", (str,), "text"),
         "players": ("players", (list,), "a list of names")},
    "display": {"kind": ("display", (str,), "text"),
                "i2c_port": ("i2c_port", (int,), "a whole number"),
                "i2c_address": ("i2c_address", (int, str), "a number such as 0x3C"),
                "rotation": ("rotation", (int,), "a whole number")},
    "reader": {"kind": ("reader", (str,), "text")},
    "buttons": {"kind": ("buttons", (str,), "text"),
                "hold_seconds": ("hold_seconds", _NUMBER, "a number"),
                "debounce_ms": ("debounce_ms", _NUMBER, "a number"),
                "pins": ("pins", (dict,), "a table of button = pin")},
    "feedback": {"buzzer_pin": ("buzzer_pin", (int,), "a BCM pin number"),
                 "leds": ("led_pins", (dict,), "a table of led = pin")},
    "voice": {"mode": ("voice", (str,), "text"),
              "speed": ("voice_speed", (int,), "a whole number"),
              "volume": ("voice_volume", (int,), "a whole number"),
              "device": ("voice_device", (str,), "text")},
    "data": {"dir": ("data_dir", (str,), "a folder path")},
    "web": {"port": ("web_port", (int,), "a port number"),
            "bind": ("web_bind", (str,), "an address")},
    "club": {"broker": ("club_broker", (str,), "text such as \"club.local:1883\""),
             "box": ("club_box", (str,), "a name"),
             "user": ("club_user", (str,), "text"),
             "password": ("club_password", (str,), "text"),
             "tls": ("club_tls", (bool,), "true or false"),
             "ca": ("club_ca", (str,), "a file path")},
    "backup": {"sticks": ("stick_folders", (list,), "a list of folder paths")},
}


def _type_ok(value: object, types: tuple[type, ...]) -> bool:
    # bool is an int in Python but never a number in a config file.
    return isinstance(value, types) and (bool in types or not isinstance(value, bool))


def _fields_from_toml(doc: Mapping[str, Any]) -> dict[str, Any]:
    # TOML values, any of them: _type_ok and _validate check each against its field.
    values: dict[str, Any] = {}
    for key, value in doc.items():
        if key in _SCHEMA and key:
            if not isinstance(value, dict):
                raise UserError(f"{key}: expected a table [{key}], got {_shown(value)}")
            section, items = key, list(value.items())
        elif key in _SCHEMA[""]:
            section, items = "", [(key, value)]
        else:
            allowed = ", ".join([*_SCHEMA[""], *(f"[{s}]" for s in _SCHEMA if s)])
            raise UserError(f"{_key(key)}: unknown key (allowed at the top level: {allowed})")
        for name, item in items:
            full = f"{section}.{_key(name)}" if section else name
            if name not in _SCHEMA[section]:
                raise UserError(f"{full}: unknown key (allowed in [{section}]: {', '.join(_SCHEMA[section])})")
            target, types, what = _SCHEMA[section][name]
            if not _type_ok(item, types):
                raise UserError(f"{full}: expected {what}, got {_shown(item)}")
            values[target] = _convert(full, item)
    return values


def _convert(key: str, value: Any) -> Any:
    if key == "display.i2c_address" and isinstance(value, str):
        try:
            return int(value, 0)
        except ValueError:  # not a number, or one past Python's 4,300 digits
            raise UserError(f"{key}: expected an I2C address such as 0x3C, got {shown(value)}") from None
    if key == "buttons.pins":
        # Pins given in the file replace the defaults one by one; the rest stay.
        return {**DEFAULT_PINS, **{name: pin for name, pin in value.items()}}
    if key == "players":
        return tuple(value)
    if key == "data.dir":
        if not value.strip():
            raise UserError(f"{key}: expected a folder path, got {shown(value)}")
        return user_path(value, key)
    return value


def load_config(path: str | None = None, overrides: Mapping[str, str | None] | None = None) -> Config:
    """Read the configuration file and apply command-line overrides.

    ``path`` None means the default file, whose absence means all defaults; a ``path``
    that does not exist is a ``UserError``. ``overrides`` keys are the command-line
    options ``display``, ``reader``, ``buttons``, ``data``, ``language``, ``voice`` (None:
    not given).
    """
    file = user_path(path, "--config") if path is not None else default_config_path()
    data = read_bytes(file, "a configuration file", SMALL_BYTES, missing_ok=True)
    if data is None and path is not None:
        raise UserError(f"{shown_path(file)}: no such configuration file")
    try:
        text = (data or b"").decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{shown_path(file)}: cannot read the configuration file (not UTF-8 text)") from None
    doc: dict[str, Any] = {}
    if text:
        import tomllib  # only for a file to read: a start without one (the service's) skips it

        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:  # its message is fixed words and a position
            raise UserError(f"{shown_path(file)}: not valid TOML ({exc})") from None
        except RecursionError:
            raise UserError(f"{shown_path(file)}: not a configuration: arrays or tables nested too deep") from None
        except ValueError:  # an integer past Python's 4,300 digits
            raise UserError(f"{shown_path(file)}: not a configuration: a number with too many digits") from None
    try:
        config = Config(**_fields_from_toml(doc))
    except UserError as exc:
        raise UserError(f"{shown_path(file)}: {exc}") from None
    return apply_overrides(config, overrides or {})


#: The command-line options that override the file (``--display`` … ``--web``).
OVERRIDES = ("display", "reader", "buttons", "data", "language", "voice", "web")


def config_from_args(args: argparse.Namespace) -> Config:
    """``load_config`` for parsed command-line ``args``: ``--config`` and the ``OVERRIDES``
    given (an option a command does not have counts as not given)."""
    return load_config(getattr(args, "config", None),
                       {name: getattr(args, name, None) for name in OVERRIDES})


_Checked = Literal["display", "reader", "buttons", "voice"]


class _Overridden(TypedDict, total=False):
    """The fields the command-line options set."""

    display: str
    reader: str
    buttons: str
    voice: str
    language: str
    web_port: int
    data_dir: Path


def apply_overrides(config: Config, overrides: Mapping[str, str | None]) -> Config:
    """``config`` with the command-line options that were given; a bad value is a ``UsageError``."""
    # option -> (the field it sets, its check)
    checks: dict[str, tuple[_Checked, Callable[[str, str], str]]] = {
        "display": ("display", check_display), "reader": ("reader", check_reader),
        "buttons": ("buttons", check_buttons), "voice": ("voice", check_voice)}
    changes: _Overridden = {}
    for name, value in overrides.items():
        if value is None:
            continue
        if name in checks:
            target, check = checks[name]
            try:
                changes[target] = check(value, f"--{name}")
            except UserError as exc:
                raise UsageError(str(exc)) from None
        elif name == "language":
            if value not in languages():
                raise UsageError(f"--language: expected one of {', '.join(languages())}, got {_brief(value)}")
            changes["language"] = value
        elif name == "web":
            port = str(value).strip()
            if not port.isdigit() or not 1024 <= int(port) <= 65535:
                raise UsageError(f"--web: expected a port from 1024 to 65535, got {_brief(value)}")
            changes["web_port"] = int(port)
        elif name == "data":
            if not str(value).strip():
                raise UsageError("--data: expected a folder path")
            try:
                changes["data_dir"] = user_path(value, "--data")
            except UserError as exc:
                raise UsageError(str(exc)) from None
        else:
            raise ValueError(f"not a configuration override: {name}")
    return dataclasses.replace(config, **changes) if changes else config
