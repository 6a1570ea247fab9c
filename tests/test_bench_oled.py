"""Benchmark: bytes over I2C per frame and the time of show(), SSD1306 and SH1106.

Prints the bytes of an unchanged frame, a frame with one text line changed and a full
redraw; ``pytest tests/test_bench_oled.py --benchmark-enable --benchmark-only -s``.
"""

import pytest
from fakes import CountingBus
from PIL import Image, ImageChops, ImageDraw

from hardware.oled import FRAME_BYTES, open_oled


def screen(turn):
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    draw.text((2, 0), "Wakanda   round 4", fill=255)
    draw.line((0, 11, 127, 11), fill=255)
    draw.text((2, 16), f"{turn}: build or claim", fill=255)
    draw.text((2, 30), "v3 eagle -> village 2", fill=255)
    draw.rectangle((0, 48, 127, 63), outline=255)
    draw.text((4, 51), "ok build   back undo", fill=255)
    return image


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_bytes_per_frame(kind, benchmark):
    bus = CountingBus(keep_writes=False)    # counts only: the benchmark shows many frames
    oled = open_oled(kind, bus=bus)
    ana, ben = screen("Ana"), screen("Ben")
    oled.show(ana)
    unchanged = oled.show(ana)
    one_line = oled.show(ben)
    oled.show(ana)
    inverted = ImageChops.invert(ana)
    before = bus.sent
    full = oled.show(inverted)
    assert full == bus.sent - before            # show() counts what went over the bus
    print(f"\n{kind}: unchanged {unchanged} B, one line changed {one_line} B, "
          f"full redraw {full} B (a full frame is {FRAME_BYTES} B of pixels)")
    assert unchanged == 0
    assert 0 < one_line < FRAME_BYTES // 4
    assert full >= FRAME_BYTES

    frames = [ana, ben]
    state = {"i": 0}

    def one_line_change():
        state["i"] ^= 1
        return oled.show(frames[state["i"]])
    benchmark(one_line_change)
    oled.close()


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_unchanged_frame_time(kind, benchmark):
    oled = open_oled(kind, bus=CountingBus(keep_writes=False))
    image = screen("Ana")
    oled.show(image)
    assert benchmark(oled.show, image) == 0
    oled.close()
