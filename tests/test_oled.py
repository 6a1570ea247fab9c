"""The OLED drivers: bytes on a counting I2C bus decode back to the right picture."""

import errno
import logging

import luma.core.error
import luma.oled.device
import pytest
from fakes import CountingBus, FakeClock
from luma.core.device import dummy
from luma.core.interface.serial import i2c
from PIL import Image, ImageDraw

from hardware.frame import HEIGHT, WIDTH
from hardware.oled import DRIVERS, FRAME_BYTES, Oled, changed_spans, open_oled, pack_pages, ssd1306_windows

# Commands followed by argument bytes, for decoding the stream (SSD1306 / SH1106 sheets).
ONE_ARG = {0x81, 0x8D, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB}


class Panel:
    """The panel's 132×8-page memory, driven by the decoded command and data stream."""

    def __init__(self, kind):
        self.kind = kind
        self.ram = [bytearray(132) for _ in range(8)]
        self.page = self.column = 0
        self.window = (0, 127, 0, 7)  # SSD1306: first col, last col, first page, last page

    def feed(self, writes):
        for control, data in writes:
            if control == 0x40:
                for byte in data:
                    self.write(byte)
            else:
                self.commands(data)

    def commands(self, data):
        i = 0
        while i < len(data):
            cmd = data[i]
            if self.kind == "ssd1306" and cmd in (0x21, 0x22):
                a, b = data[i + 1], data[i + 2]
                if cmd == 0x21:
                    self.window = (a, b, *self.window[2:])
                    self.column = a
                else:
                    self.window = (*self.window[:2], a, b)
                    self.page = a
                i += 3
                continue
            if self.kind == "ssd1306" and cmd == 0x20:
                assert data[i + 1] == 0x00  # horizontal addressing
                i += 2
                continue
            if cmd in ONE_ARG:
                i += 2
                continue
            if self.kind == "sh1106":
                if 0xB0 <= cmd <= 0xB7:
                    self.page = cmd - 0xB0
                elif cmd <= 0x0F:
                    self.column = (self.column & 0xF0) | cmd
                elif cmd <= 0x1F:
                    self.column = (self.column & 0x0F) | (cmd & 0x0F) << 4
            i += 1

    def write(self, byte):
        self.ram[self.page][self.column] = byte
        if self.kind == "sh1106":
            self.column += 1
            return
        c0, c1, p0, p1 = self.window
        self.column += 1
        if self.column > c1:
            self.column = c0
            self.page = p0 if self.page >= p1 else self.page + 1

    def image(self):
        """What the glass shows, as a mode "1" image."""
        offset = 2 if self.kind == "sh1106" else 0
        image = Image.new("1", (WIDTH, HEIGHT))
        pixels = image.load()
        for page in range(8):
            for x in range(WIDTH):
                byte = self.ram[page][x + offset]
                for bit in range(8):
                    pixels[x, page * 8 + bit] = 255 if byte >> bit & 1 else 0
        return image


def sent_bytes(writes):
    return sum(len(data) for _, data in writes)


def frame(text="", lines=(), box=None):
    image = Image.new("1", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(image)
    if text:
        draw.text((2, 2), text, fill=1)
    for y, line in lines:
        draw.text((2, y), line, fill=1)
    if box:
        draw.rectangle(box, fill=1)
    return image


def same(a, b):
    return a.tobytes() == b.tobytes()


@pytest.fixture(params=["ssd1306", "sh1106"])
def kind(request):
    return request.param


@pytest.fixture
def bus():
    return CountingBus()


def opened(kind, bus, **kwargs):
    oled = open_oled(kind, bus=bus, **kwargs)
    panel = Panel(kind)
    panel.feed(bus.take())
    return oled, panel


@pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")
def test_pack_pages_matches_luma_layout():
    # luma's own ssd1306 sends the whole frame in panel order: compare with it.
    bus = CountingBus()
    reference = luma.oled.device.ssd1306(i2c(bus=bus))
    image = frame("Ana 12", box=(100, 40, 120, 60))
    bus.take()
    reference.display(image)
    data = [b for control, chunk in bus.take() if control == 0x40 for b in chunk]
    reference.persist = True
    assert bytes(data) == pack_pages(image)
    assert len(pack_pages(image)) == FRAME_BYTES


def test_init_leaves_a_blank_known_panel(kind, bus):
    oled, panel = opened(kind, bus)
    assert same(panel.image(), Image.new("1", (WIDTH, HEIGHT)))
    assert oled.show(Image.new("1", (WIDTH, HEIGHT))) == 0
    assert bus.writes == []


def test_frames_decode_back_to_the_picture(kind, bus):
    oled, panel = opened(kind, bus)
    for image in (frame("Ana's turn"), frame("Ben's turn", box=(0, 50, 127, 63)),
                  frame("Ben's turn", lines=[(30, "v3: eagle")]), frame("")):
        sent = oled.show(image)
        writes = bus.take()
        assert sent == sent_bytes(writes)
        panel.feed(writes)
        assert same(panel.image(), image)


def test_unchanged_frame_sends_nothing(kind, bus):
    oled, panel = opened(kind, bus)
    image = frame("Ana's turn")
    assert oled.show(image) > 0
    bus.take()
    assert oled.show(image.copy()) == 0
    assert bus.writes == []


def test_one_line_change_sends_well_under_a_quarter_frame(kind, bus):
    oled, panel = opened(kind, bus)
    oled.show(frame(lines=[(0, "Wakanda  round 3"), (20, "Ana: draw a piece")]))
    panel.feed(bus.take())
    changed = frame(lines=[(0, "Wakanda  round 3"), (20, "Ben: draw a piece")])
    sent = oled.show(changed)
    panel.feed(bus.take())
    assert 0 < sent < FRAME_BYTES // 4
    assert same(panel.image(), changed)


def test_single_pixel_costs_one_data_byte(kind, bus):
    oled, panel = opened(kind, bus)
    image = frame(box=(70, 33, 70, 33))
    sent = oled.show(image)
    writes = bus.take()
    assert [len(d) for c, d in writes if c == 0x40] == [1]
    assert sent == 7 if kind == "ssd1306" else sent == 4
    panel.feed(writes)
    assert same(panel.image(), image)


def test_full_redraw_sizes(kind, bus):
    oled, panel = opened(kind, bus)
    full = Image.new("1", (WIDTH, HEIGHT), 1)
    sent = oled.show(full)
    assert sent == (FRAME_BYTES + 6 if kind == "ssd1306" else FRAME_BYTES + 8 * 3)
    panel.feed(bus.take())
    assert same(panel.image(), full)


def test_rotation_two_matches_luma_rendering(kind, bus):
    oled, panel = opened(kind, bus, rotation=2)
    image = frame("upside down", box=(0, 0, 10, 5))
    oled.show(image)
    panel.feed(bus.take())
    reference = dummy(width=WIDTH, height=HEIGHT, rotate=2, mode="1")
    reference.display(image)
    assert same(panel.image(), reference.image)


def test_changed_spans_find_first_and_last_columns():
    old = bytes(FRAME_BYTES)
    new = bytearray(old)
    new[3 * WIDTH + 5] = 1
    new[3 * WIDTH + 90] = 0x80
    new[7 * WIDTH + 127] = 4
    assert changed_spans(old, bytes(new)) == [(3, 5, 90), (7, 127, 127)]
    assert changed_spans(old, old) == []
    assert len(changed_spans(None, old)) == 8


def test_windows_merge_neighbours_only_when_cheaper():
    assert ssd1306_windows([(1, 10, 20), (2, 10, 20)]) == [(1, 2, 10, 20)]
    # far apart pages: two windows beat one tall window
    assert ssd1306_windows([(0, 0, 127), (7, 0, 127)]) == [(0, 0, 0, 127), (7, 7, 0, 127)]
    assert ssd1306_windows([]) == []


def test_wrong_image_is_refused(bus):
    oled, _ = opened("ssd1306", bus)
    with pytest.raises(ValueError, match="128x64"):
        oled.show(Image.new("L", (WIDTH, HEIGHT)))
    with pytest.raises(ValueError):
        oled.show(Image.new("1", (64, 32)))


def test_i2c_error_is_retried_with_backoff_and_resent_in_full(kind, bus, caplog):
    clock = FakeClock()
    serial = i2c(bus=bus)
    opens = []

    def open_device():
        opens.append(clock.now)
        return DRIVERS[kind](serial)

    oled = Oled(open_device, clock=clock, first_delay=1.0, max_delay=4.0)
    panel = Panel(kind)
    panel.feed(bus.take())
    bus.error = errno.EREMOTEIO
    with caplog.at_level(logging.WARNING, logger="hardware.oled"):
        assert oled.show(frame("lost")) == 0
    assert not oled.online
    assert "stopped answering" in caplog.text
    # during the pause nothing is tried
    clock.now += 0.5
    assert oled.show(frame("still lost")) == 0
    assert len(opens) == 1
    # retries at growing intervals: 1, 2, 4, 4 seconds
    for pause in (1.0, 2.0, 4.0):
        clock.now += pause
        assert oled.show(frame("try")) == 0
    assert len(opens) == 4
    clock.now += 3.9
    oled.show(frame("try"))
    assert len(opens) == 4
    # the panel answers again (it may have been power-cycled: power-on memory is garbage)
    panel.ram = [bytearray([0x55] * 132) for _ in range(8)]
    bus.error = None
    clock.now += 0.1
    back = frame("back")
    sent = oled.show(back)
    assert oled.online and len(opens) == 5
    assert sent >= FRAME_BYTES
    panel.feed(bus.take())
    assert same(panel.image(), back)
    # and then it is back to changed regions only
    assert oled.show(back) == 0


def test_unknown_bus_number_raises_a_luma_error():
    with pytest.raises(luma.core.error.DeviceNotFoundError):
        open_oled("ssd1306", port=250)


def test_no_answer_at_the_address_raises(bus):
    with pytest.raises(luma.core.error.DeviceNotFoundError):
        open_oled("sh1106", bus=bus, address=0x3D)
    assert bus.sent == 0


def test_close_blanks_and_switches_off(kind, bus):
    oled, panel = opened(kind, bus)
    oled.show(frame("bye"))
    panel.feed(bus.take())
    oled.close()
    writes = bus.take()
    panel.feed(writes)
    assert any(0xAE in data for control, data in writes if control == 0x00)
    assert same(panel.image(), Image.new("1", (WIDTH, HEIGHT)))
    oled.close()  # twice is harmless
    assert bus.writes == []


def test_close_survives_a_dead_bus(bus, caplog):
    oled, _ = opened("ssd1306", bus)
    bus.error = errno.EREMOTEIO
    with caplog.at_level(logging.WARNING, logger="hardware.oled"):
        oled.close()
    assert "did not answer while closing" in caplog.text
    assert not oled.online
    bus.error = None
    oled.close()                # closed for good: nothing more goes to the bus
    assert bus.writes == []


@pytest.mark.parametrize("kind, columns", [("ssd1306", range(0, 128)), ("sh1106", range(2, 130))])
def test_the_visible_columns_are_the_ones_written(kind, columns, bus):
    # The column offsets are ours (hardware.oled), not luma's: the SH1106 keeps 132 columns
    # and its glass shows 2…129; the SSD1306 has exactly the 128 it shows.
    oled, panel = opened(kind, bus)
    oled.show(Image.new("1", (WIDTH, HEIGHT), 1))
    panel.feed(bus.take())
    for page in panel.ram:
        assert [x for x in range(132) if page[x]] == list(columns)
