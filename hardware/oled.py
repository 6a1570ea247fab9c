"""The 128×64 OLED on I2C (SSD1306 or SH1106), sending only what changed.

luma.oled's drivers send all 1,024 bytes of every frame. Over I2C at 100 kHz that is
about 0.1 s a frame, so the drivers here keep a copy of what the panel shows and send only
the changed part: on the SSD1306 a column/page address window (0x21/0x22) around the
changed bytes, on the SH1106 (which has no window) the changed column span of each changed
page. An unchanged frame sends nothing.

The panel memory is page-major: page ``p`` (rows 8p … 8p+7), column ``x`` is one byte whose
least significant bit is the top row. ``pack_pages`` builds that layout from an image.

``Oled`` is the display the application uses: ``show(image) -> bytes sent`` and ``close()``.
An I2C error is logged and the panel is re-initialised later with growing pauses between
attempts; the game never stops because the screen stopped answering.

``hardware.displays.show_starting`` draws the starting frame (a totem, no words) before this
module is imported: luma and Pillow alone take longer to import than the whole first frame
may take on a Pi Zero 2 W, so it speaks to the panel with smbus2 and luma's own
initialisation commands. The display opened afterwards is told what the panel shows
(``shown``) and only draws the menu's changes over it, without blanking it first: on the
panel that ``show_starting`` set up it sends them itself (``StartedPanel``), as luma's
driver would, so that luma (a tenth of the start) is imported only when the panel must be
set up again (after an I2C error) or was not set up at start.
"""

from __future__ import annotations

import atexit
import functools
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

import luma.core.error  # luma's errors only: small, and what an I2C failure may raise
from PIL import Image

from hardware.frame import HEIGHT, WIDTH, check_frame

log = logging.getLogger(__name__)

PAGES = HEIGHT // 8
FRAME_BYTES = WIDTH * PAGES

# SSD1306 commands (datasheet §10.1.4-5); SH1106 page/column commands (§9 of its sheet).
COLUMN_ADDRESS, PAGE_ADDRESS = 0x21, 0x22
SET_PAGE, SET_COLUMN_LOW, SET_COLUMN_HIGH = 0xB0, 0x00, 0x10
#: Command bytes a window costs on the SSD1306: 0x21 c0 c1 0x22 p0 p1.
WINDOW_COST = 6
# Where the 128 visible columns start in each controller's memory. They are ours, not read
# from luma's private attributes, because our display() replaces luma's (the only code
# that uses them) and both are facts of the 128×64 panels we drive: the SSD1306 has exactly
# 128 columns; the SH1106 has 132, and these modules show columns 2…129.
#: First visible column in SSD1306 memory.
SSD1306_COLUMN_START = 0
#: First visible column in SH1106 memory.
SH1106_COLUMN_START = 2

#: What an I2C problem looks like: the bus raises OSError, luma turns some into its errors.
I2C_ERRORS = (OSError, luma.core.error.Error)
#: I2C control bytes: what follows is commands, or display data (SSD1306 §8.1.5.2).
COMMANDS, DATA = 0x00, 0x40
#: The most bytes one smbus block write carries; smbus2's own bus takes 4 KiB a message.
BLOCK, MESSAGE = 32, 4096
DISPLAY_OFF = 0xAE


def pack_pages(image: Image.Image) -> bytes:
    """The 1,024 bytes of panel memory for a mode "1" 128×64 image, page by page."""
    # Turned a quarter clockwise, each image row is one panel column read bottom-up, packed
    # 8 pixels a byte with the most significant bit first: byte k of row x is page 7-k
    # with its top row in the least significant bit, which is the panel's own layout.
    column_bytes = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return b"".join(column_bytes[PAGES - 1 - page::PAGES] for page in range(PAGES))


def changed_spans(old: bytes | None, new: bytes) -> list[tuple[int, int, int]]:
    """``(page, first column, last column)`` of each page where ``new`` differs from ``old``.

    ``old`` None (the panel's content is unknown) gives every page in full.
    """
    if old is None:
        return [(page, 0, WIDTH - 1) for page in range(PAGES)]
    spans = []
    for page in range(PAGES):
        start = page * WIDTH
        a, b = old[start:start + WIDTH], new[start:start + WIDTH]
        if a == b:
            continue
        diff = int.from_bytes(a, "big") ^ int.from_bytes(b, "big")
        first = (WIDTH * 8 - diff.bit_length()) // 8
        last = WIDTH - 1 - ((diff & -diff).bit_length() - 1) // 8
        spans.append((page, first, last))
    return spans


def ssd1306_windows(spans: list[tuple[int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Group page spans into address windows ``(first page, last page, first col, last col)``.

    Neighbouring pages share a window when that sends fewer bytes than a window of their own.
    """
    windows: list[tuple[int, int, int, int]] = []
    for page, c0, c1 in spans:
        if windows:
            p0, p1, w0, w1 = windows[-1]
            m0, m1 = min(w0, c0), max(w1, c1)
            merged = (page - p0 + 1) * (m1 - m0 + 1)
            apart = (p1 - p0 + 1) * (w1 - w0 + 1) + WINDOW_COST + (c1 - c0 + 1)
            if merged <= apart:
                windows[-1] = (p0, page, m0, m1)
                continue
        windows.append((page, page, c0, c1))
    return windows


class _Panel(Protocol):
    """What the senders below use of a driver: its command and data writes."""

    def command(self, *cmd: int) -> None: ...

    def data(self, data: bytes | list[int]) -> None: ...


def send_ssd1306(panel: _Panel, spans: list[tuple[int, int, int]], frame: bytes) -> None:
    """Send the changed ``spans`` of ``frame`` to an SSD1306: an address window around them.
    luma's initialisation sets horizontal addressing, so the data of a window fills it page
    by page."""
    for p0, p1, c0, c1 in ssd1306_windows(spans):
        panel.command(COLUMN_ADDRESS, SSD1306_COLUMN_START + c0, SSD1306_COLUMN_START + c1, PAGE_ADDRESS, p0, p1)
        panel.data(b"".join(frame[p * WIDTH + c0:p * WIDTH + c1 + 1] for p in range(p0, p1 + 1)))


def send_sh1106(panel: _Panel, spans: list[tuple[int, int, int]], frame: bytes) -> None:
    """Send the changed ``spans`` of ``frame`` to an SH1106 (no windows): each changed
    page's changed column span."""
    for page, c0, c1 in spans:
        column = SH1106_COLUMN_START + c0
        panel.command(SET_PAGE + page, SET_COLUMN_LOW | column & 0x0F, SET_COLUMN_HIGH | column >> 4)
        panel.data(frame[page * WIDTH + c0:page * WIDTH + c1 + 1])


SENDERS = {"ssd1306": send_ssd1306, "sh1106": send_sh1106}


class StartedPanel:
    """The panel ``show_starting`` set up (with luma's own initialisation commands), driven
    as luma's driver drives it afterwards: ``display()`` sends only what changed, ``cleanup()``
    switches it off and blanks it unless ``persist``, and closes the bus it opened. It
    starts from ``shown``, what the panel holds. ``bus`` is an smbus-like object, or None
    for ``/dev/i2c-<port>``."""

    def __init__(self, kind: str, shown: bytes, *, port: int = 1, address: int = 0x3C, rotation: int = 0,
                 bus: Any = None) -> None:
        self._send = SENDERS[kind]
        self._own = bus is None
        if self._own:
            import smbus2
            bus = smbus2.SMBus(port)
        self._bus, self._address, self._rotation = bus, address, rotation
        self._panel: bytes | None = shown
        self.sent = 0
        self.persist = False
        atexit.register(self._at_exit)  # as luma's driver does: the panel off when the program ends

    def command(self, *cmd: int) -> None:
        """Send command bytes."""
        self._bus.write_i2c_block_data(self._address, COMMANDS, list(cmd))
        self.sent += len(cmd)

    def data(self, data: bytes | list[int]) -> None:
        """Send display data: on a bus of its own in large messages, as luma does; on a
        given one in smbus blocks."""
        if self._own:
            import smbus2
            for start in range(0, len(data), MESSAGE):
                self._bus.i2c_rdwr(smbus2.i2c_msg.write(self._address, [DATA, *data[start:start + MESSAGE]]))
        else:
            for start in range(0, len(data), BLOCK):
                self._bus.write_i2c_block_data(self._address, DATA, list(data[start:start + BLOCK]))
        self.sent += len(data)

    def display(self, image: Image.Image) -> None:
        """Send the parts of ``image`` that differ from what the panel shows (turned as
        luma turns it for ``rotation``)."""
        if self._rotation:
            image = image.rotate(self._rotation * -90, expand=True)
        frame = pack_pages(image)
        spans = changed_spans(self._panel, frame)
        if not spans:
            return
        self._panel = None  # a mix until the writes complete: unknown meanwhile
        self._send(self, spans, frame)
        self._panel = frame

    def cleanup(self) -> None:
        """Switch the panel off and blank it (unless ``persist``), and close the bus."""
        try:
            if not self.persist:
                self.command(DISPLAY_OFF)
                self.display(Image.new("1", (WIDTH, HEIGHT)))
        finally:
            if self._own:
                self._bus.close()
                self._own = False

    def _at_exit(self) -> None:
        if self._own or not self.persist:
            try:
                self.cleanup()
            except I2C_ERRORS:  # the program ends: nothing more to say about the panel
                pass


@functools.cache
def luma_drivers() -> dict[str, Any]:
    """The luma.oled drivers, ``kind`` → class, sending only the changed region; luma is
    imported with the first call (a panel set up again, or not set up at start)."""
    import luma.core.device
    import luma.oled.device

    class _ChangedRegions(luma.core.device.device):  # type: ignore[misc]
        """Mixed into a luma OLED driver: ``display()`` sends only the changed region.

        ``sent`` counts every command and data byte handed to the serial interface. It derives
        from luma's device base class, which every driver shares, so that what it uses of the
        driver (``command``, ``data``, ``preprocess``, ``mode``, ``size``) is known to be there.
        """

        sent = 0
        _panel: bytes | None = None  # what the panel shows; None when unknown

        def command(self, *cmd: int) -> None:
            """Send command bytes (luma's), counting them."""
            super().command(*cmd)
            self.sent += len(cmd)

        def data(self, data: bytes | list[int]) -> None:
            """Send data bytes (luma's), counting them."""
            super().data(data)
            self.sent += len(data)

        def display(self, image: Image.Image) -> None:
            """Send the parts of ``image`` that differ from what the panel shows."""
            assert image.mode == self.mode and image.size == self.size
            frame = pack_pages(self.preprocess(image))
            spans = changed_spans(self._panel, frame)
            if not spans:
                return
            # Until the writes complete the panel holds a mix: treat it as unknown meanwhile.
            self._panel = None
            self._send(spans, frame)
            self._panel = frame

    class SSD1306(_ChangedRegions, luma.oled.device.ssd1306):  # type: ignore[misc]
        """luma.oled's SSD1306 driver (128×64), sending an address window around the changed bytes."""

        def _send(self, spans: list[tuple[int, int, int]], frame: bytes) -> None:
            send_ssd1306(self, spans, frame)

    class SH1106(_ChangedRegions, luma.oled.device.sh1106):  # type: ignore[misc]
        """luma.oled's SH1106 driver (128×64), sending the changed column span of each changed page."""

        def _send(self, spans: list[tuple[int, int, int]], frame: bytes) -> None:
            send_sh1106(self, spans, frame)

    return {"ssd1306": SSD1306, "sh1106": SH1106}


def __getattr__(name: str) -> Any:
    """``DRIVERS``: the luma drivers by kind (``luma_drivers()``), luma imported when first
    asked for."""
    if name == "DRIVERS":
        return luma_drivers()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Device(Protocol):
    """What ``Oled`` uses of a driver (luma's, or ``StartedPanel``)."""

    sent: int
    persist: bool

    def display(self, image: Image.Image) -> None: ...

    def cleanup(self) -> None: ...


class Oled:
    """The OLED display: ``show(image)`` returns the bytes sent, ``close()`` blanks it.

    ``open_device()`` builds the driver, which initialises the panel (the first one may be
    the ``StartedPanel`` of a panel set up at start); it is called now
    (its errors propagate, so a missing screen is reported at start) and again after an
    I2C error, when the panel may have lost power and needs initialising again. Retries
    wait ``first_delay`` seconds, doubling up to ``max_delay``; frames shown meanwhile
    are not sent, and the latest one is sent in full when the panel answers again.
    """

    def __init__(self, open_device: Callable[[], Device], *,
                 clock: Callable[[], float] = time.monotonic,
                 first_delay: float = 0.5, max_delay: float = 30.0) -> None:
        self._open_device = open_device
        self._clock = clock
        self._first_delay = first_delay
        self._max_delay = max_delay
        self._delay = first_delay
        self._retry_at = 0.0
        self._device: Device | None = open_device()

    @property
    def online(self) -> bool:
        """False while the panel is not answering (between an I2C error and a retry that works)."""
        return self._device is not None

    def show(self, image: Image.Image) -> int:
        """Send what changed in ``image`` (mode "1", 128×64); the number of bytes sent."""
        check_frame(image)
        device = self._device
        sent_before = 0
        try:
            if device is None:
                if self._clock() < self._retry_at:
                    return 0
                device = self._open_device()
                log.info("the OLED answers again")
                self._device, self._delay = device, self._first_delay
            else:
                sent_before = device.sent
            device.display(image)
            return device.sent - sent_before
        except I2C_ERRORS as exc:
            self._lost(device, exc)
            return device.sent - sent_before if device is not None else 0

    def _lost(self, device: Device | None, exc: Exception) -> None:
        if self._device is not None:
            log.warning("the OLED stopped answering (%s); retrying in the background", exc)
        else:
            log.debug("the OLED still does not answer (%s)", exc)
        if device is not None:
            device.persist = True  # a dead driver must not write to the bus at exit
        self._device = None
        self._retry_at = self._clock() + self._delay
        self._delay = min(self._delay * 2, self._max_delay)

    def close(self) -> None:
        """Blank and switch off the panel, and release the bus."""
        device, self._device = self._device, None
        if device is None:
            return
        try:
            device.cleanup()
        except I2C_ERRORS as exc:
            log.warning("the OLED did not answer while closing (%s)", exc)
        device.persist = True  # cleaned up already: nothing more to do at exit


def open_oled(kind: str, *, port: int = 1, address: int = 0x3C, rotation: int = 0, bus: Any = None,
              shown: bytes | None = None) -> Oled:
    """An ``Oled`` for ``kind`` "ssd1306" or "sh1106" on I2C bus ``port`` at ``address``.

    ``bus`` is an smbus-like object to use instead of opening ``/dev/i2c-<port>`` (tests);
    ``shown`` the panel memory already on the panel (``show_starting``'s), kept rather than
    blanked: that panel is driven by a ``StartedPanel`` (luma not imported) until an I2C
    error, after which luma's driver sets it up again.
    Raises luma's ``DeviceNotFoundError`` / ``DevicePermissionError`` or ``OSError`` when
    the bus or the panel cannot be reached; ``hardware.displays`` words them for people.
    """
    if shown is not None:
        started: list[Device] = [StartedPanel(kind, shown, port=port, address=address, rotation=rotation, bus=bus)]
    else:
        started = []

    serial: list[Any] = []  # luma's interface to the bus, opened once

    def open_device() -> Device:
        if started:
            return started.pop()
        if not serial:
            from luma.core.interface.serial import i2c
            serial.append(i2c(bus=bus, port=port, address=address))
        return luma_drivers()[kind](serial[0], rotate=rotation)  # type: ignore[no-any-return]
    return Oled(open_device)

