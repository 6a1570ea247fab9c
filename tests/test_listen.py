"""``totem-companion listen``: event lines from scripts, readers, buttons and the keyboard."""

import os
import select
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from companion.cli import main
from hardware.buttons import GpioButtons
from hardware.rdm6300 import frame

ROOT = Path(__file__).resolve().parent.parent
WAIT = 10   # seconds: the longest a test waits for something that should happen


def wait_until(condition, what, timeout=WAIT):
    """Return once ``condition()`` is true; fail saying ``what`` did not happen in time."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s"
        time.sleep(0.01)


@pytest.fixture
def config(tmp_path, monkeypatch):
    """An empty configuration file (all defaults), and no user configuration."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    path = tmp_path / "config.toml"
    path.write_text("")
    return str(path)


def listen(config, *options):
    return main(["listen", "--config", config, *options])


def test_script_events_are_printed_in_the_listen_words(tmp_path, config, capsys):
    script = tmp_path / "bug.txt"
    script.write_text("press v3\nhold ok\nwait 0.01\ntag 0a1b2c3d4e\ngone 0A1B2C3D4E pad\n"
                      "reader pad disconnected\nreader pad connected\n")
    assert listen(config, "--input", str(script)) == 0
    assert capsys.readouterr().out.splitlines() == [
        "press v3", "hold ok", "tag 0A1B2C3D4E pad", "gone 0A1B2C3D4E pad",
        "reader pad disconnected", "reader pad connected"]


def test_count_stops_after_n_events(tmp_path, config, capsys):
    script = tmp_path / "many.txt"
    script.write_text("press v1\npress v2\npress v3\n")
    assert listen(config, "--input", str(script), "--count", "2") == 0
    assert capsys.readouterr().out.splitlines() == ["press v1", "press v2"]


def test_seconds_stops_a_script_that_waits(tmp_path, config, capsys):
    script = tmp_path / "slow.txt"
    script.write_text("press v1\nwait 60\npress v2\n")
    result = []
    thread = threading.Thread(target=lambda: result.append(listen(config, "--input", str(script),
                                                                   "--seconds", "0.2")), daemon=True)
    thread.start()
    thread.join(timeout=30)         # well before the script's wait would end by itself
    assert not thread.is_alive(), "listen did not stop at --seconds"
    assert result == [0]
    assert capsys.readouterr().out.splitlines() == ["press v1"]


@pytest.mark.parametrize("option", [["--count", "0"], ["--seconds", "-1"], ["--seconds", "nan"]])
def test_bad_limits_are_usage_errors(config, capsys, option):
    assert listen(config, "--reader", "none", "--buttons", "none", *option) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_bad_script_is_one_line_and_exit_1(tmp_path, config, capsys):
    script = tmp_path / "bad.txt"
    script.write_text("press v1\npress v0\n")
    assert listen(config, "--input", str(script)) == 1
    err = capsys.readouterr().err
    assert f"{script}: line 2: unknown button 'v0'" in err and err.count("\n") == 1


@pytest.mark.parametrize("reader, words", [
    ("rdm6300:{tmp}/ttyNONE", "cannot open the rdm6300 reader on {tmp}/ttyNONE: no such port"),
    ("hub:{tmp}/ttyACM9", "cannot open the reader hub on {tmp}/ttyACM9: no such port"),
])
def test_a_reader_that_cannot_be_opened_is_one_line(tmp_path, config, capsys, reader, words):
    reader = reader.format(tmp=tmp_path)
    assert listen(config, "--reader", reader, "--buttons", "none") == 1
    err = capsys.readouterr().err
    assert words.format(tmp=tmp_path) in err and err.count("\n") == 1


def test_keyboard_without_a_terminal_is_one_line(config, capsys):
    assert listen(config, "--reader", "none", "--buttons", "keyboard") == 1
    err = capsys.readouterr().err
    assert "keyboard input needs a terminal" in err and err.count("\n") == 1


def test_nothing_to_listen_to_ends_with_the_time_limit(config, capsys):
    assert listen(config, "--reader", "none", "--buttons", "none", "--seconds", "0.05") == 0
    assert capsys.readouterr().out == ""


def test_a_reader_on_a_serial_port(tmp_path, config, capsys):
    master, slave = os.openpty()
    stop = threading.Event()

    def tag_on_the_pad():
        while not stop.wait(0.02):
            os.write(master, frame("0A1B2C3D4E"))

    writer = threading.Thread(target=tag_on_the_pad, daemon=True)
    writer.start()
    try:
        status = listen(config, "--reader", f"rdm6300:{os.ttyname(slave)}", "--buttons", "none",
                        "--count", "2", "--seconds", "5")
    finally:
        stop.set()
        writer.join(timeout=2)
        os.close(master)
        os.close(slave)
    assert status == 0
    assert capsys.readouterr().out.splitlines() == ["reader pad connected", "tag 0A1B2C3D4E pad"]


def test_gpio_buttons_on_mock_pins(config, capsys, pin_factory, mocker):
    # A long hold time: however slow the machine, the press below cannot become a hold.
    with open(config, "a") as file:
        file.write("[buttons]\nhold_seconds = 60\n")
    started = mocker.spy(GpioButtons, "start")
    result = []
    thread = threading.Thread(target=lambda: result.append(
        listen(config, "--reader", "none", "--buttons", "gpio", "--count", "1", "--seconds", "30")), daemon=True)
    thread.start()
    wait_until(lambda: started.called, "listen starting the buttons")
    buttons = started.call_args.args[0]
    pin = pin_factory.pin(13)                       # v3 in the default wiring
    pin.drive_low()
    # Down until the debounce has taken it (which proves the buttons' thread runs), then up.
    wait_until(lambda: buttons.machines["v3"].pressed, "the press settling")
    pin.drive_high()
    thread.join(timeout=WAIT)                       # --count 1: listen ends at the press
    assert not thread.is_alive()
    assert result == [0]
    assert capsys.readouterr().out.splitlines() == ["press v3"]


class Lines:
    """The lines a child process prints, read as they come, each awaited with a deadline."""

    def __init__(self, stream) -> None:
        self.fd = stream.fileno()
        self.buffer = b""
        self.lines: list[str] = []

    def next(self, timeout=WAIT) -> str:
        """The next line; fails if none is complete in time."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            assert left > 0 and select.select([self.fd], [], [], left)[0], \
                f"no line within {timeout} s after {self.lines}"
            data = os.read(self.fd, 4096)
            assert data, f"the output ended after {self.lines}"
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        self.lines.append(line.decode())
        return self.lines[-1]


def test_keyboard_on_a_terminal_end_to_end(config):
    master, slave = os.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "listen", "--config", config,
         "--reader", "keyboard", "--buttons", "keyboard", "--seconds", "60"],
        stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    os.close(slave)
    try:
        # Wait for cbreak mode: from then on keys are read one by one.
        wait_until(lambda: not termios.tcgetattr(master)[3] & termios.ICANON, "cbreak mode", timeout=30)
        out = Lines(process.stdout)
        os.write(master, b"3")
        assert out.next() == "press v3"
        os.write(master, b"/eagle\r")
        assert out.next() == "tag eagle pad"
        os.write(master, b"q")
        rest, err = process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=5)
        os.close(master)
    assert process.returncode == 0, err
    lines = (out.buffer + rest).decode().splitlines()
    assert lines in ([], ["gone eagle pad"])    # q may come before the tag is taken away


# --- the sources listen opens (hardware.inputs) ----------------------------------------

def settings(buttons, reader):
    from types import SimpleNamespace
    return SimpleNamespace(buttons=buttons, reader=reader, pins={"v1": 5, "ok": 22},
                           hold_seconds=0.8, debounce_ms=30.0)


def test_open_inputs_kinds(tmp_path):
    from hardware.inputs import open_inputs
    from hardware.keyboard_input import KeyboardInput
    from hardware.script_input import ScriptInput

    assert open_inputs(settings("none", "none")) == []
    both = open_inputs(settings("keyboard", "keyboard"))
    assert len(both) == 1 and isinstance(both[0], KeyboardInput)
    script_path = tmp_path / "s.txt"
    script_path.write_text("press v1\n")
    script = ScriptInput(script_path)
    assert open_inputs(settings("gpio", "rdm6300:/dev/nothing"), script=script) == [script]
    with pytest.raises(ValueError, match="resolve the configuration first"):
        open_inputs(settings("auto", "none"))


def test_buttons_opened_before_a_failing_reader_are_released(tmp_path, config, capsys, pin_factory):
    assert listen(config, "--buttons", "gpio", "--reader", f"pn532:{tmp_path}/none") == 1
    assert "cannot open the pn532 reader" in capsys.readouterr().err
    # Every default pin is free again.
    assert listen(config, "--buttons", "gpio", "--reader", "none", "--seconds", "0.05") == 0
    assert capsys.readouterr().err == ""
