"""Start-up on the device path: the OLED shows the starting frame (a wordless totem) before the
session, the screens, luma or Pillow are imported, and the driver opened afterwards keeps it,
drawing only the menu's changes over it.

The bench runs ``totem-companion run`` as the service does (OLED on I2C, buttons on GPIO;
Python started as the launcher starts it, and writing no bytecode, as with the service's
read-only code: only what ``./setup.sh`` compiled is used), with the I2C bus a stand-in and
gpiozero's mock pins, and prints the time from the process start to each frame against the
budget (shared/DESIGN.md: 0.07 s and 0.13 s here), with a Pi Zero 2 W estimate (12–16×
slower a core, docs/reliability.md); over the budget, it fails saying so:
.venv/bin/python -m pytest tests/test_startup.py --benchmark-enable --benchmark-only -s
"""

from __future__ import annotations

import os
import signal
import socket
import statistics
import subprocess
import sys
import textwrap
import time
from importlib.util import cache_from_source
from pathlib import Path

import pytest
from fakes import CountingBus

from companion.config import Config
from hardware.displays import DATA, DISPLAY_ON, OLED_START, open_display, show_starting, starting_frame
from hardware.oled import StartedPanel, open_oled, pack_pages

ROOT = Path(__file__).parent.parent
#: How much slower a Pi Zero 2 W's core is than this machine's, by published per-core figures.
ZERO_2_W = (12, 16)
#: What must not be imported when the starting frame is on the panel: the heavy part of start-up.
HEAVY = ("luma.oled.device", "PIL.Image", "companion.table.session", "gpiozero")
#: What is not imported yet when the menu goes to the panel: luma (the panel set up at start
#: is driven without it) and the buttons', LEDs' and reader's libraries.
LATE = ("luma.oled.device", "gpiozero", "serial")
#: The start's budget on this machine (shared/DESIGN.md): the starting frame, the menu.
BUDGET = {"starting frame": 0.07, "menu": 0.13}


@pytest.mark.parametrize("kind", sorted(OLED_START))
def test_the_starting_frame_uses_lumas_own_initialisation(kind):
    from luma.core.interface.serial import i2c

    from hardware.oled import DRIVERS
    luma_bus = CountingBus()
    DRIVERS[kind](i2c(bus=luma_bus))
    luma_commands = [byte for control, data in luma_bus.writes if control == 0 for byte in data]
    ours = CountingBus()
    assert show_starting(Config(display=kind), bus=ours) == starting_frame()
    commands = [byte for control, data in ours.writes if control == 0 for byte in data]
    # luma: its set-up, then (clearing) addressing, then display on; ours the same set-up first.
    assert commands[:len(OLED_START[kind])] == luma_commands[:len(OLED_START[kind])]
    assert commands[-1] == DISPLAY_ON == luma_commands[-1]
    assert sum(len(data) for control, data in ours.writes if control == DATA) == 1024


@pytest.mark.parametrize("kind", sorted(OLED_START))
def test_the_driver_keeps_the_starting_frame_and_sends_only_the_menus_changes(kind):
    from PIL import Image, ImageDraw
    bus = CountingBus()
    frame = show_starting(Config(display=kind), bus=bus)
    bus.take()
    display = open_display(Config(display=kind), i2c_bus=bus, starting=frame)
    assert not [data for control, data in bus.take() if control == DATA]   # not blanked first
    menu = Image.new("1", (128, 64))
    ImageDraw.Draw(menu).rectangle((0, 0, 127, 9), fill=1)           # a title band
    sent = display.show(menu)
    assert 0 < sent < 1024
    # What the panel holds now is the menu exactly (the starting frame's rest was changed).
    assert pack_pages(menu) != frame
    display.close()


def menu_like(seed: int):
    """A picture with something in every page: a band, a box and a diagonal."""
    from PIL import Image, ImageDraw
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 127, 9), fill=1)
    draw.rectangle((seed, 12, seed + 40, 50), outline=1)
    draw.line((0, 63, 127 - seed, 14), fill=1)
    return image


@pytest.mark.parametrize("rotation", [0, 2])
@pytest.mark.parametrize("kind", sorted(OLED_START))
def test_the_panel_set_up_at_start_is_sent_what_lumas_driver_sends(kind, rotation):
    from luma.core.interface.serial import i2c

    from hardware.oled import DRIVERS
    luma_bus, ours = CountingBus(), CountingBus()
    luma = DRIVERS[kind](i2c(bus=luma_bus), rotate=rotation)
    before, after = menu_like(5), menu_like(60)
    luma.display(before)
    luma_bus.take()
    luma.display(after)
    panel = StartedPanel(kind, pack_pages(luma.preprocess(before)), rotation=rotation, bus=ours)
    panel.display(after)
    assert ours.take() == luma_bus.take() != []
    panel.display(after)                               # unchanged: nothing sent
    assert ours.take() == []
    panel.cleanup()                                    # off, then blank, as luma's cleanup
    luma.cleanup()
    assert ours.take() == luma_bus.take()


def test_after_an_i2c_error_lumas_driver_sets_the_started_panel_up_again():
    bus = CountingBus()
    frame = show_starting(Config(display="ssd1306"), bus=bus)
    oled = open_oled("ssd1306", bus=bus, shown=frame)
    assert 0 < oled.show(menu_like(5)) < 1024
    bus.error = 121
    assert oled.show(menu_like(60)) == 0 and not oled.online
    bus.error = None
    bus.take()
    deadline = time.monotonic() + 10               # the first retry comes after half a second
    while not oled.online:
        assert time.monotonic() < deadline, "the panel was never set up again"
        oled.show(menu_like(60))
    writes = bus.take()
    commands = [byte for control, data in writes if control == 0 for byte in data]
    assert commands[:len(OLED_START["ssd1306"])] == list(OLED_START["ssd1306"])   # luma's set-up
    # luma's set-up blanks the whole panel, then the frame's lines go over it.
    assert sum(len(data) for control, data in writes if control == DATA) > 1024
    oled.close()


def test_the_starting_frame_is_drawn_on_the_configured_panel_only():
    assert show_starting(Config(display="none")) is None
    assert show_starting(Config(display="terminal")) is None
    broken = CountingBus()
    broken.error = 5
    assert show_starting(Config(display="ssd1306"), bus=broken) is None   # open_display says why


def test_the_starting_frame_is_wordless_and_reads_the_same_upside_down():
    frame = starting_frame()
    pixels = [[frame[(y // 8) * 128 + x] >> (y % 8) & 1 for x in range(128)] for y in range(64)]
    assert sum(map(sum, pixels)) > 300
    assert pixels == [row[::-1] for row in pixels[::-1]]


# --- the device path, as the service starts it ----------------------------------------------

CHILD = textwrap.dedent("""
    import site
    site.main()  # after -S, as the launcher (./setup.sh's write_launcher) does
    import os, sys, time
    import smbus2

    HEAVY, LATE = (names.split(",") for names in sys.argv[1].split(";"))
    def note(what):
        os.write(2, f"@ {what} {time.monotonic():.6f}\\n".encode())

    class Bus:
        '''/dev/i2c-1 with an OLED: says when the panel is switched on and when data goes.'''
        on = 0
        def __init__(self, port=None): pass
        def write_i2c_block_data(self, address, control, data):
            if control == 0 and list(data) == [0xAF]:
                Bus.on += 1
                if Bus.on == 1:
                    note("starting " + ",".join(m for m in HEAVY if m in sys.modules))
            elif control == 0x40:
                note("data " + ",".join(m for m in LATE if m in sys.modules))
        def i2c_rdwr(self, *messages):
            note("data " + ",".join(m for m in LATE if m in sys.modules))
        def read_byte(self, address): return 0
        def close(self): pass

    smbus2.SMBus = Bus
    from companion.cli import main
    sys.exit(main(sys.argv[2:]))
""")


def start_once(tmp_path: Path, web: int | None = None) -> tuple[float, float, str, str]:
    """Start the box (with the phone page on port ``web`` of 127.0.0.1); (seconds to the
    starting frame, to the menu, ``HEAVY`` modules loaded by the starting frame, ``LATE``
    ones by the menu)."""
    # PYTHONDONTWRITEBYTECODE: nothing compiled is kept, as with the service's read-only code.
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "share"), "PYTHONDONTWRITEBYTECODE": "1"}
    args = ["run", "--display", "ssd1306", "--buttons", "gpio", "--reader", "none", "--data", str(tmp_path / "data")]
    if web is not None:
        config = tmp_path / "config" / "totem-companion" / "config.toml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text('[web]\nbind = "127.0.0.1"\n')
        args += ["--web", str(web)]
    began = time.monotonic()
    watched = ",".join(HEAVY) + ";" + ",".join(LATE)
    child = subprocess.Popen([sys.executable, "-S", "-c", CHILD, watched, *args], cwd=ROOT, env=env,
                             stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    starting = menu = None
    loaded = late = ""
    try:
        assert child.stderr is not None
        for line in child.stderr:
            if not line.startswith("@ "):
                raise AssertionError(f"the box said: {line.strip()}")
            what, *rest, at = line.split()[1:]
            if what == "starting" and starting is None:
                starting, loaded = float(at) - began, "".join(rest)
            elif what == "data" and starting is not None:
                menu, late = float(at) - began, "".join(rest)
                break
        child.send_signal(signal.SIGTERM)           # as systemd stops it
        assert child.wait(timeout=30) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert starting is not None and menu is not None
    return starting, menu, loaded, late


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_starting_frame_comes_before_the_heavy_imports_and_the_menu_after(tmp_path):
    starting, menu, loaded, late = start_once(tmp_path)
    assert loaded == ""            # none of HEAVY was imported yet
    assert late == ""              # nor any of LATE when the menu went
    assert starting < menu


def not_compiled() -> list[str]:
    """The program's modules without up-to-date bytecode: each is compiled at every start."""
    return [str(source) for folder in ("companion", "hardware") for source in sorted((ROOT / folder).rglob("*.py"))
            if not Path(cache_from_source(source)).exists()
            or Path(cache_from_source(source)).stat().st_mtime < source.stat().st_mtime]


@pytest.mark.parametrize("web", [False, True], ids=["page off", "phone page on"])
def test_bench_start_to_first_frame(benchmark, tmp_path, web):
    runs: list[tuple[float, float, str, str]] = []
    port = free_port() if web else None
    benchmark.pedantic(lambda: runs.append(start_once(tmp_path, port)), rounds=7, iterations=1)
    got = {"starting frame": statistics.median(run[0] for run in runs),
           "menu": statistics.median(run[1] for run in runs)}
    best = {"starting frame": min(run[0] for run in runs), "menu": min(run[1] for run in runs)}
    low, high = ZERO_2_W
    stale = not_compiled()
    print(f"\n{'with the phone page on' if web else 'the phone page off'} "
          f"({len(stale)} modules without bytecode compiled ahead):")
    for what, zero in (("starting frame", 1), ("menu", 2)):
        print(f"start to the {what + ':':<15} {got[what]:.3f} s median of {len(runs)}, best {best[what]:.3f} s "
              f"(budget {BUDGET[what]} s; Pi Zero 2 W ≈ {got[what] * low:.1f}–{got[what] * high:.1f} s, "
              f"budget {zero} s)")
    benchmark.extra_info.update(starting=got["starting frame"], menu=got["menu"])
    over = [f"the {what} after {got[what]:.3f} s, over its {BUDGET[what]} s" for what in BUDGET
            if got[what] > BUDGET[what]]
    # Timed only as a benchmark (--benchmark-enable): the suite's run stays time-independent.
    assert benchmark.disabled or not (over or stale), (
        "START OVER BUDGET: " + "; ".join(over)
        + (f" ({len(stale)} modules not compiled ahead: run ./setup.sh)" if stale else ""))


def test_the_fonts_atlases_read_without_pillows_formats_are_pillows_images():
    import io
    from importlib import resources

    from PIL import Image

    from companion.ui.canvas import _pbm
    folder = resources.files("companion.ui.fonts")
    for name in ("small", "medium", "large"):
        with (folder / f"{name}.pbm").open("rb") as fp:
            assert _pbm((folder / f"{name}.pbm").read_bytes()).tobytes() == Image.open(fp).convert("1").tobytes()
    # Bits that begin with a byte that looks like whitespace (0x20, 0x0a) stay bits.
    image = Image.new("1", (16, 2), 1)
    for x in (2, 12, 14):
        image.putpixel((x, 0), 0)
    kept = io.BytesIO()
    image.save(kept, "PPM")
    assert kept.getvalue().startswith(b"P4\n16 2\n\x20\x0a")
    assert _pbm(kept.getvalue()).tobytes() == image.tobytes()
    with pytest.raises(ValueError):
        _pbm(b"P6\n1 1\n255\n\0\0\0")
