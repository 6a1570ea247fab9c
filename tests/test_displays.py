"""open_display: the configured kind, auto resolution, one-line errors for a missing OLED."""

import codecs
import errno
import fcntl
import io
import os
import select
import signal
import struct
import termios
import time

import luma.core.error
import pytest
from fakes import CountingBus
from PIL import Image

from companion.config import Config
from companion.errors import UserError
from hardware import displays
from hardware.displays import NullDisplay, open_display
from hardware.oled import Oled
from hardware.png_display import PngDisplay
from hardware.terminal_display import TerminalDisplay

WAIT = 3    # seconds: the longest a test waits for output that should come


def blank():
    return Image.new("1", (128, 64))


def test_none_accepts_frames_and_sends_nothing():
    display = open_display(Config(display="none"))
    assert isinstance(display, NullDisplay)
    assert display.show(blank()) == 0
    display.close()


def test_terminal_draws_on_the_given_stream():
    out = io.StringIO()
    display = open_display(Config(display="terminal"), stream=out)
    assert isinstance(display, TerminalDisplay)
    assert display.show(blank()) == len(out.getvalue()) > 0


def test_png_writes_into_the_folder(tmp_path):
    display = open_display(Config(display=f"png:{tmp_path}/out"))
    assert isinstance(display, PngDisplay)
    display.show(blank())
    assert (tmp_path / "out" / "frame-0001.png").exists()


@pytest.mark.parametrize("kind", ["terminal", "png", "ssd1306", "sh1106"])
@pytest.mark.parametrize("mode, size", [("L", (128, 64)), ("1", (64, 128)), ("1", (128, 32))])
def test_every_display_refuses_a_frame_that_is_not_128x64_black_and_white(tmp_path, kind, mode, size):
    spec = f"png:{tmp_path}" if kind == "png" else kind
    display = open_display(Config(display=spec), stream=io.StringIO(), i2c_bus=CountingBus())
    with pytest.raises(ValueError, match=rf"mode '1' 128x64 images, not {mode} \({size[0]}, {size[1]}\)"):
        display.show(Image.new(mode, size))


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_oled_on_a_given_bus(kind):
    bus = CountingBus()
    display = open_display(Config(display=kind), i2c_bus=bus)
    assert isinstance(display, Oled)
    assert bus.sent > 1024  # initialisation and a cleared panel
    assert display.show(blank()) == 0
    display.close()


@pytest.mark.parametrize("on_pi, expected", [(True, Oled), (False, TerminalDisplay)])
def test_auto_follows_the_machine(mocker, on_pi, expected):
    mocker.patch.object(displays, "is_raspberry_pi", return_value=on_pi)
    display = open_display(Config(), stream=io.StringIO(), i2c_bus=CountingBus())
    assert isinstance(display, expected)
    display.close()


def test_missing_i2c_bus_says_how_to_enable_it():
    with pytest.raises(UserError) as info:
        open_display(Config(display="ssd1306", i2c_port=250))
    assert str(info.value).startswith("no I2C bus /dev/i2c-250: enable I2C (sudo raspi-config nonint do_i2c 0)")


def test_silent_address_says_what_to_check():
    with pytest.raises(UserError) as info:     # the panel answers at 0x3C only
        open_display(Config(display="sh1106", i2c_address=0x3D), i2c_bus=CountingBus(address=0x3C))
    line = str(info.value)
    assert "does not answer at 0x3D on I2C bus 1" in line and "i2cdetect -y 1" in line
    assert "\n" not in line


def test_other_bus_errors_are_one_line():
    bus = CountingBus()
    bus.error = errno.ETIMEDOUT
    with pytest.raises(UserError, match="failed: .*doctor"):
        open_display(Config(display="ssd1306"), i2c_bus=bus)


def test_no_permission_names_the_group(mocker):
    refused = luma.core.error.DevicePermissionError("I2C device permission denied: /dev/i2c-1")
    open_oled = mocker.patch("hardware.oled.open_oled", side_effect=refused)
    with pytest.raises(UserError, match="add yourself to the i2c group"):
        open_display(Config(display="ssd1306"))
    open_oled.assert_called_once()


def _pty_of_size(columns: int, lines: int):
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    return master, os.fdopen(slave, "w", encoding="utf-8")


def read_picture(master: int, timeout: float = WAIT) -> str:
    """What the display wrote to the pty, once the first picture is complete.

    A read may end anywhere, even inside a multi-byte character: the bytes are read in a
    loop and decoded incrementally until the bottom border and the footer line under it
    have arrived, or the deadline passes (the test then fails on what came).
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    text = ""
    deadline = time.monotonic() + timeout
    while text.partition("┘")[2].count("\n") < 2:       # the border's line end, the footer's
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([master], [], [], left)[0]:
            break
        text += decoder.decode(os.read(master, 4096))
    return text


@pytest.mark.parametrize("columns, lines, blocks", [(80, 24, False), (140, 40, True)])
def test_the_terminal_picture_takes_the_size_the_terminal_has(columns, lines, blocks):
    master, stream = _pty_of_size(columns, lines)
    try:
        display = open_display(Config(display="terminal"), stream=stream)
        display.show(Image.new("1", (128, 64)))
        rows = [row.strip("\r") for row in read_picture(master).split("\n")]
        display.close()
        top = rows[0].removeprefix("\x1b[?25l")
        assert len(top) == (130 if blocks else 66)  # the box around 128 or 64 columns
        assert len(rows[1]) == len(top)             # and the picture's lines in it
        assert rows[(32 if blocks else 16) + 1].startswith("└")
    finally:
        stream.close()
        os.close(master)


def test_a_resized_terminal_gets_the_whole_picture_at_its_new_size():
    """SIGWINCH, as the terminal sends it: the picture is drawn again without a new frame."""
    from vt import VirtualTerminal
    master, stream = _pty_of_size(80, 24)
    before = signal.getsignal(signal.SIGWINCH)
    try:
        display = open_display(Config(display="terminal"), stream=stream)
        display.show(Image.new("1", (128, 64)))
        read_picture(master)
        fcntl.ioctl(stream.fileno(), termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
        signal.raise_signal(signal.SIGWINCH)
        text = read_picture(master)
        assert text.startswith("\x1b[?25l\x1b[H\x1b[2J")
        screen = VirtualTerminal(140, 40).feed(text).text()
        assert len(screen[0]) == 130 and screen[33].startswith("└")
        display.close()
        assert signal.getsignal(signal.SIGWINCH) == before   # the handler given back
    finally:
        stream.close()
        os.close(master)


def test_a_terminal_too_small_for_the_picture_is_one_line():
    master, stream = _pty_of_size(60, 20)
    try:
        with pytest.raises(UserError, match=r"the terminal is 60×20; the simulator needs at least 66×20"):
            open_display(Config(display="terminal"), stream=stream)
    finally:
        stream.close()
        os.close(master)
