"""Configuration: the TOML file, its validation, command-line overrides, auto resolution."""

import os
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
from companion.words import LANGUAGES

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
                "hint", "undo", "sticks", *DEFAULT_PINS):
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
    ("language = \"english\"", f"language: expected one of {', '.join(LANGUAGES)}, got 'english'"),
    ("language = \"FR\"", f"language: expected one of {', '.join(LANGUAGES)}, got 'FR'"),
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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_the_box_speaks_is_accepted(tmp_path, lang):
    assert load_config(write(tmp_path, f"language = \"{lang}\"")).language == lang


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


@pytest.mark.parametrize("text, message", [
    # Numbers past Python's 4,300 digits, in every form TOML has for them.
    ("[display]\ni2c_address = 0x" + "F" * 5000, "display.i2c_address: expected an I2C address"),
    ("[display]\ni2c_address = \"0x" + "F" * 5000 + "\"", "display.i2c_address: expected an I2C address"),
    ("[display]\ni2c_address = \"" + "9" * 5000 + "\"", "display.i2c_address: expected an I2C address"),
    ("[display]\ni2c_port = " + "9" * 5000, "not a configuration: a number with too many digits"),
    ("[display]\nrotation = 0o" + "7" * 9000, "display.rotation: expected 0 or 2"),
    ("[buttons]\nhold_seconds = 0b" + "1" * 20000, "buttons.hold_seconds: expected a number from 0.05"),
    ("[buttons.pins]\nv1 = 0x" + "F" * 5000, "buttons.pins.v1: pin 0xFFFF"),
    ("players = [0x" + "F" * 5000 + "]", "players: each name is text"),
    ("players = [\"" + "A" * 100_000 + "\"]", "players: each name is text"),
    # Nesting thousands deep.
    ("players = " + "[" * 5000 + "]" * 5000, "not a configuration: arrays or tables nested too deep"),
    ("players = " + "{a = " * 5000 + "1" + "}" * 5000, "not a configuration: arrays or tables nested too deep"),
    # Floats and booleans where whole numbers belong.
    ("[display]\ni2c_port = 1.0", "display.i2c_port: expected a whole number, got float 1.0"),
    ("[display]\ni2c_address = 60.0", "display.i2c_address: expected a number such as 0x3C, got float"),
    ("[display]\nrotation = 2.0", "display.rotation: expected a whole number, got float 2.0"),
    ("[buttons.pins]\nv1 = 5.0", "buttons.pins.v1: expected a BCM pin number (2-27), got float 5.0"),
    ("[buttons.pins]\nv1 = true", "buttons.pins.v1: expected a BCM pin number (2-27), got bool True"),
    ("[feedback]\nbuzzer_pin = 18.0", "feedback.buzzer_pin: expected a BCM pin number, got float 18.0"),
    ("[feedback.leds]\ngreen = 12.5", "feedback.leds.green: expected a BCM pin number (2-27), got float"),
    ("[buttons]\ndebounce_ms = nan", "buttons.debounce_ms: expected a number from 0 to 10000, got nan"),
    ("[buttons]\nhold_seconds = inf", "buttons.hold_seconds: expected a number from 0.05 to 10000, got inf"),
    # Keys and values that would break the line or a terminal are shown escaped.
    ("\"bad\\nkey\\u001b[2J\" = 1", r"'bad\nkey\x1b[2J': unknown key"),
    ("[buttons.pins]\n\"v1\\n\" = 5", r"buttons.pins.'v1\n': unknown button"),
    ("[display]\nkind = \"oled\\nx\"", r"display.kind: 'oled\nx' is not a display"),
    ("[reader]\nkind = \"" + "x" * 5000 + "\"", "reader.kind: 'xxxx"),
    # Paths no file can have.
    ("[data]\ndir = \"/tmp/a\\u0000b\"", r"data.dir: '/tmp/a\x00b': a file name cannot hold a NUL byte"),
    ("[display]\nkind = \"png:a\\u0000\"", r"display.kind: 'a\x00': a file name cannot hold a NUL byte"),
    ("[data]\ndir = \"~no-such-user-here/games\"", "data.dir: '~no-such-user-here/games': no home folder"),
    ("[data]\ndir = \"\"", "data.dir: expected a folder path"),
])
def test_hostile_values_are_one_short_line(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(UserError) as info:
        load_config(path)
    line = str(info.value)
    assert line.startswith(f"{path}: ") and message in line
    assert line.isprintable() and len(line) < len(path) + 300


# A pipe and a device are tried through the command line (tests/test_cli.py): were they
# read as a file is, a test here would hang.
@pytest.mark.parametrize("make, message", [
    (lambda p: p.mkdir(), "is a folder, not a configuration file"),
    (lambda p: p.write_text("# padding\n" * 120_000), "a configuration file is too big (over 1 MB)"),
])
def test_only_a_regular_file_of_at_most_1_mb_is_read(tmp_path, make, message):
    path = tmp_path / "config.toml"
    make(path)
    with pytest.raises(UserError) as info:
        load_config(str(path))
    assert str(info.value) == f"{path}: {message}"


@pytest.mark.parametrize("path, message", [
    ("/tmp/a\0b.toml", r"--config: '/tmp/a\x00b.toml': a file name cannot hold a NUL byte"),
    ("/tmp/a\ud800.toml", r"--config: '/tmp/a\ud800.toml': not a valid file name"),
])
def test_a_config_path_no_file_can_have_is_one_line(path, message):
    with pytest.raises(UserError) as info:
        load_config(path)
    assert str(info.value) == message


@pytest.mark.parametrize("overrides, message", [
    ({"data": "/tmp/a\0b"}, r"--data: '/tmp/a\x00b': a file name cannot hold a NUL byte"),
    ({"data": "/tmp/a\ud800"}, r"--data: '/tmp/a\ud800': not a valid file name"),
    ({"display": "png:/tmp/a\0b"}, r"--display: '/tmp/a\x00b': a file name cannot hold a NUL byte"),
    ({"display": "png:\udfff"}, r"--display: '\udfff': not a valid file name"),
    ({"display": "lcd\n" + "x" * 1000}, r"--display: 'lcd\nxxx"),
])
def test_bad_paths_in_overrides_are_usage_errors(overrides, message):
    with pytest.raises(UsageError) as info:
        apply_overrides(Config(), overrides)
    assert str(info.value).startswith(message) and str(info.value).isprintable()


def test_a_file_name_from_undecodable_bytes_is_a_valid_path(tmp_path):
    # Linux hands such names to Python as \udc80-\udcff (surrogateescape): they are files.
    folder = os.fsdecode(bytes(tmp_path) + b"/d\xff")
    assert apply_overrides(Config(), {"data": folder}).data_dir == Path(folder)


def test_the_stick_folders_are_the_system_s_unless_the_file_names_others(tmp_path):
    assert Config().stick_folders == (Path("/media"), Path("/run/media"))
    config = load_config(write(tmp_path, '[backup]\nsticks = ["/mnt/usb", "~/sticks"]\n'))
    assert config.stick_folders == (Path("/mnt/usb"), Path("~/sticks").expanduser())
    assert load_config(write(tmp_path, "[backup]\nsticks = []\n")).stick_folders == ()


@pytest.mark.parametrize("text, message", [
    ('[backup]\nsticks = "/media"', "backup.sticks: expected a list of folder paths, got str"),
    ("[backup]\nsticks = [3]", "backup.sticks: expected a list of at most 8 folder paths such as"),
    ('[backup]\nsticks = [""]', "backup.sticks: expected a list of at most 8 folder paths"),
    ('[backup]\nsticks = ["media"]', "backup.sticks: 'media' is not a folder from the root (/media)"),
    ('[backup]\nsticks = ["/a\\u0000b"]', "backup.sticks: "),
    ("[backup]\nsticks = [" + ", ".join(['"/m"'] * 9) + "]", "backup.sticks: expected a list of at most 8"),
    ("[backup]\nfolder = \"/media\"", "backup.folder: unknown key (allowed in [backup]: sticks)"),
    ('backup = "/media"', "backup: expected a table"),
])
def test_a_bad_stick_folder_is_one_line_naming_the_key(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(UserError) as info:
        load_config(path)
    line = str(info.value)
    assert message in line and line.startswith(path) and "\n" not in line
