"""``--display text``: each changed frame's words, one line a frame (shared/DESIGN.md)."""

from __future__ import annotations

import io
import subprocess
import sys

from companion.config import Config
from companion.ui.screens import menu_screen, message_screen
from hardware.displays import open_display
from hardware.text_display import TextDisplay


def test_each_changed_frame_is_one_line_of_its_words_top_to_bottom():
    out = io.StringIO()
    display = open_display(Config(display="text"), stream=out)
    assert isinstance(display, TextDisplay)
    menu = menu_screen("Totem Companion", ["New: Wakanda", "New: Totem Wars"], 0)
    assert display.show(menu) > 0
    assert display.show(menu) == 0                        # unchanged: nothing printed
    display.show(message_screen("Set-up", ["Scan village tile 1"], "or ▲▼ then OK"))
    assert out.getvalue().splitlines() == [
        "frame 1: Totem Companion | New: Wakanda | New: Totem Wars",
        "frame 2: Set-up | Scan village tile 1 | or ▲▼ then OK",
    ]


def test_a_reader_that_goes_away_does_not_stop_the_box():
    class Gone(io.StringIO):
        def write(self, text):
            raise BrokenPipeError

    display = TextDisplay(Gone())
    assert display.show(message_screen("Set-up", ["Scan village tile 1"])) == 0


def test_the_demo_prints_a_prompt_at_every_turn(tmp_path):
    run = subprocess.run([sys.executable, "-m", "companion", "demo", "--seed", "3", "--display", "text",
                          "--data", str(tmp_path)], capture_output=True, text=True, timeout=120, check=True)
    frames = [line for line in run.stdout.splitlines() if line.startswith("frame ")]
    board = [line for line in frames if " draw " in line.split("|")[0] + " "]
    assert board and all(": draw" in line for line in board)   # the draw phase always asks for it
