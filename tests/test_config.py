"""Configuration: the TOML file, its validation, command-line overrides, auto resolution."""

from argparse import Namespace
from pathlib import Path

import pytest

from companion.config import (
    DEFAULT_PINS,
    Config,
    apply_overrides,
    config_from_args,
    default_config_path,
    default_data_dir,
    load_config,
)
from companion.errors import UsageError, UserError

EXAMPLE = Path(__file__).resolve().parents[1] / "hardware" / "config.example.toml"


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def write(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_missing_default_file_means_defaults(tmp_path):
    config = load_config()
    assert config == Config()
    assert config.pins == DEFAULT_PINS
    assert config.data_dir == tmp_path / "data" / "totem-companion"


def test_default_paths_honour_xdg(tmp_path):
    assert default_config_path() == tmp_path / "cfg" / "totem-companion" / "config.toml"
    assert default_data_dir() == tmp_path / "data" / "totem-companion"


def test_default_file_is_read_when_present(tmp_path):
    default_config_path().parent.mkdir(parents=True)
    default_config_path().write_text('[display]\nkind = "sh1106"\n')
    assert load_config().display == "sh1106"


def test_missing_file_given_explicitly_is_an_error(tmp_path):
    with pytest.raises(UserError, match="no such configuration file"):
        load_config(str(tmp_path / "nope.toml"))


def test_example_file_documents_the_defaults():
    assert load_config(str(EXAMPLE)) == Config()


def test_example_file_names_every_key():
    text = EXAMPLE.read_text()
    for key in ("language", "players", "kind", "i2c_port", "i2c_address", "rotation",
                "hold_seconds", "debounce_ms", "buzzer_pin", "green", "red", "dir",
                "hint", "undo", *DEFAULT_PINS):
        assert f"{key} =" in text, key


def test_full_file(tmp_path):
    config = load_config(write(tmp_path, """
        language = "bg"
        players = ["Ana", "Ben"]
        [display]
        kind = "png:/tmp/frames"
        i2c_port = 0
        i2c_address = "0x3D"
        rotation = 2
        [reader]
        kind = "pn532:/dev/ttyUSB0"
        [buttons]
        kind = "gpio"
        hold_seconds = 1
        debounce_ms = 20
        [buttons.pins]
        v1 = 4
        hint = 24
        [feedback]
        buzzer_pin = 18
        [feedback.leds]
        green = 12
        red = 16
        [data]
        dir = "~/games"
    """))
    assert config.language == "bg" and config.players == ("Ana", "Ben")
    assert (config.display, config.i2c_port, config.i2c_address, config.rotation) == \
        ("png:/tmp/frames", 0, 0x3D, 2)
    assert config.reader == "pn532:/dev/ttyUSB0" and config.buttons == "gpio"
    assert config.hold_seconds == 1 and config.debounce_ms == 20
    assert config.pins["v1"] == 4 and config.pins["v2"] == 6 and config.pins["hint"] == 24
    assert config.buzzer_pin == 18 and dict(config.led_pins) == {"green": 12, "red": 16}
    assert config.data_dir == Path("~/games").expanduser()


@pytest.mark.parametrize("text, message", [
    ("colour = 1", "colour: unknown key"),
    ("[display]\nsize = 1", "display.size: unknown key"),
    ("[display]\nkind = 3", "display.kind: expected text, got int 3"),
    ("[display]\nkind = \"oled\"", "display.kind: 'oled' is not a display"),
    ("[display]\nkind = \"png:\"", "display.kind: 'png:' is not a display"),
    ("[display]\ni2c_address = 0x80", "display.i2c_address: expected an I2C address"),
    ("[display]\ni2c_address = \"sixty\"", "display.i2c_address: expected an I2C address"),
    ("[display]\nrotation = 4", "display.rotation: expected 0 or 2"),
    ("[display]\nrotation = 1", "display.rotation: expected 0 or 2"),
    ("[display]\ni2c_port = true", "display.i2c_port: expected a whole number, got bool"),
    ("display = \"ssd1306\"", "display: expected a table"),
    ("[reader]\nkind = \"rdm6300\"", "reader.kind: 'rdm6300' is not a reader"),
    ("[reader]\nkind = \"usb:/dev/x\"", "reader.kind: 'usb:/dev/x' is not a reader"),
    ("[buttons]\nkind = \"touch\"", "buttons.kind: 'touch' is not a kind of buttons"),
    ("[buttons]\nhold_seconds = \"long\"", "buttons.hold_seconds: expected a number"),
    ("[buttons]\ndebounce_ms = -1", "buttons.debounce_ms: expected a number from 0"),
    ("[buttons.pins]\nv1 = 1", "buttons.pins.v1: pin 1 is out of range"),
    ("[buttons.pins]\nv1 = 28", "buttons.pins.v1: pin 28 is out of range"),
    ("[buttons.pins]\nv1 = \"5\"", "buttons.pins.v1: expected a BCM pin number"),
    ("[buttons.pins]\nv7 = 7", "buttons.pins.v7: unknown button"),
    ("[buttons.pins]\nv2 = 5", "buttons.pins.v2: pin 5 is already used by buttons.pins.v1"),
    ("[feedback]\nbuzzer_pin = 17", "feedback.buzzer_pin: pin 17 is already used by buttons.pins.up"),
    ("[feedback.leds]\nblue = 12", "feedback.leds.blue: unknown LED"),
    ("[feedback.leds]\ngreen = 12\nred = 12", "feedback.leds.red: pin 12 is already used"),
    ("players = \"Ana\"", "players: expected a list of names"),
    ("players = [\"\"]", "players: each name is text"),
    ("players = [1]", "players: each name is text"),
    ("language = \"english\"", "language: expected one of bg, en"),
    ("language = \"fr\"", "language: expected one of bg, en"),
    ("[data]\ndir = 3", "data.dir: expected a folder path"),
    ("[display\nkind=", "not valid TOML"),
])
def test_mistakes_are_one_line_naming_the_key(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(UserError) as info:
        load_config(path)
    line = str(info.value)
    assert message in line
    assert line.startswith(path) and "\n" not in line


def test_unreadable_file_is_a_user_error(tmp_path):
    path = tmp_path / "bin.toml"
    path.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(UserError, match="cannot read"):
        load_config(str(path))


def test_overrides_win_over_the_file(tmp_path):
    path = write(tmp_path, '[display]\nkind = "sh1106"\n[reader]\nkind = "none"\n')
    config = load_config(path, {"display": "png:out", "reader": None, "buttons": "none",
                                "data": str(tmp_path / "d")})
    assert config.display == "png:out"
    assert config.reader == "none"
    assert config.buttons == "none"
    assert config.data_dir == tmp_path / "d"


def test_config_from_command_line_arguments(tmp_path):
    path = write(tmp_path, '[display]\nkind = "sh1106"\n[reader]\nkind = "none"\n')
    # A command without --buttons or --data leaves the file's values (here the defaults).
    config = config_from_args(Namespace(config=path, display="none", reader=None))
    assert (config.display, config.reader, config.buttons) == ("none", "none", "auto")
    with pytest.raises(UsageError, match="--reader: 'pn532' is not a reader"):
        config_from_args(Namespace(config=path, reader="pn532"))


@pytest.mark.parametrize("overrides, message", [
    ({"display": "lcd"}, "--display: 'lcd' is not a display"),
    ({"reader": "pn532"}, "--reader: 'pn532' is not a reader"),
    ({"buttons": "mouse"}, "--buttons: 'mouse' is not a kind of buttons"),
    ({"data": " "}, "--data: expected a folder path"),
])
def test_bad_overrides_are_usage_errors(overrides, message):
    with pytest.raises(UsageError, match=message):
        apply_overrides(Config(), overrides)


def test_resolved_on_a_pi_and_elsewhere():
    pi = Config().resolved(on_pi=True)
    assert (pi.display, pi.reader, pi.buttons) == ("ssd1306", "rdm6300:/dev/serial0", "gpio")
    pc = Config().resolved(on_pi=False)
    assert (pc.display, pc.reader, pc.buttons) == ("terminal", "keyboard", "keyboard")


def test_resolved_keeps_explicit_choices():
    config = Config(display="none", reader="hub:/dev/ttyACM0", buttons="none").resolved(True)
    assert (config.display, config.reader, config.buttons) == ("none", "hub:/dev/ttyACM0", "none")


def test_config_is_frozen():
    config = Config()
    with pytest.raises(AttributeError):
        config.display = "none"
    with pytest.raises(TypeError):
        config.pins["v1"] = 2


def test_direct_construction_is_validated():
    with pytest.raises(UserError, match="buttons.pins.up: pin 40 is out of range"):
        Config(pins={**DEFAULT_PINS, "up": 40})
