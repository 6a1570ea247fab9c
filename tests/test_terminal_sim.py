"""The simulator and ``enroll`` in a real terminal (a pty), as a player sees them: the picture
stays in place while enroll reports its progress, a resized window gets the picture at the
size that fits it, and Shift+O holds ok."""

from __future__ import annotations

import codecs
import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from box_helpers import first_menu, presses_to
from vt import VirtualTerminal

from companion.table.registry import TagRegistry

ROOT = Path(__file__).resolve().parents[1]
WAIT = 15   # seconds: the longest a test waits for the program (its start included)


class Terminal:
    """The companion run on a pty of ``columns`` × ``lines``; what it writes is read with
    deadlines and replayed on a ``VirtualTerminal``."""

    def __init__(self, tmp_path: Path, *args: str, columns: int = 80, lines: int = 24):
        self.master, slave = os.openpty()
        self._set_size(columns, lines)
        config = tmp_path / "config.toml"
        config.write_text("")
        env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", *args, "--config", str(config),
             "--data", str(tmp_path / "data")],
            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, start_new_session=True)
        os.close(slave)
        self.vt = VirtualTerminal(columns, lines)
        self.output = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")()

    def wait_for(self, text: str, since: int = 0) -> int:
        """Read until ``text`` has been written after offset ``since``; where it ends."""
        deadline = time.monotonic() + WAIT
        while (found := self.output.find(text, since)) < 0:
            if not self._read(deadline):
                pytest.fail(f"{text!r} never came; the program wrote {self.output[since:]!r}")
        return found + len(text)

    def type(self, keys: str) -> None:
        """Keys typed on the keyboard."""
        os.write(self.master, keys.encode())

    def resize(self, columns: int, lines: int) -> int:
        """Make the window ``columns`` × ``lines``, and send SIGWINCH as the terminal does;
        the output offset before the redraw."""
        self._set_size(columns, lines)
        self.vt = VirtualTerminal(columns, lines)   # the program clears it before redrawing
        mark = len(self.output)
        os.kill(self.process.pid, signal.SIGWINCH)
        return mark

    def finish(self) -> int:
        """Read everything until the program ends; its exit status."""
        deadline = time.monotonic() + WAIT
        while self._read(deadline):
            pass
        return self.process.wait(timeout=max(0.1, deadline - time.monotonic()))

    def close(self) -> None:
        """End the program if it still runs, and release the pty."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)

    def _set_size(self, columns: int, lines: int) -> None:
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))

    def _read(self, deadline: float) -> bool:
        """Read what came before ``deadline``; False at the end of the output or the time."""
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([self.master], [], [], left)[0]:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:             # the program ended and closed the pty
            return False
        if not data:
            return False
        text = self._decoder.decode(data)
        self.output += text
        self.vt.feed(text)
        return True


@pytest.fixture
def terminal(tmp_path):
    opened: list[Terminal] = []

    def start(*args: str, **size) -> Terminal:
        opened.append(Terminal(tmp_path, *args, **size))
        return opened[-1]

    yield start
    for each in opened:
        each.close()


def test_enroll_keeps_its_picture_in_place_and_reports_under_it(terminal, tmp_path):
    enroll = terminal("enroll", "--display", "terminal", "--buttons", "keyboard", "--reader", "keyboard")
    enroll.wait_for("q: quit")                      # the footer under the first picture
    enroll.type("/0A1B2C3D4E\r")
    at = enroll.wait_for("0A1B2C3D4E enrolled as Eagle piece")
    enroll.type("/0A1B2C3D4E\r")                    # again, for the next item: move it?
    at = enroll.wait_for("0A1B2C3D4E is enrolled as Eagle piece: OK moves it", at)
    enroll.type("\r")                               # Enter: OK, moved
    enroll.wait_for("0A1B2C3D4E moved from Eagle piece to Chief piece 1 of 2", at)
    enroll.type("O")                                # Shift+O: hold ok, finish
    assert enroll.finish() == 0
    screen = enroll.vt.text()
    assert enroll.vt.scrolled == 0
    top = next(i for i, line in enumerate(screen) if line.startswith("┌─ Totem Companion"))
    heading = "".join(enroll.vt.screen[:top])       # the data folder's path may wrap it
    assert heading == (f"Enrolling wakanda tags into {tmp_path / 'data'}/tags.json "
                       f"(b: previous, s: skip, Shift+O: finish)")
    assert all(line.startswith("│") and line.endswith("│") for line in screen[top + 1:top + 17])
    assert screen[top + 17].startswith("└")
    assert screen[top + 18] == " 0A1B2C3D4E moved from Eagle piece to Chief piece 1 of 2"
    assert screen[top + 19] == "1 enrolled, 1 moved, 0 already enrolled; 34 of 35 items not scanned"
    assert not any(screen[top + 20:])
    assert TagRegistry.load(tmp_path / "data" / "tags.json").items() == {"0A1B2C3D4E": "chief"}


def test_enroll_shows_the_scan_being_typed_and_the_keys_on_a_pointless_press(terminal):
    enroll = terminal("enroll", "--display", "terminal", "--buttons", "keyboard", "--reader", "keyboard")
    at = enroll.wait_for("q: quit")
    enroll.type("/0A1B")
    at = enroll.wait_for("scan: 0A1B_", at)
    enroll.type("\x1b")                             # Esc: the scan is dropped
    enroll.type("u")                                # undo means nothing here: the keys
    enroll.wait_for("b: previous, s: skip, Shift+O: finish", at)
    enroll.type("q")
    assert enroll.finish() == 0
    screen = enroll.vt.text()
    bottom = next(i for i, line in enumerate(screen) if line.startswith("└"))
    assert screen[bottom + 1:bottom + 3] == [" b: previous, s: skip, Shift+O: finish",
                                             "0 enrolled, 0 moved, 0 already enrolled; 35 of 35 items not scanned"]


def test_the_simulator_follows_the_window_size(terminal):
    sim = terminal("sim")
    sim.wait_for("q quit")                          # the key help under the first picture
    assert len(sim.vt.text()[0]) == 66              # braille: 64 columns in the box

    mark = sim.resize(140, 40)
    sim.wait_for("└" + "─" * 128 + "┘", mark)
    sim.wait_for("q quit", mark)
    screen = sim.vt.text()
    assert screen[0].startswith("┌─ Totem Companion") and len(screen[0]) == 130
    assert all(len(line) == 130 for line in screen[1:34]) and screen[34].endswith("q quit")

    mark = sim.resize(60, 20)
    sim.wait_for("make it at least 66×20", mark)
    assert sim.vt.text()[0] == "Window too small (60×20): make it at least 66×20"

    sim.type("s")                                   # a frame while too small: kept for later
    mark = sim.resize(80, 24)
    sim.wait_for("└" + "─" * 64 + "┘", mark)
    sim.wait_for("q quit", mark)
    screen = sim.vt.text()
    assert len(screen[0]) == 66 and screen[17].startswith("└") and screen[18].endswith("q quit")
    sim.type("q")
    assert sim.finish() == 0


def test_the_simulator_s_keys_speak_the_box_s_language_and_follow_settings(terminal, tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "settings.json").write_text('{"version": 1, "language": "fr"}')
    sim = terminal("sim")
    sim.wait_for("aide /scan q fin")                # the key help in French, under the picture
    mark = len(sim.output)
    sim.type("/eag")
    sim.wait_for("scan: eag_", mark)
    sim.type("\x1b")                                # Esc: no scan, the keys again
    mark = sim.wait_for("q fin", mark)
    down = "s" * presses_to(first_menu(tmp_path / "menu"), "settings")
    sim.type(down + "\rs\rs\r")                     # Settings, its language line: OK, the list, the next
    sim.wait_for("h Tipp /Scan q Ende", mark)       # German, at once
    assert sim.vt.text()[18].endswith("q Ende")
    mark = sim.resize(60, 20)                       # the simulator's own line speaks it too
    sim.wait_for("Fenster zu klein (60×20): mindestens 66×20 nötig", mark)
    sim.type("q")
    assert sim.finish() == 0
